import { randomBytes } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Logger } from '../../platform/logger.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ghsToPesewas, pesewasToGhs } from '../../platform/money.ts';
import { processMetrics } from '../../platform/metrics/registry.ts';
import {
  GatewayError,
  type Checkout,
  type PaymentStatus,
} from '../../integrations/payments/gateway.ts';
import type { PaymentGateways } from '../../integrations/payments/index.ts';
import { appendEvent } from '../webhooks/index.ts';
import {
  journalStatements,
  ledger,
  type EntryRow,
  type JournalStatements,
  type StatementRow,
  type WalletDay,
} from '../ledger/index.ts';
import {
  orderFeeJournal,
  orderFeeRefundJournal,
  orderReturnFeeJournal,
  topupJournal,
} from './journals.ts';
import { walletRepository as repo, type TopupRow } from './repository.ts';

export const TOPUP_REFERENCE = /^serviceD_WA[0-9a-f]{16}$/;
export const MINIMUM_TOPUP_PESEWAS = 3000;

export interface WalletServiceDeps {
  db: Db;
  gateways: PaymentGateways;
  clock: () => number;
  log: Logger;
  publicBaseUrl: string;
  /** Where a buyer's browser lands after a top-up checkout when the app has no return_url. */
  appReturnUrl: (appId: string) => Promise<string | null>;
  /** Whether an operator has activated production for the partner (its wallet is production's). */
  productionActive: (partnerId: string) => Promise<boolean>;
}

/** Why a partner still on staging cannot top up, and what to do: the dashboard shows it as it is. */
export const TOPUP_NEEDS_PRODUCTION =
  'Production is not active for your account yet, and the wallet only pays the fees of production orders (staging orders need no wallet), so nothing was charged. Request production activation: once an operator approves it, you can top up here.';

/** Where a top-up stands after a check with the gateway (amounts in pesewas). */
export type TopupCheck =
  | { state: 'credited' | 'already_credited'; creditedPesewas: number; balancePesewas: number }
  | { state: 'pending'; gatewayStatus: string };

type TopupOutcome = 'initiated' | 'initiation_failed' | 'credited' | 'pending' | 'check_failed';
const topups = new Counter({
  name: 'wallet_topups_total',
  help: 'Wallet top-ups by outcome: initiated (checkout created), initiation_failed (gateway error), credited, pending (checked, not paid yet), check_failed (gateway error on a check)',
  labelNames: ['outcome'],
  registers: [processMetrics],
});
const counted = (outcome: TopupOutcome) => topups.inc({ outcome });

function gatewayFailure(err: unknown): never {
  if (err instanceof GatewayError)
    throw errors.gateway(
      'The payment gateway did not answer properly; nothing was charged or credited. Retry shortly.',
    );
  throw err;
}

/** The partner's prepaid wallet: balance, top-ups through a gateway, and order fee debits and refunds. */
export class WalletService {
  constructor(private readonly deps: WalletServiceDeps) {}

  async balancePesewas(partnerId: string): Promise<number> {
    return ledger.balance(this.deps.db, partnerId);
  }

  /**
   * Records the top-up, then asks the gateway for a checkout outside any transaction; a gateway
   * failure marks the top-up failed and answers 502 with nothing charged.
   */
  async initiateTopup(auth: AuthContext, amountGhs: number) {
    const amount = ghsToPesewas(amountGhs);
    if (amount === null)
      throw errors.validation('amount_ghs must have at most 2 decimals.', [
        { field: 'amount_ghs', issue: 'must have at most 2 decimals' },
      ]);
    if (amount < MINIMUM_TOPUP_PESEWAS)
      throw errors.validation('The minimum top-up is GHS 30.', [
        { field: 'amount_ghs', issue: 'must be at least 30' },
      ]);
    const back =
      (await this.deps.appReturnUrl(auth.appId)) ?? `${this.deps.publicBaseUrl}/checkout/complete`;
    return this.startTopup({
      partnerId: auth.partnerId,
      appId: auth.appId,
      environment: auth.environment,
      amountPesewas: amount,
      returnUrl: () => back,
    });
  }

