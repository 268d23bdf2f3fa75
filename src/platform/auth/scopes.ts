export const SCOPES = [
  'delivery:read',
  'delivery:write',
  'delivery:wallet:topup',
  'delivery:wallet:spend',
  'safe:read',
  'safe:write',
  'payouts:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const WILDCARDS = ['delivery:*', '*'] as const;
export type GrantableScope = Scope | (typeof WILDCARDS)[number];
export const GRANTABLE_SCOPES: readonly GrantableScope[] = [...SCOPES, ...WILDCARDS];

/**
 * Money scopes are never implied by a wildcard: they must be granted by name. payouts:read moves no
 * money but shows where the partner's is paid out to, so it too is granted only by name.
 */
export const MONEY_SCOPES: ReadonlySet<Scope> = new Set([
  'delivery:wallet:topup',
  'delivery:wallet:spend',
  'safe:write',
  'payouts:read',
]);

export type Environment = 'staging' | 'production';

export function scopeCovers(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  if (MONEY_SCOPES.has(required)) return false;
  if (granted.includes('*')) return true;
  return required.startsWith('delivery:') && granted.includes('delivery:*');
}

/** Why a key with these scopes may not be created, or null when it may. */
export function scopeGrantProblem(
  environment: Environment,
  scopes: readonly string[],
): string | null {
  if (scopes.length === 0) return 'scopes must name at least one scope';
  const unknown = scopes.filter((s) => !(GRANTABLE_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0)
    return `unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; known: ${GRANTABLE_SCOPES.join(', ')}`;
  if (environment === 'staging' && scopes.includes('delivery:wallet:spend')) {
    return 'a staging key can never hold delivery:wallet:spend';
  }
  return null;
}
