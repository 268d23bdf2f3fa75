import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient, type CreateOrderRequest } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  singlePass,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { freePort, ROOT } from '../../helpers/process.ts';
import { createShop, saleBody } from '../../sdk/support.ts';
import { walletPartner } from '../../wallet/helpers.ts';

// The partner CLI, `ppctl`, as a user runs it: a subprocess of packages/sdk/bin/ppctl.mjs (tsx, no build),
// its config in a temporary PARTNER_CONFIG_DIR, against a real server.

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;
let seller: PartnerSetup;
let tmp: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment of a run: no PARTNER_* from the outside, credentials of `as` unless `configDir` is given. */
function envFor(opts: {
  as?: PartnerSetup;
  configDir?: string;
  env?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('PARTNER_')) delete env[k];
  env.PARTNER_CONFIG_DIR = opts.configDir ?? join(tmp, 'unconfigured');
  if (opts.as)
    Object.assign(env, {
      PARTNER_API_KEY: opts.as.apiKey,
      PARTNER_SIGNING_SECRET: opts.as.signingSecret,
      PARTNER_BASE_URL: p.url,
    });
  return { ...env, ...opts.env };
}

function cli(
  args: string[],
  opts: { as?: PartnerSetup; configDir?: string; env?: Record<string, string> } = { as: staging },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['packages/sdk/bin/ppctl.mjs', ...args],
      { cwd: ROOT, env: envFor(opts), timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const json = (run: Run) => JSON.parse(run.stdout);
const REQUEST_ERROR = /^error: .+ \(([A-Z_]+), request req_\w+\)$/m;

// What is tested is the CLI, the same whatever the server's database (whose answers the API's own
// contract tests check on both): one pass runs it.
describe.runIf(singlePass)('ppctl (the partner CLI)', () => {
  beforeAll(async () => {
    // The dispatcher is on for `webhooks listen`, a local receiver; apps without a webhook URL get no deliveries.
    p = await startPlatform({
      env: { WEBHOOK_DISPATCHER: 'on', WEBHOOK_POLL_MS: '20', WEBHOOK_LOCAL_DESTINATIONS: 'on' },
    });
    const saleScopes = ['safe:read', 'safe:write', 'delivery:read', 'delivery:write'];
    [staging, production, seller] = await Promise.all([
      createPartner(p),
      walletPartner(p),
      createPartner(p, { environment: 'production', scopes: saleScopes }),
    ]);
    tmp = await mkdtemp(join(tmpdir(), 'partner-cli-'));
  });
  afterAll(async () => {
    await p.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('configure stores credentials with mode 0600 (dir 0700), from flags or a credentials file; later commands use them', async () => {
    const dir = join(tmp, 'config-a');
    const flags = await cli(
      [
        'configure',
        '--api-key',
        staging.apiKey,
        '--signing-secret',
        staging.signingSecret,
        '--base-url',
        `${p.url}/`,
      ],
      { configDir: dir },
    );
    expect(flags.code, flags.stderr).toBe(0);
    expect(flags.stdout).toContain(join(dir, 'config.json'));
    expect(flags.stdout).not.toContain(staging.signingSecret);
    expect(flags.stdout).not.toContain(staging.apiKey);
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual({
      api_key: staging.apiKey,
      signing_secret: staging.signingSecret,
      base_url: p.url,
    });
    expect(await cli(['health'], { configDir: dir })).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^delivery: +ok\nsafe-catalog: +ok\n$/),
    });

    // The file `npm start` writes (data/sandbox-credentials.json) is read as is.
    const creds = join(tmp, 'sandbox-credentials.json');
    await writeFile(
      creds,
      JSON.stringify({
        base_url: p.url,
        partner_id: staging.partnerId,
        api_key: staging.apiKey,
        signing_secret: staging.signingSecret,
        webhook_secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
      }),
    );
    const fromFile = await cli(['configure', '--from', creds, '--json'], {
      configDir: join(tmp, 'config-b'),
    });
    expect(json(fromFile)).toMatchObject({
      base_url: p.url,
      webhook_secret: 'stored',
      api_key: expect.stringMatching(/^pk_staging_[\w-]{4}…[\w-]{4}$/),
    });
    expect((await stat(join(tmp, 'config-b', 'config.json'))).mode & 0o777).toBe(0o600);
    expect(
      await cli(['configure', '--api-key', 'pk_staging_x'], { configDir: join(tmp, 'config-c') }),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: ppctl configure') });
  });

  it('usage errors exit 2; API errors print code and request id and exit 1; network errors exit 1; --version', async () => {
    const [unknown, group, noTo, badFlag, unconfigured, refused, version] = await Promise.all([
      cli(['deliver']),
      cli(['catalog', 'orders']),
      cli(['estimate']),
      cli(['locations', '--bogus']),
      cli(['wallet', 'balance'], {}),
      cli(['health'], {
        as: staging,
        env: { PARTNER_BASE_URL: `http://127.0.0.1:${await freePort()}` },
      }),
      cli(['--version'], {}),
    ]);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "deliver"'),
    });
    expect(group).toMatchObject({
      code: 2,
      stderr: 'error: catalog orders needs a subcommand: create, get, verify\n',
    });
    const pkg = JSON.parse(await readFile(join(ROOT, 'packages/sdk/package.json'), 'utf8'));
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(noTo).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '--to LAT,LNG is required\nusage: ppctl estimate --to LAT,LNG',
      ),
    });
    expect(badFlag.code).toBe(2);
    expect(unconfigured).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('ppctl configure'),
    });
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^error: GET \/api\/v1\/[a-z-]+\/health failed: .*ECONNREFUSED/,
      ),
    });
    const staged = await cli(['wallet', 'balance']);
    expect(staged.code).toBe(1);
    expect(REQUEST_ERROR.exec(staged.stderr)?.[1]).toBe('PRODUCTION_KEY_REQUIRED');
  });

  it('takes the global flags anywhere on the line; --base-url overrides the configured server for one call', async () => {
    const order = orderBody();
    const file = join(tmp, 'global-flags.json');
    await writeFile(file, JSON.stringify(order));
    const created = await cli(['--json', 'orders', 'create', '-f', file]);
    expect(created.code, created.stderr).toBe(0);
    const id = json(created).data.order_details.order_id as string;
    const [after, between, byRef] = await Promise.all([
      cli(['orders', 'get', id, '--json']),
      cli(['orders', '--json', 'track', id]),
      cli(['orders', 'get', '--reference', order.order_reference, '--json']),
    ]);
    expect(
      [after, between, byRef].map((r) => json(r).data.order_id ?? json(r).data.internal_order_id),
    ).toEqual([id, id, id]);
    const elsewhere = {
      as: staging,
      env: { PARTNER_BASE_URL: `http://127.0.0.1:${await freePort()}` },
    };
    const [before, last] = await Promise.all([
      cli(['--base-url', p.url, 'health'], elsewhere),
      cli(['health', '--json', '--base-url', `${p.url}/`], elsewhere),
    ]);
    expect(before).toMatchObject({ code: 0, stdout: expect.stringMatching(/^delivery: +ok$/m) });
    expect(json(last)).toEqual({
      delivery: expect.objectContaining({ status: 'ok' }),
      'safe-catalog': expect.objectContaining({ status: 'ok' }),
    });
    expect(await cli(['health', '--base-url', 'localhost'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--base-url must be an http(s) URL'),
    });
  });

  it('suggests the command or option meant, and the --reference lookup for a value that is not an order id', async () => {
    const [command, subcommand, option, global, far] = await Promise.all([
      cli(['order', 'get', 'dlv_x']),
      cli(['orders', 'craete', '-f', 'x.json']),
      cli(['orders', 'get', '--refrence', 'ACME-1001']),
      cli(['estimate', '--to', '5.6,-0.2', '--jsn']),
      cli(['shipments']),
    ]);
    expect(command).toMatchObject({
      code: 2,
      stderr: 'error: unknown command "order" (did you mean "orders"?); see ppctl --help\n',
    });
    expect(subcommand).toMatchObject({
      code: 2,
      stderr: 'error: unknown command "orders craete" (did you mean "orders create"?)\n',
    });
    expect(option).toMatchObject({
      code: 2,
      stderr:
        'error: unknown option --refrence (did you mean --reference?)\nusage: ppctl orders get ORDER_ID | --reference REF\n',
    });
    expect(global).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: unknown option --jsn \(did you mean --json\?\)$/m),
    });
    expect(far).toMatchObject({
      code: 2,
      stderr: 'error: unknown command "shipments"; see ppctl --help\n',
    });

    const order = orderBody({ order_reference: `ACME-${Date.now()}` });
    await staging.client.delivery.orders.create(order as CreateOrderRequest);
    const [byId, track, sale] = await Promise.all([
      cli(['orders', 'get', order.order_reference]),
      cli(['orders', 'track', order.order_reference]),
      cli(['catalog', 'orders', 'get', 'ACME-1'], { as: seller }),
    ]);
    for (const run of [byId, track]) {
      expect(run.code).toBe(1);
      expect(REQUEST_ERROR.exec(run.stderr)?.[1]).toBe('ORDER_NOT_FOUND');
      expect(run.stderr).toContain(
        `\nhint: "${order.order_reference}" is not an id of ours (those start with dlv_); to look it up by your reference: ppctl orders get --reference ${order.order_reference}\n`,
      );
    }
    expect(sale.stderr).toMatch(
      /\nhint: "ACME-1" is not an id of ours \(those start with sale_\); to look it up by your reference: ppctl catalog orders get --reference ACME-1\n$/,
    );
    // An id of ours that is not found gets no hint.
    expect((await cli(['orders', 'get', 'dlv_00000000000000000000000000'])).stderr).not.toContain(
      'hint:',
    );
    expect(
      json(await cli(['orders', 'get', '--reference', order.order_reference, '--json'])).data
        .order_reference,
    ).toBe(order.order_reference);
  });

  it('estimate: a readable block and table, or --json', async () => {
    const args = [
      'estimate',
      '--to',
      '5.635,-0.161',
      '--from',
      '5.549,-0.209',
      '--priority',
      'economy',
    ];
    const [human, machine] = await Promise.all([cli(args), cli([...args, '--json'])]);
    expect(human.code, human.stderr).toBe(0);
    const data = json(machine).data;
    expect(human.stdout).toMatch(
      new RegExp(`^price: +GHS ${data.estimated_price.toFixed(2)}$`, 'm'),
    );
    expect(human.stdout).toMatch(/^PRIORITY +PRICE +DESCRIPTION$/m);
    expect(human.stdout).toMatch(/^economy +GHS \d+\.\d\d +Economy/m);
    expect(data.priority_level).toBe('economy');
  });

  it('estimate shows the quote it locks; orders create --quote redeems it, once', async () => {
    const quoted = await cli(['estimate', '--to', '5.635,-0.161', '--from', '5.549,-0.209']);
    expect(quoted.code, quoted.stderr).toBe(0);
    const quoteId = /^quote: +(quo_[0-9A-Z]{26}) \(price held until \S+Z\)$/m.exec(
      quoted.stdout,
    )?.[1];
    expect(quoteId, quoted.stdout).toBeDefined();
    const order = orderBody();
    order.pickup.coordinates = { lat: 5.549, lng: -0.209 };
    order.delivery.coordinates = { lat: 5.635, lng: -0.161 };
    order.delivery.digital_address = 'ga-183-8164';
    const file = join(tmp, 'quoted-order.json');
    await writeFile(file, JSON.stringify(order));
    const created = await cli(['orders', 'create', '-f', file, '--quote', quoteId!]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^quote: +${quoteId}$`, 'm'));
    const id = /^order id: +(dlv_\S+)$/m.exec(created.stdout)![1]!;
    expect((await cli(['orders', 'get', id])).stdout).toMatch(
      /^drop-off GhanaPostGPS: +GA-183-8164$/m,
    );
    await writeFile(
      file,
      JSON.stringify({ ...order, order_reference: `${order.order_reference}-2` }),
    );
    const again = await cli(['orders', 'create', '-f', file, '--quote', quoteId!]);
    expect(again.code).toBe(1);
    expect(REQUEST_ERROR.exec(again.stderr)?.[1]).toBe('QUOTE_ALREADY_USED');
  });

  it('estimate lists the windows it offers; orders create --ready-at --deadline books one, and a refusal shows its code', async () => {
    const estimated = await cli(['estimate', '--to', '5.635,-0.161']);
    expect(estimated.code, estimated.stderr).toBe(0);
    const [, readyAt, deadline] =
      /^(\d{4}-\d\d-\d\dT\S+Z) +(\d{4}-\d\d-\d\dT\S+Z)$/m.exec(estimated.stdout) ?? [];
    expect(readyAt, estimated.stdout).toBeDefined();
    const file = join(tmp, 'windowed-order.json');
    await writeFile(file, JSON.stringify(orderBody()));
    const created = await cli([
      'orders',
      'create',
      '-f',
      file,
      '--ready-at',
      readyAt!,
      '--deadline',
      deadline!,
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^ready for pickup: +${readyAt}$`, 'm'));
    expect(created.stdout).toMatch(new RegExp(`^deadline: +${deadline}$`, 'm'));

    await writeFile(file, JSON.stringify(orderBody()));
    const refused = await cli([
      'orders',
      'create',
      '-f',
      file,
      '--ready-at',
      '2020-01-06T10:00:00Z',
    ]);
    expect(refused.code).toBe(1);
    expect(REQUEST_ERROR.exec(refused.stderr)?.[1]).toBe('DELIVERY_WINDOW_IN_PAST');
  });

  it('orders create, get (by id and reference), track, cancel; cancelling twice is INVALID_ORDER_STATUS', async () => {
    const order = orderBody();
    const file = join(tmp, 'order.json');
    await writeFile(file, JSON.stringify(order));
    const created = await cli(['orders', 'create', '-f', file, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = json(created).data.order_details.order_id as string;

    const [get, byRef, track] = await Promise.all([
      cli(['orders', 'get', id]),
      cli(['orders', 'get', '--reference', order.order_reference, '--json']),
      cli(['orders', 'track', id]),
    ]);
    expect(get.stdout).toMatch(new RegExp(`^order id: +${id}$`, 'm'));
    expect(get.stdout).toMatch(/^status: +placed$/m);
    expect(json(byRef).data.internal_order_id).toBe(id);
    expect(track.stdout).toMatch(/^\[x\] +placed +Order placed/m);
    expect(track.stdout).toMatch(/^\[ \] +delivered/m);
    expect(track.stdout).toMatch(/phone …4567/);

    const cancelled = await cli([
      'orders',
      'cancel',
      id,
      '--reason',
      'Customer changed their mind',
    ]);
    expect(cancelled.stdout).toMatch(/^status: +cancelled$/m);
    expect(cancelled.stdout).toMatch(/^reason: +Customer changed their mind$/m);
    const again = await cli(['orders', 'cancel', id]);
    expect(again.code).toBe(1);
    expect(REQUEST_ERROR.exec(again.stderr)?.[1]).toBe('INVALID_ORDER_STATUS');
    expect(await cli(['orders', 'get'])).toMatchObject({ code: 2 });
  });

  it('locations: a table, filters, coordinates on request', async () => {
    const [human, machine] = await Promise.all([
      cli(['locations', '--region', 'greater accra', '--coordinates']),
      cli(['locations', '--zone', 'Accra Metro', '--json']),
    ]);
    expect(human.stdout).toMatch(/^ID +NAME +REGION +ZONE +COORDINATES$/m);
    expect(human.stdout).toMatch(/Greater Accra .+ \d+\.\d+,-\d+\.\d+$/m);
    expect(human.stdout).toMatch(/^\d+ locations?$/m);
    expect(json(machine).data.filters).toEqual({ region: null, zone: 'Accra Metro' });
  });

  it("messages settings and messages set: the recipient texts of the key's app", async () => {
    const shown = await cli(['messages', 'settings']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^assigned: +on$/m);
    expect(shown.stdout).toMatch(/^sender name: +\(the platform's\)$/m);
    const set = await cli([
      'messages',
      'set',
      '--on',
      'delivered,courier_near',
      '--sender',
      'KenteShop',
      '--language',
      'tw',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^delivered: +on$/m);
    expect(set.stdout).toMatch(/^language: +tw$/m);
    expect(json(await cli(['messages', 'settings', '--json'])).data).toMatchObject({
      messages: { assigned: true, courier_near: true, delivered: true, delivery_failed: false },
      sender_name: 'KenteShop',
    });
    const bad = await cli(['messages', 'set', '--sender', 'Far too long a name']);
    expect(REQUEST_ERROR.exec(bad.stderr)?.[1]).toBe('INVALID_SENDER_NAME');
    const usage = await cli(['messages', 'set', '--on', 'marketing']);
    expect([usage.code, usage.stderr]).toEqual([
      2,
      expect.stringMatching(/unknown message marketing/),
    ]);
  });

  it('wallet balance, topup and verify with a production key', async () => {
    expect((await cli(['wallet', 'balance'], { as: production })).stdout).toMatch(
      /^balance: +GHS 0\.00$/m,
    );
    const topup = await cli(['wallet', 'topup', '50'], { as: production });
    expect(topup.stdout).toMatch(
      /^checkout url: +http:\/\/127\.0\.0\.1:\d+\/sandbox\/checkout\/\S+$/m,
    );
    const ref = /^reference: +(serviceD_WA[0-9a-f]{16})$/m.exec(topup.stdout)![1]!;
    expect(topup.stdout).toContain(`ppctl wallet verify ${ref}`);
    expect(
      json(await cli(['wallet', 'verify', ref, '--json'], { as: production })).data,
    ).toMatchObject({ state: 'pending', credited: false });
    expect((await cli(['wallet', 'topup', 'lots'], { as: production })).code).toBe(2);
  });

  it('orders bulk from CSV: quoted fields, a summary, failures listed, exit 1 when any failed', async () => {
    const refs = [
      `csv-${crypto.randomUUID()}`,
      `csv-${crypto.randomUUID()}`,
      `csv-${crypto.randomUUID()}`,
    ];
    const csv = [
      'order_reference,customer_name,customer_phone,delivery_address,delivery_city,delivery_region,delivery_lat,delivery_lng,item,pickup_contact_person,pickup_contact_phone,pickup_lat,pickup_lng,payment_is_paid',
      `${refs[0]},Ama Mensah,024 123 4567,"12 Oxford Street, Osu",Accra,Greater Accra,5.556,-0.182,"Sandals, two pairs",Kofi,0201234567,5.549,-0.209,true`,
      `${refs[1]},"Kwame ""KB"" Boateng",0241234568,Ring Road,Accra,Greater Accra,,,Books,Kofi,0201234567,,,`,
      `${refs[2]},No Phone,,Ring Road,Accra,Greater Accra,,,Books,Kofi,0201234567,,,`,
    ].join('\r\n');
    const file = join(tmp, 'orders.csv');
    await writeFile(file, csv);
    const [human, machine] = await Promise.all([
      cli(['orders', 'bulk', '-f', file, '--chunk', '2']),
      cli(['orders', 'bulk', '-f', file, '--json'], { as: production }),
    ]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^total: +3\ncreated: +2\nfailed: +1$/m);
    expect(human.stdout).toMatch(
      new RegExp(`^3 +${refs[2]} +400 +MISSING_REQUIRED_FIELD +customer\\.phone is required`, 'm'),
    );
    const first = (await staging.client.delivery.orders.getByReference(refs[0]!)).data;
    expect(first.order_info).toMatchObject({ recipient_address: '12 Oxford Street, Osu, Accra' });
    expect(
      (await staging.client.delivery.orders.getByReference(refs[1]!)).data.order_info
        .recipient_name,
    ).toBe('Kwame "KB" Boateng');
    expect(json(machine).summary).toEqual({
      total: 3,
      sent: 3,
      created: 2,
      existing: 0,
      failed: 1,
    });

    await writeFile(join(tmp, 'bad.csv'), 'order_reference,colour\nx,red\n');
    expect(await cli(['orders', 'bulk', '-f', join(tmp, 'bad.csv')])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown CSV column "colour"'),
    });
  });

  it('orders bulk re-runs report the orders an earlier run created as already created, and exit 0', async () => {
    const first = [orderBody(), orderBody()];
    const file = join(tmp, 'rerun.json');
    await writeFile(file, JSON.stringify(first));
    const once = await cli(['orders', 'bulk', '-f', file, '--json']);
    expect(once.code, once.stderr).toBe(0);
    expect(json(once).summary).toEqual({ total: 2, sent: 2, created: 2, existing: 0, failed: 0 });
    const ids = json(once).results.map((r: any) => r.order_id as string);

    await writeFile(file, JSON.stringify([...first, orderBody()]));
    const twice = await cli(['orders', 'bulk', '-f', file]);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toMatch(/^total: +3\ncreated: +1\nalready created: +2\nfailed: +0$/m);
    const thrice = await cli(['orders', 'bulk', '-f', file, '--json']);
    expect(thrice.code, thrice.stderr).toBe(0);
    expect(json(thrice).summary).toEqual({ total: 3, sent: 3, created: 0, existing: 3, failed: 0 });
    expect(json(thrice).results.slice(0, 2)).toEqual(
      ids.map((order_id: string, i: number) =>
        expect.objectContaining({
          row: i + 1,
          order_reference: first[i]!.order_reference,
          ok: false,
          existing: true,
          order_id,
          code: 'DUPLICATE_ORDER_REFERENCE',
        }),
      ),
    );
  });

  it('catalog orders create, get (by sale id and by reference) and verify, with a production key', async () => {
    const shop = await createShop(p);
    const body = saleBody(shop);
    const file = join(tmp, 'sale.json');
    await writeFile(file, JSON.stringify(body));
    const created = await cli(['catalog', 'orders', 'create', '-f', file], { as: seller });
    expect(created.code, created.stderr).toBe(0);
    const saleId = /^sale id: +(\S+)$/m.exec(created.stdout)![1]!;
    expect(created.stdout).toMatch(/^state: +awaiting_delivery$/m);
    expect(created.stdout).toMatch(/^subtotal: +GHS 180\.00$/m);
    expect(created.stdout).toContain(`Once it is delivered: ppctl catalog orders verify ${saleId}`);

    const [byId, byRef, verified, again] = await Promise.all([
      cli(['catalog', 'orders', 'get', saleId], { as: seller }),
      cli(['catalog', 'orders', 'get', '--reference', body.external_reference, '--json'], {
        as: seller,
      }),
      cli(['catalog', 'orders', 'verify', saleId], { as: seller }),
      cli(['catalog', 'orders', 'create', '-f', file], { as: seller }),
    ]);
    expect(byId.stdout).toMatch(new RegExp(`^your reference: +${body.external_reference}$`, 'm'));
    expect(byId.stdout).toMatch(/^payment: +cod, /m);
    expect(byId.stdout).toMatch(
      /Handwoven kente stole \(Gold and green\) +1 +GHS 180\.00 +GHS 180\.00$/m,
    );
    expect(json(byRef).data.sale_id).toBe(saleId);
    expect(verified.stdout).toMatch(/^state: +awaiting_delivery\nsettled: +no$/m);
    expect(again.code).toBe(1);
    expect(REQUEST_ERROR.exec(again.stderr)?.[1]).toBe('DUPLICATE_REFERENCE');
    expect(
      await cli(['catalog', 'orders', 'get', saleId, '--reference', 'x'], { as: seller }),
    ).toMatchObject({ code: 2 });
  });

  it('catalog list and get', async () => {
    const shop = await createShop(p);
    const [list, get] = await Promise.all([
      cli(['catalog', 'list', '--vendor', shop.vendorId, '--json']),
      cli(['catalog', 'get', shop.productId]),
    ]);
    expect(json(list).data.products.map((x: any) => x.product_id)).toEqual([shop.productId]);
    expect(get.stdout).toMatch(/^title: +Handwoven kente stole$/m);
    expect(get.stdout).toMatch(/Gold and green +GHS 180\.00 +yes$/m);
  });

  it('catalog payouts list and get, with a production key holding payouts:read', async () => {
    const payee = await createPartner(p, { environment: 'production', scopes: ['payouts:read'] });
    const [list, listed, missing] = await Promise.all([
      cli(['catalog', 'payouts', 'list'], { as: payee }),
      cli(['catalog', 'payouts', 'list', '--status', 'paid', '--json'], { as: payee }),
      cli(['catalog', 'payouts', 'get', 'pout_00000000000000000000000000'], { as: payee }),
    ]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^available: +GHS 0\.00$/m);
    expect(json(listed).data).toMatchObject({ payouts: [], count: 0, next_cursor: null });
    expect([missing.code, REQUEST_ERROR.exec(missing.stderr)?.[1]]).toEqual([
      1,
      'PAYOUT_NOT_FOUND',
    ]);
  });

  it('webhooks listen verifies deliveries from the platform, rejects forged ones, and stops after --count', async () => {
    const port = await freePort();
    const partner = (await p.admin('POST', '/partners', { name: 'Listener' })).body;
    const app = (
      await p.admin('POST', `/partners/${partner.partner_id}/apps`, {
        name: 'App',
        webhook_url: `http://127.0.0.1:${port}/hooks`,
      })
    ).body;
    const key = (
      await p.admin('POST', `/apps/${app.app_id}/keys`, { environment: 'staging', scopes: ['*'] })
    ).body;
    const child = spawn(
      process.execPath,
      [
        'packages/sdk/bin/ppctl.mjs',
        'webhooks',
        'listen',
        '--port',
        String(port),
        '--count',
        '1',
        '--json',
      ],
      {
        cwd: ROOT,
        env: envFor({ env: { PARTNER_WEBHOOK_SECRET: app.webhook_secret } }),
      },
    );
    let stdout = '';
    let stderr = '';
    let orderId = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d) => (stderr += d) && /listening on/.test(stderr) && resolve()),
    );
    try {
      const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        headers: {
          'webhook-id': 'msg_x',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAA',
        },
        body: '{}',
      });
      expect(forged.status).toBe(400);
      const client = new PartnerClient({
        apiKey: key.api_key,
        signingSecret: key.signing_secret,
        baseUrl: p.url,
      });
      orderId = (await client.delivery.orders.create(orderBody() as CreateOrderRequest)).data
        .order_details.order_id;
    } finally {
      const code = await Promise.race([
        exited,
        new Promise<string>((r) => setTimeout(() => r('timeout'), 15_000)),
      ]);
      if (code === 'timeout') child.kill();
      expect(code).toBe(0);
    }
    expect(stderr).toMatch(/rejected POST \/hooks: no signature matches/);
    const event = JSON.parse(stdout.trim());
    expect(event).toMatchObject({
      type: 'delivery.order.created',
      environment: 'staging',
      webhook_id: expect.any(String),
      data: { order_id: orderId, status: 'placed', sequence: 1 },
    });
  });
});
