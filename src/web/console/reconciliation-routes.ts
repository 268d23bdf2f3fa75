import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  GATEWAYS,
  isGateway,
  MAX_REPORT_CHARS,
  REPORT_FORMATS,
  SOURCES,
  STATEMENT_COLUMNS,
  type Reconciliation,
  type SettlementRow,
  type VersionRow,
} from '../../modules/reconciliation/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, isRealDay, NOT_A_DAY, utc, type ConsoleKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';

/** The upload's form body once URL-encoded (a comma is sent as three bytes): this route's own limit. */
export const REPORT_UPLOAD_LIMIT = 1024 * 1024;
const TOO_LARGE = `The report is too large to upload (at most ${REPORT_UPLOAD_LIMIT / 1024} KiB once sent): split it by day.`;
const UPLOAD = { bodyLimit: REPORT_UPLOAD_LIMIT, config: { tooLarge: TOO_LARGE } };
/** A gateway's own settlement reference (Paystack's), not one of our ids. */
const SETTLEMENT_ID = /^stl_[0-9A-Za-z]{1,64}$/;

const money = (pesewas: number | null) => (pesewas === null ? '—' : formatGhs(Number(pesewas)));
/** The residue in words: negative (a debit) is money the clearing still holds. */
const residue = (pesewas: number) =>
  Number(pesewas) < 0
    ? `${formatGhs(-pesewas)} still held`
    : Number(pesewas) > 0
      ? `${formatGhs(Number(pesewas))} more out than in`
      : formatGhs(0);
const SOURCE_NAMES: Record<string, string> = {
  paystack: 'Paystack',
  hubtel: 'Hubtel',
  rider_cash: "Couriers' cash",
  transfers: 'Money out (transfers)',
};
const version = (v: VersionRow['held']) =>
  `${formatGhs(v.amountPesewas)}, fee ${formatGhs(v.feePesewas)}, ${v.status} (${utc(v.imported_at)})`;
const settlementView = (s: SettlementRow) => ({
  ...s,
  name: SOURCE_NAMES[s.gateway] ?? s.gateway,
  amount: money(s.amount_pesewas),
  fee: money(s.fee_pesewas),
  net: money(s.amount_pesewas - s.fee_pesewas),
  settled: utc(s.settled_at),
  proposed: utc(s.proposed_at),
});

