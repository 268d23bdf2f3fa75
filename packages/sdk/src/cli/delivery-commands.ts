import type { CreateOrderRequest, OrderDetailsResponse, Priority, Tracking } from '../types.ts';
import { sleep } from '../retry.ts';
import { bulkCommand } from './bulk.ts';
import {
  idOrReference,
  parseLatLng,
  parseNumber,
  referenceHint,
  requestBodyFile,
  str,
  UsageError,
  type Command,
  type Ctx,
} from './command.ts';
import { block, ghs, json, table } from './output.ts';

const PRIORITIES: readonly Priority[] = ['standard', 'economy', 'cargo'];
const orderHint = referenceHint('dlv_', 'ORDER_NOT_FOUND', 'orders get');
const FINAL = new Set(['delivered', 'returned', 'cancelled', 'failed']);

function trackingText(t: Tracking): string {
  const head = block([
    ['order id', t.order_id],
    ['reference', t.order_reference],
    ['status', t.current_status],
    [
      'recipient',
      t.recipient_name
        ? `${t.recipient_name} (phone …${t.recipient_phone_last4})`
        : `phone …${t.recipient_phone_last4}`,
    ],
    ['estimated delivery', t.estimated_delivery_time],
  ]);
  const rows = t.timeline.map((s) => [s.completed ? '[x]' : '[ ]', s.status, s.title, s.timestamp]);
  return `${head}\n\n${table(['', 'stage', 'title', 'at'], rows)}`;
}

function detailsText(d: OrderDetailsResponse['data']): string {
  return block([
    ['order id', d.internal_order_id],
    ['reference', d.order_reference],
    ['status', d.status],
    ['details', d.status_details.description],
    ['recipient', d.order_info.recipient_name],
    ['phone', d.order_info.recipient_phone],
    ['address', d.order_info.recipient_address],
    ['delivery date', d.order_info.delivery_date],
    ['payment', d.order_info.payment_status],
    ['fee', d.order_info.amount === undefined ? undefined : ghs(d.order_info.amount)],
    ['quote', d.order_info.quote_id],
    ['pickup GhanaPostGPS', d.order_info.pickup_digital_address],
    ['drop-off GhanaPostGPS', d.order_info.delivery_digital_address],
    ['ready for pickup', d.order_info.pickup_ready_at],
    ['deadline', d.order_info.dropoff_deadline],
    ['test clock', d.order_info.test_clock_id],
    ['tracking', d.tracking_url],
  ]);
}

/** Polls track until the order reaches a final state, printing each change (the sandbox courier moves it). */
async function watch(ctx: Ctx, orderId: string, intervalMs: number): Promise<void> {
  let last = '';
  for (;;) {
    const t = (await ctx.client().delivery.orders.track(orderId)).data;
    if (t.current_status !== last) {
      last = t.current_status;
      ctx.io.out(
        ctx.json
          ? JSON.stringify(t)
          : `${new Date().toISOString()}  ${t.order_id}  ${t.current_status}`,
      );
    }
    if (FINAL.has(t.current_status)) return;
    await sleep(intervalMs);
  }
}

