import { describe, expect, it } from 'vitest';
import { refundHints, transferEvents } from '../../../src/flows/transfer-events-reach-refunds.ts';
import { as } from '../faces.ts';

describe("the transfer provider's events reach payouts, then buyer refunds", () => {
  const setup = (answer: string) => {
    const refunds: string[] = [];
    const ctx = {
      transfers: { name: 'paystack' },
      payouts: { sender: { hint: async () => answer } },
      refundHints: async (raw: string) => void refunds.push(raw),
    };
    return { events: transferEvents(as(ctx)), refunds };
  };
  const body = Buffer.from('{"event":"transfer.success"}');

  it('passes an event about no payout on to the refunds, and takes it', async () => {
    const { events, refunds } = setup('unknown');
    expect(await events('paystack', {}, body)).toBe(true);
    expect(refunds).toEqual(['{"event":"transfer.success"}']);
  });

  it("keeps a payout's event to payouts, refuses an invalid one, and leaves other gateways' events alone", async () => {
    const known = setup('applied');
    expect(await known.events('paystack', {}, body)).toBe(true);
    expect(known.refunds).toEqual([]);
    expect(await setup('invalid').events('paystack', {}, body)).toBe(false);
    expect(await setup('unknown').events('hubtel', {}, body)).toBe(false);
  });

  it("asks the catalog's refunds, or answers false without a catalog here", async () => {
    expect(await refundHints(as({ catalog: undefined }))('{}', {})).toBe(false);
    expect(
      await refundHints(as({ catalog: { refunds: { hint: async () => true } } }))('{}', {}),
    ).toBe(true);
  });
});
