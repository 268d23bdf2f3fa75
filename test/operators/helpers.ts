import { writeFileSync } from 'node:fs';
import { base32Decode, totpCode, totpStep } from '../../src/platform/auth/totp.ts';
import type { TestPlatform } from '../helpers/harness.ts';

export const PASSWORD = 'correct horse battery staple';

/** The code an authenticator holding `secret` shows at `nowMs`. */
export const codeFor = (secret: string, nowMs: number) =>
  totpCode(base32Decode(secret)!, totpStep(nowMs));

/** An operator created with the ADMIN_TOKEN, and a token of theirs. */
export async function operatorWithToken(
  p: TestPlatform,
  roles: string[],
  email = `op-${Math.random().toString(36).slice(2)}@example.com`,
) {
  const created = await p.admin('POST', '/operators', {
    email,
    name: 'Ama Ops',
    password: PASSWORD,
    roles,
  });
  if (created.status !== 201)
    throw new Error(`operator create failed: ${JSON.stringify(created.body)}`);
  const token = await p.admin('POST', `/operators/${created.body.operator_id}/tokens`, {
    name: 'laptop',
  });
  if (token.status !== 201) throw new Error(`token create failed: ${JSON.stringify(token.body)}`);
  return {
    id: created.body.operator_id as string,
    email,
    token: token.body.token as string,
    tokenId: token.body.token_id as string,
  };
}

/** A password file for the CLI. */
export function passwordFile(dir: string): string {
  const file = `${dir}/password`;
  writeFileSync(file, `${PASSWORD}\n`, { mode: 0o600 });
  return file;
}
