import type { FastifyInstance, FastifyReply } from 'fastify';
import { PAYOUT_JOURNAL_KINDS, runView, type PayoutRow } from '../../modules/payouts/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, utc, type ConsoleKit } from './kit.ts';
import { payoutView, runRow } from './payout-view.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { liveBoard } from './live-board.ts';

/** What became of an approved payout: sent, waiting for its destination's verification, or replaced (its destination had changed). */
function approvedNotice(done: PayoutRow | undefined): string {
  if (done?.replaced_by)
    return `Approved, but its payee's destination had changed: it was cancelled and made again as ${done.replaced_by} for the current destination.`;
  if (done?.status === 'created')
    return "Approved: it is sent once its payee's destination is verified.";
  return `Approved and sent: the payout is ${done?.status ?? 'being sent'}.`;
}

/**
 * Payouts for finance and admin: runs and payouts (those awaiting approval first), a payout with
 * its remittance lines and journals and the maker-checker forms (a payee's page is in
 * payee-routes.ts). Every change is audited; a refusal (the creator approving) is shown on the page
 * with its 4xx status and changes nothing.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsolePayoutRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { payouts, journals } = kit.deps;
  if (!payouts) return;

  const live = liveBoard(kit);

  async function listPage(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const [runs, awaiting, recent] = await Promise.all([
      payouts!.service.runs(20),
      payouts!.service.list({ status: 'awaiting_approval', limit: 100 }),
      payouts!.service.list({ limit: 100 }),
    ]);
    const rest = recent.filter((p) => p.status !== 'awaiting_approval');
    const [operators, payees] = await Promise.all([
      kit.operatorNames(),
      kit.payeeNames([...awaiting, ...rest].map((p) => p.payee)),
    ]);
    return kit.page(
      reply,
      'payouts',
      {
        title: 'Payouts',
        runs: runs.map((r) => runRow(r, operators)),
        payouts: [...awaiting, ...rest].map((p) => ({
          ...payoutView(p),
          payeeName: payees.get(p.payee) ?? p.payee,
        })),
        ...live('payouts', '/console/payouts'),
        ...extra,
      },
      status,
    );
  }

  async function payoutPage(
    reply: FastifyReply,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const found = await payouts!.service.get(id).catch((err: unknown) => {
      if (isAppError(err) && err.statusCode === 404)
        throw new WebRefusal(404, 'There is no such payout.');
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
        journals: caused.map((j) => ({
          ...j,
          when: utc(j.created_at),
          moved: formatGhs(Number(j.moved_pesewas)),
        })),
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/payouts', need: FINANCE_ROLES },
    async ({ reply }) => {
      return listPage(reply);
    },
  );

  // Started at once; its page follows the background worker (the form answers with a redirect to it).
  definePage(
    app,
    kit,
    { method: 'POST', path: '/console/payouts/run', need: FINANCE_ROLES },
    async ({ request, reply, actor: current }) => {
      const run = await payouts.service.start(current.operator.id);
      await kit.audit(request, current, {
        action: 'payout_run.create',
        target: { type: 'payout_run', id: run.id },
        after: { status: 'creating' },
      });
      return reply.redirect(`/console/payouts/runs/${run.id}`, 303);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/payouts/runs/:id',
      params: { id: idParam('prun', 'There is no such payout run.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      const run = await runOf(request.params.id);
      return kit.page(reply, 'payout-run', {
        title: `Payout run ${run.run_id}`,
        run,
        when: utc(new Date(run.created_at)),
        cutoff: utc(new Date(run.cutoff)),
      });
    },
  );

  // What the run page's script polls: the run resource of the operator API, with the bar's scale.
  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/payouts/runs/:id/progress',
      params: { id: idParam('prun', 'There is no such payout run.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      return reply.header('cache-control', 'no-store').send(await runOf(request.params.id));
    },
  );

  async function runOf(id: string) {
    const run = await payouts!.service.progress(id).catch((err: unknown) => {
      if (isAppError(err) && err.statusCode === 404)
        throw new WebRefusal(404, 'There is no such payout run.');
      throw err;
    });
    const view = runView(run);
    return {
      ...view,
      settled: view.paid + view.failed,
      max: Math.max(1, view.created - view.awaiting_approval),
    };
  }

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/payouts/:id',
      params: { id: idParam('pout', 'There is no such payout.') },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      return payoutPage(reply, request.params.id);
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    definePage(
      app,
      kit,
      {
        method: 'POST',
        path: `/console/payouts/:id/${decision}`,
        params: { id: idParam('pout', 'There is no such payout.') },
        need: FINANCE_ROLES,
      },
      async ({ request, reply, actor: current }) => {
        const id = request.params.id;
        let done: PayoutRow | undefined;
        try {
          done =
            decision === 'approve'
              ? await payouts.service.approve(id, current.operator.id)
              : await payouts.service.reject(id, current.operator.id);
        } catch (err) {
          if (!isAppError(err) || err.statusCode >= 500) throw err;
          if (err.statusCode === 404) throw new WebRefusal(404, 'There is no such payout.');
          return payoutPage(
            reply,
            id,
            {
              error: `Not ${decision === 'approve' ? 'approved' : 'rejected'}: ${err.message}`,
              errorCode: err.code,
            },
            err.statusCode,
          );
        }
        await kit.audit(request, current, {
          action: `payout.${decision}`,
          target: { type: 'payout', id },
          after: { status: done?.status ?? null },
        });
        return payoutPage(reply, id, {
          notice:
            decision === 'approve'
              ? approvedNotice(done)
              : 'Rejected: the money is owed to the payee again, for a later run.',
        });
      },
    );
  }
}
