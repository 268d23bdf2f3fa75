import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushError, VapidPushSender } from '../../../src/integrations/push/index.ts';
import { startFakePushService, type FakePushService } from '../../fakes/push-service.ts';

describe('the Web Push sender against a local push service', () => {
  let service: FakePushService;
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@partners.example.gh' };
  const sender = new VapidPushSender(keys, 5_000);
  const message = (payload: string) => ({ payload, ttlSeconds: 45, urgency: 'high' as const });
  beforeAll(async () => {
    service = await startFakePushService();
  });
  afterAll(() => service.close());

  it('sends a payload the browser decrypts, signed with the VAPID key it subscribed with', async () => {
    const sub = await service.subscribe(keys.publicKey);
    const offer = JSON.stringify({
      type: 'offer',
      order_id: 'ord_1',
      body: 'Pickup: Osu · fee GHS 12.00',
    });
    expect(await sender.send({ endpoint: sub.endpoint, ...sub.keys }, message(offer))).toBe('sent');
    expect(service.messages(sub.clientHash)).toEqual([offer]);
  });

  it('is refused when signed with another key, and the payload is not delivered', async () => {
    const sub = await service.subscribe(webpush.generateVAPIDKeys().publicKey);
    const send = sender.send({ endpoint: sub.endpoint, ...sub.keys }, message('x'));
    await expect(send).rejects.toThrow(PushError);
    await expect(send).rejects.toMatchObject({ status: 400 });
    expect(service.messages(sub.clientHash)).toEqual([]);
  });

  it('answers gone for an expired subscription (410) and an endpoint the service does not know (404)', async () => {
    const sub = await service.subscribe(keys.publicKey);
    service.expire(sub.clientHash);
    expect(await sender.send({ endpoint: sub.endpoint, ...sub.keys }, message('x'))).toBe('gone');
    const unknown = { endpoint: `${service.url}/no-such-push/${sub.clientHash}`, ...sub.keys };
    expect(await sender.send(unknown, message('x'))).toBe('gone');
  });

  it('throws a PushError when the push service cannot be reached', async () => {
    const sub = await service.subscribe(keys.publicKey);
    const closed = { endpoint: 'http://127.0.0.1:9/notify/x', ...sub.keys };
    await expect(sender.send(closed, message('x'))).rejects.toThrow(/did not answer/);
  });
});
