import type { MessagesService } from '../../modules/messages/index.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { ActivationService } from '../../modules/activation/index.ts';
import type { AuditEntry, AuditLog } from '../../modules/audit/index.ts';
import type { PartnerSales } from '../../modules/catalog/index.ts';
import type { WebhookAdminService } from '../../modules/webhooks/index.ts';
import type { BulkOrders, PartnerOrders, ProofReader } from '../../modules/delivery/index.ts';
import {
  can,
  type MailSender,
  type MemberRow,
  type MembershipRow,
  type MembersService,
  type Permission,
} from '../../modules/members/index.ts';
import type { PayoutsModule } from '../../modules/payouts/index.ts';
import type { Session, SessionStore } from '../../modules/sessions/index.ts';
import type { WalletService } from '../../modules/wallet/index.ts';
import { originOf } from '../../platform/auth/actor.ts';
import type { Queryable } from '../../platform/db/index.ts';
import type { Assets } from '../../platform/web/assets.ts';
import { readCookie, serializeCookie } from '../../platform/web/cookies.ts';
import { CSRF_FIELD, crossSiteProblem, tokensMatch } from '../../platform/web/csrf.ts';
import { parseForm, type FieldRule, type FormFields } from '../../platform/web/form.ts';
import { webPageHeaders } from '../../platform/web/headers.ts';
import type { PageGate } from '../../platform/web/page.ts';
import { WebRefusal } from '../../platform/web/refusal.ts';
import type { Views } from '../../platform/web/views.ts';
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'pp_session';
/** Before sign-in, forms are protected by a double-submit token: this cookie's value in a hidden field. */
export const FORM_COOKIE = 'pp_form';

export interface DashboardDeps {
  accounts: AccountsService;
  activation: ActivationService;
  members: MembersService;
  sessions: SessionStore;
  /** Absent when this instance does not serve the delivery service. */
  partnerOrders: PartnerOrders | undefined;
  /** The CSV upload of orders (absent when this instance does not serve the delivery service). */
  orderUpload?: { bulk: BulkOrders; audit: AuditLog } | undefined;
  /** Absent when this instance does not serve the safe-catalog service. */
  partnerSales?: PartnerSales | undefined;
  /** The proof of delivery of an order (code, photos with signed links); absent: not shown. */
  proofs?: ProofReader | undefined;
  wallet: WalletService;
  /** The partner's payouts pages (absent: not served). */
  payouts?: DashboardPayouts | undefined;
  /** The texts to recipients settings page (absent: delivery not served here). */
  messages?: DashboardMessages | undefined;
  /** The webhook deliveries pages (absent: not served). */
  webhooks?: { webhooks: WebhookAdminService; audit: AuditLog };
  publicBaseUrl: string;
}

export { WebRefusal };

/** What the texts-to-recipients page needs of the messages module: the app's settings and the prices. */
export interface DashboardMessages {
  service: Pick<MessagesService, 'preferences' | 'setPreferences'>;
  prices: { smsPesewasPerSegment: number; whatsappPesewas: number };
}

/** What the payouts pages need: the payouts module, the mail queue (the notice of a change), the audit log and the cooling period. */
export interface DashboardPayouts {
  module: Pick<PayoutsModule, 'payees' | 'service'>;
  mail: MailSender;
  audit: AuditLog;
  coolingHours: number;
}

/** The signed-in person behind a request. */
export interface Current {
  sessionId: string;
  session: Session;
  member: MemberRow;
  membership: MembershipRow | undefined;
}

/** A signed-in, verified member of a team. */
export interface Member extends Current {
  membership: MembershipRow;
}

/** The person behind each request, looked up once per request. */
const currentOf = new WeakMap<FastifyRequest, Current>();

/** Records in the audit log what a signed-in member did from this request (in `tx` when given). */
export function auditMember(
  audit: AuditLog,
  request: FastifyRequest,
  m: Member,
  entry: Omit<AuditEntry, 'actor' | 'origin'>,
  tx?: Queryable,
): Promise<void> {
  return audit.record(
    { ...entry, actor: { kind: 'member', id: m.member.id }, origin: originOf(request) },
    tx,
  );
}

/**
 * What pages, routes and templates share: rendering, the session, CSRF and role checks. It is the
 * gate of every dashboard page (`definePage(app, web, …)`): a member's permission is its need.
 */
export class WebKit implements PageGate<Member, Permission> {
  readonly secure: boolean;
  private readonly origin: string;

  constructor(
    readonly deps: DashboardDeps,
    private readonly views: Views,
    private readonly assets: Assets,
  ) {
    this.secure = deps.publicBaseUrl.startsWith('https:');
    this.origin = new URL(deps.publicBaseUrl).origin;
  }

