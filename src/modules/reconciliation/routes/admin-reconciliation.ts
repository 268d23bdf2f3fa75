import { Type } from '@sinclair/typebox';
import { errors } from '../../../platform/errors.ts';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { MULTILINE } from '../../../platform/http/input-rules.ts';
import { strictObject, StringEnum } from '../../../platform/http/schemas.ts';
import { GATEWAYS, MAX_REPORT_CHARS } from '../domain/report.ts';
import type { DifferenceRow, ReconciliationRow } from '../repository.ts';
import type { Reconciliation, ReconciliationService } from '../service.ts';
import { SOURCES } from '../sources.ts';
import type { VersionRow } from '../versions-repository.ts';
import { settlementAdminRoutes } from './admin-settlements.ts';

const FINANCE = ['finance', 'admin'] as const;
const Day = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'A day in Accra (UTC), YYYY-MM-DD',
});

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
const versionView = (v: VersionRow['held']) => ({
  amount_pesewas: v.amountPesewas,
  fee_pesewas: v.feePesewas,
  status: v.status,
  imported_at: v.imported_at.toISOString(),
});
/** Both versions of a line imported again differently: the one held, and the other. */
const reimportedView = (v: VersionRow) => ({
  kind: v.kind,
  reference: v.reference,
  held: versionView(v.held),
  reimported: { ...versionView(v.other), imported_by: v.other.imported_by },
});
export const reconciliationView = (r: Reconciliation) => ({
  ...rowView(r.reconciliation),
  difference_list: r.differences.map(differenceView),
  reimported: r.versions.map(reimportedView),
});

export const reconciliationAdminRoutes = (service: ReconciliationService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/imports',
    roles: FINANCE,
    audit: { action: 'gateway_report.import' },
    summary:
      "Import a gateway's report (normalised CSV, docs/operators.md); a line already held changes nothing or is kept as a second version, a new settlement is proposed for a second operator's approval",
    body: strictObject({
      gateway: StringEnum(GATEWAYS),
      csv: Type.String({
        minLength: 1,
        maxLength: MAX_REPORT_CHARS,
        [MULTILINE]: true,
        description: 'The report, as its CSV text',
      }),
    }),
    handler: async ({ body, actor }) => ({
      statusCode: 201,
      body: await service.importReport(body.gateway, body.csv, actor.id),
    }),
  }),
  defineAdminRoute({
    method: 'POST',
    url: '/reconciliation/days',
    roles: FINANCE,
    audit: { action: 'reconciliation.run' },
    summary:
      "Reconcile one day of a gateway, of money out (transfers) or of couriers' cash against the ledger; the result replaces the day's previous one",
    body: strictObject({ source: StringEnum(SOURCES), date: Day }),
    handler: async ({ body, actor }) => ({
      statusCode: 201,
      body: reconciliationView(await service.run(body.source, body.date, actor.id)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/days',
    roles: FINANCE,
    summary: 'Reconciled days, newest first, with their status (matched, differences, flagged)',
    querystring: strictObject({ source: Type.Optional(StringEnum(SOURCES)) }),
    handler: async ({ query }) => ({
      body: { data: (await service.list(query.source)).map(rowView) },
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/reconciliation/days/:source/:date',
    roles: FINANCE,
    summary:
      'One reconciled day, its differences and both versions of each line imported again differently',
    params: strictObject({ source: StringEnum(SOURCES), date: Day }),
    handler: async ({ params }) => {
      const found = await service.get(params.source, params.date);
      if (!found)
        throw errors.notFound(`${params.source} has not been reconciled for ${params.date}.`);
      return { body: reconciliationView(found) };
    },
  }),
  ...settlementAdminRoutes(service),
];
