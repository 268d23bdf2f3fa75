import type { Command } from '../command.ts';
import { morePages } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const refundFields: Fields = {
  sale: 'sale_id',
  status: 'status',
  how: (r) => (r.method === 'gateway_refund' ? r.provider : `mobile money (${r.provider})`),
  amount: (r) => ghs(r.amount_ghs),
  reason: (r) => r.failure_reason ?? '-',
  opened: 'created_at',
};
const detailFields: Fields = {
  ...refundFields,
  reference: 'reference',
  'earlier references': (r) => (r.earlier_references as string[]).join(', ') || '-',
  attempts: 'attempts',
  wallet: (r) =>
    r.destination
      ? `${r.destination.network} ${r.destination.number} (${r.destination.name})`
      : '-',
  refunded: (r) => r.refunded_at ?? '-',
  reversed: (r) => r.reversed_at ?? '-',
};

export const refundGroups = {
  refunds:
    'Buyer refunds of prepaid sales: the failed and reversed ones an operator sends again, the wallets mobile money refunds wait for',
};

export const refundCommands: Command[] = [
  {
    name: 'refunds list',
    summary:
      'Buyer refunds, newest first (--status failed or reversed: the ones waiting for an operator)',
    route: 'GET /refunds',
    usage: '[--status pending|processing|succeeded|failed|reversed] [--limit N] [--before SALE_ID]',
    payload: (a) => ({ status: a.status, limit: a.limit, before: a.before }),
    show: (b, a) =>
      table(b.refunds, refundFields, '(no refunds)') +
      morePages('refunds', 'refunds list', b.next_before, a, 'before'),
    help: {
      limit: 'How many to show, 1 to 200 (default 50)',
      before: 'Start after this one (the last sale of the previous page)',
    },
  },
  {
    name: 'refunds retry',
    summary: 'Send a failed or reversed refund again, under a new reference',
    route: 'POST /sales/:sale_id/refund/retry',
    usage: 'SALE_ID',
    show: (b) => block(b, detailFields),
  },
  {
    name: 'refunds wallet',
    summary:
      "Give the buyer's mobile money wallet for a mobile money refund (waiting, failed or reversed); it is sent at once",
    route: 'POST /sales/:sale_id/refund/wallet',
    usage: 'SALE_ID --network mtn|telecel|airteltigo --number NUMBER --name NAME',
    payload: (a) => ({ network: a.network, number: a.number, name: a.name }),
    show: (b) => block(b, detailFields),
    help: { name: "The wallet's registered name" },
  },
];
