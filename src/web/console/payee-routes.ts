import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { namesMatch, type DestinationRow, type Replacement } from '../../modules/payouts/index.ts';
import { errors, isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, utc, type ConsoleKit } from './kit.ts';
import { masked, payoutView } from './payout-view.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

const PAYEE_KINDS = ['vendor', 'partner', 'courier'] as const;
type Kind = (typeof PAYEE_KINDS)[number];
const PAYEE_PREFIX = { vendor: 'ven', partner: 'ptn', courier: 'cou' } as const;
/** Every payee page's path: /console/payees/:kind/:id, a vendor's, a partner's or a courier's id. */
const PAYEE_PARAMS = {
  kind: { oneOf: PAYEE_KINDS, missing: 'There is no such payee.' },
  id: {
    test: (v: string) => isId('ven', v) || isId('ptn', v) || isId('cou', v),
    missing: 'There is no such payee.',
  },
};
type PayeeParams = { Params: { kind: string; id: string } };
const DESTINATION_FIELDS = {
  kind: { max: 20, label: 'Kind' },
  network: { max: 20, label: 'Network' },
  number: { max: 30, label: 'Wallet number' },
  bank_code: { max: 20, label: 'Bank code' },
  account_number: { max: 30, label: 'Account number' },
  name: { max: 120, label: 'Registered name' },
};
const mismatchOf = (d: { name: string; resolved_name: string | null }) =>
  d.resolved_name !== null && !namesMatch(d.name, d.resolved_name);
const VERIFICATION: Record<DestinationRow['verification'], string> = {
  verified: 'Verified with the transfer provider',
  unverified:
    'Being verified with the transfer provider: nothing is paid to it until it is (the payouts job retries while the provider is down)',
  needs_review:
    'Needs review: nothing is paid to it until a finance operator who did not set it accepts it',
};
/** What a replacement did, in a sentence for the notice. */
const remade = (replaced: Replacement[]) =>
  replaced.length === 0
    ? ''
    : ` ${replaced.length} unsent payout(s) were cancelled and made again for it: ${replaced.map((r) => `${r.cancelled} → ${r.replacement.id}`).join(', ')}.`;

