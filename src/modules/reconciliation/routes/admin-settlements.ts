import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { MULTILINE } from '../../../platform/http/input-rules.ts';
import { strictObject, StringEnum } from '../../../platform/http/schemas.ts';
import { GATEWAYS, MAX_REPORT_CHARS } from '../domain/report.ts';
import type { ReconciliationService } from '../service.ts';
import { SETTLEMENT_STATUSES, type SettlementRow } from '../settlements-repository.ts';

const FINANCE = ['finance', 'admin'] as const;
const SettlementParams = strictObject({
  settlement_id: Type.String({
    pattern: '^stl_[0-9A-Za-z]{1,64}$',
    description: 'A settlement proposed by an import (stl_…)',
  }),
});

export const settlementView = (s: SettlementRow) => ({
  settlement_id: s.id,
  gateway: s.gateway,
  gateway_settlement_id: s.settlement_id,
  amount_pesewas: Number(s.amount_pesewas),
  fee_pesewas: Number(s.fee_pesewas),
  net_pesewas: Number(s.amount_pesewas) - Number(s.fee_pesewas),
  settled_at: s.settled_at.toISOString(),
  status: s.status,
  proposed_by: s.proposed_by,
  proposed_at: s.proposed_at.toISOString(),
  decided_by: s.decided_by,
  decided_at: s.decided_at?.toISOString() ?? null,
  reason: s.reason,
});

/** Money out's statements and settlements' maker-checker: the finance operator routes. */
export const settlementAdminRoutes = (service: ReconciliationService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/transfer-statements',
    roles: FINANCE,
    audit: { action: 'transfer_statement.import' },
    summary:
      "Import the transfer provider's statement (normalised CSV of Paystack's transfers export, docs/operators.md); fees the transfers' answers left out are booked from it once",
    body: strictObject({
      csv: Type.String({
        minLength: 1,
        maxLength: MAX_REPORT_CHARS,
        [MULTILINE]: true,
        description: 'The statement, as its CSV text',
      }),
    }),
    handler: async ({ body, actor }) => ({
      statusCode: 201,
      body: await service.statements.import(body.csv, actor.id),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/settlements',
    roles: FINANCE,
    summary:
      'Settlements imported from gateways’ reports, newest first: proposed (waiting for a second operator), approved (posted to the bank) or rejected',
    querystring: strictObject({
      status: Type.Optional(StringEnum(SETTLEMENT_STATUSES)),
      gateway: Type.Optional(StringEnum(GATEWAYS)),
    }),
    handler: async ({ query }) => ({
      body: { data: (await service.settlements.list(query)).map(settlementView) },
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/settlements/:settlement_id',
    roles: FINANCE,
    summary: 'One imported settlement and its decision',
    params: SettlementParams,
    handler: async ({ params }) => ({
      body: settlementView(await service.settlements.get(params.settlement_id)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/settlements/:settlement_id/approve',
    roles: FINANCE,
    approval: true,
    audit: { action: 'gateway_settlement.approve' },
    summary:
      'Approve a proposed settlement (a second finance operator, not its importer, by their own token): its gateway_settlement journal posts, once',
    params: SettlementParams,
    handler: async ({ params, actor }) => ({
      body: settlementView(await service.settlements.approve(params.settlement_id, actor.id)),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/settlements/:settlement_id/reject',
    roles: FINANCE,
    audit: { action: 'gateway_settlement.reject' },
    summary:
      'Reject a proposed settlement with a reason: nothing is posted; a corrected report may propose it again',
    params: SettlementParams,
    body: strictObject({
      reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why it is rejected' }),
    }),
    handler: async ({ params, body, actor }) => ({
      body: settlementView(
        await service.settlements.reject(params.settlement_id, actor.id, body.reason),
      ),
    }),
  }),
];