  /** Renders a page template inside the layout with the headers every web page gets. */
  page(
    reply: FastifyReply,
    name: string,
    data: Record<string, unknown>,
    status = 200,
    /** Headers of this page only, over the usual ones (a map page's tile origin in its policy). */
    headers: Record<string, string> = {},
  ): FastifyReply {
    const current = currentOf.get(reply.request);
    const role = current?.membership?.role;
    const html = this.views.render(name, {
      ...data,
      assets: { css: this.assets.url('dashboard.css'), js: this.assets.url('dashboard.js') },
      me: current?.member.email_verified_at ? current : undefined,
      nav: role
        ? {
            orders: can(role, 'view'),
            upload: !!this.deps.orderUpload && can(role, 'create_orders'),
            sales: !!this.deps.partnerSales && can(role, 'view_sales'),
            wallet: can(role, 'view_wallet'),
            payouts: !!this.deps.payouts && can(role, 'view_payouts'),
            team: can(role, 'manage_team'),
          }
        : undefined,
      csrf: data.csrf ?? current?.session.csrfToken,
      path: reply.request.url.split('?')[0],
    });
    return reply
      .code(status)
      .headers({ ...webPageHeaders(), ...headers })
      .send(html);
  }

  /** The fingerprinted URL of one of our assets (a page's own script or stylesheet). */
  assetUrl(name: string): string {
    return this.assets.url(name);
  }

  redirect(reply: FastifyReply, to: string): FastifyReply {
    return reply.code(303).header('cache-control', 'no-store').header('location', to).send();
  }

  /** The signed-in person, or undefined (no cookie, unknown, expired or ended session). */
  async current(request: FastifyRequest): Promise<Current | undefined> {
    const cached = currentOf.get(request);
    if (cached) return cached;
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = sessionId ? await this.deps.sessions.find(sessionId) : undefined;
    if (!sessionId || session?.subject.kind !== 'member') return undefined;
    const member = await this.deps.members.getMember(session.subject.id);
    if (!member) return undefined;
    const current = {
      sessionId,
      session,
      member,
      membership: await this.deps.members.membershipOf(member.id),
    };
    currentOf.set(request, current);
    return current;
  }

  /**
   * The signed-in, verified team member allowed `permission`; otherwise the answer is sent (sign-in
   * page, the verify-your-email page, 403) and undefined returned.
   */
  async admit(
    request: FastifyRequest,
    reply: FastifyReply,
    permission: Permission,
  ): Promise<Member | undefined> {
    const current = await this.current(request);
    if (!current) {
      this.redirect(
        reply,
        request.method === 'GET' ? `/sign-in?next=${encodeURIComponent(request.url)}` : '/sign-in',
      );
      return undefined;
    }
    if (!current.member.email_verified_at) {
      this.page(
        reply,
        'verify-email',
        { title: 'Verify your email', email: current.member.email },
        request.method === 'GET' ? 200 : 403,
      );
      return undefined;
    }
    if (!current.membership)
      throw new WebRefusal(
        403,
        'Your account is not part of a partner team any more. Ask a team owner to invite you again.',
      );
    if (!can(current.membership.role, permission))
      throw new WebRefusal(
        403,
        `Your role (${current.membership.role}) does not allow this. Ask a team owner.`,
      );
    return current as Member;
  }

  /**
   * A state-changing form from our own pages: same-site by Origin and Sec-Fetch-Site, and carrying
   * the session's token (or, before sign-in, the form cookie's). Answers the declared fields.
   */
  form<R extends Record<string, FieldRule>>(
    request: FastifyRequest,
    rules: R,
    current?: { session: Pick<Session, 'csrfToken'> },
  ): FormFields<R> {
    const crossSite = crossSiteProblem(
      request.headers as Record<string, string | undefined>,
      this.origin,
    );
    if (crossSite)
      throw new WebRefusal(
        403,
        'This form was sent from another site, so it was refused. Open the page here and send it again.',
      );
    const { [CSRF_FIELD]: token } = parseForm(request.body, request.headers['content-type'], {
      [CSRF_FIELD]: { max: 128 },
    });
    const expected = current
      ? current.session.csrfToken
      : readCookie(request.headers.cookie, FORM_COOKIE);
    if (!tokensMatch(token, expected)) {
      throw new WebRefusal(
        403,
        'This form has expired or was not sent from this site. Reload the page and send it again.',
      );
    }
    return parseForm(request.body, request.headers['content-type'], rules);
  }

  /** The double-submit token of a signed-out form page, set as a cookie when the browser has none. */
  formToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = readCookie(request.headers.cookie, FORM_COOKIE);
    if (existing) return existing;
    const token = randomBytes(32).toString('base64url');
    reply.header('set-cookie', serializeCookie(FORM_COOKIE, token, { secure: this.secure }));
    return token;
  }

  /** Signs a member in with a brand-new session id (whatever cookie the browser had is ignored). */
  async signIn(reply: FastifyReply, memberId: string): Promise<void> {
    const { id } = await this.deps.sessions.start({ kind: 'member', id: memberId });
    const maxAge = Math.floor(this.deps.sessions.timeouts.absoluteMs / 1000);
    reply.header('set-cookie', [
      serializeCookie(SESSION_COOKIE, id, { secure: this.secure, maxAge }),
      serializeCookie(FORM_COOKIE, '', { secure: this.secure, maxAge: 0 }),
    ]);
  }

  signOutCookie(reply: FastifyReply): void {
    reply.header(
      'set-cookie',
      serializeCookie(SESSION_COOKIE, '', { secure: this.secure, maxAge: 0 }),
    );
  }
}
