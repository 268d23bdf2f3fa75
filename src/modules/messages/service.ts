import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Environment } from '../../platform/auth/scopes.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { normalizeGhanaPhone } from '../../shared/ghana/index.ts';
import { ledger } from '../ledger/index.ts';
import { keywordOf } from './domain/keywords.ts';
import {
  DEFAULT_PREFERENCES,
  isLanguage,
  isSenderName,
  SENDER_NAME_RULE,
  type Preferences,
} from './domain/preferences.ts';
import { segmentsOf } from './domain/segments.ts';
import { LANGUAGES, messageText, type MessageKind } from './domain/texts.ts';
import { messageJournal } from './journals.ts';
import { messagesRepository as repo, type Channel, type MessageRow } from './repository.ts';
import type { MessageSettings } from './settings.ts';

/** Wakes the message sender after a commit that queued messages. */
export const MESSAGES_CHANNEL = 'recipient_messages';

/** The order a message is about, as delivery keeps it. */
export interface MessageOrder {
  id: string;
  app_id: string;
  partner_id: string;
  environment: Environment;
  customer_phone: string;
  tracking_token: string;
}

/** What causes a message: its kind, the order, and what the text needs. */
export interface Trigger {
  order: MessageOrder;
  kind: MessageKind;
  /** Tells apart the messages of one kind for one order (a failure's order version); 0 by default. */
  occasion?: number;
  courierName?: string | undefined;
  /** The delivery code (assigned). */
  code?: string | undefined;
  /**
   * The caller sends the messages itself right after the commit (MessageSender.sendDue(ids)): the
   * background sender is not woken, and leaves them for SEND_NOW_GRACE_MS (a crash meanwhile).
   */
  sendAfterCommit?: boolean;
}

/** How long the background sender leaves a message its recorder sends right after the commit. */
export const SEND_NOW_GRACE_MS = 60_000;

/** An app's settings as its owner sends them: each part optional, the rest kept. */
export interface PreferencesChange {
  kinds?: Partial<Preferences['kinds']>;
  senderName?: string | null;
  language?: string;
}

export interface MessagesDeps {
  db: Db;
  clock: () => number;
  log: Logger;
  settings: MessageSettings;
  publicBaseUrl: string;
  /** Whether delivery codes also go by WhatsApp (WHATSAPP_PROVIDER). */
  whatsapp: boolean;
}

/**
 * Recipient messages: recorded (and charged) in the transaction of the change that causes them,
 * skipped for numbers that said STOP, sent after the commit by MessageSender; the provider's
 * delivery reports and the recipients' STOP and START texts.
 */
export class MessagesService {
  constructor(private readonly deps: MessagesDeps) {}

  async preferences(appId: string, q: Queryable = this.deps.db): Promise<Preferences> {
    return (await repo.preferences(q, appId)) ?? DEFAULT_PREFERENCES;
  }

  /** Applies a change to an app's settings, checked whole before anything is written. */
  async setPreferences(appId: string, change: PreferencesChange): Promise<Preferences> {
    const { senderName, language } = change;
    if (typeof senderName === 'string' && !isSenderName(senderName))
      throw errors.invalidSenderName(`sender_name must be ${SENDER_NAME_RULE}.`, [
        { field: 'sender_name', issue: SENDER_NAME_RULE },
      ]);
    if (language !== undefined && !isLanguage(language))
      throw errors.validation(`language must be one of ${LANGUAGES.join(', ')}.`, [
        { field: 'language', issue: `must be one of ${LANGUAGES.join(', ')}` },
      ]);
    return this.deps.db.transaction(async (tx) => {
      const now = await this.preferences(appId, tx);
      const next: Preferences = {
        kinds: { ...now.kinds, ...change.kinds },
        senderName: senderName === undefined ? now.senderName : senderName,
        language: language ?? now.language,
      };
      await repo.savePreferences(tx, appId, next, new Date(this.deps.clock()));
      return next;
    });
  }

