import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, strictObject } from '../../../platform/http/schemas.ts';
import { withGhs } from '../../../platform/money.ts';
import { NETWORKS, type PayeeKind } from '../domain/destinations.ts';
import type { DestinationChangeRow } from '../changes-repository.ts';
import type { DestinationChanges } from '../destination-changes.ts';
import type { Switched } from '../destination-switch.ts';
import type { PayeesService } from '../payees.ts';
import type { DestinationRow, LineRow, PayoutRow, PayoutStatus } from '../repository.ts';
import type { PayoutsService, RunProgress } from '../service.ts';
import type { DestinationVerifier } from '../verification.ts';

const FINANCE = ['finance', 'admin'] as const;
const NETWORK_CALL = 'calls the transfer provider, which no transaction may wait on';
const STATUSES = [
  'awaiting_approval',
  'created',
  'sending',
  'pending',
  'paid',
  'failed',
  'reversed',
  'rejected',
  'cancelled',
] as const;
const PayeeParams = strictObject({
  kind: Type.Union([Type.Literal('vendor'), Type.Literal('partner'), Type.Literal('courier')]),
  id: Id,
});

export const payoutView = (p: PayoutRow) => ({
  id: p.id,
  run_id: p.run_id,
  payee: p.payee,
  ...withGhs({
    amount_pesewas: Number(p.amount_pesewas),
    fee_pesewas: p.fee_pesewas === null ? null : Number(p.fee_pesewas),
    payee_fee_pesewas: Number(p.payee_fee_pesewas),
  }),
  status: p.status,
  provider: p.provider,
  destination: p.destination,
  destination_version: p.destination_version,
  replaced_by: p.replaced_by,
  approval_reasons: p.approval_reasons,
  created_by: p.created_by,
  approved_by: p.approved_by,
  provider_reference: p.provider_reference,
  failure_reason: p.failure_reason,
  attempts: p.attempts,
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

export const lineView = (l: LineRow) => ({
  journal_id: l.journal_id,
  kind: l.kind,
  subject_id: l.subject_id,
  ...withGhs({ amount_pesewas: Number(l.amount_pesewas) }),
  account: l.account,
});

const destinationView = (d: DestinationRow) => ({
  kind: d.kind,
  network: d.network,
  number: d.number,
  bank_code: d.bank_code,
  name: d.name,
  resolved_name: d.resolved_name,
  changed_at: d.changed_at.toISOString(),
  changed_by: d.changed_by,
  version: d.version,
  verification: d.verification,
  review_reason: d.review_reason,
  reviewed_by: d.reviewed_by,
  recipient_code: d.recipient_code,
});

const replacedView = (replaced: Switched['replaced']) =>
  replaced.map((r) => ({
    cancelled: r.cancelled,
    replaced_by: r.replacement.id,
    status: r.replacement.status,
  }));

const changeView = (c: DestinationChangeRow) => ({
  change_id: c.id,
  status: c.status,
  kind: c.kind,
  network: c.network,
  number: c.number,
  bank_code: c.bank_code,
  name: c.name,
  resolved_name: c.resolved_name,
  proposed_by: c.proposed_by,
  proposed_at: c.proposed_at.toISOString(),
  decided_by: c.decided_by,
});

/** A run's progress: `created` counts every payout it made (cancelled ones, made again, aside); `sent` those handed to the provider. */
export const runView = (r: RunProgress) => {
  const n = (s: PayoutStatus) => r.counts[s] ?? 0;
  const sent = n('sending') + n('pending') + n('paid') + n('failed') + n('reversed');
  return {
    run_id: r.id,
    status: r.status,
    trigger: r.trigger,
    started_by: r.started_by,
    cutoff: r.cutoff.toISOString(),
    created: Object.values(r.counts).reduce((a, b) => a + (b ?? 0), 0),
    awaiting_approval: n('awaiting_approval'),
    sent,
    paid: n('paid'),
    failed: n('failed') + n('reversed'),
    pending: n('sending') + n('pending'),
    without_destination: r.without_destination,
    unverified_destination: r.unverified_destination,
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
  };
};

const ChangeBody = strictObject({ change_id: Id });

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const payoutAdminRoutes = (
  payouts: PayoutsService,
  payees: PayeesService,
  changes: DestinationChanges,
  verifier: DestinationVerifier,
) => [
  defineAdminRoute({
    method: 'POST',
    url: '/payouts/runs',
    roles: FINANCE,
    audit: {
      action: 'payout_run.create',
      outsideTransaction:
        'answers at once; a background worker makes and sends the payouts, calling the transfer provider',
    },
    summary:
      'Start a payout run: answered at once (202) with its id; a background worker makes one payout per payee owed the minimum and sends those that need no approval (GET /payouts/runs/:run_id shows its progress)',
    handler: async ({ actor }) => {
      const run = await payouts.start(actor.id);
      return {
        statusCode: 202,
        body: {
          run_id: run.id,
          status: 'creating',
          cutoff: run.cutoff.toISOString(),
          created_at: run.created_at.toISOString(),
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/payouts/runs',
    roles: FINANCE,
    summary: 'Payout runs, newest first, with their status and payouts counted and summed',
    handler: async () => ({
      body: {
        data: (await payouts.runs()).map((r) => ({
          id: r.id,
          status: r.status,
          trigger: r.trigger,
          started_by: r.started_by,
          cutoff: r.cutoff.toISOString(),
          schedule_day: r.schedule_day,
          payouts: r.payouts,
          ...withGhs({ total_pesewas: Number(r.total_pesewas) }),
          created_at: r.created_at.toISOString(),
        })),
      },
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/payouts/runs/:run_id',
    roles: FINANCE,
    summary:
      'One payout run and its progress: status (creating, sending, done), payouts created, sent, paid and failed, and the payees it skipped',
    params: strictObject({ run_id: Id }),
    handler: async ({ params }) => ({ body: runView(await payouts.progress(params.run_id)) }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/payouts',
    roles: FINANCE,
    summary:
      'Payouts, newest first, by status (awaiting_approval lists the approvals), payee or run',
    querystring: strictObject({
      status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
      payee: Type.Optional(Type.String({ maxLength: 80 })),
      run_id: Type.Optional(Id),
    }),
    handler: async ({ query }) => ({
      body: {
        data: (
          await payouts.list({ status: query.status, payee: query.payee, runId: query.run_id })
        ).map(payoutView),
      },
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/payouts/:payout_id',
    roles: FINANCE,
    summary: 'One payout with its remittance lines (the sales, refunds and returns it covers)',
    params: strictObject({ payout_id: Id }),
    handler: async ({ params }) => {
      const { payout, lines } = await payouts.get(params.payout_id);
      return { body: { ...payoutView(payout), lines: lines.map(lineView) } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payouts/:payout_id/approve',
    roles: FINANCE,
    approval: true,
    audit: { action: 'payout.approve', outsideTransaction: NETWORK_CALL },
    summary:
      'Approve a payout waiting for a second finance operator (not the one who created it); it is sent at once',
    params: strictObject({ payout_id: Id }),
    handler: async ({ params, actor }) => ({
      body: payoutView((await payouts.approve(params.payout_id, actor.id))!),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payouts/:payout_id/reject',
    roles: FINANCE,
    audit: { action: 'payout.reject' },
    summary:
      'Reject a payout waiting for approval; its money is owed to the payee again, for a later run',
    params: strictObject({ payout_id: Id }),
    handler: async ({ params, actor }) => ({
      body: payoutView(await payouts.reject(params.payout_id, actor.id)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/payees/:kind/:id',
    roles: FINANCE,
    summary: "A vendor's or partner's pending and available balances and payout destination",
    params: PayeeParams,
    handler: async ({ params }) => {
      const kind = params.kind as PayeeKind;
      const [destination, pending] = await Promise.all([
        payees.destination(kind, params.id),
        changes.pending(kind, params.id),
      ]);
      return {
        body: {
          ...withGhs(await payees.balance(kind, params.id)),
          destination: destination ? destinationView(destination) : null,
          pending_change: pending ? changeView(pending) : null,
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payees/vendor/:id/schedule',
    roles: FINANCE,
    audit: { action: 'payout_schedule.set' },
    summary:
      "Set a vendor's payout schedule: daily (the daily run) or same_day (also after each courier cash handover of its cod sales, with the shorter same-day hold)",
    params: strictObject({ id: Id }),
    body: strictObject({ schedule: Type.Union([Type.Literal('daily'), Type.Literal('same_day')]) }),
    handler: async ({ params, body, actor }) => {
      await payees.setSchedule(params.id, body.schedule, actor.id);
      return { body: { vendor_id: params.id, schedule: body.schedule } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payees/:kind/:id/destination',
    roles: FINANCE,
    audit: {
      action: 'payout_destination.propose',
      outsideTransaction: 'looks the account name up at the transfer provider',
    },
    summary:
      'Propose where a vendor or partner is paid (mobile money or bank): it changes only when a second operator approves',
    params: PayeeParams,
    body: strictObject({
      kind: Type.Union([Type.Literal('mobile_money'), Type.Literal('bank')]),
      network: Type.Optional(Type.Union(NETWORKS.map((n) => Type.Literal(n)))),
      number: Type.Optional(Type.String({ maxLength: 30 })),
      bank_code: Type.Optional(Type.String({ maxLength: 20 })),
      account_number: Type.Optional(Type.String({ maxLength: 30 })),
      name: Type.String({ maxLength: 120 }),
    }),
    handler: async ({ params, body, actor }) => {
      const proposed = await changes.propose(params.kind as PayeeKind, params.id, body, actor.id);
      return {
        statusCode: 202,
        body: { pending_change: changeView(proposed.change), name_matches: proposed.name_matches },
      };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payees/:kind/:id/destination/approve',
    roles: FINANCE,
    approval: true,
    audit: {
      action: 'payout_destination.approve',
      outsideTransaction: "texts the vendor's old contact once the change commits",
    },
    summary:
      "Approve a proposed destination change (a second operator, not the proposer): it replaces the destination, cooling from now; the payee's unsent payouts are cancelled and made again for it (`replaced`); the provider verifies it; the old contact is told. 409 PAYOUT_SENDING while a payout to the payee is being sent",
    params: PayeeParams,
    body: ChangeBody,
    handler: async ({ params, body, actor }) => {
      const { saved, replaced } = await changes.approve(
        params.kind as PayeeKind,
        params.id,
        body.change_id,
        actor.id,
      );
      return { body: { destination: destinationView(saved), replaced: replacedView(replaced) } };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payees/:kind/:id/destination/accept',
    roles: FINANCE,
    approval: true,
    audit: { action: 'payout_destination.accept' },
    summary:
      "Accept a destination that needs review (the provider's registered name differs, or it could not resolve or refused the account), after checking both names: the version seen, by a finance operator who neither proposed nor approved it; payouts then go to it",
    params: PayeeParams,
    body: strictObject({ version: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
    handler: async ({ params, body, actor }) => ({
      body: {
        destination: destinationView(
          await verifier.accept(params.kind as PayeeKind, params.id, body.version, actor.id),
        ),
      },
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/payees/:kind/:id/destination/reject',
    roles: FINANCE,
    audit: { action: 'payout_destination.reject' },
    summary:
      'Reject (or, as its proposer, withdraw) a proposed destination change; the destination stays as it is',
    params: PayeeParams,
    body: ChangeBody,
    handler: async ({ params, body, actor }) => ({
      body: changeView(
        await changes.reject(params.kind as PayeeKind, params.id, body.change_id, actor.id),
      ),
    }),
  }),
];
