import type { Queryable } from '../../platform/db/index.ts';
import type { Preferences } from './domain/preferences.ts';
import type { Language, MessageKind } from './domain/texts.ts';

export type Channel = 'sms' | 'whatsapp';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';

export interface MessageRow {
  id: string;
  order_id: string;
  app_id: string;
  partner_id: string;
  kind: MessageKind;
  occasion: number;
  channel: Channel;
  to_number: string;
  sender_name: string | null;
  language: Language;
  body: string;
  segments: number;
  cost_pesewas: number;
  status: MessageStatus;
  skip_reason: string | null;
  attempts: number;
  provider_message_id: string | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  reported_at: Date | null;
}

export type NewMessage = Omit<
  MessageRow,
  'attempts' | 'provider_message_id' | 'last_error' | 'sent_at' | 'reported_at'
>;

const COLS = `id, order_id, app_id, partner_id, kind, occasion, channel, to_number, sender_name, language,
  body, segments, cost_pesewas, status, skip_reason, attempts, provider_message_id, last_error, created_at,
  sent_at, reported_at`;

/** Rings after a commit that changed an order's texts (recorded, sent, reported), naming the order. */
export const MESSAGE_CHANGES_CHANNEL = 'recipient_message_changes';
const changed = (q: Queryable, orderId: string) => q.notify(MESSAGE_CHANGES_CHANNEL, orderId);

interface SettingsRow {
  on_assigned: boolean;
  on_courier_near: boolean;
  on_delivered: boolean;
  on_delivery_failed: boolean;
  sender_name: string | null;
  language: Language;
}

