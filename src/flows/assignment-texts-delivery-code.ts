import type { SmsSender } from '../integrations/sms/index.ts';
import {
  NOT_ON_WHATSAPP,
  WhatsAppError,
  type WhatsAppSender,
} from '../integrations/whatsapp/index.ts';
import type { DeliveryModule } from '../modules/delivery/index.ts';
import type { DispatchModule } from '../modules/dispatch/index.ts';
import { deliveryCodeMessage, type ProofService } from '../modules/proof/index.ts';
import type { Logger } from '../platform/logger.ts';
import { defineFlow } from '../platform/module.ts';

interface Needs {
  dispatch: DispatchModule | undefined;
  delivery: DeliveryModule | undefined;
  proofs: ProofService;
  sms: { sender: SmsSender };
  /** Set when delivery codes also go by WhatsApp (WHATSAPP_PROVIDER=meta). */
  whatsapp: WhatsAppSender | undefined;
  publicBaseUrl: string;
  log: Logger;
}

/**
 * When a courier is given a job, the recipient's delivery code is issued in the assignment's
 * transaction and sent after the commit (SMS, and WhatsApp when configured). Staging never
 * messages anyone: its recipients are partners' test data, not people to wake up.
 */
export const assignmentTextsDeliveryCode = defineFlow({
  name: "an assignment texts the recipient's delivery code",
  wire: ({ dispatch, delivery, proofs, sms, whatsapp, publicBaseUrl, log }: Needs) => {
    if (!dispatch || !delivery) return;
    dispatch.service.onAssign(async (tx, { orderId, courierId }) => {
      const { code } = await proofs.issueCode(orderId, { q: tx });
      const order = code ? await delivery.orders.find(orderId, tx) : undefined;
      if (!code || !order || order.environment !== 'production') return undefined;
      const to = order.customer_phone;
      return async () => {
        // A playground's production orders, held by the sandbox courier, are test data too: nobody is messaged.
        if (await dispatch.sandbox.is(courierId)) return;
        const body = deliveryCodeMessage({
          code,
          trackingUrl: `${publicBaseUrl}/track/${order.tracking_token}`,
        });
        // The job is taken either way: a message that fails is logged for operations, not undone. The
        // two channels go side by side, so WhatsApp never holds up the SMS, which always goes (it alone
        // carries the tracking link); each is tried once, within its provider's timeout.
        await Promise.all([
          sms.sender
            .send({ to, body })
            .catch((err: unknown) =>
              log.warn({ err, orderId }, 'could not text the recipient their delivery code'),
            ),
          whatsapp
            ?.sendCode({ to, code })
            .catch((err: unknown) => whatsAppFailed(log, err, orderId)),
        ]);
      };
    });
  },
});

/** A recipient without WhatsApp is ordinary (the SMS reached them): info; anything else is for operations. */
function whatsAppFailed(log: Logger, err: unknown, orderId: string): void {
  if (err instanceof WhatsAppError && err.metaCode === NOT_ON_WHATSAPP)
    log.info({ orderId }, 'the recipient is not on WhatsApp; their delivery code went by SMS only');
  else
    log.warn(
      { err, orderId },
      'could not send the recipient their delivery code by WhatsApp (the SMS went regardless)',
    );
}
