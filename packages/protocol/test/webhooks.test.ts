import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookSignature } from '../src/webhooks.ts';

describe('Standard Webhooks signature', () => {
  it('agrees with an independent implementation', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef01234567').toString('base64')}`;
    const body = '{"type":"delivery.order.created"}';
    const expected = new Webhook(secret).sign('evt_1', new Date(1_763_683_200_000), body);
    expect(`v1,${webhookSignature(secret, 'evt_1', 1_763_683_200, body).toString('base64')}`).toBe(
      expected,
    );
    expect(
      webhookSignature(secret, 'evt_1', '1763683200', body).equals(
        webhookSignature(secret, 'evt_1', 1_763_683_200, body),
      ),
    ).toBe(true);
  });
});
