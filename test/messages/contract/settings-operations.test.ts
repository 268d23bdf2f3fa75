import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

const GET = '/api/v1/delivery/messages.settings.get';
const UPDATE = '/api/v1/delivery/messages.settings.update';
let p: TestPlatform;
let s: PartnerSetup;

beforeAll(async () => {
  p = await startPlatform({ socket: false, env: { RECIPIENT_SMS_PESEWAS_PER_SEGMENT: '6' } });
  s = await createPartner(p);
});
afterAll(() => p?.close());

const read = async (setup = s) => (await setup.client.send<any>('GET', GET)).body;

describe('delivery.messages.settings', () => {
  it('answers the defaults for an app that never chose: the delivery code alone, in English', async () => {
    expect(await read()).toEqual({
      status: 'success',
      message: 'Message settings',
      data: {
        messages: { assigned: true, courier_near: false, delivered: false, delivery_failed: false },
        sender_name: null,
        language: 'en',
        prices: { sms_pesewas_per_segment: 6, whatsapp_pesewas: 0 },
      },
    });
  });

  it('saves what is sent and keeps the rest; null gives the platform its sender id back', async () => {
    const res = await s.client.send<any>('POST', UPDATE, {
      body: { messages: { delivered: true }, sender_name: 'Kente Shop', language: 'ga' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      messages: { assigned: true, courier_near: false, delivered: true, delivery_failed: false },
      sender_name: 'Kente Shop',
      language: 'ga',
    });
    await s.client.send<any>('POST', UPDATE, { body: { messages: { assigned: false } } });
    expect((await read()).data).toMatchObject({
      messages: { assigned: false, delivered: true },
      sender_name: 'Kente Shop',
      language: 'ga',
    });
    await s.client.send<any>('POST', UPDATE, { body: { sender_name: null } });
    expect((await read()).data.sender_name).toBeNull();
  });

  it('belong to the app: another app keeps its own', async () => {
    const other = await createPartner(p);
    await other.client.send<any>('POST', UPDATE, { body: { language: 'tw' } });
    expect((await read(other)).data.language).toBe('tw');
    expect((await read()).data.language).toBe('ga');
  });

  it('refuse a sender name that is no SMS sender id, a language we do not write, or unknown fields, changing nothing', async () => {
    const before = await read();
    const refusals: [unknown, number, string][] = [
      [{ sender_name: 'KenteShop123' }, 400, 'INVALID_SENDER_NAME'],
      [{ sender_name: 'Kente\u0000' }, 400, 'VALIDATION_ERROR'],
      [{ sender_name: '12345' }, 400, 'INVALID_SENDER_NAME'],
      [{ sender_name: 'Kente', language: 'fr' }, 400, 'VALIDATION_ERROR'],
      [{ messages: { assigned: 'yes' } }, 400, 'VALIDATION_ERROR'],
      [{ messages: { marketing: true } }, 400, 'VALIDATION_ERROR'],
      [{ colour: 'red' }, 400, 'VALIDATION_ERROR'],
      // Nothing named to change: no write that changes nothing (the hostile-input fuzz sends `{}`).
      [{}, 400, 'VALIDATION_ERROR'],
      [{ messages: {} }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await s.client.send<any>('POST', UPDATE, { body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(await read()).toEqual(before);
  });

  it('need a signed request with the scope', async () => {
    const reader = await createPartner(p, { scopes: ['delivery:read'] });
    expect((await reader.client.send<any>('GET', GET)).status).toBe(200);
    const denied = await reader.client.send<any>('POST', UPDATE, { body: { language: 'tw' } });
    expect([denied.status, denied.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    for (const [method, path] of [
      ['GET', GET],
      ['POST', UPDATE],
    ] as const) {
      const anonymous = await p.fetch(`${p.url}${path}`, {
        method,
        ...(method === 'POST'
          ? { body: '{}', headers: { 'content-type': 'application/json' } }
          : {}),
      });
      expect([anonymous.status, ((await anonymous.json()) as any).code]).toEqual([
        401,
        'MISSING_API_KEY',
      ]);
    }
  });
});
