import { describe, expect, it } from 'vitest';
import { courierJobView } from '../../../src/flows/courier-job-screen.ts';
import { as } from '../faces.ts';

const sheet = {
  id: 'ord_1',
  pickup_lat: 5.6037,
  pickup_lng: -0.187,
  delivery_lat: 5.55,
  delivery_lng: -0.2,
};

describe("the courier app's job screen", () => {
  const view = (job: unknown) =>
    courierJobView(
      as({ currentJob: async () => job }),
      as({ jobSheet: async () => sheet }),
      as({ get: async () => ({ last_lat: 5.6037, last_lng: -0.187 }) }),
    )('cou_1');

  it('shows a held job with its sheet, the way to the drop-off once picked up, and the next steps', async () => {
    const shown = await view({ kind: 'job', order_id: 'ord_1', stage: 'picked_up' });
    expect(shown).toMatchObject({
      kind: 'job',
      order_id: 'ord_1',
      stage: 'picked_up',
      sheet,
      distance_km: 0,
      can_deliver: true,
      next: [{ kind: 'arrived' }],
    });
    expect(shown!.navigation!.geo).toBe('geo:5.55,-0.2');
  });

  it('shows an offer with its expiry and the way to the pickup, and nothing without a job', async () => {
    const expires = new Date('2026-03-02T10:00:00Z');
    expect(await view({ kind: 'offer', order_id: 'ord_1', expires_at: expires })).toMatchObject({
      kind: 'offer',
      expires_at: expires.toISOString(),
      navigation: { geo: 'geo:5.6037,-0.187' },
      next: [],
      can_deliver: false,
    });
    expect(await view(undefined)).toBeUndefined();
  });
});