export const deliveryCommands: Command[] = [
  {
    name: 'health',
    usage: '',
    summary: 'Check that both services answer',
    async run(ctx) {
      const client = ctx.client();
      const [delivery, catalog] = await Promise.all([
        client.delivery.health(),
        client.catalog.health(),
      ]);
      ctx.io.out(
        ctx.json
          ? json({ delivery, 'safe-catalog': catalog })
          : block([
              ['delivery', delivery.status],
              ['safe-catalog', catalog.status],
            ]),
      );
    },
  },
  {
    name: 'estimate',
    usage:
      '--to LAT,LNG [--from LAT,LNG] [--priority standard|economy|cargo] [--date YYYY-MM-DD] [--clock CLOCK_ID]',
    summary: 'Price a delivery (creates nothing); pickup defaults to central Accra',
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      priority: { type: 'string' },
      date: { type: 'string' },
      clock: { type: 'string' },
    },
    async run(ctx) {
      const to = str(ctx, 'to');
      if (!to) throw new UsageError('--to LAT,LNG is required');
      const priority = str(ctx, 'priority');
      if (priority !== undefined && !PRIORITIES.includes(priority as Priority))
        throw new UsageError('--priority must be standard, economy or cargo');
      const from = str(ctx, 'from');
      const res = await ctx.client().delivery.orders.estimate({
        delivery_location: { coordinates: parseLatLng(to, 'to') },
        ...(from ? { pickup_location: { coordinates: parseLatLng(from, 'from') } } : {}),
        ...(priority ? { priority: priority as Priority } : {}),
        ...(str(ctx, 'date') ? { order_date: str(ctx, 'date') } : {}),
        ...(str(ctx, 'clock') ? { test_clock_id: str(ctx, 'clock') } : {}),
      });
      if (ctx.json) return ctx.io.out(json(res));
      const e = res.data;
      ctx.io.out(
        `${block([
          ['price', ghs(e.estimated_price)],
          ['priority', e.priority_level],
          ['service', e.service_type],
          [
            'available',
            e.location_coverage.delivery_available
              ? `yes (${e.location_coverage.service_area})`
              : 'no: outside our service area',
          ],
          ['route', `${e.pickup_description} → ${e.dropoff_description}`],
          ['pickup', e.additional_info.pickup_description],
          ['delivery', e.additional_info.delivery_description],
          ['quote', e.quote_id && `${e.quote_id} (price held until ${e.quote_expires_at})`],
        ])}\n\n${table(
          ['priority', 'price', 'description'],
          e.available_options.map((o) => [o.priority, ghs(o.price), o.description]),
        )}${
          e.windows.length
            ? `\n\n${table(
                ['ready at (--ready-at)', 'deadline (--deadline)'],
                e.windows.map((w) => [w.pickup_ready_at, w.dropoff_deadline]),
              )}`
            : ''
        }`,
      );
    },
  },
  {
    name: 'orders create',
    usage:
      '-f FILE [--quote QUOTE_ID] [--ready-at DATE-TIME] [--deadline DATE-TIME] [--clock CLOCK_ID]',
    summary:
      'Create an order from a JSON file (an orders.create body; - reads stdin); --quote redeems a quote from estimate; --ready-at and --deadline set its delivery window (pickup_ready_at, dropoff_deadline: e.g. 2026-12-01T10:00:00Z, Accra being UTC+0); --clock puts it on a sandbox test clock (clocks create)',
    options: {
      file: { type: 'string', short: 'f' },
      quote: { type: 'string' },
      'ready-at': { type: 'string' },
      deadline: { type: 'string' },
      clock: { type: 'string' },
    },
    async run(ctx) {
      const order = requestBodyFile(
        ctx,
        'one order object (use orders bulk for a list)',
      ) as CreateOrderRequest;
      const quote = str(ctx, 'quote');
      if (quote !== undefined) order.quote_id = quote;
      // The server checks the window (each refusal with its own code); the flags only carry it.
      const readyAt = str(ctx, 'ready-at');
      if (readyAt !== undefined) order.pickup_ready_at = readyAt;
      const deadline = str(ctx, 'deadline');
      if (deadline !== undefined) order.dropoff_deadline = deadline;
      const clock = str(ctx, 'clock');
      if (clock !== undefined) order.test_clock_id = clock;
      const res = await ctx.client().delivery.orders.create(order);
      if (ctx.json) return ctx.io.out(json(res));
      const o = res.data.order_details;
      ctx.io.out(
        block([
          ['order id', o.order_id],
          ['reference', o.order_reference],
          ['status', res.data.status],
          ['estimated delivery', o.estimated_delivery],
          ['fee', o.amount === undefined ? undefined : ghs(o.amount)],
          ['quote', o.quote_id],
          ['ready for pickup', o.pickup_ready_at],
          ['deadline', o.dropoff_deadline],
          ['test clock', o.test_clock_id],
          ['tracking', o.tracking_url],
          [
            'note',
            res.recovered ? 'an earlier attempt had created it; this is that order' : undefined,
          ],
        ]),
      );
    },
  },
  bulkCommand,
  {
    name: 'orders get',
    usage: 'ORDER_ID | --reference REF',
    summary: "An order's details and status, by id or by your order_reference",
    options: { reference: { type: 'string' } },
    args: [0, 1],
    hint: orderHint,
    async run(ctx) {
      const { id, reference } = idOrReference(ctx, 'ORDER_ID or --reference REF');
      const orders = ctx.client().delivery.orders;
      const res = id !== undefined ? await orders.get(id) : await orders.getByReference(reference);
      ctx.io.out(ctx.json ? json(res) : detailsText(res.data));
    },
  },
  {
    name: 'orders track',
    usage: 'ORDER_ID [--watch] [--interval SECONDS]',
    summary: 'The tracking timeline; --watch follows it until delivered, cancelled or failed',
    options: { watch: { type: 'boolean' }, interval: { type: 'string' } },
    args: [1, 1],
    hint: orderHint,
    async run(ctx) {
      const id = ctx.positionals[0]!;
      if (ctx.values.watch)
        return watch(
          ctx,
          id,
          parseNumber(str(ctx, 'interval') ?? '5', '--interval', { min: 0.1 }) * 1000,
        );
      const res = await ctx.client().delivery.orders.track(id);
      ctx.io.out(ctx.json ? json(res) : trackingText(res.data));
    },
  },
  {
    name: 'orders cancel',
    usage: 'ORDER_ID [--reason TEXT]',
    summary: 'Cancel an order that is not delivered or cancelled yet',
    options: { reason: { type: 'string' } },
    args: [1, 1],
    hint: orderHint,
    async run(ctx) {
      const res = await ctx
        .client()
        .delivery.orders.cancel(ctx.positionals[0]!, str(ctx, 'reason'));
      if (ctx.json) return ctx.io.out(json(res));
      const c = res.data;
      ctx.io.out(
        block([
          ['order id', c.internal_order_id],
          ['reference', c.order_reference],
          ['status', c.status],
          ['cancelled at', c.cancelled_at],
          ['reason', c.cancellation_reason],
          ['refund', c.refund_status],
        ]),
      );
    },
  },
  {
    name: 'locations',
    usage: '[--region R] [--zone Z] [--coordinates]',
    summary: 'Supported delivery areas (filters are case-insensitive)',
    options: {
      region: { type: 'string' },
      zone: { type: 'string' },
      coordinates: { type: 'boolean' },
    },
    async run(ctx) {
      const withCoordinates = ctx.values.coordinates === true;
      const res = await ctx.client().delivery.locations.list({
        ...(str(ctx, 'region') ? { region: str(ctx, 'region') } : {}),
        ...(str(ctx, 'zone') ? { zone: str(ctx, 'zone') } : {}),
        ...(withCoordinates ? { include_coordinates: true } : {}),
      });
      if (ctx.json) return ctx.io.out(json(res));
      const headers = ['id', 'name', 'region', 'zone', ...(withCoordinates ? ['coordinates'] : [])];
      const rows = res.data.locations.map((l) => [
        l.id,
        l.name,
        l.region,
        l.zone,
        ...(withCoordinates
          ? [l.coordinates ? `${l.coordinates.lat},${l.coordinates.lng}` : undefined]
          : []),
      ]);
      ctx.io.out(
        `${table(headers, rows)}\n\n${res.data.total} location${res.data.total === 1 ? '' : 's'}`,
      );
    },
  },
];
