import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../../../src/platform/outbound/destinations.ts';
import { orderBody } from '../../delivery/fixtures.ts';
import { FakeDns, PUBLIC_ADDRESSES } from '../../helpers/dns.ts';
import {
  addKey,
  countRows,
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { eventsAbout } from '../../helpers/events.ts';
import { Tripwire, until } from '../receiver.ts';

// Every spelling of a destination that is not globally routable; names answer from the DNS below.
const REFUSED_HOSTS = [
  '127.0.0.1',
  '2130706433',
  '0x7f.1',
  '017700000001',
  '169.254.169.254',
  '2852039166',
  '0xa9.0xfe.0xa9.0xfe',
  '0251.0376.0251.0376',
  '10.0.0.1',
  '100.64.0.1',
  '192.0.2.10',
  '198.18.0.1',
  '224.0.0.1',
  '0.0.0.0',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '[::127.0.0.1]',
  '[::a00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a9fe:a9fe]',
  '[2002:a9fe:a9fe::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[fe80::1]',
  '[fd00::1]',
  '[2001:db8::1]',
  '[ff02::1]',
  'localhost',
  'localhost.',
  'foo.localhost',
  'vm',
  'metadata.google.internal',
  'printer.local',
  'router.home.arpa',
  'private.example.com',
  'nat64.example.com',
  'mixed.example.com',
  'nowhere.example.com',
];

const dns = new FakeDns();
dns.table.set('private.example.com', ['10.0.0.7']);
dns.table.set('nat64.example.com', ['64:ff9b::a9fe:a9fe']);
dns.table.set('mixed.example.com', [...PUBLIC_ADDRESSES, '::ffff:127.0.0.1']);
// A rebinding name: public when the URL is checked, loopback from then on.
const asked = new Map<string, number>();
const resolveHost: Resolver = async (host) => {
  const name = host.replace(/\.$/, '');
  if (!name.startsWith('rebind.')) return dns.resolve(host);
  asked.set(name, (asked.get(name) ?? 0) + 1);
  return asked.get(name) === 1 ? PUBLIC_ADDRESSES : ['127.0.0.1'];
};

let p: TestPlatform;
let trip: Tripwire;
let staging: PartnerSetup;
let production: PartnerSetup;
const LIMITS = { reads_per_minute: 1000, writes_per_minute: 1000 };
beforeAll(async () => {
  trip = await new Tripwire().start();
  p = await startPlatform({
    socket: false,
    env: {
      WEBHOOK_DISPATCHER: 'on',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_RETRY_SCHEDULE: '0.05',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
    resolveHost,
  });
  production = await createPartner(p, { environment: 'production', rateLimits: LIMITS });
  staging = await addKey(p, production, { environment: 'staging' });
});
afterAll(async () => {
  await p.close();
  await trip.close();
});

const urlFor = (env: 'staging' | 'production', host: string) =>
  `${env === 'production' ? 'https' : 'http'}://${host}:${trip.port}/hook`;
const create = (who: PartnerSetup, body: unknown) =>
  who.client.send<any>('POST', '/api/v1/delivery/orders.create', { body });
const events = (orderId: string): Promise<any[]> => eventsAbout(p, orderId);

describe('webhook destinations when they are set', () => {
  it.each(['production', 'staging'] as const)(
    'orders.create refuses each one for a %s key: 400 INVALID_ORDER_PAYLOAD, nothing written',
    async (env) => {
      const who = env === 'production' ? production : staging;
      for (const host of REFUSED_HOSTS) {
        const body = orderBody({ webhook_url: urlFor(env, host) });
        const res = await create(who, body);
        expect([res.status, res.body.code], host).toEqual([400, 'INVALID_ORDER_PAYLOAD']);
        expect(
          res.body.details.map((d: { field: string }) => d.field),
          host,
        ).toEqual(['webhook_url']);
        expect(
          await countRows(
            p,
            'select count(*)::int as n from delivery_orders where order_reference = $1',
            [body.order_reference],
          ),
          host,
        ).toBe(0);
      }
      expect(
        (await create(who, orderBody({ webhook_url: urlFor(env, 'hooks.example.com') }))).status,
      ).toBe(201);
    },
  );

  it.each(['production', 'staging'] as const)(
    'orders.create_bulk fails each such item alone for a %s key',
    async (env) => {
      const who = env === 'production' ? production : staging;
      const orders = [
        ...REFUSED_HOSTS.map((host) => orderBody({ webhook_url: urlFor(env, host) })),
        orderBody({ webhook_url: urlFor(env, 'hooks.example.com.') }),
      ];
      const res = await who.client.send<any>('POST', '/api/v1/delivery/orders.create_bulk', {
        body: { orders },
      });
      expect(res.status).toBe(200);
      expect(res.body.summary).toEqual({
        total: orders.length,
        created: 1,
        failed: REFUSED_HOSTS.length,
      });
      res.body.results.slice(0, -1).forEach((r: any, i: number) => {
        expect(r, REFUSED_HOSTS[i]).toMatchObject({
          ok: false,
          status_code: 400,
          code: 'INVALID_ORDER_PAYLOAD',
          order_id: null,
        });
        expect(r.message, REFUSED_HOSTS[i]).toMatch(
          /^webhook_url must (point to a public|name a host that resolves)/,
        );
      });
      expect(res.body.results.at(-1)).toMatchObject({ ok: true, status_code: 201 });
    },
  );

  it("the operator API refuses each one as an app's webhook URL: 400 VALIDATION_ERROR, nothing written", async () => {
    const partner = (await p.admin('POST', '/partners', { name: 'Apps' })).body;
    const app = (
      await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
        name: 'Kept',
        webhook_url: 'https://hooks.example.com/kept',
      })
    ).body;
    for (const host of REFUSED_HOSTS) {
      for (const url of [urlFor('staging', host), urlFor('production', host)]) {
        const created = await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
          name: 'Hooks',
          webhook_url: url,
        });
        expect([created.status, created.body.code, created.body.details?.[0]?.field], url).toEqual([
          400,
          'VALIDATION_ERROR',
          'webhook_url',
        ]);
        const patched = await p.admin('PATCH', `/apps/${app.app_id}`, { webhook_url: url });
        expect([patched.status, patched.body.code], url).toEqual([400, 'VALIDATION_ERROR']);
      }
    }
    expect(
      await countRows(p, 'select count(*)::int as n from apps where partner_id = $1', [
        partner.partner_id,
      ]),
    ).toBe(1);
    expect(
      (await p.admin('GET', `/partners/${partner.partner_id}/apps`)).body.apps[0].webhook_url,
    ).toBe('https://hooks.example.com/kept');
  });
});

