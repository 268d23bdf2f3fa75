import { describe, expect, it, vi } from 'vitest';
import { PushError } from '../../../src/integrations/push/index.ts';
import { offerPush, offerPushesCourier } from '../../../src/flows/offer-pushes-courier.ts';
import { as } from '../faces.ts';

const NOW = Date.parse('2026-03-02T10:00:00Z');
const offer = {
  id: 'ofr_1',
  order_id: 'ord_1',
  courier_id: 'cou_1',
  expires_at: new Date(NOW + 45_000),
};
const sheet = {
  pickup_address: 'Osu, Oxford Street',
  pickup_digital_address: null,
  fee_pesewas: 1250,
};
const sub = (hash: string) => ({
  session_hash: hash,
  courier_id: 'cou_1',
  endpoint: `https://fcm.googleapis.com/fcm/send/${hash}`,
  p256dh: 'k',
  auth: 'a',
  offer_id: 'ofr_1',
});

function setup(send: () => Promise<'sent' | 'gone'>, live = ['s1']) {
  const calls = {
    claim: vi.fn(async () => [sub('s1'), sub('s2')]),
    remove: vi.fn(),
    forget: vi.fn(),
    warn: vi.fn(),
  };
  const push = { publicKey: 'p', summary: '', send: vi.fn(send) };
  const round = offerPushesCourier({
    offers: async () => [offer],
    sheet: as(async () => sheet),
    subscriptions: as({ claim: calls.claim, remove: calls.remove, forgetEndpoint: calls.forget }),
    sessions: { liveAmong: async () => new Set(live) },
    push,
    clock: () => NOW,
    log: as({ warn: calls.warn }),
  });
  return { round, calls, push };
}

describe('a new offer is pushed to its courier’s phone', () => {
  it('shows the pickup and the fee, one notification per offer, kept no longer than the offer', async () => {
    expect(offerPush(offer, sheet)).toEqual({
      type: 'offer',
      offer_id: 'ofr_1',
      order_id: 'ord_1',
      title: 'New job offered',
      body: 'Pickup: Osu, Oxford Street · fee GHS 12.50',
      tag: 'offer-ofr_1',
      url: '/courier/',
      expires_at: offer.expires_at.toISOString(),
    });
    // A multi-drop batch: how many drops, and no single order's fee standing for the whole offer.
    expect(offerPush({ ...offer, drops: 3 }, sheet)).toMatchObject({
      title: 'New batch offered: 3 drops',
      body: 'Pickup: Osu, Oxford Street',
    });
    expect(offerPush({ ...offer, drops: 1 }, sheet).title).toBe('New job offered');
    const { round, calls, push } = setup(async () => 'sent');
    await round();
    expect(calls.claim).toHaveBeenCalledWith([{ courierId: 'cou_1', offerId: 'ofr_1' }]);
    expect(push.send).toHaveBeenCalledTimes(1);
    expect(push.send).toHaveBeenCalledWith(
      expect.objectContaining({ endpoint: sub('s1').endpoint }),
      {
        payload: JSON.stringify(offerPush(offer, sheet)),
        ttlSeconds: 45,
        urgency: 'high',
      },
    );
    // s2's session has ended: its subscription goes, unsent.
    expect(calls.remove).toHaveBeenCalledWith('s2');
  });

  it('forgets an endpoint the push service says is gone, and only logs any other failure', async () => {
    const gone = setup(async () => 'gone');
    await gone.round();
    expect(gone.calls.forget).toHaveBeenCalledWith(sub('s1').endpoint);
    const failing = setup(async () => {
      throw new PushError('the push service answered 500', 500);
    });
    await expect(failing.round()).resolves.toBeUndefined();
    expect(failing.calls.warn).toHaveBeenCalledTimes(1);
    expect(failing.calls.forget).not.toHaveBeenCalled();
  });

  it('sends nothing when no subscription is left to tell', async () => {
    const { round, calls, push } = setup(async () => 'sent');
    calls.claim.mockResolvedValueOnce([]);
    await round();
    expect(push.send).not.toHaveBeenCalled();
  });
});
