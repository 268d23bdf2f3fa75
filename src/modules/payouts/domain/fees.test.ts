import { describe, expect, it } from 'vitest';
import { feeRules, payeeFee } from './fees.ts';

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { rules: feeRules(env, problems), problems };
};

describe('feeRules', () => {
  it('has the platform bear every fee by default', () => {
    const { rules, problems } = read({});
    expect(rules).toEqual({
      bearer: { vendor: 'platform', partner: 'platform', courier: 'platform' },
      payeeFees: undefined,
    });
    expect(problems).toEqual([]);
    expect(payeeFee(rules, 'vendor:ven_1', 'mobile_money')).toBe(0);
  });

  it('reads one bearer for every kind, or one per kind (kinds not named: the platform), with the fee per channel', () => {
    const all = read({
      PAYOUT_FEE_BEARER: 'payee',
      PAYOUT_PAYEE_FEES: 'mobile_money:100, bank:250',
    });
    expect(all).toEqual({
      rules: {
        bearer: { vendor: 'payee', partner: 'payee', courier: 'payee' },
        payeeFees: { mobile_money: 100, bank: 250 },
      },
      problems: [],
    });
    const vendors = read({
      PAYOUT_FEE_BEARER: 'vendor:payee',
      PAYOUT_PAYEE_FEES: 'bank:250,mobile_money:100',
    });
    expect(vendors.problems).toEqual([]);
    expect(payeeFee(vendors.rules, 'vendor:ven_1', 'bank')).toBe(250);
    expect(payeeFee(vendors.rules, 'vendor:ven_1', 'mobile_money')).toBe(100);
    expect(payeeFee(vendors.rules, 'partner:ptn_1', 'bank')).toBe(0);
    expect(
      read({
        PAYOUT_FEE_BEARER: 'vendor:platform,partner:payee',
        PAYOUT_PAYEE_FEES: 'mobile_money:0,bank:0',
      }).rules.bearer,
    ).toEqual({ vendor: 'platform', partner: 'payee', courier: 'platform' });
  });

  it('names each mistake', () => {
    expect(read({ PAYOUT_FEE_BEARER: 'everyone' }).problems[0]).toMatch(
      /^PAYOUT_FEE_BEARER must be platform, payee, or kind:bearer pairs/,
    );
    expect(read({ PAYOUT_FEE_BEARER: 'rider:payee' }).problems[0]).toContain('(got "rider:payee")');
    expect(
      read({
        PAYOUT_FEE_BEARER: 'vendor:payee,vendor:platform',
        PAYOUT_PAYEE_FEES: 'mobile_money:1,bank:1',
      }).problems,
    ).toEqual(['PAYOUT_FEE_BEARER names vendor more than once']);
    expect(read({ PAYOUT_FEE_BEARER: 'vendor:payee' }).problems).toEqual([
      "PAYOUT_FEE_BEARER makes vendor payees bear the transfer fee: set PAYOUT_PAYEE_FEES to the provider's fee per channel in pesewas, e.g. mobile_money:100,bank:100",
    ]);
    expect(
      read({ PAYOUT_FEE_BEARER: 'payee', PAYOUT_PAYEE_FEES: 'mobile_money:100' }).problems,
    ).toEqual(['PAYOUT_PAYEE_FEES must give a fee for every channel (missing: bank)']);
    expect(
      read({ PAYOUT_FEE_BEARER: 'payee', PAYOUT_PAYEE_FEES: 'mobile_money:1.5,bank:-1,card:3' })
        .problems,
    ).toHaveLength(4);
    expect(read({ PAYOUT_PAYEE_FEES: 'mobile_money' }).problems).toEqual([
      'PAYOUT_PAYEE_FEES must be comma-separated key:value pairs (got "mobile_money")',
    ]);
  });
});
