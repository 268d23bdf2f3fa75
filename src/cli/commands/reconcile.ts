import { readFileSync } from 'node:fs';
import { UsageError, type Args } from '../args.ts';
import type { Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const cedis = (pesewas: unknown) =>
  typeof pesewas === 'number' ? ghs(pesewas / 100) : ghs(pesewas);
const dayFields: Fields = {
  source: 'source',
  date: 'date',
  status: 'status',
  matched: 'matched',
  differences: 'differences',
  'left on clearing': (r) => cedis(r.residue_pesewas),
  'run by': 'run_by',
  at: 'run_at',
};
const differenceFields: Fields = {
  difference: 'kind',
  reference: 'reference',
  ledger: (d) => cedis(d.ledger_pesewas ?? '-'),
  report: (d) => cedis(d.report_pesewas ?? '-'),
  note: 'note',
};
const SOURCES = 'paystack|hubtel|transfers|rider_cash';
const SOURCE_HELP =
  "A gateway, transfers for money out (the transfer statement against payouts and buyer refunds), or rider_cash for couriers' cash collected against handed over";
const imported: Fields = {
  lines: 'lines',
  imported: 'inserted',
  updated: 'updated',
  'already imported': 'already_imported',
  'imported again differently': 'reimported_differently',
};
const settlementFields: Fields = {
  settlement: 'settlement_id',
  gateway: 'gateway',
  'gateway settlement': 'gateway_settlement_id',
  gross: (s) => cedis(s.amount_pesewas),
  fee: (s) => cedis(s.fee_pesewas),
  status: 'status',
  'proposed by': 'proposed_by',
  'decided by': (s) => s.decided_by ?? '-',
};
const versionText = (v: any) =>
  `${cedis(v.amount_pesewas)} fee ${cedis(v.fee_pesewas)} ${v.status}`;
const versionFields: Fields = {
  line: 'kind',
  reference: 'reference',
  held: (v) => versionText(v.held),
  'imported again': (v) => versionText(v.reimported),
  by: (v) => v.reimported.imported_by,
};

/** The report's text from a file (`/dev/stdin` reads a pipe). */
function report(a: Args): string {
  try {
    return readFileSync(String(a.file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --file: ${(err as Error).message}`);
  }
}

const day = (b: any) =>
  `${block(b, dayFields)}\n\n${table(b.difference_list, differenceFields, '(no differences)')}${b.reimported.length > 0 ? `\n\nImported again differently:\n${table(b.reimported, versionFields, '')}` : ''}`;

export const reconcileGroups = {
  reconcile:
    "Reconciliation: gateways' reports and the transfer statement against the ledger, settlements (maker-checker), couriers' cash, day by day",
};

export const reconcileCommands: Command[] = [
  {
    name: 'reconcile import',
    summary:
      "Import a gateway's report (normalised CSV); a line already imported changes nothing, another version of it is kept and listed, a settlement is proposed for approval",
    route: 'POST /reconciliation/imports',
    usage: '--gateway paystack|hubtel --file FILE',
    payload: (a) => ({ gateway: a.gateway, csv: report(a) }),
    show: (b) =>
      block(b, { gateway: 'gateway', ...imported, 'settlements proposed': 'settlements_proposed' }),
    help: {
      file: 'The CSV report (columns in docs/operators.md, "Reconciliation"); /dev/stdin reads it from a pipe',
    },
  },
  {
    name: 'reconcile statement',
    summary:
      "Import the transfer provider's statement (normalised CSV of Paystack's transfers export); fees the transfers' answers left out are booked from it once",
    route: 'POST /reconciliation/transfer-statements',
    usage: '--file FILE',
    payload: (a) => ({ csv: report(a) }),
    show: (b) => block(b, { provider: 'provider', ...imported, 'fees booked': 'fees_booked' }),
    help: {
      file: 'The CSV statement (columns in docs/operators.md, "Money out"); /dev/stdin reads it from a pipe',
    },
  },
  {
    name: 'reconcile settlements',
    summary:
      'Imported settlements, newest first: proposed (waiting for a second operator), approved (posted) or rejected',
    route: 'GET /reconciliation/settlements',
    usage: '[--status proposed|approved|rejected] [--gateway paystack|hubtel]',
    payload: (a) => ({ status: a.status, gateway: a.gateway }),
    show: (b) => table(b.data, settlementFields, '(no settlements)'),
  },
  {
    name: 'reconcile settlement',
    summary: 'One imported settlement and its decision',
    route: 'GET /reconciliation/settlements/:settlement_id',
    usage: 'SETTLEMENT_ID',
    show: (b) => block(b, settlementFields),
    help: { SETTLEMENT_ID: 'stl_…, from reconcile settlements' },
  },
  {
    name: 'reconcile approve-settlement',
    summary:
      'Approve a proposed settlement (a second finance operator, by their own token; never its importer): its journal posts to the bank, once',
    route: 'POST /reconciliation/settlements/:settlement_id/approve',
    usage: 'SETTLEMENT_ID',
    show: (b) => block(b, settlementFields),
    help: { SETTLEMENT_ID: 'stl_…, from reconcile settlements' },
  },
  {
    name: 'reconcile reject-settlement',
    summary:
      'Reject a proposed settlement with a reason: nothing is posted; a corrected report may propose it again',
    route: 'POST /reconciliation/settlements/:settlement_id/reject',
    usage: 'SETTLEMENT_ID --reason TEXT',
    payload: (a) => ({ reason: a.reason }),
    show: (b) => block(b, { ...settlementFields, reason: 'reason' }),
    help: { SETTLEMENT_ID: 'stl_…, from reconcile settlements', reason: '3 to 500 characters' },
  },
  {
    name: 'reconcile day',
    summary:
      "Reconcile one day (Accra time) against the ledger and print its differences; replaces the day's previous result",
    route: 'POST /reconciliation/days',
    usage: `--gateway ${SOURCES} --date DATE`,
    payload: (a) => ({ source: a.gateway, date: a.date }),
    show: day,
    help: { gateway: SOURCE_HELP, date: 'YYYY-MM-DD' },
  },
  {
    name: 'reconcile list',
    summary: 'Reconciled days, newest first, with their status',
    route: 'GET /reconciliation/days',
    usage: `[--gateway ${SOURCES}]`,
    payload: (a) => ({ source: a.gateway }),
    show: (b) => table(b.data, dayFields, '(no day reconciled yet)'),
    help: { gateway: SOURCE_HELP },
  },
  {
    name: 'reconcile show',
    summary: 'One reconciled day and its differences',
    route: 'GET /reconciliation/days/:source/:date',
    usage: 'SOURCE DATE',
    show: day,
    help: { SOURCE: SOURCE_HELP, DATE: 'YYYY-MM-DD' },
  },
];