/**
 * A payee's page for finance and admin: balances (what it owes back included), a vendor's payout
 * schedule, and its destination. A destination change is proposed by one finance operator and
 * approved (or rejected) by a second; the payee's old contact is told on approval. Every change is
 * audited; a refusal (the proposer approving, an invalid destination) is shown with its 4xx status.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsolePayeeRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { payouts } = kit.deps;
  if (!payouts) return;

  function payee(request: FastifyRequest<PayeeParams>): { kind: Kind; id: string } {
    const { kind, id } = request.params;
    if (!(PAYEE_KINDS as readonly string[]).includes(kind) || !isId(PAYEE_PREFIX[kind as Kind], id))
      throw new WebRefusal(404, 'There is no such payee.');
    return { kind: kind as Kind, id };
  }

  async function payeePage(
    reply: FastifyReply,
    kind: Kind,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const [balance, destination, change, recent] = await Promise.all([
      payouts!.payees.balance(kind, id),
      payouts!.payees.destination(kind, id),
      payouts!.changes.pending(kind, id),
      payouts!.service.list({ payee: `${kind}:${id}`, limit: 20 }),
    ]);
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
          mismatch: mismatchOf(destination),
          changed: utc(destination.changed_at),
          changedBy: destination.changed_by,
          cooling: payouts!.payees.cooling(destination),
          version: destination.version,
          verification: VERIFICATION[destination.verification],
          needsReview: destination.verification === 'needs_review',
          reviewReason: destination.review_reason,
          reviewedBy: destination.reviewed_by,
        },
        change: change && {
          id: change.id,
          shown: masked(change),
          name: change.name,
          resolvedName: change.resolved_name,
          mismatch: mismatchOf(change),
          proposedBy: change.proposed_by,
          proposed: utc(change.proposed_at),
        },
        payouts: recent.map(payoutView),
        form: {
          kind: 'mobile_money',
          network: 'mtn',
          number: '',
          bank_code: '',
          account_number: '',
          name: '',
        },
        ...extra,
      },
      status,
    );
  }

  /** Runs a change; a 4xx refusal is shown on the payee's page with its status (a missing payee is the 404 page). */
  async function refusedOr(
    reply: FastifyReply,
    kind: Kind,
    id: string,
    what: string,
    change: () => Promise<FastifyReply>,
    form?: Record<string, string>,
  ): Promise<FastifyReply> {
    try {
      return await change();
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.code === 'PAYEE_NOT_FOUND')
        throw new WebRefusal(404, 'There is no such payee or change.');
      return payeePage(
        reply,
        kind,
        id,
        { error: `${what}: ${err.message}`, errorCode: err.code, ...(form ? { form } : {}) },
        err.statusCode,
      );
    }
  }

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/payees/:kind/:id',
      params: PAYEE_PARAMS,
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      const { kind, id } = payee(request);
      return payeePage(reply, kind, id);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/payees/vendor/:id/schedule',
      params: { id: idParam('ven', 'There is no such payee.') },
      need: FINANCE_ROLES,
      form: { schedule: { max: 20, label: 'Schedule' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const id = request.params.id;
      const before = (await payouts.payees.balance('vendor', id)).schedule;
      return refusedOr(reply, 'vendor', id, 'Not saved', async () => {
        await payouts.payees.setSchedule(
          id,
          f.schedule as 'daily' | 'same_day',
          current.operator.id,
        );
        await kit.audit(request, current, {
          action: 'payout_schedule.set',
          target: { type: 'vendor', id },
          before: { schedule: before },
          after: { schedule: f.schedule },
        });
        return payeePage(reply, 'vendor', id, {
          notice:
            f.schedule === 'same_day'
              ? 'Saved: this vendor is also paid after each courier cash handover of its cash-on-delivery sales.'
              : 'Saved: this vendor is paid by the daily run.',
        });
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/payees/:kind/:id/destination',
      params: PAYEE_PARAMS,
      need: FINANCE_ROLES,
      form: DESTINATION_FIELDS,
    },
    async ({ request, reply, actor: current, form: f }) => {
      const { kind, id } = payee(request);
      return refusedOr(
        reply,
        kind,
        id,
        'Not proposed',
        async () => {
          const { change, name_matches } = await payouts.changes.propose(
            kind,
            id,
            f,
            current.operator.id,
          );
          await kit.audit(request, current, {
            action: 'payout_destination.propose',
            target: { type: kind, id },
            after: {
              change_id: change.id,
              kind: change.kind,
              shown: masked(change),
              name_matches,
            },
          });
          const mismatch =
            name_matches === false
              ? ` The provider has this account registered to ${change.resolved_name}, not ${change.name}: check before approving.`
              : '';
          return payeePage(reply, kind, id, {
            notice: `Change proposed: a second operator must approve it before payouts go there.${mismatch}`,
          });
        },
        f,
      );
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    definePage(
      app,
      kit,
      {
        method: 'POST',
        path: `/console/payees/:kind/:id/destination/${decision}`,
        params: PAYEE_PARAMS,
        need: FINANCE_ROLES,
        form: { change_id: { max: 64, label: 'Change' } },
      },
      async ({ request, reply, actor: current, form: f }) => {
        const { kind, id } = payee(request);
        return refusedOr(
          reply,
          kind,
          id,
          decision === 'approve' ? 'Not approved' : 'Not rejected',
          async () => {
            if (decision === 'reject') {
              await payouts.changes.reject(kind, id, f.change_id, current.operator.id);
              await kit.audit(request, current, {
                action: 'payout_destination.reject',
                target: { type: kind, id },
                after: { change_id: f.change_id },
              });
              return payeePage(reply, kind, id, {
                notice: 'Rejected: the destination stays as it was.',
              });
            }
            const { replaced } = await payouts.changes.approve(
              kind,
              id,
              f.change_id,
              current.operator.id,
            );
            await kit.audit(request, current, {
              action: 'payout_destination.approve',
              target: { type: kind, id },
              after: {
                change_id: f.change_id,
                replaced: replaced.map((r) => ({
                  cancelled: r.cancelled,
                  replaced_by: r.replacement.id,
                })),
              },
            });
            return payeePage(reply, kind, id, {
              notice: `Approved: the destination is changed (payouts to it wait for approval during the cooling period) and the ${kind}'s old contact was told.${remade(replaced)}`,
            });
          },
        );
      },
    );
  }

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/payees/:kind/:id/destination/accept',
      params: PAYEE_PARAMS,
      need: FINANCE_ROLES,
      form: { version: { max: 10, label: 'Version' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const { kind, id } = payee(request);
      return refusedOr(reply, kind, id, 'Not accepted', async () => {
        if (!/^[1-9]\d{0,8}$/.test(f.version))
          throw errors.validation(
            'The version must be the destination version shown on this page.',
            [{ field: 'version', issue: 'must be a whole number from 1' }],
          );
        const accepted = await payouts.verifier.accept(
          kind,
          id,
          Number(f.version),
          current.operator.id,
        );
        await kit.audit(request, current, {
          action: 'payout_destination.accept',
          target: { type: kind, id },
          before: { verification: 'needs_review' },
          after: { version: accepted.version, verification: accepted.verification },
        });
        return payeePage(reply, kind, id, {
          notice: 'Accepted: payouts now go to this destination.',
        });
      });
    },
  );
}
