import type { SmsSender } from './integrations/sms/index.ts';
import { NOT_ON_WHATSAPP, WhatsAppError, type WhatsAppSender } from './integrations/whatsapp/index.ts';
import type { ActionDetail, CourierActions, CouriersService } from './modules/couriers/index.ts';
import { FAILURE_REASONS, FAILURE_TITLES, type DeliveryModule } from './modules/delivery/index.ts';
import { allowsStep, type DispatchService, type SandboxCourier } from './modules/dispatch/index.ts';
import { deliveryCodeMessage, type MediaInput, type ProofService } from './modules/proof/index.ts';
import { errors } from './platform/errors.ts';
import type { Logger } from './platform/logger.ts';
import { haversineKm } from './shared/ghana/index.ts';

export interface CourierJobsDeps {
  actions: CourierActions;
  dispatch: DispatchService;
  /** The simulated courier (of staging orders, and a playground's production ones), which proves its deliveries with the real code check. */
  sandbox: SandboxCourier;
  orders: DeliveryModule['orders'];
  proofs: ProofService;
  sms: SmsSender;
  /** Set when delivery codes also go by WhatsApp (WHATSAPP_PROVIDER=meta). */
  whatsapp?: WhatsAppSender;
  publicBaseUrl: string;
  log: Logger;
}

/** What the phone is told of an applied job action: where the job and its order are now. */
const detail = (r: { stage: string | null; status: string }): ActionDetail => ({ stage: r.stage, status: r.status });

function orderIdOf(payload: Record<string, unknown>): string {
  if (typeof payload.order_id !== 'string') throw errors.validation('order_id must be the job\'s order id.', [{ field: 'order_id', issue: 'required' }]);
  return payload.order_id;
}

/**
 * The courier app's job actions, wired between couriers (the action endpoint) and dispatch (the
 * jobs) so that neither module knows the other's direction; and proof of delivery around them: the
 * recipient's code issued when a courier is given the job and sent after the commit (SMS, and
 * WhatsApp when configured), and a "delivered" that needs a proof (the code the courier entered, or
 * a photo already recorded). Staging never messages anyone: its recipients are partners' test data,
 * not people to wake up; the sandbox courier gets a fresh code at the door instead (as if the
 * recipient read it out) and enters it.
 */
export function registerCourierJobs({ actions, dispatch, sandbox, orders, proofs, sms, whatsapp, publicBaseUrl, log }: CourierJobsDeps): void {
  dispatch.onAssign(async (tx, { orderId, courierId }) => {
    const { code } = await proofs.issueCode(orderId, { q: tx });
    const order = code ? await orders.find(orderId, tx) : undefined;
    if (!code || !order || order.environment !== 'production') return undefined;
    const to = order.customer_phone;
    return async () => {
      // A playground's production orders, held by the sandbox courier, are test data too: nobody is messaged.
      if (await sandbox.is(courierId)) return;
      const body = deliveryCodeMessage({ code, trackingUrl: `${publicBaseUrl}/track/${order.tracking_token}` });
      // The job is taken either way: a message that fails is logged for operations, not undone. The
      // two channels go side by side, so WhatsApp never holds up the SMS, which always goes (it alone
      // carries the tracking link); each is tried once, within its provider's timeout.
      await Promise.all([
        sms.send({ to, body }).catch((err: unknown) => log.warn({ err, orderId }, 'could not text the recipient their delivery code')),
        whatsapp?.sendCode({ to, code }).catch((err: unknown) => whatsAppFailed(log, err, orderId)),
      ]);
    };
  });
  sandbox.proveWith(async (orderId, courierId) => {
    if (await proofs.isProven(orderId)) return;
    // A fresh code (rotating also covers a code lost to a crash) verified like any courier's entry.
    const { code } = await proofs.issueCode(orderId, { rotate: true });
    await proofs.verifyCode(orderId, code!, courierId);
  });
  dispatch.onDeliver(async (tx, { orderId }) => {
    if (!(await proofs.isProven(orderId, tx))) {
      throw errors.validation("Enter the recipient's 4-digit delivery code, or take a photo of the delivery, to finish it.", [{ field: 'code', issue: 'required' }]);
    }
  });

  actions.register('accept', async ({ courierId, actionId, payload }) => detail(await dispatch.accept(courierId, orderIdOf(payload), actionId)));
  actions.register('decline', async ({ courierId, actionId, payload }) => detail(await dispatch.decline(courierId, orderIdOf(payload), actionId)));
  actions.register('arrived_at_pickup', async ({ courierId, actionId, payload }) => detail(await dispatch.arrivedAtPickup(courierId, orderIdOf(payload), actionId)));
  actions.register('picked_up', async ({ courierId, actionId, payload }) => detail(await dispatch.pickedUp(courierId, orderIdOf(payload), actionId)));
  actions.register('arrived', async ({ courierId, actionId, payload }) => detail(await dispatch.arrived(courierId, orderIdOf(payload), actionId)));
  actions.register('could_not_deliver', async ({ courierId, actionId, payload }) => detail(await dispatch.couldNotDeliver(courierId, orderIdOf(payload), actionId, payload.reason, payload.note)));
  actions.register('returned', async ({ courierId, actionId, payload }) => detail(await dispatch.returned(courierId, orderIdOf(payload), actionId)));
  actions.register('delivered', async ({ courierId, actionId, payload }) => {
    const orderId = orderIdOf(payload);
    if (payload.code !== undefined) {
      // The code is checked (and a wrong one counted) in its own transaction, before the delivery's:
      // only by the courier holding the job, so nobody else can use up the recipient's tries.
      if (!(await dispatch.holds(courierId, orderId))) throw errors.notYourJob('Only the courier holding this job may act on it.');
      if (typeof payload.code !== 'string') throw errors.validation('A delivery code is 4 digits.', [{ field: 'code', issue: 'must be 4 digits' }]);
      await proofs.verifyCode(orderId, payload.code, courierId);
    }
    // The cash the courier says they took at the door; the cash module checks it against what is due.
    const cash = payload.cash_collected_pesewas;
    if (cash !== undefined && typeof cash !== 'number') {
      throw errors.validation('cash_collected_pesewas must be a whole number of pesewas.', [{ field: 'cash_collected_pesewas', issue: 'must be a number' }]);
    }
    return detail(await dispatch.delivered(courierId, orderId, actionId, { cashCollectedPesewas: cash }));
  });
}