  /**
   * A top-up started from the dashboard (production, like every wallet top-up): `returnUrl` gets
   * the new client reference, so the browser comes back to that top-up's page. The caller checks
   * the amount's range first (MINIMUM_TOPUP_PESEWAS is checked again here).
   */
  async initiateDashboardTopup(
    partnerId: string,
    appId: string,
    amountPesewas: number,
    returnUrl: (clientReference: string) => string,
  ) {
    if (!Number.isSafeInteger(amountPesewas) || amountPesewas < MINIMUM_TOPUP_PESEWAS)
      throw errors.validation('The minimum top-up is GHS 30.', [
        { field: 'amount_ghs', issue: 'must be at least 30' },
      ]);
    if (!(await this.deps.productionActive(partnerId)))
      throw errors.productionNotActive(TOPUP_NEEDS_PRODUCTION);
    return this.startTopup({
      partnerId,
      appId,
      environment: 'production',
      amountPesewas,
      returnUrl,
    });
  }

  private async startTopup(t: {
    partnerId: string;
    appId: string;
    environment: AuthContext['environment'];
    amountPesewas: number;
    returnUrl: (clientReference: string) => string;
  }) {
    const amount = t.amountPesewas;
    const gateway = this.deps.gateways.forPayment(t.environment);
    const id = newId('top');
    const clientReference = `serviceD_WA${randomBytes(8).toString('hex')}`;
    const { db, publicBaseUrl } = this.deps;
    await repo.insertTopup(db, {
      id,
      partnerId: t.partnerId,
      appId: t.appId,
      clientReference,
      amountPesewas: amount,
      gateway: gateway.name,
    });
    const back = t.returnUrl(clientReference);
    let checkout: Checkout;
    try {
      checkout = await gateway.createCheckout({
        clientReference,
        amountPesewas: amount,
        description: `Delivery wallet top-up ${clientReference}`,
        callbackUrl: `${publicBaseUrl}/webhooks/payments/${gateway.name}`,
        returnUrl: back,
        cancellationUrl: back,
      });
    } catch (err) {
      counted('initiation_failed');
      await repo.setTopupCheckout(db, id, null);
      gatewayFailure(err);
    }
    await repo.setTopupCheckout(db, id, checkout);
    counted('initiated');
    return { checkoutUrl: checkout.checkoutUrl, clientReference, amountPesewas: amount };
  }

  /** Checks the gateway and credits a paid top-up exactly once, however many verifies and callbacks race. */
  async verifyTopup(
    auth: Pick<AuthContext, 'partnerId'>,
    clientReference: string,
  ): Promise<TopupCheck> {
    const topup = TOPUP_REFERENCE.test(clientReference)
      ? await repo.findTopup(this.deps.db, clientReference)
      : undefined;
    if (
      !topup ||
      topup.partner_id !== auth.partnerId ||
      topup.status === 'initiating' ||
      topup.status === 'failed'
    ) {
      throw errors.topupNotFound('No top-up with this client_reference exists for this partner.');
    }
    return this.settle(topup);
  }

  /** A gateway callback: a hint to check now. Unknown references are ignored. */
  async handleCallback(clientReference: string): Promise<void> {
    const topup = TOPUP_REFERENCE.test(clientReference)
      ? await repo.findTopup(this.deps.db, clientReference)
      : undefined;
    if (topup && topup.status === 'pending') await this.settle(topup);
  }

