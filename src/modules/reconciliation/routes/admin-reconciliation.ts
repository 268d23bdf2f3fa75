import { Type } from '@sinclair/typebox';
import { errors } from '../../../platform/errors.ts';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { MULTILINE } from '../../../platform/http/input-rules.ts';
import { strictObject, StringEnum } from '../../../platform/http/schemas.ts';
import { GATEWAYS, MAX_REPORT_CHARS } from '../domain/report.ts';
import type { DifferenceRow, ReconciliationRow } from '../repository.ts';
import { SOURCES, type Reconciliation, type ReconciliationService } from '../service.ts';

const FINANCE = ['finance', 'admin'] as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A day in Accra (UTC), YYYY-MM-DD' });

const rowView = (r: ReconciliationRow) => ({
  id: r.id,
  source: r.source,
  date: r.day,
  status: r.status,
  matched: r.matched_count,
  differences: r.difference_count,
  residue_pesewas: Number(r.residue_pesewas),
  run_by: r.run_by,
  run_at: r.run_at.toISOString(),
});
const differenceView = (d: DifferenceRow) => ({
  kind: d.kind,
  reference: d.reference,
  ledger_pesewas: d.ledger_pesewas === null ? null : Number(d.ledger_pesewas),
  report_pesewas: d.report_pesewas === null ? null : Number(d.report_pesewas),
  note: d.note,
});
export const reconciliationView = (r: Reconciliation) => ({ ...rowView(r.reconciliation), difference_list: r.differences.map(differenceView) });

export const reconciliationAdminRoutes = (service: ReconciliationService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/imports',
    roles: FINANCE,
    audit: { action: 'gateway_report.import' },
    summary: "Import a gateway's report (normalised CSV, docs/operators.md); lines already imported change nothing, a new settlement is posted to the bank once",
    body: strictObject({ gateway: StringEnum(GATEWAYS), csv: Type.String({ minLength: 1, maxLength: MAX_REPORT_CHARS, [MULTILINE]: true, description: 'The report, as its CSV text' }) }),
    handler: async ({ body }) => ({ statusCode: 201, body: await service.importReport(body.gateway, body.csv) }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/days',
    roles: FINANCE,
    audit: { action: 'reconciliation.run' },
    summary: "Reconcile one gateway's (or couriers' cash) day against the ledger; the result replaces the day's previous one",
    body: strictObject({ source: StringEnum(SOURCES), date: Day }),
    handler: async ({ body, actor }) => ({ statusCode: 201, body: reconciliationView(await service.run(body.source, body.date, actor.id)) }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/days',
    roles: FINANCE,
    summary: 'Reconciled days, newest first, with their status (matched, differences, flagged)',
    querystring: strictObject({ source: Type.Optional(StringEnum(SOURCES)) }),
    handler: async ({ query }) => ({ body: { data: (await service.list(query.source)).map(rowView) } }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/days/:source/:date',
    roles: FINANCE,
    summary: "One reconciled day and its differences",
    params: strictObject({ source: StringEnum(SOURCES), date: Day }),
    handler: async ({ params }) => {
      const found = await service.get(params.source, params.date);
      if (!found) throw errors.notFound(`${params.source} has not been reconciled for ${params.date}.`);
      return { body: reconciliationView(found) };
    },
  }),
];