export const messagesRepository = {
  async preferences(q: Queryable, appId: string): Promise<Preferences | undefined> {
    const [row] = await q.query<SettingsRow>(
      `select on_assigned, on_courier_near, on_delivered, on_delivery_failed, sender_name, language
         from message_settings where app_id = $1`,
      [appId],
    );
    return (
      row && {
        kinds: {
          assigned: row.on_assigned,
          courier_near: row.on_courier_near,
          delivered: row.on_delivered,
          delivery_failed: row.on_delivery_failed,
        },
        senderName: row.sender_name,
        language: row.language,
      }
    );
  },

  async savePreferences(q: Queryable, appId: string, p: Preferences, at: Date): Promise<void> {
    await q.query(
      `insert into message_settings (app_id, on_assigned, on_courier_near, on_delivered, on_delivery_failed,
                                     sender_name, language, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (app_id) do update set on_assigned = $2, on_courier_near = $3, on_delivered = $4,
         on_delivery_failed = $5, sender_name = $6, language = $7, updated_at = $8`,
      [
        appId,
        p.kinds.assigned,
        p.kinds.courier_near,
        p.kinds.delivered,
        p.kinds.delivery_failed,
        p.senderName,
        p.language,
        at,
      ],
    );
  },

  async optedOut(q: Queryable, phone: string): Promise<boolean> {
    return (await q.query('select 1 from message_opt_outs where phone = $1', [phone])).length > 0;
  },

  async optOut(q: Queryable, phone: string, keyword: string, at: Date): Promise<void> {
    await q.query(
      `insert into message_opt_outs (phone, keyword, created_at) values ($1, $2, $3)
       on conflict (phone) do nothing`,
      [phone, keyword, at],
    );
  },

  async optIn(q: Queryable, phone: string): Promise<void> {
    await q.query('delete from message_opt_outs where phone = $1', [phone]);
  },

  /** Inserts the message unless its order, kind, channel and occasion already has one; answers whether it did. */
  async insert(q: Queryable, m: NewMessage, dueAt: Date | null): Promise<boolean> {
    const rows = await q.query(
      `insert into recipient_messages (id, order_id, app_id, partner_id, kind, occasion, channel, to_number,
         sender_name, language, body, segments, cost_pesewas, status, skip_reason, created_at, next_attempt_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       on conflict (order_id, kind, channel, occasion) do nothing returning id`,
      [
        m.id,
        m.order_id,
        m.app_id,
        m.partner_id,
        m.kind,
        m.occasion,
        m.channel,
        m.to_number,
        m.sender_name,
        m.language,
        m.body,
        m.segments,
        m.cost_pesewas,
        m.status,
        m.skip_reason,
        m.created_at,
        dueAt,
      ],
    );
    if (rows.length > 0) changed(q, m.order_id);
    return rows.length > 0;
  },

  /**
   * Claims messages due now (all, or only `ids`): queued ones, and ones left sending past their lease
   * (a sender that died mid-call); named `ids` also before they are due, on their first attempt (sent
   * right after the commit that recorded them). Each claim counts an attempt and moves the lease on; committed
   * before any provider is called.
   */
  async claim(
    q: Queryable,
    opts: { now: Date; leaseUntil: Date; limit: number; ids?: readonly string[] },
  ): Promise<MessageRow[]> {
    const claimed = await q.query<MessageRow>(
      `update recipient_messages set status = 'sending', attempts = attempts + 1, next_attempt_at = $2
        where id in (select id from recipient_messages
                      where status in ('queued', 'sending')
                        and (next_attempt_at <= $1 or (id = any($4::text[]) and attempts = 0))
                        and ($4::text[] is null or id = any($4::text[]))
                      order by next_attempt_at limit $3 for update skip locked)
        returning ${COLS}`,
      [opts.now, opts.leaseUntil, opts.limit, opts.ids ?? null],
    );
    for (const m of claimed) changed(q, m.order_id);
    return claimed;
  },

  /** Sent: compare-and-set on the claim (status and attempt), so a stale sender changes nothing. */
  async markSent(
    q: Queryable,
    m: Pick<MessageRow, 'id' | 'attempts' | 'order_id'>,
    providerId: string | null,
    at: Date,
  ): Promise<void> {
    await q.query(
      `update recipient_messages set status = 'sent', sent_at = $3, provider_message_id = $4, body = '',
              last_error = null, next_attempt_at = null
        where id = $1 and status = 'sending' and attempts = $2`,
      [m.id, m.attempts, at, providerId],
    );
    changed(q, m.order_id);
  },

  async markRetry(
    q: Queryable,
    m: Pick<MessageRow, 'id' | 'attempts' | 'order_id'>,
    error: string,
    retryAt: Date,
  ): Promise<void> {
    await q.query(
      `update recipient_messages set status = 'queued', last_error = $3, next_attempt_at = $4
        where id = $1 and status = 'sending' and attempts = $2`,
      [m.id, m.attempts, error, retryAt],
    );
    changed(q, m.order_id);
  },

  /** Given up: answers whether this call moved it (the refund goes with that move only). */
  async markFailed(
    q: Queryable,
    m: Pick<MessageRow, 'id' | 'attempts' | 'order_id'>,
    error: string,
  ): Promise<boolean> {
    const rows = await q.query(
      `update recipient_messages set status = 'failed', last_error = $3, body = '', next_attempt_at = null
        where id = $1 and status = 'sending' and attempts = $2 returning id`,
      [m.id, m.attempts, error],
    );
    changed(q, m.order_id);
    return rows.length > 0;
  },

  async byProviderId(q: Queryable, providerId: string): Promise<MessageRow | undefined> {
    const [row] = await q.query<MessageRow>(
      `select ${COLS} from recipient_messages where provider_message_id = $1`,
      [providerId],
    );
    return row;
  },

  /** A delivery report: only for a message the provider took (a report never revives a skipped one). */
  async report(
    q: Queryable,
    m: Pick<MessageRow, 'id' | 'order_id'>,
    status: 'delivered' | 'failed',
    error: string | null,
    at: Date,
  ): Promise<void> {
    await q.query(
      `update recipient_messages set status = $2, reported_at = $3, last_error = coalesce($4, last_error)
        where id = $1 and status in ('sent', 'delivered', 'failed')`,
      [m.id, status, at, error],
    );
    changed(q, m.order_id);
  },

  async recorded(q: Queryable, orderId: string, kind: MessageKind): Promise<boolean> {
    const rows = await q.query(
      'select 1 from recipient_messages where order_id = $1 and kind = $2 limit 1',
      [orderId, kind],
    );
    return rows.length > 0;
  },

  async ofOrder(q: Queryable, orderId: string): Promise<MessageRow[]> {
    return q.query<MessageRow>(
      `select ${COLS} from recipient_messages where order_id = $1 order by created_at, id`,
      [orderId],
    );
  },

  async ofPartner(q: Queryable, partnerId: string, limit: number): Promise<MessageRow[]> {
    return q.query<MessageRow>(
      `select ${COLS} from recipient_messages where partner_id = $1 order by created_at desc, id desc limit $2`,
      [partnerId, limit],
    );
  },

  /** Every message, newest first (the console's messages view). */
  async recent(q: Queryable, limit: number): Promise<MessageRow[]> {
    return q.query<MessageRow>(
      `select ${COLS} from recipient_messages order by created_at desc, id desc limit $1`,
      [limit],
    );
  },
};
