import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { ALL_ROLES, utc, type ConsoleKit } from './kit.ts';

/**
 * Deliveries finished with a photo or signature instead of the recipient's code, still waiting:
 * pending (the recipient has not answered the texted link) or disputed (they said it did not arrive).
 * Their sales' money is not paid out until the recipient confirms or an operator accepts one here
 * (audited; one operator is enough).
 */
export function registerConsoleConfirmationRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { confirmations, couriers } = kit.deps;
  if (!confirmations) return;

  async function page(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const waiting = await confirmations!.waiting(200);
    const names = await couriers.service.namesOf(
      waiting.flatMap((r) => (r.courier_id ? [r.courier_id] : [])),
    );
    return kit.page(
      reply,
      'confirmations',
      {
        title: 'Deliveries to confirm',
        rows: waiting.map((r) => ({
          order_id: r.order_id,
          state: r.state,
          courier: r.courier_id ? (names.get(r.courier_id) ?? r.courier_id) : '—',
          courier_id: r.courier_id,
          distance: r.distance_m === null ? 'not measured' : `${r.distance_m} m`,
          when: utc(r.created_at),
          texted: r.texted_at ? 'yes' : 'no',
          note: r.dispute_note,
        })),
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/confirmations', need: ALL_ROLES },
    async ({ reply }) => page(reply),
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/confirmations/:id/accept',
      params: { id: idParam('dlv', 'There is no such order.') },
      need: ALL_ROLES,
      form: {},
    },
    async ({ request, reply, actor }) => {
      const id = request.params.id;
      try {
        const { before, after } = await confirmations.accept(id, actor.operator.id);
        await kit.audit(request, actor, {
          action: 'delivery_confirmation.accept',
          target: { type: 'delivery_order', id },
          before: { state: before.state },
          after: { state: after.state },
        });
        return page(reply, {
          notice: `Accepted the delivery of ${id}: its sale's money is paid in the next payout run.`,
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return page(reply, { error: `Not accepted: ${err.message}` }, err.statusCode);
      }
    },
  );
}
