import { describe, expect, it } from 'vitest';
import {
  NAME_MATCH_THRESHOLD,
  nameWords,
  namesMatch,
  parseDestination,
  verdictOf,
} from './destinations.ts';

describe('parseDestination', () => {
  it('normalises a wallet number to the local form and tidies the name', () => {
    expect(
      parseDestination({
        kind: 'mobile_money',
        network: 'mtn',
        number: '+233 24 123 4567',
        name: '  Kofi   Boateng ',
      }),
    ).toEqual({
      destination: {
        kind: 'mobile_money',
        network: 'mtn',
        number: '0241234567',
        name: 'Kofi Boateng',
      },
    });
  });

  it('refuses fixed lines, unknown networks and kinds, one problem per field', () => {
    const fields = (input: Record<string, unknown>) => {
      const r = parseDestination(input);
      return 'problems' in r ? r.problems.map((p) => p.field) : [];
    };
    expect(
      fields({ kind: 'mobile_money', network: 'vodafone', number: '0302211234', name: 'Kofi' }),
    ).toEqual(['network', 'number']);
    expect(fields({ kind: 'cash', name: '' })).toEqual(['kind', 'name']);
    expect(
      fields({ kind: 'bank', bank_code: 'gh-1', account_number: '12345', name: 'Kofi Boateng' }),
    ).toEqual(['bank_code', 'account_number']);
  });

  it('accepts a GhIPSS bank account, spaces and dashes aside', () => {
    expect(
      parseDestination({
        kind: 'bank',
        bank_code: '280100',
        account_number: '1234-5678 90',
        name: 'Kofi Boateng',
      }),
    ).toEqual({
      destination: {
        kind: 'bank',
        bankCode: '280100',
        accountNumber: '1234567890',
        name: 'Kofi Boateng',
      },
    });
  });
});

describe('namesMatch', () => {
  it('ignores case, punctuation and word order, not different people', () => {
    expect(namesMatch('Kofi Boateng', 'BOATENG, KOFI')).toBe(true);
    expect(namesMatch('Kofi Boateng', 'Ama Boateng')).toBe(false);
  });

  it('ignores accents, initials, titles and company forms', () => {
    expect(namesMatch('Akosua Adjéi', 'AKOSUA ADJEI')).toBe(true);
    expect(namesMatch('Kofi Boateng', 'Mr. Kofi A. Boateng')).toBe(true);
    expect(namesMatch('Kofi Boateng Enterprise', 'KOFI BOATENG ENT. LTD')).toBe(true);
  });

  it('lets one name miss a middle name, never match on a family name or a first name alone', () => {
    expect(namesMatch('Kofi Boateng', 'KOFI ASANTE BOATENG')).toBe(true); // 2 × 2 ÷ 5 = 0.8
    expect(namesMatch('Ama Serwaa Mensah', 'AMA MENSAH')).toBe(true);
    expect(namesMatch('Kofi', 'KOFI BOATENG')).toBe(false); // 2 × 1 ÷ 3 = 0.67
    expect(namesMatch('Kwame Osei Agyeman Prempeh', 'KWAME PREMPEH')).toBe(false); // 2 × 2 ÷ 6 = 0.67
    expect(namesMatch('Kofi Boateng', 'KOFI MENSAH')).toBe(false);
  });

  it('never matches a name with no words left', () => {
    expect(namesMatch('Ltd.', 'LTD')).toBe(false);
    expect(namesMatch('Kofi Boateng', '')).toBe(false);
  });

  it('uses the documented threshold', () => {
    expect(NAME_MATCH_THRESHOLD).toBe(0.75);
    expect(nameWords('  Dr. Ama  A. Serwaa-Mensah ')).toEqual(new Set(['ama', 'serwaa', 'mensah']));
  });
});

describe('verdictOf', () => {
  const registered = (resolvedName: string | null) => ({
    state: 'registered' as const,
    resolvedName,
    recipientCode: 'RCP_1',
  });

  it('verifies a destination the provider can pay whose registered name matches', () => {
    expect(verdictOf('Kofi Boateng', registered('BOATENG KOFI'))).toEqual({
      verification: 'verified',
      resolvedName: 'BOATENG KOFI',
      recipientCode: 'RCP_1',
      reviewReason: null,
    });
  });

  it('sends a mismatch, an unresolvable name or a refused account to review, saying why', () => {
    expect(verdictOf('Kofi Boateng', registered('AMA MENSAH'))).toMatchObject({
      verification: 'needs_review',
      resolvedName: 'AMA MENSAH',
      recipientCode: 'RCP_1',
      reviewReason: expect.stringContaining('registered to AMA MENSAH'),
    });
    expect(verdictOf('Kofi Boateng', registered(null))).toMatchObject({
      verification: 'needs_review',
      reviewReason: expect.stringContaining('could not resolve'),
    });
    expect(verdictOf('Kofi Boateng', { state: 'refused', reason: 'no such account' })).toEqual({
      verification: 'needs_review',
      resolvedName: null,
      recipientCode: null,
      reviewReason: 'The provider refused the account: no such account',
    });
  });
});