/** A recipient without WhatsApp is ordinary (the SMS reached them): info; anything else is for operations. */
function whatsAppFailed(log: Logger, err: unknown, orderId: string): void {
  if (err instanceof WhatsAppError && err.metaCode === NOT_ON_WHATSAPP) log.info({ orderId }, 'the recipient is not on WhatsApp; their delivery code went by SMS only');
  else log.warn({ err, orderId }, 'could not send the recipient their delivery code by WhatsApp (the SMS went regardless)');
}

/**
 * The courier app's proof upload: a photo or signature for the job the courier holds (nobody
 * else's), stored by the proof module; the delivered action then needs no code.
 */
export function courierProofUpload(dispatch: DispatchService, proofs: ProofService) {
  return async (courierId: string, input: Omit<MediaInput, 'courierId'>): Promise<{ id: string; kind: string }> => {
    if (!(await dispatch.holds(courierId, input.orderId))) throw errors.notYourJob('Only the courier holding this job may add a proof to it.');
    const proof = await proofs.recordMedia({ ...input, courierId });
    return { id: proof.id, kind: proof.kind };
  };
}

const NEXT: Record<string, Array<{ kind: string; label: string }>> = {
  accepted: [
    { kind: 'arrived_at_pickup', label: 'I am at the pickup' },
    { kind: 'picked_up', label: 'Picked up' },
  ],
  at_pickup: [{ kind: 'picked_up', label: 'Picked up' }],
  picked_up: [{ kind: 'arrived', label: 'I am at the drop-off' }],
  at_dropoff: [],
  returning: [{ kind: 'returned', label: 'Returned to the pickup' }],
};

const REASONS = FAILURE_REASONS.map((value) => ({ value, label: FAILURE_TITLES[value] }));

const place = (lat: number | null, lng: number | null) => (lat === null || lng === null ? undefined : { lat, lng });

/** The courier app's job screen: the offer or held job with its order's sheet, distance, navigation and next steps. */
export function courierJobView(dispatch: DispatchService, orders: DeliveryModule['orders'], couriers: CouriersService) {
  return async (courierId: string) => {
    const job = await dispatch.currentJob(courierId);
    if (!job) return undefined;
    const sheet = await orders.jobSheet(job.order_id);
    if (!sheet) return undefined;
    const courier = await couriers.get(courierId);
    const pickup = place(sheet.pickup_lat, sheet.pickup_lng);
    const dropoff = place(sheet.delivery_lat, sheet.delivery_lng);
    const here = place(courier.last_lat, courier.last_lng);
    const stage = job.kind === 'job' ? job.stage : undefined;
    const goingTo = stage === 'picked_up' || stage === 'at_dropoff' ? dropoff : pickup;
    return {
      kind: job.kind,
      order_id: job.order_id,
      stage,
      expires_at: job.kind === 'offer' ? job.expires_at.toISOString() : undefined,
      sheet,
      distance_km: here && pickup ? Math.round(haversineKm(here, pickup) * 10) / 10 : undefined,
      navigation: goingTo && { geo: `geo:${goingTo.lat},${goingTo.lng}`, maps: `https://www.google.com/maps/dir/?api=1&destination=${goingTo.lat},${goingTo.lng}` },
      next: stage ? (NEXT[stage] ?? []) : [],
      can_deliver: stage === 'picked_up' || stage === 'at_dropoff',
      returning: stage === 'returning',
      /** The could-not-deliver form's reasons, when the job can take it. */
      reasons: stage && allowsStep(stage, 'could_not_deliver') ? REASONS : [],
    };
  };
}
