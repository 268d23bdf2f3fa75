import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINT_LENGTH, readPushSubscription } from './push-subscription.ts';

const keys = {
  p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
  auth: Buffer.alloc(16, 1).toString('base64url'),
};
const fcm = 'https://fcm.googleapis.com/fcm/send/abc:def';

describe("reading the courier app's push subscription", () => {
  it('takes a browser push service endpoint with its keys', () => {
    expect(readPushSubscription({ endpoint: fcm, keys }, 'push-services')).toEqual({
      subscription: { endpoint: fcm, ...keys },
    });
    expect(
      readPushSubscription(
        { endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/x', keys },
        'push-services',
      ),
    ).toHaveProperty('subscription');
  });

  it('refuses http, other hosts and credentials in production, and takes local http in development', () => {
    const local = { endpoint: 'http://localhost:8090/notify/abc', keys };
    expect(readPushSubscription(local, 'push-services')).toEqual({
      problem: 'endpoint must be an https URL.',
    });
    expect(readPushSubscription(local, 'any')).toHaveProperty('subscription');
    expect(
      readPushSubscription({ endpoint: 'https://169.254.169.254/latest', keys }, 'push-services'),
    ).toEqual({ problem: "endpoint must be on a browser's push service." });
    expect(
      readPushSubscription(
        { endpoint: 'https://evil.example/fcm.googleapis.com', keys },
        'push-services',
      ),
    ).toHaveProperty('problem');
    expect(
      readPushSubscription(
        { endpoint: 'https://u:p@fcm.googleapis.com/fcm/send/x', keys },
        'push-services',
      ),
    ).toHaveProperty('problem');
    expect(readPushSubscription({ endpoint: 'ftp://localhost/x', keys }, 'any')).toHaveProperty(
      'problem',
    );
  });

  it('refuses a huge or malformed endpoint and bad keys', () => {
    const huge = `${fcm}/${'a'.repeat(MAX_ENDPOINT_LENGTH)}`;
    expect(readPushSubscription({ endpoint: huge, keys }, 'any')).toEqual({
      problem: `endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters.`,
    });
    for (const endpoint of ['not a url', '', 42, null])
      expect(readPushSubscription({ endpoint, keys }, 'any')).toHaveProperty('problem');
    for (const bad of [
      { ...keys, p256dh: Buffer.alloc(65, 4).toString('base64url').slice(1) },
      { ...keys, p256dh: 'x'.repeat(5000) },
      { ...keys, auth: 'short' },
      { p256dh: keys.p256dh },
    ])
      expect(readPushSubscription({ endpoint: fcm, keys: bad }, 'any')).toHaveProperty('problem');
    expect(readPushSubscription([], 'any')).toEqual({ problem: 'The body must be a JSON object.' });
  });
});
