import type { Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const cedis = (pesewas: unknown) =>
  typeof pesewas === 'number' ? ghs(pesewas / 100) : ghs(pesewas);
const payoutFields: Fields = {
  payout: 'id',
  payee: 'payee',
  amount: (p) => cedis(p.amount_pesewas),
  status: (p) => (p.replaced_by ? `${p.status}, replaced by ${p.replaced_by}` : p.status),
  'waits for': (p) => (p.approval_reasons ?? []).join(', '),
  at: 'created_at',
};
const lineFields: Fields = {
  kind: 'kind',
  subject: 'subject_id',
  amount: (l) => cedis(l.amount_pesewas),
};
const runFields: Fields = {
  run: 'id',
  trigger: 'trigger',
  by: 'started_by',
  payouts: 'payouts',
  total: (r) => cedis(r.total_pesewas),
  at: 'created_at',
};
const runProgressFields: Fields = {
  run: 'run_id',
  status: 'status',
  created: 'created',
  'awaiting approval': 'awaiting_approval',
  sent: 'sent',
  paid: 'paid',
  failed: 'failed',
  pending: 'pending',
  'without destination': (x) => (x.without_destination as string[]).join(', ') || '-',
  'destination not verified': (x) => (x.unverified_destination as string[]).join(', ') || '-',
};
/** A run is followed until done; the bar counts payouts settled (paid or failed) of those to send. */
const runWait: Command['wait'] = {
  route: 'GET /payouts/runs/:run_id',
  done: (b) => b.status === 'done',
  progress: (b) => ({
    count: Number(b.paid ?? 0) + Number(b.failed ?? 0),
    of: Math.max(0, Number(b.created ?? 0) - Number(b.awaiting_approval ?? 0)),
    text: `${b.status}: ${b.created ?? 0} created, ${b.sent ?? 0} sent, ${b.paid ?? 0} paid, ${b.failed ?? 0} failed`,
  }),
};
const changeFields: Fields = {
  change: 'change_id',
  status: 'status',
  kind: 'kind',
  number: 'number',
  name: 'name',
  'registered name': 'resolved_name',
  'proposed by': 'proposed_by',
};
const STATUSES =
  'awaiting_approval|created|sending|pending|paid|failed|reversed|rejected|cancelled';
const destinationFields: Fields = {
  kind: 'kind',
  number: 'number',
  name: 'name',
  version: 'version',
  verification: 'verification',
  'registered name': 'resolved_name',
  changed: 'changed_at',
  by: 'changed_by',
};
const replacedList = (
  replaced: Array<{ cancelled: string; replaced_by: string; status: string }>,
) =>
  replaced.length === 0
    ? ''
    : `\n\nUnsent payouts made again for it:\n${replaced.map((r) => `  ${r.cancelled} cancelled, replaced by ${r.replaced_by} (${r.status})`).join('\n')}`;

export const payoutGroups = {
  payouts: 'Payouts to vendors and partners: runs, approvals (maker-checker) and remittance lines',
  payees: "Payees: a vendor's or partner's balances and where it is paid",
};

export const payoutCommands: Command[] = [
  {
    name: 'payouts run',
    summary:
      'Start a payout run (answered at once; a background worker makes and sends one payout per payee owed the minimum); --wait follows it to the end',
    route: 'POST /payouts/runs',
    usage: '[--wait]',
    wait: runWait,
    show: (b) =>
      b.created === undefined
        ? block(b, { run: 'run_id', status: 'status' })
        : block(b, runProgressFields),
    help: { wait: 'Follow the run until it is done (a progress bar on a terminal)' },
  },
  {
    name: 'payouts runs',
    summary: 'Payout runs, newest first',
    route: 'GET /payouts/runs',
    show: (b) => table(b.data, runFields, '(no runs)'),
  },
  {
    name: 'payouts runs-show',
    summary:
      "One payout run's progress: payouts created, sent, paid and failed, and the payees it skipped",
    route: 'GET /payouts/runs/:run_id',
    usage: 'RUN_ID [--wait]',
    wait: runWait,
    show: (b) => block(b, runProgressFields),
    help: { wait: 'Follow the run until it is done (a progress bar on a terminal)' },
  },
  {
    name: 'payouts list',
    summary: 'Payouts, newest first (--status awaiting_approval lists the approvals)',
    route: 'GET /payouts',
    usage: `[--status ${STATUSES}] [--payee PAYEE] [--run RUN_ID]`,
    payload: (a) => ({ status: a.status, payee: a.payee, run_id: a.run }),
    show: (b) => table(b.data, payoutFields, '(no payouts)'),
    help: { payee: 'vendor:<id> or partner:<id>' },
  },
  {
    name: 'payouts show',
    summary: 'One payout and its remittance lines',
    route: 'GET /payouts/:payout_id',
    usage: 'PAYOUT_ID',
    show: (b) =>
      `${block(b, { ...payoutFields, 'fee borne by payee': (p) => cedis(p.payee_fee_pesewas ?? 0), 'failure reason': 'failure_reason', 'approved by': 'approved_by' })}\n\n${table(b.lines, lineFields, '(no lines)')}`,
  },
  {
    name: 'payouts approve',
    summary: 'Approve a payout waiting for a second finance operator; it is sent at once',
    route: 'POST /payouts/:payout_id/approve',
    usage: 'PAYOUT_ID',
    show: (b) => block(b, payoutFields),
  },
  {
    name: 'payouts reject',
    summary: 'Reject a payout waiting for approval; the money is owed again',
    route: 'POST /payouts/:payout_id/reject',
    usage: 'PAYOUT_ID',
    show: (b) => block(b, payoutFields),
  },
  {
    name: 'payees show',
    summary: "A payee's pending and available balances and destination",
    route: 'GET /payees/:kind/:id',
    usage: 'KIND ID',
    show: (b) =>
      block(
        { ...b, ...(b.destination ?? {}) },
        {
          payee: 'payee',
          available: (x) => cedis(x.available_pesewas),
          pending: (x) => cedis(x.pending_pesewas),
          'owed back': (x) => cedis(x.receivable_pesewas),
          schedule: 'schedule',
          destination: (x) =>
            x.destination ? `${x.kind} ${x.network ?? x.bank_code} ${x.number} (${x.name})` : '-',
          changed: 'changed_at',
          version: 'version',
          verification: 'verification',
          'registered name': 'resolved_name',
          'needs review because': 'review_reason',
        },
      ),
    help: { KIND: 'vendor, partner or courier' },
  },
  {
    name: 'payees schedule',
    summary:
      "Set a vendor's payout schedule: daily, or same_day (also paid after each courier cash handover)",
    route: 'POST /payees/vendor/:id/schedule',
    usage: 'ID --schedule daily|same_day',
    payload: (a) => ({ schedule: a.schedule }),
    show: (b) => block(b, { vendor: 'vendor_id', schedule: 'schedule' }),
    help: { ID: 'the vendor (partners are paid daily)' },
  },
  {
    name: 'payees destination',
    summary:
      'Propose where a payee is paid (a mobile money wallet or a bank account); a second operator approves it',
    route: 'POST /payees/:kind/:id/destination',
    usage:
      'KIND ID --kind mobile_money|bank [--network mtn|telecel|airteltigo] [--number NUMBER] [--bank-code CODE] [--account-number NUMBER] --name NAME',
    payload: (a) => ({
      kind: a.kind,
      network: a.network,
      number: a.number,
      bank_code: a['bank-code'],
      account_number: a['account-number'],
      name: a.name,
    }),
    show: (b) =>
      `${block(b.pending_change, changeFields)}${b.name_matches === false ? '\n\nThe registered name differs from the name given: check it before approving.' : ''}`,
    help: {
      KIND: 'vendor, partner or courier (mobile money only)',
      name: "The wallet's or account's registered name",
    },
  },
  {
    name: 'payees approve-destination',
    summary:
      "Approve a proposed destination change (a second operator); the payee's old contact is told",
    route: 'POST /payees/:kind/:id/destination/approve',
    usage: 'KIND ID --change CHANGE_ID',
    payload: (a) => ({ change_id: a.change }),
    show: (b) => `${block(b.destination, destinationFields)}${replacedList(b.replaced)}`,
    help: { KIND: 'vendor, partner or courier' },
  },
  {
    name: 'payees accept-destination',
    summary:
      'Accept a destination that needs review (a finance operator who neither proposed nor approved it); payouts then go to it',
    route: 'POST /payees/:kind/:id/destination/accept',
    usage: 'KIND ID --destination-version N',
    payload: (a) => ({ version: a['destination-version'] }),
    show: (b) => block(b.destination, destinationFields),
    help: {
      KIND: 'vendor, partner or courier',
      'destination-version': "The destination's version you reviewed (payees show)",
    },
  },
  {
    name: 'payees reject-destination',
    summary: 'Reject (or withdraw) a proposed destination change; the destination stays as it is',
    route: 'POST /payees/:kind/:id/destination/reject',
    usage: 'KIND ID --change CHANGE_ID',
    payload: (a) => ({ change_id: a.change }),
    show: (b) => block(b, changeFields),
    help: { KIND: 'vendor, partner or courier' },
  },
];
