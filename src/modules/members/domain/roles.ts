/** A member's role at their partner. */
export const ROLES = ['owner', 'developer', 'finance'] as const;
export type Role = (typeof ROLES)[number];

/** What a dashboard action needs. */
export type Permission = 'view' | 'manage_apps' | 'view_wallet' | 'top_up_wallet' | 'view_sales' | 'manage_team';

/**
 * Owners may do everything; developers run the integration (apps, keys, webhooks) and read orders;
 * finance reads everything and sees the wallet, and may top the wallet up (it changes nothing else).
 * Catalog sales (their money and settlement) are for owners and finance.
 */
const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ['view', 'manage_apps', 'view_wallet', 'top_up_wallet', 'view_sales', 'manage_team'],
  developer: ['view', 'manage_apps'],
  finance: ['view', 'view_wallet', 'top_up_wallet', 'view_sales'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
