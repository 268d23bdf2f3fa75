import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAYS, isGateway, MAX_REPORT_CHARS, REPORT_FORMATS, SOURCES, type Reconciliation } from '../../modules/reconciliation/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { FINANCE_ROLES, realDay, utc, type ConsoleKit } from './kit.ts';

/** The upload's form body once URL-encoded (a comma is sent as three bytes): this route's own limit. */
export const REPORT_UPLOAD_LIMIT = 1024 * 1024;
const TOO_LARGE = `The report is too large to upload (at most ${REPORT_UPLOAD_LIMIT / 1024} KiB once sent): split it by day.`;
type DayParams = { Params: { source: string; date: string } };

const money = (pesewas: number | null) => (pesewas === null ? '—' : formatGhs(Number(pesewas)));
/** The residue in words: negative (a debit) is money the clearing still holds. */
const residue = (pesewas: number) => (Number(pesewas) < 0 ? `${formatGhs(-pesewas)} still held` : Number(pesewas) > 0 ? `${formatGhs(Number(pesewas))} more out than in` : formatGhs(0));
const SOURCE_NAMES: Record<string, string> = { paystack: 'Paystack', hubtel: 'Hubtel', rider_cash: "Couriers' cash" };

/**
 * Reconciliation for finance and admin: each gateway's (and couriers' cash) days with their status,
 * one day's differences, the report upload and the form that (re)runs a day. Both changes are audited.
 */
export function registerConsoleReconciliationRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { reconciliation, audit } = kit.deps;
  if (!reconciliation) return;

  async function listPage(reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) {
    const days = await reconciliation!.list(undefined, 200);
    return kit.page(
      reply,
      'reconciliation',
      {
        title: 'Reconciliation',
        days: days.map((d) => ({ ...d, name: SOURCE_NAMES[d.source] ?? d.source, residue: residue(d.residue_pesewas), when: utc(d.run_at) })),
        gateways: GATEWAYS.map((g) => ({ id: g, name: SOURCE_NAMES[g], columns: Object.values(REPORT_FORMATS[g].columns) })),
        sources: SOURCES.map((s) => ({ id: s, name: SOURCE_NAMES[s] })),
        maxChars: MAX_REPORT_CHARS,
        ...extra,
      },
      status,
    );
  }

  const dayView = (r: Reconciliation) => ({
    ...r.reconciliation,
    name: SOURCE_NAMES[r.reconciliation.source] ?? r.reconciliation.source,
    residue: residue(r.reconciliation.residue_pesewas),
    when: utc(r.reconciliation.run_at),
    differences: r.differences.map((d) => ({ ...d, ledger: money(d.ledger_pesewas), report: money(d.report_pesewas) })),
  });

  app.get('/console/reconciliation', async (request, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    return listPage(reply);
  });

  app.get<DayParams>('/console/reconciliation/:source/:date', async (request: FastifyRequest<DayParams>, reply) => {
    if (!(await kit.operator(request, reply, FINANCE_ROLES))) return reply;
    const { source, date } = request.params;
    if (!(SOURCES as readonly string[]).includes(source)) throw new WebRefusal(404, 'There is no such gateway.');
    realDay(date);
    const found = await reconciliation.get(source, date);
    if (!found) throw new WebRefusal(404, `${SOURCE_NAMES[source]} has not been reconciled for ${date}: run the day from the reconciliation page.`);
    return kit.page(reply, 'reconciliation-day', { title: `${SOURCE_NAMES[source]} ${date}`, day: dayView(found) });
  });

  app.post('/console/reconciliation/run', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { source: { max: 20, label: 'Source' }, date: { max: 10, label: 'Day' } }, current);
    if (!(SOURCES as readonly string[]).includes(f.source)) return listPage(reply, { error: 'Choose a gateway, or couriers’ cash.' }, 400);
    let done: Reconciliation;
    try {
      done = await reconciliation.run(f.source, f.date, current.operator.id);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return listPage(reply, { error: `Not run: ${err.message}` }, err.statusCode);
    }
    await audit.record({
      actor: kit.actor(current),
      action: 'reconciliation.run',
      target: { type: 'reconciliation', id: done.reconciliation.id },
      before: null,
      after: { source: f.source, date: f.date, status: done.reconciliation.status, differences: done.differences.length },
      origin: kit.origin(request),
    });
    return kit.redirect(reply, `/console/reconciliation/${f.source}/${f.date}`);
  });

  app.post('/console/reconciliation/import', { bodyLimit: REPORT_UPLOAD_LIMIT, config: { tooLarge: TOO_LARGE } }, async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { gateway: { max: 20, label: 'Gateway' }, csv: { max: MAX_REPORT_CHARS, multiline: true, label: 'Report' } }, current);
    if (!isGateway(f.gateway)) return listPage(reply, { error: 'Choose the gateway whose report this is.', csv: f.csv }, 400);
    if (f.csv.trim() === '') return listPage(reply, { error: 'The report is empty: choose a file or paste its text, starting with the header row.', chosen: f.gateway }, 400);
    try {
      const done = await reconciliation.importReport(f.gateway, f.csv);
      await audit.record({ actor: kit.actor(current), action: 'gateway_report.import', target: { type: 'gateway', id: f.gateway }, before: null, after: { ...done }, origin: kit.origin(request) });
      return listPage(reply, {
        notice: `Imported ${done.inserted} of ${done.lines} lines from ${SOURCE_NAMES[f.gateway]} (${done.already_imported} already imported, ${done.now_succeeded} now succeeded); ${done.settlements_posted} settlements posted to the bank.`,
      });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return listPage(reply, { error: err.message, problems: err.details?.map((d) => d.issue) ?? [], chosen: f.gateway, csv: f.csv }, err.statusCode);
    }
  });
}
