import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { namesMatch, PAYOUT_JOURNAL_KINDS, type PayoutRow } from '../../modules/payouts/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, utc, type ConsoleKit, type OperatorCurrent } from './kit.ts';
import { masked, payoutView } from './payout-view.ts';

const PAYOUT_ID = /^pout_[0-9A-Z]{26}$/;
const PAYEE_ID = { vendor: /^ven_[0-9A-Z]{26}$/, partner: /^ptn_[0-9A-Z]{26}$/ } as const;
type PayeeParams = { Params: { kind: string; id: string } };
type PayoutParams = { Params: { id: string } };
const DESTINATION_FIELDS = {
  kind: { max: 20, label: 'Kind' },
  network: { max: 20, label: 'Network' },
  number: { max: 30, label: 'Wallet number' },
  bank_code: { max: 20, label: 'Bank code' },
  account_number: { max: 30, label: 'Account number' },
  name: { max: 120, label: 'Registered name' },
};

/**
 * Payouts for finance and admin: runs and payouts (those awaiting approval first), a payout with
 * its remittance lines and journals and the maker-checker forms, and a payee's balances and
 * destination. Every change is audited; a refusal (the creator approving, an invalid destination)
 * is shown on the page with its 4xx status and changes nothing.
 */
export function registerConsolePayoutRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { payouts, journals, audit } = kit.deps;
  if (!payouts) return;

  async function listPage(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const [runs, awaiting, recent] = await Promise.all([payouts!.service.runs(20), payouts!.service.list({ status: 'awaiting_approval', limit: 100 }), payouts!.service.list({ limit: 100 })]);
    const rest = recent.filter((p) => p.status !== 'awaiting_approval');
    return kit.page(
      reply,
      'payouts',
      {
        title: 'Payouts',
        runs: runs.map((r) => ({ ...r, when: utc(r.created_at), cutoff: utc(r.cutoff), total: formatGhs(Number(r.total_pesewas)) })),
        payouts: [...awaiting, ...rest].map(payoutView),
        ...extra,
      },
      status,
    );
  }

  async function payoutPage(reply: FastifyReply, id: string, extra: Record<string, unknown> = {}, status = 200) {
    if (!PAYOUT_ID.test(id)) throw new WebRefusal(404, 'There is no such payout.');
    const found = await payouts!.service.get(id).catch((err: unknown) => {
      if (isAppError(err) && err.statusCode === 404) throw new WebRefusal(404, 'There is no such payout.');
      throw err;
    });
    const caused = journals ? await journals.about(PAYOUT_JOURNAL_KINDS, id) : [];
    return kit.page(
      reply,
      'payout',
      {
        title: `Payout ${id}`,
        payout: payoutView(found.payout),
        lines: found.lines.map((l) => ({ ...l, amount: formatGhs(Number(l.amount_pesewas)) })),
        journals: caused.map((j) => ({ ...j, when: utc(j.created_at), moved: formatGhs(Number(j.moved_pesewas)) })),
        ...extra,
      },
      status,
    );
  }

  function payee(request: FastifyRequest<PayeeParams>): { kind: 'vendor' | 'partner'; id: string } {
    const { kind, id } = request.params;
    if ((kind !== 'vendor' && kind !== 'partner') || !PAYEE_ID[kind].test(id)) throw new WebRefusal(404, 'There is no such payee.');
    return { kind, id };
  }

  async function payeePage(reply: FastifyReply, kind: 'vendor' | 'partner', id: string, extra: Record<string, unknown> = {}, status = 200) {
    const [balance, destination, recent] = await Promise.all([payouts!.payees.balance(kind, id), payouts!.payees.destination(kind, id), payouts!.service.list({ payee: `${kind}:${id}`, limit: 20 })]);
    return kit.page(
      reply,
      'payee',
      {
        title: `Payee ${kind} ${id}`,
        kind,
        id,
        available: formatGhs(Number(balance.available_pesewas)),
        pending: formatGhs(Number(balance.pending_pesewas)),
        receivable: formatGhs(Number(balance.receivable_pesewas)),
        schedule: balance.schedule,
        destination: destination && {
          shown: masked(destination),
          name: destination.name,
          resolvedName: destination.resolved_name,
          mismatch: destination.resolved_name !== null && !namesMatch(destination.name, destination.resolved_name),
          changed: utc(destination.changed_at),
          changedBy: destination.changed_by,
          cooling: payouts!.payees.cooling(destination),
        },
        payouts: recent.map(payoutView),
        form: { kind: 'mobile_money', network: 'mtn', number: '', bank_code: '', account_number: '', name: '' },
        ...extra,
      },
      status,
    );
  }

  async function audited(request: FastifyRequest, current: OperatorCurrent, action: string, target: { type: string; id: string }, after: Record<string, unknown>): Promise<void> {
    await audit.record({ actor: kit.actor(current), action, target, before: null, after, origin: kit.origin(request) });
  }

  app.get('/console/payouts', async (request, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    return listPage(reply);
  });

  app.post('/console/payouts/run', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    kit.form(request, {}, current);
    const r = await payouts.service.runNow(current.operator.id);
    await audited(request, current, 'payout_run.create', { type: 'payout_run', id: r.run.id }, { created: r.created, awaiting_approval: r.awaiting_approval, without_destination: r.without_destination });
    const missing = r.without_destination.length > 0 ? ` ${r.without_destination.length} payee(s) are owed but have no destination: ${r.without_destination.join(', ')}.` : '';
    return listPage(reply, { notice: `Run ${r.run.id}: ${r.created} payout(s) created, ${r.awaiting_approval} awaiting approval.${missing}` });
  });

  app.get<PayoutParams>('/console/payouts/:id', async (request, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    return payoutPage(reply, request.params.id);
  });

  for (const decision of ['approve', 'reject'] as const) {
    app.post<PayoutParams>(`/console/payouts/:id/${decision}`, async (request, reply) => {
      const current = await kit.operator(request, reply, FINANCE_ROLES);
      if (!current) return reply;
      kit.form(request, {}, current);
      const id = request.params.id;
      if (!PAYOUT_ID.test(id)) throw new WebRefusal(404, 'There is no such payout.');
      let done: PayoutRow | undefined;
      try {
        done = decision === 'approve' ? await payouts.service.approve(id, current.operator.id) : await payouts.service.reject(id, current.operator.id);
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such payout.');
        return payoutPage(reply, id, { error: `Not ${decision === 'approve' ? 'approved' : 'rejected'}: ${err.message}`, errorCode: err.code }, err.statusCode);
      }
      await audited(request, current, `payout.${decision}`, { type: 'payout', id }, { status: done?.status ?? null });
      return payoutPage(reply, id, { notice: decision === 'approve' ? `Approved and sent: the payout is ${done?.status ?? 'being sent'}.` : 'Rejected: the money is owed to the payee again, for a later run.' });
    });
  }

  app.get<PayeeParams>('/console/payees/:kind/:id', async (request, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    const { kind, id } = payee(request);
    return payeePage(reply, kind, id);
  });

  app.post<{ Params: { id: string } }>('/console/payees/vendor/:id/schedule', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { schedule: { max: 20, label: 'Schedule' } }, current);
    const id = request.params.id;
    if (!PAYEE_ID.vendor.test(id)) throw new WebRefusal(404, 'There is no such payee.');
    const before = (await payouts.payees.balance('vendor', id)).schedule;
    try {
      await payouts.payees.setSchedule(id, f.schedule as 'daily' | 'same_day', current.operator.id);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such payee.');
      return payeePage(reply, 'vendor', id, { error: `Not saved: ${err.message}` }, err.statusCode);
    }
    await audit.record({ actor: kit.actor(current), action: 'payout_schedule.set', target: { type: 'vendor', id }, before: { schedule: before }, after: { schedule: f.schedule }, origin: kit.origin(request) });
    return payeePage(reply, 'vendor', id, { notice: f.schedule === 'same_day' ? 'Saved: this vendor is also paid after each courier cash handover of its cash-on-delivery sales.' : 'Saved: this vendor is paid by the daily run.' });
  });

  app.post<PayeeParams>('/console/payees/:kind/:id/destination', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, DESTINATION_FIELDS, current);
    const { kind, id } = payee(request);
    try {
      const saved = await payouts.payees.setDestination(kind, id, f, current.operator.id);
      await audited(request, current, 'payout_destination.set', { type: kind, id }, { kind: saved.destination.kind, shown: masked(saved.destination), name_matches: saved.name_matches });
      const mismatch = saved.name_matches === false ? ` The provider has this account registered to ${saved.destination.resolved_name}, not ${saved.destination.name}: check before approving payouts.` : '';
      return payeePage(reply, kind, id, { notice: `Destination saved; payouts to it wait for approval during the cooling period.${mismatch}` });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such payee.');
      return payeePage(reply, kind, id, { error: `Not saved: ${err.message}`, form: f }, err.statusCode);
    }
  });
}
