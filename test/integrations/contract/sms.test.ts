import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubtelSms, SmsError } from '../../../src/integrations/sms/index.ts';
import { loadConfig } from '../../../src/config.ts';
import { startFakeHubtelSms, type FakeHubtelSms } from '../../fakes/hubtel-sms.ts';
import { networkAddress, startPlatform, type TestPlatform } from '../../helpers/harness.ts';

describe('Hubtel SMS adapter against the fake', () => {
  let fake: FakeHubtelSms;
  let sms: HubtelSms;
  beforeAll(async () => {
    fake = await startFakeHubtelSms();
    sms = new HubtelSms({
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      senderId: 'PartnerGH',
      baseUrl: fake.url,
      timeoutMs: 500,
    });
  });
  afterAll(() => fake.close());

  it('posts From, To (digits) and Content as JSON with Basic credentials', async () => {
    await sms.send({ to: '+233241234567', body: 'Your code is 123456' });
    const req = fake.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages/send');
    expect(req.headers.authorization).toBe(
      `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
    );
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      From: 'PartnerGH',
      To: '233241234567',
      Content: 'Your code is 123456',
    });
    expect(fake.messages.at(-1)).toMatchObject({
      to: '233241234567',
      content: 'Your code is 123456',
    });
  });

  it('reports bad credentials (401) without the secret', async () => {
    const wrong = new HubtelSms({
      clientId: fake.clientId,
      clientSecret: 'not-the-secret',
      senderId: 'PartnerGH',
      baseUrl: fake.url,
      timeoutMs: 500,
    });
    const err = await wrong.send({ to: '+233241234567', body: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmsError);
    expect((err as Error).message).toMatch(/HTTP 401/);
    expect((err as Error).message).not.toContain('not-the-secret');
  });

  it.each([
    ['400', /HTTP 400: Invalid destination/],
    ['500', /HTTP 500/],
    ['garbage', /unreadable answer/],
    ['status', /status 3: Insufficient credit/],
    ['timeout', /no answer within 500 ms/],
  ] as const)('turns a %s into an SmsError', async (kind, message) => {
    fake.failNext(kind);
    const before = fake.messages.length;
    await expect(sms.send({ to: '+233241234567', body: 'x' })).rejects.toThrow(message);
    expect(fake.messages.length).toBe(before);
  });

  it('reports a refused connection as a network failure', async () => {
    const down = new HubtelSms({
      clientId: 'a',
      clientSecret: 'b',
      senderId: 'PartnerGH',
      baseUrl: 'http://127.0.0.1:1',
      timeoutMs: 500,
    });
    await expect(down.send({ to: '+233241234567', body: 'x' })).rejects.toThrow(/network failure/);
  });
});

describe('SMS settings', () => {
  const base = { ADMIN_TOKEN: 'x'.repeat(24) };
  it('need the client id, secret and a sender id with SMS_PROVIDER=hubtel', () => {
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'hubtel' })).toThrow(
      /HUBTEL_SMS_CLIENT_ID and HUBTEL_SMS_CLIENT_SECRET.*SMS_SENDER_ID/,
    );
    expect(() =>
      loadConfig({
        ...base,
        SMS_PROVIDER: 'hubtel',
        HUBTEL_SMS_CLIENT_ID: 'a',
        HUBTEL_SMS_CLIENT_SECRET: 'b',
        SMS_SENDER_ID: 'Far too long a name',
      }),
    ).toThrow(/SMS_SENDER_ID/);
    expect(() => loadConfig({ ...base, SMS_PROVIDER: 'twilio' })).toThrow(/SMS_PROVIDER/);
    expect(
      loadConfig({
        ...base,
        SMS_PROVIDER: 'hubtel',
        HUBTEL_SMS_CLIENT_ID: 'a',
        HUBTEL_SMS_CLIENT_SECRET: 'b',
        SMS_SENDER_ID: 'PartnerGH',
      }).sms.hubtel?.baseUrl,
    ).toBe('https://smsc.hubtel.com');
  });
});

describe('the development SMS outbox', () => {
  let local: TestPlatform;
  let remote: TestPlatform;
  beforeAll(async () => {
    local = await startPlatform();
    remote = await startPlatform({
      env: { PUBLIC_BASE_URL: 'https://couriers.example.gh' },
      listenHost: '0.0.0.0',
    });
  });
  afterAll(async () => {
    await local?.close();
    await remote?.close();
  });

  it('keeps messages and lists them, escaped, at /dev/sms on a local address', async () => {
    const empty = await local.fetch(`${local.url}/dev/sms`);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-security-policy')).toContain("default-src 'none'");
    const { DevSmsOutbox } = await import('../../../src/integrations/sms/index.ts');
    const outbox = new DevSmsOutbox(local.app.platform.db, local.app.log, local.url);
    await outbox.send({ to: '+233241234567', body: '<b>code</b> 123456' });
    const html = await (await local.fetch(`${local.url}/dev/sms`)).text();
    expect(html).toContain('+233241234567');
    expect(html).toContain('&lt;b&gt;code&lt;/b&gt; 123456');
  });

  it('answers only this machine (the socket, never a header), whatever the public address', async () => {
    const port = new URL(remote.url).port;
    expect((await fetch(`http://${networkAddress()}:${port}/dev/sms`)).status).toBe(404);
    expect(
      (
        await fetch(`http://${networkAddress()}:${port}/dev/sms`, {
          headers: { 'x-forwarded-for': '127.0.0.1' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`http://127.0.0.1:${port}/dev/sms`, { headers: { 'x-real-ip': '203.0.113.9' } }))
        .status,
    ).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/dev/sms`)).status).toBe(200);
  });
});
