import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import type { SmsMessage, SmsSender } from '../../../src/integrations/sms/index.ts';
import {
  MESSAGE_LEASE_MS,
  MessageSender,
  MessagesService,
  type MessageOrder,
} from '../../../src/modules/messages/index.ts';
import { openDatabase, type Db } from '../../../src/platform/db/index.ts';
import { onPostgres } from '../../helpers/harness.ts';

// The messages module on its database: what a trigger records (and charges), STOP, and the sender's
// claim: each message sent once by two senders at once, and sent again after a sender died mid-call.
const quiet = { warn() {}, info() {}, error() {}, debug() {} } as never;
let db: Db;
let now = Date.parse('2026-11-29T09:00:00Z');
const clock = () => now;
const PARTNER = `ptn_${randomBytes(8).toString('hex')}`;
let messages: MessagesService;
let n = 0;

beforeAll(async () => {
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  db = await openDatabase(
    loadConfig({
      DATABASE_URL: process.env.DATABASE_URL ?? 'memory:',
      ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    }).database,
  );
  await db.query("insert into partners (id, name) values ($1, 'Texting Partner')", [PARTNER]);
  messages = new MessagesService({
    db,
    clock,
    log: quiet,
    publicBaseUrl: 'https://p.example',
    whatsapp: false,
    settings: { smsPesewasPerSegment: 3, whatsappPesewas: 0, pollMs: 0, callbackSecret: undefined },
  });
});
afterAll(() => db?.close());

function order(environment: 'production' | 'staging' = 'production'): MessageOrder {
  n++;
  return {
    id: `dlv_${n}_${randomBytes(4).toString('hex')}`,
    app_id: 'app_texts',
    partner_id: PARTNER,
    environment,
    customer_phone: `+23324${String(1_000_000 + n).slice(-7)}`,
    tracking_token: `tok${n}`,
  };
}

const record = (o: MessageOrder, kind: 'assigned' | 'delivered' = 'delivered') =>
  db.transaction((tx) => messages.record(tx, { order: o, kind, code: '1234', courierName: 'Ama' }));

/** An SMS provider that counts what it took, and can hang (a process dying mid-call). */
function provider(opts: { hang?: boolean } = {}) {
  const sent: SmsMessage[] = [];
  const sender: SmsSender = {
    summary: 'test',
    send: (m) =>
      opts.hang
        ? new Promise(() => {})
        : Promise.resolve().then(() => {
            sent.push(m);
            return { providerMessageId: `pm_${randomBytes(6).toString('hex')}` };
          }),
  };
  return { sent, sender: new MessageSender(db, sender, undefined, clock, quiet, 0) };
}

describe('recording a message', () => {
  it('queues it once per order and kind, its cost on the partner’s wallet', async () => {
    await messages.setPreferences('app_texts', { kinds: { delivered: true } });
    const o = order();
    const [id] = await record(o);
    expect(await record(o)).toEqual([]);
    const [m] = await messages.ofOrder(o.id);
    expect(m).toMatchObject({ id, status: 'queued', segments: 1, cost_pesewas: 3 });
    const entries = await db.query<{ kind: string; amount: string }>(
      `select j.kind, e.amount_pesewas::text as amount from ledger_journals j
         join ledger_entries e on e.journal_id = j.id where j.subject_id = $1 and e.account = $2`,
      [id, `wallet:${PARTNER}`],
    );
    expect(entries).toEqual([{ kind: 'recipient_message', amount: '-3' }]);
  });

  it('records nothing for staging or a kind the app turned off; skips, free, a number that said STOP', async () => {
    expect(await record(order('staging'))).toEqual([]);
    await messages.setPreferences('app_texts', { kinds: { delivered: false } });
    expect(await record(order())).toEqual([]);
    await messages.setPreferences('app_texts', { kinds: { delivered: true } });
    const o = order();
    expect(await messages.inbound(o.customer_phone.slice(1), 'Stop')).toBe('opted_out');
    expect(await record(o)).toEqual([]);
    expect(await messages.ofOrder(o.id)).toMatchObject([
      { status: 'skipped', skip_reason: 'opted_out', cost_pesewas: 0, body: '' },
    ]);
  });
});

describe('sending', () => {
  it('sends each message once when two senders claim at the same time', async () => {
    const orders = [order(), order(), order()];
    const ids = (await Promise.all(orders.map((o) => record(o)))).flat();
    const a = provider();
    const b = provider();
    await Promise.all([a.sender.sendDue(), b.sender.sendDue(), a.sender.sendDue(ids)]);
    const to = [...a.sent, ...b.sent].map((m) => m.to);
    // Every message due went once (the earlier tests' queued one too), these three among them.
    expect(new Set(to).size).toBe(to.length);
    expect(to).toEqual(expect.arrayContaining(orders.map((o) => o.customer_phone)));
  });

  it('sends again a message whose sender died mid-call, once its lease ended; the late answer changes nothing', async () => {
    const o = order();
    const [id] = await record(o);
    const dead = provider({ hang: true });
    void dead.sender.sendDue([id!]);
    await expect.poll(async () => (await messages.ofOrder(o.id))[0]!.status).toBe('sending');
    const alive = provider();
    expect(await alive.sender.sendDue([id!])).toBe(0);
    now += MESSAGE_LEASE_MS + 1;
    expect(await alive.sender.sendDue([id!])).toBe(1);
    expect(alive.sent.map((m) => m.to)).toEqual([o.customer_phone]);
    expect(await messages.ofOrder(o.id)).toMatchObject([{ status: 'sent', attempts: 2, body: '' }]);
  });
});
