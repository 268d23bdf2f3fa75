import { describe, expect, it } from 'vitest';
import { namesMatch, parseDestination } from './destinations.ts';

describe('parseDestination', () => {
  it('normalises a wallet number to the local form and tidies the name', () => {
    expect(parseDestination({ kind: 'mobile_money', network: 'mtn', number: '+233 24 123 4567', name: '  Kofi   Boateng ' })).toEqual({
      destination: { kind: 'mobile_money', network: 'mtn', number: '0241234567', name: 'Kofi Boateng' },
    });
  });

  it('refuses fixed lines, unknown networks and kinds, one problem per field', () => {
    const fields = (input: Record<string, unknown>) => {
      const r = parseDestination(input);
      return 'problems' in r ? r.problems.map((p) => p.field) : [];
    };
    expect(fields({ kind: 'mobile_money', network: 'vodafone', number: '0302211234', name: 'Kofi' })).toEqual(['network', 'number']);
    expect(fields({ kind: 'cash', name: '' })).toEqual(['kind', 'name']);
    expect(fields({ kind: 'bank', bank_code: 'gh-1', account_number: '12345', name: 'Kofi Boateng' })).toEqual(['bank_code', 'account_number']);
  });

  it('accepts a GhIPSS bank account, spaces and dashes aside', () => {
    expect(parseDestination({ kind: 'bank', bank_code: '280100', account_number: '1234-5678 90', name: 'Kofi Boateng' })).toEqual({
      destination: { kind: 'bank', bankCode: '280100', accountNumber: '1234567890', name: 'Kofi Boateng' },
    });
  });
});

describe('namesMatch', () => {
  it('ignores case, punctuation and word order, not different people', () => {
    expect(namesMatch('Kofi Boateng', 'BOATENG, KOFI')).toBe(true);
    expect(namesMatch('Kofi Boateng', 'Ama Boateng')).toBe(false);
  });
});