/**
 * Reconciliation for finance and admin: each source's days with their status (gateways, money out,
 * couriers' cash), one day's differences and lines imported again differently, the uploads of
 * gateways' reports and of the transfer statement, the form that (re)runs a day, and the
 * settlements waiting for a second operator (approve or reject). Every change is audited.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleReconciliationRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { reconciliation } = kit.deps;
  if (!reconciliation) return;

  async function listPage(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const [days, waiting] = await Promise.all([
      reconciliation!.list(undefined, 200),
      reconciliation!.settlements.list({ status: 'proposed' }),
    ]);
    return kit.page(
      reply,
      'reconciliation',
      {
        title: 'Reconciliation',
        days: days.map((d) => ({
          ...d,
          name: SOURCE_NAMES[d.source] ?? d.source,
          residue: residue(d.residue_pesewas),
          when: utc(d.run_at),
        })),
        settlements: waiting.map(settlementView),
        gateways: GATEWAYS.map((g) => ({
          id: g,
          name: SOURCE_NAMES[g],
          columns: Object.values(REPORT_FORMATS[g].columns),
        })),
        statementColumns: Object.values(STATEMENT_COLUMNS),
        sources: SOURCES.map((s) => ({ id: s, name: SOURCE_NAMES[s] })),
        maxChars: MAX_REPORT_CHARS,
        ...extra,
      },
      status,
    );
  }

  /** Runs a change; a refusal (4xx) is shown on the list page with its status, anything else is thrown. */
  async function refusedOr(
    reply: FastifyReply,
    what: string,
    change: () => Promise<FastifyReply>,
    extra: Record<string, unknown> = {},
  ) {
    try {
      return await change();
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return listPage(
        reply,
        {
          error: `${what}: ${err.message}`,
          problems: err.details?.map((d) => d.issue) ?? [],
          ...extra,
        },
        err.statusCode,
      );
    }
  }

  const dayView = (r: Reconciliation) => ({
    ...r.reconciliation,
    name: SOURCE_NAMES[r.reconciliation.source] ?? r.reconciliation.source,
    residue: residue(r.reconciliation.residue_pesewas),
    when: utc(r.reconciliation.run_at),
    differences: r.differences.map((d) => ({
      ...d,
      ledger: money(d.ledger_pesewas),
      report: money(d.report_pesewas),
    })),
    versions: r.versions.map((v) => ({
      kind: v.kind,
      reference: v.reference,
      held: version(v.held),
      other: version(v.other),
      by: v.other.imported_by,
    })),
  });

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/reconciliation', need: FINANCE_ROLES },
    async ({ reply }) => {
      return listPage(reply);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/reconciliation/:source/:date',
      params: {
        source: { oneOf: SOURCES, missing: 'There is no such gateway.' },
        date: { test: isRealDay, missing: NOT_A_DAY, status: 400 },
      },
      need: FINANCE_ROLES,
    },
    async ({ request, reply }) => {
      const { source, date } = request.params;
      const found = await reconciliation.get(source, date);
      if (!found)
        throw new WebRefusal(
          404,
          `${SOURCE_NAMES[source]} has not been reconciled for ${date}: run the day from the reconciliation page.`,
        );
      return kit.page(reply, 'reconciliation-day', {
        title: `${SOURCE_NAMES[source]} ${date}`,
        day: dayView(found),
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/reconciliation/run',
      need: FINANCE_ROLES,
      form: { source: { max: 20, label: 'Source' }, date: { max: 10, label: 'Day' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (!(SOURCES as readonly string[]).includes(f.source))
        return listPage(reply, { error: 'Choose a gateway, money out, or couriers’ cash.' }, 400);
      return refusedOr(reply, 'Not run', async () => {
        const done = await reconciliation.run(f.source, f.date, current.operator.id);
        const after = {
          source: f.source,
          date: f.date,
          status: done.reconciliation.status,
          differences: done.differences.length,
        };
        await kit.audit(request, current, {
          action: 'reconciliation.run',
          target: { type: 'reconciliation', id: done.reconciliation.id },
          after,
        });
        return kit.redirect(reply, `/console/reconciliation/${f.source}/${f.date}`);
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/reconciliation/import',
      need: FINANCE_ROLES,
      form: {
        gateway: { max: 20, label: 'Gateway' },
        csv: { max: MAX_REPORT_CHARS, multiline: true, label: 'Report' },
      },
      route: UPLOAD,
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (!isGateway(f.gateway))
        return listPage(
          reply,
          { error: 'Choose the gateway whose report this is.', csv: f.csv },
          400,
        );
      if (f.csv.trim() === '')
        return listPage(
          reply,
          {
            error:
              'The report is empty: choose a file or paste its text, starting with the header row.',
            chosen: f.gateway,
          },
          400,
        );
      const extra = { chosen: f.gateway, csv: f.csv };
      return refusedOr(
        reply,
        'Not imported',
        async () => {
          const done = await reconciliation.importReport(f.gateway, f.csv, current.operator.id);
          await kit.audit(request, current, {
            action: 'gateway_report.import',
            target: { type: 'gateway', id: f.gateway },
            after: { ...done },
          });
          const again =
            done.reimported_differently > 0
              ? `, ${done.reimported_differently} imported again differently (listed on their days)`
              : '';
          const proposed =
            done.settlements_proposed > 0
              ? ` ${done.settlements_proposed} settlements wait for approval by a second finance operator before they post to the bank.`
              : '';
          return listPage(reply, {
            notice: `Imported ${done.inserted} of ${done.lines} lines from ${SOURCE_NAMES[f.gateway]} (${done.already_imported} already imported, ${done.updated} updated${again}).${proposed}`,
          });
        },
        extra,
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/reconciliation/statement',
      need: FINANCE_ROLES,
      form: { csv: { max: MAX_REPORT_CHARS, multiline: true, label: 'Statement' } },
      route: UPLOAD,
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (f.csv.trim() === '')
        return listPage(
          reply,
          {
            error:
              'The statement is empty: choose a file or paste its text, starting with the header row.',
          },
          400,
        );
      return refusedOr(
        reply,
        'Not imported',
        async () => {
          const done = await reconciliation.statements.import(f.csv, current.operator.id);
          await kit.audit(request, current, {
            action: 'transfer_statement.import',
            target: { type: 'transfer_provider', id: done.provider },
            after: { ...done },
          });
          const again =
            done.reimported_differently > 0
              ? `, ${done.reimported_differently} imported again differently (listed on their days)`
              : '';
          return listPage(reply, {
            notice: `Imported ${done.inserted} of ${done.lines} transfers (${done.already_imported} already imported, ${done.updated} updated${again}); ${done.fees_booked} fees booked from the statement.`,
          });
        },
        { statement: f.csv },
      );
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    definePage(
      app,
      kit,
      {
        method: 'POST',
        path: `/console/reconciliation/settlements/:id/${decision}`,
        params: {
          id: {
            test: (v: string) => SETTLEMENT_ID.test(v),
            missing: 'There is no such settlement.',
          },
        },
        need: FINANCE_ROLES,
        form: decision === 'reject' ? { reason: { max: 500, label: 'Reason' } } : {},
      },
      async ({ request, reply, actor: current, form: f }) => {
        const { id } = request.params;
        return refusedOr(
          reply,
          decision === 'approve' ? 'Not approved' : 'Not rejected',
          async () => {
            const done =
              decision === 'approve'
                ? await reconciliation.settlements.approve(id, current.operator.id)
                : await reconciliation.settlements.reject(id, current.operator.id, f.reason ?? '');
            await kit.audit(request, current, {
              action: `gateway_settlement.${decision}`,
              target: { type: 'settlement', id },
              after: { status: done.status, reason: done.reason },
            });
            const what = `${SOURCE_NAMES[done.gateway]} settlement ${done.settlement_id}`;
            return listPage(reply, {
              notice:
                decision === 'approve'
                  ? `Approved: ${what} is posted to the bank.`
                  : `Rejected: ${what} is not posted.`,
            });
          },
        );
      },
    );
  }
}
