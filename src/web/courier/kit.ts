import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  Courier,
  CourierActions,
  CourierSignIn,
  CouriersService,
  EndpointPolicy,
  PushSubscriptions,
} from '../../modules/couriers/index.ts';
import type { EarningsService } from '../../modules/earnings/index.ts';
import type { PayoutsModule } from '../../modules/payouts/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { MediaInput } from '../../modules/proof/index.ts';
import type { Session, SessionStore } from '../../modules/sessions/index.ts';
import { readCookie, serializeCookie } from '../../platform/web/cookies.ts';
import { webPageHeaders, WEB_CSP } from '../../platform/web/headers.ts';
import type { Views } from '../../platform/web/views.ts';
import { FORM_COOKIE, type WebKit } from '../dashboard/kit.ts';

/** Couriers' own cookie, apart from members' and operators'. */
export const COURIER_COOKIE = 'pp_courier';

/** The courier app's pages may name their manifest (and register their service worker). */
export const COURIER_CSP = `${WEB_CSP}; manifest-src 'self'; worker-src 'self'`;

/** The courier's offer or held job as the job screen shows it (built by the app from dispatch and delivery). */
export interface CourierJobView {
  kind: 'offer' | 'job';
  order_id: string;
  stage: string | undefined;
  sheet: {
    item: string;
    fee_pesewas: number | null;
    pickup_contact_person: string;
    pickup_contact_phone: string;
    pickup_address: string | null;
    customer_name: string;
    customer_phone: string;
    delivery_address: string;
    delivery_city: string;
    pickup_digital_address?: string | null;
    delivery_digital_address?: string | null;
  };
  /** A multi-drop batch's drops in route order, the one to act on now marked; absent for a single job. */
  stops?:
    | Array<{
        order_id: string;
        address: string;
        customer: string;
        item: string;
        current: boolean;
        returning: boolean;
      }>
    | undefined;
  /** The fee to show: the order's, or an offered batch's fees added up. */
  fee_pesewas?: number | null | undefined;
  distance_km: number | undefined;
  navigation: { geo: string; maps: string } | undefined;
  /** The next steps, each with the orders it is sent for (a batch's pickup steps: each of its drops). */
  next: Array<{ kind: string; label: string; orders?: string[] }>;
  can_deliver: boolean;
  /** When an offer lapses (ISO 8601); absent for a job in hand. */
  expires_at?: string | undefined;
}

/** What the courier app needs for Web Push; absent when push is off (WEB_PUSH=off) or dispatch is. */
export interface CourierPush {
  /** The VAPID public key the browser subscribes with. */
  publicKey: string;
  endpoints: EndpointPolicy;
  subscriptions: PushSubscriptions;
  /** One round of pushing new offers (flows/offer-pushes-courier.ts). */
  round: () => Promise<void>;
}

/** The courier's latest payouts the earnings screen lists. */
export const PAYOUTS_SHOWN = 10;

export interface CourierAppDeps {
  /** The courier's current offer or job; absent when dispatch is off. */
  job?: ((courierId: string) => Promise<CourierJobView | undefined>) | undefined;
  /** Stores a photo or signature for the job the courier holds; absent when dispatch is off. */
  proof?:
    | ((
        courierId: string,
        input: Omit<MediaInput, 'courierId'>,
      ) => Promise<{ id: string; kind: string }>)
    | undefined;
  /**
   * Calls back after any committed change to couriers' offers or jobs, on any instance, with the
   * couriers concerned (undefined: any of them); answers a stop. Absent when dispatch is off.
   */
  jobChanges?:
    | ((
        onChange: (couriers: readonly string[] | undefined) => void,
      ) => Promise<() => Promise<void>>)
    | undefined;
  /** Web Push of new offers; absent when push is off or dispatch is. */
  push?: CourierPush | undefined;
  couriers: CouriersService;
  /** The courier's pay: today's and this week's totals and each job (the earnings screen). */
  earnings: Pick<EarningsService, 'ofCourier'>;
  /** The courier's payouts (the earnings screen's "Paid to you"); absent when payouts are not served here. */
  payouts?: Pick<PayoutsModule['service'], 'list'> | undefined;
  /** Wakes on committed changes of a channel, on any instance (db.listen): the earnings screen's stream. */
  listen?: Db['listen'] | undefined;
  /** The app's clock (the earnings screen's "today"). */
  clock: () => number;
  signIn: CourierSignIn;
  actions: CourierActions;
  sessions: SessionStore;
}

export interface CourierCurrent {
  sessionId: string;
  session: Session;
  courier: Courier;
}

const currentOf = new WeakMap<FastifyRequest, CourierCurrent>();

/** The courier app's share of the web machinery: its templates and headers, the dashboard kit's form checks, a courier session. */
export class CourierKit {
  constructor(
    readonly deps: CourierAppDeps,
    readonly web: WebKit,
    private readonly views: Views,
    readonly assets: {
      css: string;
      js: string;
      proof: string;
      live: string;
      push: string;
      draft: string;
    },
  ) {}

  page(
    reply: FastifyReply,
    name: string,
    data: Record<string, unknown>,
    status = 200,
  ): FastifyReply {
    const html = this.views.render(name, { ...data, assets: this.assets });
    return reply
      .code(status)
      .headers({ ...webPageHeaders(), 'content-security-policy': COURIER_CSP })
      .send(html);
  }

  /** The signed-in, active courier, or undefined (a deactivated courier's session is worth nothing). */
  async current(request: FastifyRequest): Promise<CourierCurrent | undefined> {
    const cached = currentOf.get(request);
    if (cached) return cached;
    const sessionId = readCookie(request.headers.cookie, COURIER_COOKIE);
    const session = sessionId ? await this.deps.sessions.find(sessionId) : undefined;
    if (!sessionId || session?.subject.kind !== 'courier') return undefined;
    const courier = await this.deps.couriers.get(session.subject.id).catch(() => undefined);
    if (!courier?.active) return undefined;
    const current = { sessionId, session, courier };
    currentOf.set(request, current);
    return current;
  }

  /** A brand-new session at sign-in, whatever cookie the browser brought (no fixation); the form cookie goes. */
  async signIn(reply: FastifyReply, courierId: string): Promise<void> {
    const { id } = await this.deps.sessions.start({ kind: 'courier', id: courierId });
    const maxAge = Math.floor(this.deps.sessions.timeouts.absoluteMs / 1000);
    const secure = this.web.secure;
    reply.header('set-cookie', [
      serializeCookie(COURIER_COOKIE, id, { secure, maxAge }),
      serializeCookie(FORM_COOKIE, '', { secure, maxAge: 0 }),
    ]);
  }

  signOutCookie(reply: FastifyReply): void {
    reply.header(
      'set-cookie',
      serializeCookie(COURIER_COOKIE, '', { secure: this.web.secure, maxAge: 0 }),
    );
  }
}
