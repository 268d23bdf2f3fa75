import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs, ghsToPesewas } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, type ConsoleKit } from './kit.ts';

const COURIER_ID = /^cou_[0-9A-Z]{26}$/;
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
type Params = { Params: { id: string } };
const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Couriers' cash for finance and admin: what each courier collected on delivery and still has to
 * hand in, the handovers recorded, and the form that records one (audited). A handover above the
 * courier's balance is refused and changes nothing.
 */
export function registerConsoleCashRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { cash, couriers, audit } = kit.deps;
  if (!cash) return;

  async function page(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const [balances, handovers, known] = await Promise.all([cash!.balances(), cash!.handovers(undefined, 50), couriers.service.list({ limit: 500 })]);
    const names = new Map(known.map((c) => [c.id, c.name]));
    return kit.page(
      reply,
      'cash',
      {
        title: 'Courier cash',
        balances: balances.map((b) => ({ id: b.courier_id, name: names.get(b.courier_id) ?? b.courier_id, balance: formatGhs(Number(b.balance_pesewas)), holds: Number(b.balance_pesewas) > 0 })),
        handovers: handovers.map((h) => ({ ...h, name: names.get(h.courier_id) ?? h.courier_id, amount: formatGhs(Number(h.amount_pesewas)), when: utc(h.created_at) })),
        ...extra,
      },
      status,
    );
  }

  app.get('/console/cash', async (request, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    return page(reply);
  });

  app.post<Params>('/console/cash/:id/handover', async (request: FastifyRequest<Params>, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { amount_ghs: { max: 12, label: 'Amount' } }, current);
    const id = request.params.id;
    if (!COURIER_ID.test(id)) throw new WebRefusal(404, 'There is no such courier.');
    const pesewas = AMOUNT.test(f.amount_ghs) ? ghsToPesewas(Number(f.amount_ghs)) : null;
    if (!pesewas) return page(reply, { error: 'Enter the amount handed in, in GHS, like 120 or 120.50.' }, 400);
    try {
      const done = await cash.handover(id, pesewas, current.operator.id);
      await audit.record({
        actor: kit.actor(current),
        action: 'courier_cash.handover',
        target: { type: 'courier', id },
        before: null,
        after: { handover_id: done.handover.id, amount_pesewas: pesewas, balance_pesewas: done.balance_pesewas },
        origin: kit.origin(request),
      });
      return page(reply, { notice: `Recorded ${formatGhs(pesewas)} handed in; ${formatGhs(done.balance_pesewas)} still to hand in.` });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return page(reply, { error: `Not recorded: ${err.message}` }, err.statusCode);
    }
  });
}
