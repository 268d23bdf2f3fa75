import { describe, expect, it } from 'vitest';
import { emailProblem, normalizeEmail, partnerNameProblem, passwordProblem } from './input.ts';
import { can, isRole } from './roles.ts';

describe('roles', () => {
  it('lets owners do everything, developers integrate, finance read, see the wallet and top it up', () => {
    expect(
      [
        'view',
        'manage_apps',
        'create_orders',
        'view_wallet',
        'top_up_wallet',
        'view_sales',
        'view_payouts',
        'set_payout_destination',
        'manage_team',
      ].every((p) => can('owner', p as never)),
    ).toBe(true);
    expect(can('developer', 'manage_apps')).toBe(true);
    expect(can('developer', 'create_orders')).toBe(true);
    expect(can('developer', 'manage_team')).toBe(false);
    expect(can('developer', 'view_wallet')).toBe(false);
    expect(can('developer', 'top_up_wallet')).toBe(false);
    expect(can('developer', 'view_sales')).toBe(false);
    expect(can('finance', 'view_sales')).toBe(true);
    expect(can('developer', 'view_payouts')).toBe(false);
    expect(can('developer', 'set_payout_destination')).toBe(false);
    expect(can('finance', 'view_payouts')).toBe(true);
    expect(can('finance', 'set_payout_destination')).toBe(true);
    expect(can('finance', 'top_up_wallet')).toBe(true);
    expect(can('finance', 'view_wallet')).toBe(true);
    expect(can('finance', 'manage_apps')).toBe(false);
    expect(can('finance', 'create_orders')).toBe(false);
    expect(can('finance', 'manage_team')).toBe(false);
  });

  it('knows its roles', () => {
    expect(isRole('finance')).toBe(true);
    expect(isRole('admin')).toBe(false);
  });
});

describe('sign-up input', () => {
  it('normalizes and checks emails', () => {
    expect(normalizeEmail('  Ama@Example.COM ')).toBe('ama@example.com');
    expect(emailProblem('ama@example.com')).toBeUndefined();
    expect(emailProblem('')).toMatch(/Enter/);
    expect(emailProblem('ama@localhost')).toMatch(/such as/);
    expect(emailProblem('a b@example.com')).toMatch(/such as/);
    expect(emailProblem(`${'a'.repeat(250)}@x.gh`)).toMatch(/too long/);
  });

  it('wants passwords of 10 characters or more and a business name', () => {
    expect(passwordProblem('123456789')).toMatch(/at least 10/);
    expect(passwordProblem('1234567890')).toBeUndefined();
    expect(partnerNameProblem('  ')).toMatch(/Enter/);
    expect(partnerNameProblem('Kofi Foods')).toBeUndefined();
  });
});
