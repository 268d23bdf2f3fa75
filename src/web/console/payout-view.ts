import type { PayoutRow, PayoutsModule } from '../../modules/payouts/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { utc } from './kit.ts';

/** Where money goes, as operators see it: the network or bank and the number's last four digits only. */
export function masked(d: {
  kind: 'mobile_money' | 'bank';
  network?: string | null;
  number?: string;
  bank_code?: string | null;
  bankCode?: string;
  accountNumber?: string;
}): string {
  const number = d.kind === 'bank' ? (d.accountNumber ?? d.number ?? '') : (d.number ?? '');
  const where =
    d.kind === 'bank'
      ? `Bank ${d.bankCode ?? d.bank_code ?? ''}`
      : `${(d.network ?? '').toUpperCase()} mobile money`;
  return `${where} ••• ${number.slice(-4)}`;
}

/** The console page of a payee key (vendor:ven_… or partner:ptn_…). */
export const payeeLink = (payee: string) => `/console/payees/${payee.replace(':', '/')}`;

const REASONS: Record<string, string> = {
  amount: 'above the approval amount',
  destination_changed: 'destination changed recently',
};

/** A payout row as the console's tables show it. */
export const payoutView = (p: PayoutRow) => ({
  id: p.id,
  runId: p.run_id,
  payee: p.payee,
  payeeUrl: payeeLink(p.payee),
  amount: formatGhs(Number(p.amount_pesewas)),
  destination: masked(p.destination),
  status: p.status,
  awaiting: p.status === 'awaiting_approval',
  replacedBy: p.replaced_by,
  reasons: p.approval_reasons.map((r) => REASONS[r] ?? r),
  createdBy: p.created_by,
  approvedBy: p.approved_by,
  provider: p.provider,
  providerReference: p.provider_reference,
  fee: p.fee_pesewas === null ? null : formatGhs(Number(p.fee_pesewas)),
  payeeFee: Number(p.payee_fee_pesewas) > 0 ? formatGhs(Number(p.payee_fee_pesewas)) : null,
  failureReason: p.failure_reason,
  attempts: p.attempts,
  created: utc(p.created_at),
  updated: utc(p.updated_at),
});

type Run = Awaited<ReturnType<PayoutsModule['service']['runs']>>[number];

/** A payout run as the console's run tables show it (partials/runs.eta). */
export const runRow = (r: Run, operators: Map<string, string>) => ({
  ...r,
  when: utc(r.created_at),
  cutoff: utc(r.cutoff),
  total: formatGhs(Number(r.total_pesewas)),
  starter: operators.get(r.started_by) ?? r.started_by,
});
