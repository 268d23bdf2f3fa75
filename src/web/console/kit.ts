import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { ActivationService } from '../../modules/activation/index.ts';
import type { CatalogService, OperatorSales, RefundsService } from '../../modules/catalog/index.ts';
import type { CouriersService } from '../../modules/couriers/index.ts';
import type { DeliveryModule, OperatorOrders } from '../../modules/delivery/index.ts';
import type { CashService } from '../../modules/cash/index.ts';
import type { DispatchService } from '../../modules/dispatch/index.ts';
import type { MessagesService } from '../../modules/messages/index.ts';
import type { EarningsService } from '../../modules/earnings/index.ts';
import type { LedgerReads } from '../../modules/ledger/index.ts';
import type { AuditEntry, AuditLog } from '../../modules/audit/index.ts';
import type { PayoutsModule } from '../../modules/payouts/index.ts';
import type { ConfirmationService } from '../../modules/proof/index.ts';
import type { ReconciliationService } from '../../modules/reconciliation/index.ts';
import type { OperatorSignIn, OperatorsService } from '../../modules/operators/index.ts';
import {
  DEFAULT_TIMEOUTS,
  type Session,
  type SessionStore,
  type SessionTimeouts,
} from '../../modules/sessions/index.ts';
import type { TopupReads, WalletService } from '../../modules/wallet/index.ts';
import type { WebhookAdminService } from '../../modules/webhooks/index.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import {
  type Actor,
  type OperatorRole,
  originOf,
  type RequestOrigin,
} from '../../platform/auth/actor.ts';
import { isAppError } from '../../platform/errors.ts';
import { isId, type IdPrefix } from '../../platform/ids.ts';
import { readCookie, serializeCookie } from '../../platform/web/cookies.ts';
import type { FieldRule, FormFields } from '../../platform/web/form.ts';
import type { PageGate } from '../../platform/web/page.ts';
import { WebRefusal, type WebKit } from '../dashboard/kit.ts';

/**
 * Operators' sessions end 12 hours after sign-in however busy (members' last a week): a console
 * session can change any partner. The idle limit stays the store's default, since the store prunes
 * idle rows of every kind with its own.
 */
export const OPERATOR_SESSION_TIMEOUTS: SessionTimeouts = {
  ...DEFAULT_TIMEOUTS,
  absoluteMs: 12 * 3_600_000,
};

/** Operators' own cookie: a browser signed in to the dashboard and the console keeps two separate sessions. */
export const CONSOLE_COOKIE = 'pp_console';

export interface ConsoleDeps {
  accounts: AccountsService;
  activation: ActivationService;
  audit: AuditLog;
  operators: OperatorsService;
  operatorSignIn: OperatorSignIn;
  /** A store with OPERATOR_SESSION_TIMEOUTS. */
  sessions: SessionStore;
  webhooks: WebhookAdminService;
  /** Courier accounts, and how a deactivated courier's sessions end. */
  couriers: { service: CouriersService; endSessions: (courierId: string) => Promise<void> };
  /** Present when this instance serves the delivery service: reads of every partner's orders and the operator's moves. */
  /** Present when this instance serves the safe catalog: vendors and products. */
  catalog?: CatalogService | undefined;
  /** Present with the catalog: every partner's sales with their settlement journals, read-only (finance, admin). */
  sales?: OperatorSales | undefined;
  /** Present with the catalog: buyer refunds, their retries and the wallets operators give them (finance, admin). */
  refunds?: RefundsService | undefined;
  /** A partner's wallet, ledger entries and top-ups (finance, admin). */
  wallet?: WalletService | undefined;
  /** Every ledger journal and its legs, read-only (finance, admin). */
  journals?: LedgerReads | undefined;
  /** Every partner's top-ups, read-only (finance, admin). */
  topups?: TopupReads | undefined;
  orders?: { read: OperatorOrders; service: DeliveryModule['orders'] } | undefined;
  /** Present with the delivery service: the dispatch board and hand assignment. */
  dispatch?: DispatchService | undefined;
  /** Present with the delivery service: an order's texts to its recipient, their status and cost. */
  messages?: Pick<MessagesService, 'ofOrder'> | undefined;
  /** Couriers' pay rules and policy, every version (changes: finance, admin). */
  earnings: EarningsService;
  /** Present with dispatch: couriers' cash to hand in and their handovers (finance, admin). */
  cash?: CashService | undefined;
  /** Deliveries proved by a photo or signature, waiting for the recipient or an operator. */
  confirmations?: ConfirmationService | undefined;
  /** Payout runs, approvals and payees' destinations (finance, admin). */
  payouts?: Pick<PayoutsModule, 'service' | 'payees' | 'changes' | 'verifier'> | undefined;
  /** Gateways' reports and couriers' cash reconciled day by day (finance, admin). */
  reconciliation?: ReconciliationService | undefined;
  /** Wakes on committed changes of a channel, on any instance (db.listen): the boards' live streams. */
  listen?: Db['listen'] | undefined;
  /** The dispatch map's tiles (the tracking page's tile server); without it the map draws markers only. */
  map?: { tilesUrl: string; tileOrigin: string; attribution: string } | undefined;
}

