import { OPERATOR_ROLES, type OperatorRole } from '../../../platform/auth/actor.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../platform/auth/password.ts';
import type { ErrorDetail } from '../../../platform/errors.ts';

/** A plain address: something@host.tld, no spaces or control characters, at most 254 characters. */
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

export function emailProblem(email: string): ErrorDetail | undefined {
  if (email.length > 254 || !EMAIL.test(email))
    return { field: 'email', issue: 'must be an email address' };
  return undefined;
}

export function passwordProblem(password: string): ErrorDetail | undefined {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    return {
      field: 'password',
      issue: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    };
  }
  if (/\p{Cc}/u.test(password))
    return { field: 'password', issue: 'must not contain control characters' };
  return undefined;
}

/** Roles without repeats, in the canonical order; undefined when one is unknown or none is given. */
export function normalizeRoles(roles: readonly string[]): OperatorRole[] | undefined {
  if (roles.length === 0 || roles.some((r) => !(OPERATOR_ROLES as readonly string[]).includes(r)))
    return undefined;
  return OPERATOR_ROLES.filter((r) => roles.includes(r));
}
