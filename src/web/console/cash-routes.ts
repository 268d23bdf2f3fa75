import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs, ghsToPesewas } from '../../platform/money.ts';
import { utc, FINANCE_ROLES, type ConsoleKit } from './kit.ts';
import { liveBoard } from './live-board.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * Couriers' cash for finance and admin: what each courier collected on delivery and still has to
 * hand in, the handovers recorded, and the form that records one (audited). A handover above the
 * courier's balance is refused and changes nothing.
 */
export function registerConsoleCashRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { cash, couriers } = kit.deps;
  if (!cash) return;

  const live = liveBoard(kit);

  async function page(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const [balances, handovers, operators] = await Promise.all([
      cash!.balances(),
      cash!.handovers(undefined, 50),
      kit.operatorNames(),
    ]);
    const names = await couriers.service.namesOf(
      [...balances, ...handovers].map((r) => r.courier_id),
    );
    return kit.page(
      reply,
      'cash',
      {
        title: 'Courier cash',
        ...live('cash', '/console/cash'),
        balances: balances.map((b) => ({
          id: b.courier_id,
          name: names.get(b.courier_id) ?? b.courier_id,
          balance: formatGhs(Number(b.balance_pesewas)),
          holds: Number(b.balance_pesewas) > 0,
        })),
        handovers: handovers.map((h) => ({
          ...h,
          name: names.get(h.courier_id) ?? h.courier_id,
          recorder: operators.get(h.recorded_by) ?? h.recorded_by,
          amount: formatGhs(Number(h.amount_pesewas)),
          when: utc(h.created_at),
        })),
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/cash', need: FINANCE_ROLES },
    async ({ reply }) => {
      return page(reply);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/cash/:id/handover',
      params: { id: idParam('cou', 'There is no such courier.') },
      need: FINANCE_ROLES,
      form: { amount_ghs: { max: 12, label: 'Amount' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const id = request.params.id;
      const pesewas = AMOUNT.test(f.amount_ghs) ? ghsToPesewas(Number(f.amount_ghs)) : null;
      if (!pesewas)
        return page(
          reply,
          { error: 'Enter the amount handed in, in GHS, like 120 or 120.50.' },
          400,
        );
      try {
        const done = await cash.handover(id, pesewas, current.operator.id);
        await kit.audit(request, current, {
          action: 'courier_cash.handover',
          target: { type: 'courier', id },
          after: {
            handover_id: done.handover.id,
            amount_pesewas: pesewas,
            balance_pesewas: done.balance_pesewas,
          },
        });
        return page(reply, {
          notice: `Recorded ${formatGhs(pesewas)} handed in; ${formatGhs(done.balance_pesewas)} still to hand in.`,
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return page(reply, { error: `Not recorded: ${err.message}` }, err.statusCode);
      }
    },
  );
}