  private async settle(topup: TopupRow): Promise<TopupCheck> {
    if (topup.status === 'credited')
      return this.alreadyCredited(topup.partner_id, topup.credited_pesewas!);
    let status: PaymentStatus;
    try {
      status = await this.deps.gateways
        .recorded(topup.gateway)
        .checkStatus({ clientReference: topup.client_reference, checkoutId: topup.checkout_id });
    } catch (err) {
      counted('check_failed');
      gatewayFailure(err);
    }
    if (status.state !== 'paid' || !status.amountPesewas) {
      counted('pending');
      await repo.noteGatewayStatus(this.deps.db, topup.id, status.rawStatus);
      return { state: 'pending', gatewayStatus: status.rawStatus };
    }
    const confirmed = status.amountPesewas;
    if (confirmed !== topup.amount_pesewas) {
      this.deps.log.warn(
        { topup: topup.id, asked: topup.amount_pesewas, confirmed },
        'gateway confirmed a different amount; crediting what it confirmed',
      );
    }
    const now = new Date(this.deps.clock());
    const won = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.markCredited(tx, topup.id, confirmed, status.rawStatus, now))) return false;
      await ledger.postJournal(
        tx,
        topupJournal(topup.partner_id, topup.id, topup.gateway, confirmed),
        now,
      );
      const balance = await ledger.balance(tx, topup.partner_id);
      await appendEvent(tx, {
        appId: topup.app_id,
        environment: 'production',
        type: 'wallet.topup.credited',
        subjectId: topup.id,
        sequence: 1,
        destinationUrl: null,
        at: now,
        data: {
          client_reference: topup.client_reference,
          amount_ghs: pesewasToGhs(confirmed),
          balance_ghs: pesewasToGhs(balance),
          timestamp: now.toISOString(),
        },
      });
      return true;
    });
    const balance = await ledger.balance(this.deps.db, topup.partner_id);
    if (!won) {
      const fresh = (await repo.findTopup(this.deps.db, topup.client_reference))!;
      return this.alreadyCredited(topup.partner_id, fresh.credited_pesewas!);
    }
    counted('credited');
    return { state: 'credited', creditedPesewas: confirmed, balancePesewas: balance };
  }

  private async alreadyCredited(partnerId: string, credited: number): Promise<TopupCheck> {
    return {
      state: 'already_credited',
      creditedPesewas: credited,
      balancePesewas: await ledger.balance(this.deps.db, partnerId),
    };
  }

  // Delivery's order wallet (OrderWallet): the fee joins the order's statement; refunds and return fees join their move's transaction.

  /**
   * The fee's debit as statements joined to the order's own insert: one statement writes the
   * order and its fee, or neither (INSUFFICIENT_WALLET_BALANCE past the credit limit).
   */
  orderFeeDebit(
    order: { partnerId: string; orderId: string; feePesewas: number; at: Date },
    firstParam: number,
  ): JournalStatements {
    return journalStatements(
      orderFeeJournal(order.partnerId, order.orderId, order.feePesewas),
      order.at,
      { floorOf: order.partnerId },
      firstParam,
    );
  }

  async openWallet(partnerId: string): Promise<void> {
    await ledger.openWallet(this.deps.db, partnerId);
  }

  async refundOrderFee(
    tx: Queryable,
    order: { partnerId: string; orderId: string; feePesewas: number; at: Date },
  ): Promise<number> {
    await ledger.postJournal(
      tx,
      orderFeeRefundJournal(order.partnerId, order.orderId, order.feePesewas),
      order.at,
    );
    return ledger.balance(tx, order.partnerId);
  }

  /**
   * A returned order's return fee: charged even past the credit limit (the trip was made), so a
   * wallet may go further below zero; later orders are refused until it is topped up.
   */
  async chargeReturnFee(
    tx: Queryable,
    order: { partnerId: string; orderId: string; feePesewas: number; at: Date },
  ): Promise<void> {
    await ledger.postJournal(
      tx,
      orderReturnFeeJournal(order.partnerId, order.orderId, order.feePesewas),
      order.at,
    );
  }

  /** A partner's wallet entries with the running balance after each, newest first (the dashboard's statement). */
  async statement(
    partnerId: string,
    opts: { limit: number; beforeJournalId?: string },
  ): Promise<StatementRow[]> {
    return ledger.statement(this.deps.db, partnerId, opts);
  }

  /** The last `days` days (UTC, Ghana's time) of the wallet: closing balance and fees spent each day. */
  async daily(partnerId: string, days: number): Promise<WalletDay[]> {
    return ledger.dailyWallet(
      this.deps.db,
      partnerId,
      new Date(this.deps.clock()).toISOString().slice(0, 10),
      days,
    );
  }

  /** A partner's latest top-ups with their state and the gateway's last raw status. */
  async recentTopups(partnerId: string, limit: number): Promise<TopupRow[]> {
    return repo.listTopups(this.deps.db, partnerId, limit);
  }

  /** A partner's balance and latest ledger entries, for operators. */
  async ledgerOf(partnerId: string): Promise<{ balancePesewas: number; entries: EntryRow[] }> {
    const [balancePesewas, entries] = await Promise.all([
      ledger.balance(this.deps.db, partnerId),
      ledger.entries(this.deps.db, partnerId, 100),
    ]);
    return { balancePesewas, entries };
  }
}
