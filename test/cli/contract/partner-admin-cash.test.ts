import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courierNear, productionOrder, toDropoff } from '../../dispatch/helpers.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { adminCli, json, SLOW, type Run } from '../admin-cli.ts';

let p: TestPlatform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

describe('partner-admin: couriers cash', () => {
  it(
    'lists what couriers hold, records a handover in GHS, and refuses one above the balance',
    async () => {
      const s = await createPartner(p, { environment: 'production' });
      const c = await courierNear(p, 1, Date.now());
      const orderId = await productionOrder(s);
      await toDropoff(p, orderId, c.id);
      await p.app.platform.dispatch!.service.delivered(c.id, orderId);
      const held = Number(json(await cli('cash', 'show', c.id, '--json')).balance_pesewas);
      expect(held).toBeGreaterThan(100);

      const listed = await cli('cash', 'list');
      expect(listed.stdout).toMatch(new RegExp(`^${c.id} +GHS ${(held / 100).toFixed(2)} `, 'm'));

      const done = await cli('cash', 'handover', c.id, '--amount', '1.25');
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/^amount: +GHS 1\.25$/m);
      expect(done.stdout).toMatch(
        new RegExp(`^left to hand in: +GHS ${((held - 125) / 100).toFixed(2)}$`, 'm'),
      );

      const tooMuch = await cli('cash', 'handover', c.id, '--amount', String(held));
      expect(tooMuch.code).not.toBe(0);
      expect(tooMuch.stderr).toContain('HANDOVER_EXCEEDS_BALANCE');
      const shown = json(await cli('cash', 'show', c.id, '--json'));
      expect(shown.balance_pesewas).toBe(held - 125);
      expect(shown.handovers).toHaveLength(1);
    },
    SLOW,
  );
});
