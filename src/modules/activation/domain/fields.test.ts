import { describe, expect, it } from 'vitest';
import {
  digitalAddress,
  ghanaCard,
  missingFields,
  registrationNumber,
  settlement,
  validateFields,
  type ActivationFields,
} from './fields.ts';

const value = (r: { value: unknown } | { problem: unknown }) =>
  'value' in r ? r.value : undefined;

describe('activation fields', () => {
  it('registration numbers: two letters and digits, case and surrounding spaces forgiven', () => {
    expect(value(registrationNumber('CS123456789'))).toBe('CS123456789');
    expect(value(registrationNumber(' bn123456789 '))).toBe('BN123456789');
    for (const bad of [
      'C123456789',
      'CS12345',
      'CS1234567890123',
      '12CS3456789',
      'CS-123456789',
      'ÇS123456789',
      '',
    ]) {
      expect(registrationNumber(bad), bad).toHaveProperty('problem.field', 'registration_number');
    }
  });

  it('Ghana Card numbers: exactly GHA-, 9 digits, a hyphen and the check digit', () => {
    expect(value(ghanaCard('GHA-123456789-0'))).toBe('GHA-123456789-0');
    for (const bad of [
      'gha-123456789-0',
      'GHA-12345678-0',
      'GHA-1234567890-0',
      'GHA-123456789-',
      'GHA123456789-0',
      ' GHA-123456789-0',
      'GHA-123456789-01',
      'GHA-１２３456789-0',
    ]) {
      expect(ghanaCard(bad), bad).toHaveProperty('problem.field', 'director_ghana_card');
    }
  });

  it('GhanaPostGPS addresses: a known region letter, 3 or 4 digits, 4 digits', () => {
    expect(value(digitalAddress('GA-183-8164'))).toBe('GA-183-8164');
    expect(value(digitalAddress('ak-0039-5028'))).toBe('AK-0039-5028');
    for (const bad of [
      'QA-183-8164',
      'G-183-8164',
      'GA-18-8164',
      'GA-18345-8164',
      'GA-183-816',
      'GA1838164',
      'GA-183-8164-1',
    ]) {
      expect(digitalAddress(bad), bad).toHaveProperty('problem.field', 'digital_address');
    }
  });

  it('settlement: mobile money on a Ghana mobile number, or a bank account', () => {
    expect(settlement({ kind: 'mobile_money', network: 'MTN', number: '024 123 4567' })).toEqual({
      value: { kind: 'mobile_money', network: 'MTN', number: '+233241234567' },
    });
    expect(
      settlement({
        kind: 'bank',
        bank_code: '030100',
        account_number: '1234567890',
        account_name: ' Acme  Ltd ',
      }),
    ).toEqual({
      value: {
        kind: 'bank',
        bank_code: '030100',
        account_number: '1234567890',
        account_name: 'Acme Ltd',
      },
    });
    expect(
      settlement({ kind: 'mobile_money', network: 'VODAFONE', number: '030 212 3456' }),
    ).toEqual({
      problems: [
        { field: 'settlement.network', issue: expect.any(String) },
        { field: 'settlement.number', issue: 'must be a Ghana mobile number' },
      ],
    });
    expect(settlement({ kind: 'bank' })).toHaveProperty('problems.length', 3);
    expect(settlement({ kind: 'cash' })).toEqual({
      problems: [{ field: 'settlement.kind', issue: 'must be mobile_money or bank' }],
    });
    expect(settlement([])).toHaveProperty('problems.0.field', 'settlement');
  });

  it('a draft validates only what it carries; a submission needs everything', () => {
    const { fields, problems } = validateFields({
      business_name: 'Acme Deliveries Ltd',
      contact_phone: '0201234567',
      digital_address: null,
    });
    expect(problems).toEqual([]);
    expect(fields).toEqual({
      business_name: 'Acme Deliveries Ltd',
      contact_phone: '+233201234567',
      digital_address: null,
    });
    const empty: ActivationFields = {
      business_name: 'x',
      registration_number: null,
      director_ghana_card: null,
      settlement: null,
      digital_address: null,
      contact_phone: null,
    };
    expect(missingFields(empty).map((d) => d.field)).toEqual([
      'registration_number',
      'director_ghana_card',
      'settlement',
      'digital_address',
      'contact_phone',
    ]);
  });

  it('answers clear problems, never throws, for hostile input (fuzz: control characters, NUL, huge strings, wrong types)', () => {
    const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat([
      '\u007f',
      '\u0085',
      '\u2028',
    ]);
    const samples: unknown[] = [
      'A'.repeat(1_000_000),
      `CS123456789${'\u0000'}`,
      'GA-183-8164\u0000',
      ...controls.map((c) => `Acme${c}Ltd`),
      42,
      true,
      {},
      [],
      { toString: () => 'CS123456789' },
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 300; i++)
      samples.push(
        Array.from({ length: Math.floor(random() * 40) }, () =>
          String.fromCharCode(Math.floor(random() * 0x3000)),
        ).join(''),
      );
    for (const sample of samples) {
      const input = {
        business_name: sample,
        registration_number: sample,
        director_ghana_card: sample,
        digital_address: sample,
        contact_phone: sample,
        settlement: {
          kind: 'bank',
          bank_code: sample,
          account_number: sample,
          account_name: sample,
        },
      };
      const { problems } = validateFields(input);
      for (const p of problems) {
        expect(typeof p.field).toBe('string');
        expect(p.issue.length).toBeGreaterThan(5);
      }
      if (typeof sample !== 'string' || sample.length > 300 || /\p{Cc}/u.test(sample))
        expect(problems.map((p) => p.field)).toContain('business_name');
    }
  });
});