describe("an app's webhook URL once the app has a production key", () => {
  it('is refused over http when it is set, and a production key is refused while it is http; staging-only apps keep http', async () => {
    const partner = (await p.admin('POST', '/partners', { name: 'Going live' })).body;
    await p.admin('PATCH', `/partners/${partner.partner_id}`, { production_active: true });
    // A new app has no keys: http is fine for its staging (local testing) events.
    const app = (
      await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
        name: 'Shop',
        webhook_url: 'http://hooks.example.com/x',
      })
    ).body;
    expect(app.webhook_url).toBe('http://hooks.example.com/x');
    expect(
      (await p.admin('POST', `/apps/${app.app_id}/keys`, { environment: 'staging', scopes: ['*'] }))
        .status,
    ).toBe(201);

    const early = await p.admin('POST', `/apps/${app.app_id}/keys`, {
      environment: 'production',
      scopes: ['*'],
    });
    expect([early.status, early.body.code, early.body.details]).toEqual([
      400,
      'VALIDATION_ERROR',
      [
        {
          field: 'environment',
          issue:
            "production needs the app's webhook_url to suit production events: it must use https for production keys",
        },
      ],
    ]);
    expect(early.body.message).toContain(
      `partner-admin apps update ${app.app_id} --webhook-url https://`,
    );
    expect(
      await countRows(
        p,
        `select count(*)::int as n from api_keys where app_id = $1 and environment = 'production'`,
        [app.app_id],
      ),
    ).toBe(0);

    expect(
      (
        await p.admin('PATCH', `/apps/${app.app_id}`, {
          webhook_url: 'https://hooks.example.com/x',
        })
      ).status,
    ).toBe(200);
    const key = await p.admin('POST', `/apps/${app.app_id}/keys`, {
      environment: 'production',
      scopes: ['*'],
    });
    expect(key.status).toBe(201);

    const http = await p.admin('PATCH', `/apps/${app.app_id}`, {
      webhook_url: 'http://hooks.example.com/y',
    });
    expect([http.status, http.body.code, http.body.details]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ field: 'webhook_url', issue: 'must use https for production keys' }],
    ]);
    expect(http.body.message).toBe(
      'webhook_url must use https for production keys (the app has a production key; http and local receivers suit apps with staging keys alone).',
    );
    expect(
      (await p.admin('GET', `/partners/${partner.partner_id}/apps`)).body.apps[0].webhook_url,
    ).toBe('https://hooks.example.com/x');
    // Clearing the URL is always allowed; a revoked production key no longer holds the app to https.
    expect((await p.admin('PATCH', `/apps/${app.app_id}`, { webhook_url: null })).status).toBe(200);
    await p.admin('DELETE', `/keys/${key.body.key_id}`);
    expect(
      (await p.admin('PATCH', `/apps/${app.app_id}`, { webhook_url: 'http://hooks.example.com/y' }))
        .status,
    ).toBe(200);
  });
});