/** Operators' names, read once per console page request by `loadOperatorNames` (a handful of rows). */
const operatorNamesOf = new WeakMap<FastifyRequest, Map<string, string>>();

/** Reads operators' names for the page this request will render (the console scope's preHandler). */
export async function loadOperatorNames(kit: ConsoleKit, request: FastifyRequest): Promise<void> {
  operatorNamesOf.set(request, await kit.operatorNames());
}

/** The signed-in operator behind a console request. */
export interface OperatorCurrent {
  sessionId: string;
  session: Session;
  operator: { id: string; email: string; name: string; roles: readonly OperatorRole[] };
}

/** What a lookup found, or undefined when the service says it does not exist (404); any other failure is thrown. */
export async function unlessMissing<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (err) {
    if (isAppError(err) && err.statusCode === 404) return undefined;
    throw err;
  }
}

/** A time as operators read it everywhere in the console: UTC to the minute (`.slice(11)` for the clock alone). */
export const utc = (d: Date | string) =>
  `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** One optional query value: one of our ids by prefix, or matching `pattern`; a repeated, malformed or too long value is a 400. */
export function optional(
  value: unknown,
  check: IdPrefix | RegExp | ((v: string) => boolean),
  what: string,
): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ok = (v: string) =>
    typeof check === 'string' ? isId(check, v) : check instanceof RegExp ? check.test(v) : check(v);
  if (typeof value !== 'string' || value.length > 100 || !ok(value))
    throw new WebRefusal(400, `The ${what} filter is not valid.`);
  return value;
}

/** Whether the operator holds one of `roles`: what a page offers beyond what its need already allows. */
export const holds = (current: OperatorCurrent, roles: readonly OperatorRole[]) =>
  current.operator.roles.some((r) => roles.includes(r));

/** Whether `day` is a real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isRealDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

export const NOT_A_DAY = 'The date filter is not a real day (YYYY-MM-DD).';

export function realDay(day: string | undefined): string | undefined {
  if (day !== undefined && !isRealDay(day)) throw new WebRefusal(400, NOT_A_DAY);
  return day;
}

/** Every role reads; changes follow the operator API's mapping (docs/operators.md). */
export const ALL_ROLES: readonly OperatorRole[] = ['support', 'finance', 'admin'];
export const CHANGE_ROLES: readonly OperatorRole[] = ['support', 'admin'];
export const FINANCE_ROLES: readonly OperatorRole[] = ['finance', 'admin'];

/**
 * The console's share of the web machinery: pages rendered by the dashboard's WebKit (same headers,
 * escaping, CSRF and same-origin checks) with the console's templates, and an operator session. It is
 * the gate of every console page (`definePage(app, kit, …)`): the operator's roles are its need.
 */
export class ConsoleKit implements PageGate<OperatorCurrent, readonly OperatorRole[]> {
  constructor(
    readonly deps: ConsoleDeps,
    readonly web: WebKit,
    /** The fingerprinted URL of console.css (served with the dashboard's assets). */
    private readonly css: string,
  ) {}

  page(
    reply: FastifyReply,
    name: string,
    data: Record<string, unknown>,
    status = 200,
    headers: Record<string, string> = {},
  ): FastifyReply {
    const current = (reply.request as FastifyRequest & { operator?: OperatorCurrent }).operator;
    return this.web.page(
      reply,
      name,
      {
        ...data,
        consoleCss: this.css,
        ordersBoard: this.deps.orders !== undefined,
        dispatchBoard: this.deps.dispatch !== undefined,
        catalogPages: this.deps.catalog !== undefined,
        salesPages: this.deps.sales !== undefined,
        refundPages: this.deps.refunds !== undefined,
        cashPages: this.deps.cash !== undefined,
        confirmationPages: this.deps.confirmations !== undefined,
        payoutPages: this.deps.payouts !== undefined,
        reconciliationPages: this.deps.reconciliation !== undefined,
        operator: current?.operator,
        // An operator's name for an id the page shows (the id itself when unknown: a job, a token).
        who: (id: string) => operatorNamesOf.get(reply.request)?.get(id) ?? id,
        csrf: data.csrf ?? current?.session.csrfToken,
      },
      status,
      headers,
    );
  }

  /** Operators' names by id: boards say who did something by name (the id on hover). */
  async operatorNames(): Promise<Map<string, string>> {
    return new Map((await this.deps.operators.list()).map((o) => [o.id, o.name]));
  }

  /** Payees' names by payee key (partner:ptn_… or vendor:ven_…); one unknown is left out. */
  async payeeNames(payees: readonly string[]): Promise<Map<string, string>> {
    const keys = [...new Set(payees)];
    const partners = await this.deps.accounts.partnerNames(
      keys.filter((k) => k.startsWith('partner:')).map((k) => k.slice(8)),
    );
    const names = new Map<string, string>();
    for (const key of keys) {
      const [kind, id = ''] = key.split(':');
      const name =
        kind === 'partner'
          ? partners.get(id)
          : (await unlessMissing(this.deps.catalog?.getVendor(id) ?? Promise.resolve(undefined)))
              ?.name;
      if (name) names.set(key, name);
    }
    return names;
  }

  redirect(reply: FastifyReply, to: string): FastifyReply {
    return this.web.redirect(reply, to);
  }

  /** The signed-in, active operator with a confirmed authenticator, or undefined. */
  async current(request: FastifyRequest): Promise<OperatorCurrent | undefined> {
    const cached = (request as FastifyRequest & { operator?: OperatorCurrent }).operator;
    if (cached) return cached;
    const sessionId = readCookie(request.headers.cookie, CONSOLE_COOKIE);
    const session = sessionId ? await this.deps.sessions.find(sessionId) : undefined;
    if (!sessionId || session?.subject.kind !== 'operator') return undefined;
    const operator = await unlessMissing(this.deps.operators.get(session.subject.id));
    // Deactivated since signing in: the session is worth nothing any more.
    if (!operator?.active || !operator.totp_confirmed) return undefined;
    const current = { sessionId, session, operator };
    (request as FastifyRequest & { operator?: OperatorCurrent }).operator = current;
    return current;
  }

  /** The signed-in operator holding one of `roles`; otherwise the sign-in page (redirect) or a 403 page. */
  async admit(
    request: FastifyRequest,
    reply: FastifyReply,
    roles: readonly OperatorRole[],
  ): Promise<OperatorCurrent | undefined> {
    const current = await this.current(request);
    if (!current) {
      this.redirect(reply, '/console/sign-in');
      return undefined;
    }
    if (!holds(current, roles)) {
      throw new WebRefusal(
        403,
        `Your roles (${current.operator.roles.join(', ')}) do not allow this; it needs ${roles.join(' or ')}.`,
      );
    }
    return current;
  }

  form<R extends Record<string, FieldRule>>(
    request: FastifyRequest,
    rules: R,
    current?: OperatorCurrent,
  ): FormFields<R> {
    return this.web.form(request, rules, current);
  }

  actor(current: OperatorCurrent): Actor {
    return { kind: 'operator', id: current.operator.id };
  }

  origin(request: FastifyRequest): RequestOrigin {
    return originOf(request);
  }

  /** Records in the audit log what the operator did from this request (in `tx` when given). */
  audit(
    request: FastifyRequest,
    current: OperatorCurrent,
    entry: Omit<AuditEntry, 'actor' | 'origin'>,
    tx?: Queryable,
  ): Promise<void> {
    const full = {
      actor: this.actor(current),
      before: null,
      ...entry,
      origin: this.origin(request),
    };
    return this.deps.audit.record(full, tx);
  }

  /** A brand-new session id at sign-in, whatever cookie the browser brought (no fixation). */
  async signIn(reply: FastifyReply, operatorId: string): Promise<void> {
    const { id } = await this.deps.sessions.start({ kind: 'operator', id: operatorId });
    const maxAge = Math.floor(this.deps.sessions.timeouts.absoluteMs / 1000);
    reply.header(
      'set-cookie',
      serializeCookie(CONSOLE_COOKIE, id, { secure: this.web.secure, maxAge }),
    );
  }

  signOutCookie(reply: FastifyReply): void {
    reply.header(
      'set-cookie',
      serializeCookie(CONSOLE_COOKIE, '', { secure: this.web.secure, maxAge: 0 }),
    );
  }
}
