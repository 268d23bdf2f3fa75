import { describe, expect, it } from 'vitest';
import {
  requireProof,
  textRecipient,
  type FallbackNeeds,
} from '../../../src/flows/fallback-proof-asks-recipient.ts';
import { as, TX } from '../faces.ts';

const AT = new Date('2026-03-02T10:00:00Z');

function needs(opts: { by?: 'code' | 'fallback'; env?: string; sandbox?: boolean; text?: string }) {
  const log: unknown[][] = [];
  const n = as<FallbackNeeds>({
    proofs: { provenBy: async (_o: string, q: unknown) => (q === TX ? opts.by : 'wrong-q') },
    proofConfirmations: {
      openFallback: async (q: unknown, input: unknown) => void log.push(['open', q === TX, input]),
      textToSend: async (orderId: string) => {
        log.push(['claim', orderId]);
        return opts.text;
      },
    },
    couriers: {
      get: async (id: string, q: unknown) => ({
        id,
        inTx: q === TX,
        last_lat: 5.556,
        last_lng: -0.182,
        last_position_at: AT,
      }),
    },
    delivery: {
      orders: {
        jobSheet: async (_id: string, q: unknown) =>
          q === TX ? { delivery_lat: 5.5561, delivery_lng: -0.1821 } : undefined,
        find: async (id: string) => ({
          id,
          environment: opts.env ?? 'production',
          customer_phone: '+233241234567',
        }),
      },
    },
    dispatch: { sandbox: { is: async () => opts.sandbox ?? false } },
    sms: { sender: { send: async (m: unknown) => void log.push(['sms', m]) } },
    log: { warn: (...a: unknown[]) => void log.push(['warn', ...a]) },
  });
  return { n, log };
}

describe('a photo or signature fallback asks the recipient', () => {
  it('passes a delivery the code proved without measuring anything', async () => {
    const { n, log } = needs({ by: 'code' });
    await requireProof(n)(TX, { orderId: 'dlv_1', courierId: 'cou_1' });
    expect(log).toEqual([]);
  });

  it('refuses a delivery with no proof at all (400, asking for the code or a photo)', async () => {
    const { n } = needs({});
    await expect(
      requireProof(n)(TX, { orderId: 'dlv_1', courierId: 'cou_1' }),
    ).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('delivery code') });
  });

  it("opens the confirmation in the delivery's transaction from the courier's last position and the drop-off", async () => {
    const { n, log } = needs({ by: 'fallback' });
    const tapped = new Date('2026-03-02T09:58:00Z');
    await requireProof(n)(TX, { orderId: 'dlv_1', courierId: 'cou_1', at: tapped });
    expect(log).toEqual([
      [
        'open',
        true,
        {
          orderId: 'dlv_1',
          courierId: 'cou_1',
          position: { lat: 5.556, lng: -0.182, at: AT },
          dropoff: { lat: 5.5561, lng: -0.1821 },
          tappedAt: tapped,
        },
      ],
    ]);
  });

  it('texts the recipient after the commit, once (a replay claims no text), never for staging or the sandbox courier', async () => {
    const sent = needs({ text: 'Please confirm: https://x/confirm/t' });
    await textRecipient(sent.n)('dlv_1', 'cou_1');
    expect(sent.log).toEqual([
      ['claim', 'dlv_1'],
      ['sms', { to: '+233241234567', body: 'Please confirm: https://x/confirm/t' }],
    ]);
    const replay = needs({ text: undefined });
    await textRecipient(replay.n)('dlv_1', 'cou_1');
    expect(replay.log).toEqual([['claim', 'dlv_1']]);
    for (const quiet of [
      needs({ text: 'x', env: 'staging' }),
      needs({ text: 'x', sandbox: true }),
    ]) {
      await textRecipient(quiet.n)('dlv_1', 'cou_1');
      expect(quiet.log).toEqual([]);
    }
  });
});
