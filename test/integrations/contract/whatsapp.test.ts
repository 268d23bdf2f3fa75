import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import {
  createWhatsApp,
  MetaWhatsApp,
  NOT_ON_WHATSAPP,
  WhatsAppError,
} from '../../../src/integrations/whatsapp/index.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../fakes/whatsapp.ts';

describe('WhatsApp Cloud API adapter against the fake', () => {
  let fake: FakeWhatsApp;
  let wa: MetaWhatsApp;
  const config = (over: Partial<ConstructorParameters<typeof MetaWhatsApp>[0]> = {}) => ({
    phoneNumberId: fake.phoneNumberId,
    accessToken: fake.accessToken,
    template: fake.template,
    language: fake.language,
    apiUrl: fake.url,
    timeoutMs: 500,
    ...over,
  });
  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    wa = new MetaWhatsApp(config());
  });
  afterAll(() => fake.close());

  it('sends the approved authentication template with the code in the body and the copy-code button, with the bearer token', async () => {
    await wa.sendCode({ to: '+233241234567', code: '0420' });
    expect(fake.requests.at(-1)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'template',
      template: {
        name: 'delivery_code',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '0420' }] },
          {
            type: 'button',
            sub_type: 'url',
            index: '0',
            parameters: [{ type: 'text', text: '0420' }],
          },
        ],
      },
    });
    expect(fake.messages.at(-1)).toMatchObject({
      to: '233241234567',
      template: 'delivery_code',
      code: '0420',
    });
  });

  it('tells a recipient who is not on WhatsApp (131026) apart from other refusals', async () => {
    fake.notOnWhatsApp.add('233200000001');
    const err = await wa.sendCode({ to: '+233200000001', code: '1234' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WhatsAppError);
    expect(err).toMatchObject({
      metaCode: NOT_ON_WHATSAPP,
      message: expect.stringContaining('cannot receive WhatsApp messages (code 131026)'),
    });
  });

  it('reports a bad token (190) without the token, and a wrong template name or language (132001)', async () => {
    const wrong = new MetaWhatsApp(config({ accessToken: 'EAAnot-the-token' }));
    const err = await wrong
      .sendCode({ to: '+233241234567', code: '1234' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      metaCode: 190,
      message: expect.stringMatching(/HTTP 401 \(code 190\): Error validating access token/),
    });
    expect((err as Error).message).not.toContain('EAAnot-the-token');
    await expect(
      new MetaWhatsApp(config({ language: 'en_US' })).sendCode({
        to: '+233241234567',
        code: '1234',
      }),
    ).rejects.toMatchObject({ metaCode: 132001 });
  });

  it.each([
    ['rate_limit', /HTTP 400 \(code 130429\): Cloud API message throughput/, 130429],
    ['500', /HTTP 500 \(code 131000\)/, 131000],
    ['garbage', /unreadable answer/, undefined],
    ['timeout', /no answer within 500 ms/, undefined],
  ] as const)(
    'turns a %s into a WhatsAppError, once (no retry)',
    async (kind, message, metaCode) => {
      fake.failNext(kind);
      const before = fake.requests.length;
      const err = await wa.sendCode({ to: '+233241234567', code: '1234' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WhatsAppError);
      expect(err).toMatchObject({ message: expect.stringMatching(message), metaCode });
      expect(fake.requests.length).toBe(before + 1);
    },
  );

  it('reports a refused connection as a network failure', async () => {
    await expect(
      new MetaWhatsApp(config({ apiUrl: 'http://127.0.0.1:1/v21.0' })).sendCode({
        to: '+233241234567',
        code: '1234',
      }),
    ).rejects.toThrow(/network failure/);
  });
});

describe('WhatsApp settings', () => {
  const base = { ADMIN_TOKEN: 'x'.repeat(24) };
  const meta = {
    ...base,
    WHATSAPP_PROVIDER: 'meta',
    WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    WHATSAPP_ACCESS_TOKEN: 'EAAtoken',
    WHATSAPP_TEMPLATE: 'delivery_code',
  };

  it('are off by default: no sender, delivery codes by SMS only', () => {
    expect(loadConfig(base).whatsapp.meta).toBeUndefined();
    expect(createWhatsApp(loadConfig(base).whatsapp)).toBeUndefined();
  });

  it('need the phone number id, token and template with WHATSAPP_PROVIDER=meta, each named', () => {
    expect(() => loadConfig({ ...base, WHATSAPP_PROVIDER: 'meta' })).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID.*WHATSAPP_ACCESS_TOKEN.*WHATSAPP_TEMPLATE/,
    );
    expect(() => loadConfig({ ...meta, WHATSAPP_PHONE_NUMBER_ID: '+233241234567' })).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID/,
    );
    expect(() => loadConfig({ ...meta, WHATSAPP_TEMPLATE: 'Delivery Code' })).toThrow(
      /WHATSAPP_TEMPLATE/,
    );
    expect(() => loadConfig({ ...meta, WHATSAPP_TEMPLATE_LANGUAGE: 'english' })).toThrow(
      /WHATSAPP_TEMPLATE_LANGUAGE/,
    );
    expect(() => loadConfig({ ...meta, WHATSAPP_API_URL: 'graph.facebook.com' })).toThrow(
      /WHATSAPP_API_URL/,
    );
    expect(() => loadConfig({ ...meta, WHATSAPP_TIMEOUT_MS: '0' })).toThrow(/WHATSAPP_TIMEOUT_MS/);
    expect(() => loadConfig({ ...base, WHATSAPP_PROVIDER: 'twilio' })).toThrow(
      /WHATSAPP_PROVIDER must be one of none, meta/,
    );
  });

  it("default to Meta's Graph API v21.0, language en and a 5 s timeout", () => {
    expect(loadConfig(meta).whatsapp.meta).toEqual({
      phoneNumberId: '106540352242922',
      accessToken: 'EAAtoken',
      template: 'delivery_code',
      language: 'en',
      apiUrl: 'https://graph.facebook.com/v21.0',
      timeoutMs: 5000,
    });
    expect(createWhatsApp(loadConfig(meta).whatsapp)?.summary).toContain('graph.facebook.com');
  });
});
