import { readFileSync } from 'node:fs';
import { UsageError, type Args } from '../args.ts';
import type { Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const cedis = (pesewas: unknown) => (typeof pesewas === 'number' ? ghs(pesewas / 100) : ghs(pesewas));
const dayFields: Fields = { source: 'source', date: 'date', status: 'status', matched: 'matched', differences: 'differences', 'left on clearing': (r) => cedis(r.residue_pesewas), 'run by': 'run_by', at: 'run_at' };
const differenceFields: Fields = { difference: 'kind', reference: 'reference', ledger: (d) => cedis(d.ledger_pesewas ?? '-'), report: (d) => cedis(d.report_pesewas ?? '-'), note: 'note' };
const SOURCES = 'paystack|hubtel|rider_cash';
const SOURCE_HELP = "A gateway, or rider_cash for couriers' cash collected against handed over";

/** The report's text from a file (`/dev/stdin` reads a pipe). */
function report(a: Args): string {
  try {
    return readFileSync(String(a.file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --file: ${(err as Error).message}`);
  }
}

const day = (b: any) => `${block(b, dayFields)}\n\n${table(b.difference_list, differenceFields, '(no differences)')}`;

export const reconcileGroups = {
  reconcile: "Reconciliation: gateways' reports against the ledger, settlements, couriers' cash, day by day",
};

export const reconcileCommands: Command[] = [
  {
    name: 'reconcile import', summary: "Import a gateway's report (normalised CSV); a line already imported changes nothing, a settlement posts once", route: 'POST /reconciliation/imports',
    usage: '--gateway paystack|hubtel --file FILE', payload: (a) => ({ gateway: a.gateway, csv: report(a) }),
    show: (b) => block(b, { gateway: 'gateway', lines: 'lines', imported: 'inserted', 'now succeeded': 'now_succeeded', 'already imported': 'already_imported', 'settlements posted': 'settlements_posted' }),
    help: { file: 'The CSV report (columns in docs/operators.md, "Reconciliation"); /dev/stdin reads it from a pipe' },
  },
  {
    name: 'reconcile day', summary: "Reconcile one day (Accra time) against the ledger and print its differences; replaces the day's previous result", route: 'POST /reconciliation/days',
    usage: `--gateway ${SOURCES} --date DATE`, payload: (a) => ({ source: a.gateway, date: a.date }), show: day,
    help: { gateway: SOURCE_HELP, date: 'YYYY-MM-DD' },
  },
  {
    name: 'reconcile list', summary: 'Reconciled days, newest first, with their status', route: 'GET /reconciliation/days',
    usage: `[--gateway ${SOURCES}]`, payload: (a) => ({ source: a.gateway }), show: (b) => table(b.data, dayFields, '(no day reconciled yet)'), help: { gateway: SOURCE_HELP },
  },
  { name: 'reconcile show', summary: 'One reconciled day and its differences', route: 'GET /reconciliation/days/:source/:date', usage: 'SOURCE DATE', show: day, help: { SOURCE: SOURCE_HELP, DATE: 'YYYY-MM-DD' } },
];
