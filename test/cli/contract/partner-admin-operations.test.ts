import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { adminCli, field, json, SLOW, type Run } from '../admin-cli.ts';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p);
});
afterAll(() => p.close());

const cli = (...args: string[]): Promise<Run> => adminCli(p.url, args);

async function newOrder(): Promise<string> {
  const res = await s.client.send<any>('POST', '/api/v1/delivery/orders.create', {
    body: orderBody(),
  });
  return res.body.data.order_details.order_id;
}

const deadLetter = (orderId: string) =>
  p.app.platform.db.query<{ id: string }>(
    `update outbox_events set delivery_status = 'dead', attempts = 8, last_error = 'connection refused' where subject_id = $1 returning id`,
    [orderId],
  );

describe('partner-admin: webhooks, orders, locations', () => {
  it(
    'lists dead letters, shows one, replays it alone or all since a time, and enables an endpoint',
    async () => {
      const [{ id }] = (await deadLetter(await newOrder())) as [{ id: string }];
      const [dead, listed, shown] = await Promise.all([
        cli('webhooks', 'dead', '--app', s.appId),
        cli('webhooks', 'list', '--status', 'dead', '--json'),
        cli('webhooks', 'get', id),
      ]);
      expect(dead.stdout.split('\n')[0]).toMatch(
        /^DELIVERY ID +APP ID +ENV +TYPE +SUBJECT +STATUS +ATTEMPTS +LAST ANSWER +CREATED$/,
      );
      expect(dead.stdout).toMatch(
        new RegExp(
          `^${id} +${s.appId} +staging +delivery\\.order\\.created +dlv_\\w+ +dead +8 +connection refused `,
          'm',
        ),
      );
      expect(json(listed).deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toContain(
        id,
      );
      expect(shown.stdout).toMatch(/^status: +dead$/m);
      expect(shown.stdout).toContain('(no attempts yet)');
      expect(shown.stdout).toMatch(/^Payload:\n\{\n {2}"id": "evt_/m);

      const replayed = await cli('webhooks', 'replay', id);
      expect(replayed.stdout).toBe(
        `Replaying 1 deliveries from the start of the retry schedule: ${id}\n`,
      );
      expect(field(await cli('webhooks', 'get', id), 'status')).toBe('pending');
      await deadLetter(await newOrder());
      const since = await cli(
        'webhooks',
        'replay-since',
        s.appId,
        '--since',
        '2000-01-01T00:00:00Z',
        '--json',
      );
      expect(json(since).replayed).toHaveLength(1);
      expect(
        (await cli('webhooks', 'replay-since', s.appId, '--since', '2000-01-01T00:00:00Z')).stdout,
      ).toMatch(/^Nothing to replay/);

      const url = 'https://hooks.example.com/order-hook';
      await p.app.platform.db.query(
        'insert into webhook_disabled_endpoints (app_id, url) values ($1, $2)',
        [s.appId, url],
      );
      const enabled = await cli('webhooks', 'enable', s.appId, '--webhook-url', url);
      expect(enabled.stdout).toBe(`Enabled ${url}: events are sent to it again.\n`);
      expect((await cli('webhooks', 'enable', s.appId, '--webhook-url', url)).stdout).toBe(
        `${url} was not disabled: nothing to do.\n`,
      );
    },
    SLOW,
  );

  it(
    'moves an order, and an illegal move answers the allowed ones',
    async () => {
      const id = await newOrder();
      const moved = await cli('orders', 'move', id, '--to', 'accepted', '--note', 'Rider Kwame');
      expect(moved.code).toBe(0);
      expect(moved.stdout).toMatch(new RegExp(`^order id: +${id}$`, 'm'));
      expect(moved.stdout).toMatch(/^status: +accepted$/m);
      expect(moved.stdout).toMatch(/^app id: +app_\w+$/m);
      const illegal = await cli('orders', 'move', id, '--to', 'delivered');
      expect(illegal.code).toBe(1);
      expect(illegal.stderr).toMatch(
        /^error: An order cannot move from accepted to delivered: from accepted it can move to pickedUp, cancelled, failed\. \(INVALID_TRANSITION, request req_\w+\)$/m,
      );
      expect(illegal.stderr).toMatch(
        /^ {2}- status: must be one of pickedUp, cancelled, failed \(the moves allowed from accepted\)$/m,
      );
      expect((await cli('orders', 'move', id, '--to', 'lost')).code).toBe(2);
    },
    SLOW,
  );

  it(
    'adds a delivery area and lists it',
    async () => {
      const created = await cli(
        'locations',
        'create',
        '--name',
        'Cli Test Area',
        '--region',
        'greater accra',
        '--zone',
        'Cli Zone',
        '--lat',
        '5.6',
        '--lng',
        '-0.19',
      );
      expect(created.stdout).toMatch(/^id: +loc_\w+$/m);
      expect(created.stdout).toMatch(/^region: +Greater Accra$/m);
      const listed = await cli('locations', 'list', '--zone', 'Cli Zone');
      expect(listed.stdout).toMatch(
        /^loc_\w+ +Cli Test Area +Greater Accra +Cli Zone +5\.6,-0\.19$/m,
      );
      const half = await cli(
        'locations',
        'create',
        '--name',
        'X',
        '--region',
        'Volta',
        '--zone',
        'Z',
        '--lat',
        '6',
      );
      expect(half.code).toBe(2);
      expect(half.stderr).toMatch(/^error: --lat and --lng go together/);
    },
    SLOW,
  );
});

describe('partner-admin: catalog', () => {
  it(
    'adds and edits a vendor and a product with variants, and lists sales',
    async () => {
      const vendor = await cli(
        'vendors',
        'create',
        '--name',
        'Makola Shoes',
        '--syndicatable',
        'on',
        '--commission-rate',
        '0.1',
        '--contact-person',
        'Akua Owusu',
        '--contact-phone',
        '0241234567',
        '--address',
        'Makola Market',
        '--lat',
        '5.549',
        '--lng',
        '-0.209',
      );
      expect(vendor.code).toBe(0);
      expect(vendor.stdout).toMatch(/^commission: +10%$/m);
      const vendorId = field(vendor, 'vendor id');
      const updated = await cli(
        'vendors',
        'update',
        vendorId,
        '--commission-rate',
        '0.125',
        '--address',
        'Makola Market, Stall 12',
      );
      expect(updated.stdout).toMatch(/^commission: +12\.5%$/m);
      expect(updated.stdout).toMatch(
        /^pickup: +Akua Owusu, \+233241234567, Makola Market, Stall 12$/m,
      );

      const product = await cli(
        'products',
        'create',
        '--vendor',
        vendorId,
        '--title',
        'Sandals',
        '--variant',
        'Size 42:120.50:10',
        '--variant',
        'Size: 43:99:0',
        '--image',
        'https://example.com/a.jpg',
        '--category',
        'Shoes',
        '--json',
      );
      const body = json(product);
      expect(body).toMatchObject({
        vendor_id: vendorId,
        title: 'Sandals',
        images: ['https://example.com/a.jpg'],
        category: 'Shoes',
        active: true,
      });
      expect(body.variants.map((v: any) => [v.label, v.price_ghs, v.stock])).toEqual([
        ['Size 42', 120.5, 10],
        ['Size: 43', 99, 0],
      ]);
      const [first, second] = body.variants.map((v: { variant_id: string }) => v.variant_id);
      const edited = await cli(
        'products',
        'update',
        body.product_id,
        '--stock',
        `${second}=5`,
        '--price',
        `${second}=89.99`,
        '--in-stock',
        `${first}=off`,
        '--clear-category',
      );
      expect(edited.code).toBe(0);
      expect(edited.stdout).toMatch(/^category: +-$/m);
      expect(edited.stdout).toMatch(
        new RegExp(`^${first} +Size 42 +GHS 120\\.50 +10 +0 +10 +no$`, 'm'),
      );
      expect(edited.stdout).toMatch(
        new RegExp(`^${second} +Size: 43 +GHS 89\\.99 +5 +0 +5 +yes$`, 'm'),
      );

      const [vendors, oneVendor, products, oneProduct, sales, badVariant] = await Promise.all([
        cli('vendors', 'list', '--limit', '200'),
        cli('vendors', 'get', vendorId, '--json'),
        cli('products', 'list', '--vendor', vendorId),
        cli('products', 'get', body.product_id, '--json'),
        cli('sales', 'list', '--state', 'on_hold'),
        cli('products', 'create', '--vendor', vendorId, '--title', 'X', '--variant', 'no price'),
      ]);
      expect(vendors.stdout).toMatch(new RegExp(`^${vendorId} +Makola Shoes +yes +12\\.5% `, 'm'));
      expect(json(oneVendor).commission_rate).toBe(0.125);
      expect(products.stdout).toMatch(
        new RegExp(`^${body.product_id} +${vendorId} +Sandals +- +yes +yes +2$`, 'm'),
      );
      expect(json(oneProduct).variants[1].price_ghs).toBe(89.99);
      expect(sales.stdout).toBe('(no sales)\n');
      expect(badVariant.code).toBe(2);
      expect(badVariant.stderr).toMatch(/^error: --variant needs LABEL:GHS:STOCK/);
    },
    SLOW,
  );
});
