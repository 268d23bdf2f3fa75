import { describe, expect, it } from 'vitest';
import { createPartner, startPlatform } from '../../helpers/harness.ts';

describe('serving the services apart', () => {
  it('serves only the delivery paths with SERVICES=delivery, and only the catalog paths with SERVICES=safe-catalog', async () => {
    for (const [services, served, absent] of [
      ['delivery', '/api/v1/delivery/health', '/api/v1/safe-catalog/health'],
      ['safe-catalog', '/api/v1/safe-catalog/health', '/api/v1/delivery/health'],
    ] as const) {
      const p = await startPlatform({ socket: false, env: { SERVICES: services } });
      try {
        const s = await createPartner(p);
        expect((await s.client.send('GET', served)).status, services).toBe(200);
        const missing = await s.client.send<any>('GET', absent);
        expect([missing.status, missing.body.code], services).toEqual([404, 'NOT_FOUND']);
      } finally {
        await p.close();
      }
    }
  });
});
