/** Who did something: an operator (by account), the ADMIN_TOKEN, a partner's member, or the platform itself. */
export type ActorKind = 'operator' | 'admin_token' | 'member' | 'system';

export interface Actor {
  kind: ActorKind;
  id: string;
}

export const OPERATOR_ROLES = ['support', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Whoever called the operator API: an operator (through one of their tokens) or the ADMIN_TOKEN. */
export interface AdminActor extends Actor {
  kind: 'operator' | 'admin_token';
  roles: readonly OperatorRole[];
}

/** The ADMIN_TOKEN: a superuser with every role, recorded as `admin_token`. */
export const ADMIN_TOKEN_ACTOR: AdminActor = Object.freeze({
  kind: 'admin_token',
  id: 'admin_token',
  roles: OPERATOR_ROLES,
});

/** Where a request came from, for the audit log. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** A request's origin: its client address and its user agent, cut to 500 characters. */
export function originOf(request: {
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}): RequestOrigin {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 500) : null };
}
