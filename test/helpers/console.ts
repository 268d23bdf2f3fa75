import type { OperatorRole } from '../../src/platform/auth/actor.ts';
import { afterAll, beforeAll } from 'vitest';
import { createPartner, startPlatform, type PartnerSetup, type TestPlatform } from './harness.ts';
import { codeFor } from '../operators/helpers.ts';
import { WebClient } from './web.ts';

export const OPERATOR_PASSWORD = 'operator passphrase 2026';

export interface TestOperator {
  id: string;
  email: string;
  secret: string;
}

let counter = 0;

/** An operator created and TOTP-enrolled through the services (as `partner-admin` would), at `nowMs`. */
export async function enrolledOperator(
  p: TestPlatform,
  roles: OperatorRole[],
  nowMs: number,
): Promise<TestOperator> {
  const { operators, operatorSignIn } = p.app.platform;
  const email = `op${counter++}.${Date.now().toString(36)}@example.com`;
  const row = await operators.create({
    email,
    name: 'Kwame Ops',
    password: OPERATOR_PASSWORD,
    roles,
  });
  const { secret } = await operatorSignIn.enrolTotp(row.id);
  await operatorSignIn.confirmTotp(row.id, codeFor(secret, nowMs));
  return { id: row.id, email, secret };
}

/** Signs the operator in to /console with the code of `nowMs` (each step's code works once). */
export async function consoleSignIn(
  p: TestPlatform,
  op: TestOperator,
  nowMs: number,
  web = new WebClient(p),
) {
  const res = await web.submit('/console/sign-in', '/console/sign-in', {
    email: op.email,
    password: OPERATOR_PASSWORD,
    code: codeFor(op.secret, nowMs),
  });
  return { web, res };
}

/** One TOTP step: each operator code is accepted once, so every new code needs the clock moved on. */
export const TOTP_STEP_MS = 30_000;

/**
 * A fresh operator with `roles`, enrolled and signed in to /console. `advance` moves the test's
 * clock one TOTP step and answers the new time (called before the enrolment code and the sign-in code).
 */
export async function signedInOperator(
  p: TestPlatform,
  roles: OperatorRole[],
  advance: () => number,
): Promise<{ op: TestOperator; web: WebClient }> {
  const op = await enrolledOperator(p, roles, advance());
  return { op, web: (await consoleSignIn(p, op, advance())).web };
}

/**
 * For a describe block of console tests: a platform on a test clock (`clock.now`, moved by the
 * tests), a production partner, and `signedIn(roles)` for a fresh operator signed in to /console.
 */
export function useConsoleWithPartner(): {
  readonly p: TestPlatform;
  readonly s: PartnerSetup;
  clock: { now: number };
  signedIn: (roles: OperatorRole[]) => Promise<{ op: TestOperator; web: WebClient }>;
} {
  const clock = { now: Date.now() };
  let p: TestPlatform | undefined;
  let s: PartnerSetup | undefined;
  beforeAll(async () => {
    p = await startPlatform({ clock: () => clock.now });
    // Each sign-in moves the clock a minute on: a file that runs fast is soon minutes ahead of
    // the real time, so the partner signs its requests on the platform's clock.
    s = await createPartner(p, { environment: 'production', now: () => clock.now });
  });
  afterAll(async () => {
    await p?.close();
  });
  return {
    get p() {
      return p!;
    },
    get s() {
      return s!;
    },
    clock,
    signedIn: (roles) => signedInOperator(p!, roles, () => (clock.now += TOTP_STEP_MS)),
  };
}
