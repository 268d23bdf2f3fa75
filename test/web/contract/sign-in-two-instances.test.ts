import { describe, expect, it } from 'vitest';
import { onPostgres, useTwoInstances } from '../../helpers/harness.ts';
import { newEmail, PASSWORD, verifiedOwner, WebClient } from '../../helpers/web.ts';

// Sign-in failures are counted in PostgreSQL, so an attacker spreading guesses over the instances
// behind a load balancer meets the same limit as one hitting a single instance.
describe.runIf(onPostgres)('dashboard sign-in throttling across two instances', () => {
  const two = useTwoInstances();

  it('counts wrong passwords sent to either instance against one account', async () => {
    const { a, b } = two;
    const email = newEmail('spread');
    await verifiedOwner(a, email);
    for (let i = 0; i < 5; i++) {
      const via = new WebClient((i % 2 ? a : b).url);
      expect(
        (await via.submit('/sign-in', '/sign-in', { email, password: `wrong guess ${i}` })).status,
      ).toBe(400);
    }
    for (const p of [a, b]) {
      const locked = await new WebClient(p).submit('/sign-in', '/sign-in', {
        email,
        password: PASSWORD,
      });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
