import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../platform/auth/password.ts';

/** The longest email address SMTP carries (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
export const PARTNER_NAME_MAX_LENGTH = 120;

/** Lower-cased and trimmed: one account per address however it is typed. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Why an address cannot be used (a plain, deliberately loose shape check), or undefined. */
export function emailProblem(email: string): string | undefined {
  if (email === '') return 'Enter your email address.';
  if (email.length > EMAIL_MAX_LENGTH)
    return `The email address is too long (at most ${EMAIL_MAX_LENGTH} characters).`;
  if (!/^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+\.[^\s@<>()",;:\\]+$/.test(email))
    return 'Enter an email address such as ama@example.com.';
  return undefined;
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password is too long (at most ${PASSWORD_MAX_LENGTH} characters).`;
  return undefined;
}

export function partnerNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'Enter your business name.';
  if (name.length > PARTNER_NAME_MAX_LENGTH)
    return `The business name is too long (at most ${PARTNER_NAME_MAX_LENGTH} characters).`;
  return undefined;
}