describe('webhook destinations when an event is sent', () => {
  it('dead-letters events whose stored destination breaks the rules, without dialling it', async () => {
    // Written straight to the database, as a URL stored before the rules were tightened would be.
    const stored = [
      '127.0.0.1',
      '2130706433',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      'localhost',
      'localhost.',
      'vm',
    ];
    const orderIds: string[] = [];
    for (const host of stored) {
      const owner = await createPartner(p, { environment: 'production' });
      const stagingKey = await addKey(p, owner, { environment: 'staging' });
      await p.app.platform.db.query('update apps set webhook_url = $1 where id = $2', [
        `https://${host}:${trip.port}/hook`,
        owner.appId,
      ]);
      for (const who of [owner, stagingKey])
        orderIds.push((await create(who, orderBody())).body.data.order_details.order_id);
    }
    for (const id of orderIds) {
      await until(async () => (await events(id))[0].delivery_status === 'dead');
      expect((await events(id))[0].last_error, id).toMatch(
        /^destination refused: must point to a public (address|host)/,
      );
    }
    expect(
      await countRows(
        p,
        `select count(*)::int as n from webhook_attempts a join outbox_events e on e.id = a.event_id where e.subject_id = any($1)`,
        [orderIds],
      ),
    ).toBe(0);
    expect(trip.connections).toBe(0);
  });

  it.each(['production', 'staging'] as const)(
    'refuses a %s name that resolves to loopback by the time it is sent, recording failed attempts',
    async (env) => {
      const who = env === 'production' ? production : staging;
      const created = await create(
        who,
        orderBody({ webhook_url: urlFor(env, `rebind.${env}.example.com`) }),
      );
      expect(created.status).toBe(201);
      const [event] = await events(created.body.data.order_details.order_id);
      await until(
        async () =>
          (await events(created.body.data.order_details.order_id))[0].delivery_status === 'dead',
      );
      const attempts = await p.app.platform.db.query<any>(
        'select status_code, error from webhook_attempts where event_id = $1 order by attempt',
        [event.id],
      );
      expect(attempts).toHaveLength(2);
      for (const a of attempts) {
        expect(a.status_code).toBeNull();
        expect(a.error).toMatch(
          new RegExp(
            `rebind\\.${env}\\.example\\.com resolves to 127\\.0\\.0\\.1, which is a loopback or private address`,
          ),
        );
      }
      expect(trip.connections).toBe(0);
    },
  );
});
