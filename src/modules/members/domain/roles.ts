/** A member's role at their partner. */
export const ROLES = ['owner', 'developer', 'finance'] as const;
export type Role = (typeof ROLES)[number];

/** What a dashboard action needs. */
export type Permission =
  | 'view'
  | 'manage_apps'
  | 'create_orders'
  | 'view_wallet'
  | 'top_up_wallet'
  | 'view_sales'
  | 'view_payouts'
  | 'set_payout_destination'
  | 'manage_team';

/**
 * Owners may do everything; developers run the integration (apps, keys, webhooks), read orders and
 * create them (the dashboard's CSV upload);
 * finance reads everything and sees the wallet, and may top the wallet up (it changes nothing else).
 * Catalog sales (their money and settlement) and payouts of the markup (amounts, remittance advice,
 * and where the money goes: a change needs a fresh password too) are for owners and finance.
 */
const GRANTS: Record<Role, readonly Permission[]> = {
  owner: [
    'view',
    'manage_apps',
    'create_orders',
    'view_wallet',
    'top_up_wallet',
    'view_sales',
    'view_payouts',
    'set_payout_destination',
    'manage_team',
  ],
  developer: ['view', 'manage_apps', 'create_orders'],
  finance: [
    'view',
    'view_wallet',
    'top_up_wallet',
    'view_sales',
    'view_payouts',
    'set_payout_destination',
  ],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