  /**
   * Records what `trigger` causes, in the caller's transaction: nothing for a staging order or a
   * kind the app turned off; a skipped message for a number that said STOP; otherwise the message,
   * its cost posted to the partner's wallet (past its credit limit if need be: the change that
   * caused it has happened), once per order, kind, channel and occasion. Answers the queued ids.
   */
  async record(tx: Queryable, trigger: Trigger): Promise<string[]> {
    const { order, kind } = trigger;
    if (order.environment !== 'production') return [];
    const prefs = await this.preferences(order.app_id, tx);
    if (!prefs.kinds[kind]) return [];
    const optedOut = await repo.optedOut(tx, order.customer_phone);
    const body = messageText(kind, prefs.language, {
      trackingUrl: `${this.deps.publicBaseUrl}/track/${order.tracking_token}`,
      courier: trigger.courierName,
      code: trigger.code,
    });
    const channels: [Channel, string][] = [['sms', body]];
    // WhatsApp's approved authentication template carries the code alone (Meta's rule for it).
    if (kind === 'assigned' && this.deps.whatsapp) channels.push(['whatsapp', trigger.code ?? '']);
    const now = new Date(this.deps.clock());
    const due = new Date(now.getTime() + (trigger.sendAfterCommit ? SEND_NOW_GRACE_MS : 0));
    const queued: string[] = [];
    for (const [channel, text] of channels) {
      const segments = channel === 'sms' ? segmentsOf(text).segments : 1;
      const { smsPesewasPerSegment, whatsappPesewas } = this.deps.settings;
      const cost = optedOut
        ? 0
        : channel === 'sms'
          ? segments * smsPesewasPerSegment
          : whatsappPesewas;
      const id = newId('rmsg');
      const inserted = await repo.insert(
        tx,
        {
          id,
          order_id: order.id,
          app_id: order.app_id,
          partner_id: order.partner_id,
          kind,
          occasion: trigger.occasion ?? 0,
          channel,
          to_number: order.customer_phone,
          sender_name: channel === 'sms' ? prefs.senderName : null,
          language: prefs.language,
          body: optedOut ? '' : text,
          segments,
          cost_pesewas: cost,
          status: optedOut ? 'skipped' : 'queued',
          skip_reason: optedOut ? 'opted_out' : null,
          created_at: now,
        },
        optedOut ? null : due,
      );
      if (!inserted || optedOut) continue;
      if (cost > 0) await ledger.postJournal(tx, messageJournal(order.partner_id, id, cost), now);
      queued.push(id);
    }
    if (queued.length && !trigger.sendAfterCommit) tx.notify(MESSAGES_CHANNEL);
    return queued;
  }

  /**
   * A delivery report from the SMS provider: delivered or failed, when. A report for a message we
   * never handed to the provider is refused (404) and writes nothing.
   */
  async report(
    providerMessageId: string,
    state: 'delivered' | 'failed' | 'pending',
    detail: string,
  ) {
    const message = await repo.byProviderId(this.deps.db, providerMessageId);
    if (!message)
      throw errors.messageNotFound('No message was sent with this id.', [
        { field: 'MessageId', issue: 'unknown' },
      ]);
    if (state === 'pending') return;
    await repo.report(
      this.deps.db,
      message,
      state,
      state === 'failed' ? detail : null,
      new Date(this.deps.clock()),
    );
  }

  /** A text a recipient sent us: STOP (and its variants) opts the number out, START back in; anything else is ignored. */
  async inbound(from: string, text: string): Promise<'opted_out' | 'opted_in' | 'ignored'> {
    const phone = normalizeGhanaPhone(from);
    if (!phone)
      throw errors.validation('From must be a Ghana phone number.', [
        { field: 'From', issue: 'not a Ghana phone number' },
      ]);
    const keyword = keywordOf(text);
    if (keyword === 'stop') {
      await repo.optOut(this.deps.db, phone, text.trim().slice(0, 32), new Date(this.deps.clock()));
      this.deps.log.info({ phone: phone.slice(-4) }, 'a recipient opted out of text messages');
      return 'opted_out';
    }
    if (keyword === 'start') {
      await repo.optIn(this.deps.db, phone);
      return 'opted_in';
    }
    return 'ignored';
  }

  /** Whether the order already has a message of this kind (the courier-near check, before it reads more). */
  async recorded(orderId: string, kind: MessageKind): Promise<boolean> {
    return repo.recorded(this.deps.db, orderId, kind);
  }

  async optedOut(phone: string): Promise<boolean> {
    return repo.optedOut(this.deps.db, phone);
  }

  /** An order's messages (the console's order page). */
  async ofOrder(orderId: string): Promise<MessageRow[]> {
    return repo.ofOrder(this.deps.db, orderId);
  }

  /** A partner's latest messages (the dashboard). */
  async ofPartner(partnerId: string, limit: number): Promise<MessageRow[]> {
    return repo.ofPartner(this.deps.db, partnerId, limit);
  }

  async recent(limit: number): Promise<MessageRow[]> {
    return repo.recent(this.deps.db, limit);
  }
}
