import type { CashService } from '../modules/cash/index.ts';
import type { CourierActions } from '../modules/couriers/index.ts';
import type { DispatchModule, DispatchService } from '../modules/dispatch/index.ts';
import type { MediaInput, ProofService } from '../modules/proof/index.ts';
import { errors } from '../platform/errors.ts';
import { defineFlow } from '../platform/module.ts';
import { detail, orderIdOf } from './courier-takes-job-actions.ts';
import {
  requireProof,
  textRecipient,
  type FallbackNeeds,
} from './fallback-proof-asks-recipient.ts';

interface Needs extends FallbackNeeds {
  courierActions: CourierActions;
  dispatch: DispatchModule | undefined;
  proofs: ProofService;
  cash: CashService | undefined;
}

/**
 * A courier completes a delivery, top to bottom:
 * 1. (before, optional) the courier app uploads a photo or signature: `courierProofUpload` below;
 * 2. the app posts the `delivered` action to `POST /courier/actions` (web/courier/routes.ts), and
 *    `CourierActions.apply` (couriers/actions.ts) opens one unit of work and claims the action id in
 *    `courier_actions`: a replay waits for the first sending's commit and is answered from its record;
 * 3. the handler below runs inside that unit: the recipient's code, when given, is checked in a
 *    savepoint of its own (a wrong one stays counted, as the refusal commits);
 * 4. dispatch's `delivered` moves the job and the order in a savepoint of the same unit, in which:
 *    a. the delivery needs a proof (the code just verified, or a photo already recorded: then only
 *       near the drop-off, and it stays unconfirmed until the recipient answers;
 *       fallback-proof-asks-recipient.ts);
 *    b. the cash module checks and posts what the courier collected at the door;
 *    then delivery's move listeners run in it too (order-move-ends-dispatch, sale-settles-on-delivery);
 * 5. couriers stores the answer (the job's stage, the order's status) in the action's record and the
 *    unit commits: the id, the delivery and the answer together, or none of them;
 * 6. after the commit, a delivery proved by a photo or signature texts the recipient a link to confirm it.
 * Staging's sandbox courier proves its deliveries with the same code check (a fresh code it enters).
 */
export const courierDeliversOrder = defineFlow({
  name: 'a courier delivers an order',
  wire: (needs: Needs) => {
    const { courierActions, dispatch, proofs, cash } = needs;
    if (!dispatch) return;
    const text = textRecipient(needs);
    courierActions.register('delivered', async ({ courierId, at, payload, afterCommit }) => {
      const orderId = orderIdOf(payload);
      if (payload.code !== undefined) {
        // Only by the courier holding the job, so nobody else can use up the recipient's tries.
        if (!(await dispatch.service.holds(courierId, orderId)))
          throw errors.notYourJob('Only the courier holding this job may act on it.');
        if (typeof payload.code !== 'string')
          throw errors.validation('A delivery code is 4 digits.', [
            { field: 'code', issue: 'must be 4 digits' },
          ]);
        await proofs.verifyCode(orderId, payload.code, courierId);
      }
      // The cash the courier says they took at the door; the cash module checks it against what is due.
      const collected = payload.cash_collected_pesewas;
      if (collected !== undefined && typeof collected !== 'number') {
        throw errors.validation('cash_collected_pesewas must be a whole number of pesewas.', [
          { field: 'cash_collected_pesewas', issue: 'must be a number' },
        ]);
      }
      const done = await dispatch.service.delivered(
        courierId,
        orderId,
        { cashCollectedPesewas: collected, at },
        { afterCommit },
      );
      afterCommit(() => text(orderId, courierId));
      return detail(done);
    });
    dispatch.service.onDeliver(requireProof(needs));
    if (cash) dispatch.service.onDeliver(cash.collect);
    dispatch.sandbox.proveWith(async (orderId, courierId) => {
      if (await proofs.isProven(orderId)) return;
      // A fresh code (rotating also covers a code lost to a crash) verified like any courier's entry.
      const { code } = await proofs.issueCode(orderId, { rotate: true });
      await proofs.verifyCode(orderId, code!, courierId);
    });
  },
});

/**
 * The courier app's proof upload: a photo or signature for the job the courier holds (nobody
 * else's), stored by the proof module; the delivered action then needs no code.
 */
export function courierProofUpload(dispatch: DispatchService, proofs: ProofService) {
  return async (
    courierId: string,
    input: Omit<MediaInput, 'courierId'>,
  ): Promise<{ id: string; kind: string }> => {
    if (!(await dispatch.holds(courierId, input.orderId)))
      throw errors.notYourJob('Only the courier holding this job may add a proof to it.');
    const proof = await proofs.recordMedia({ ...input, courierId });
    return { id: proof.id, kind: proof.kind };
  };
}
