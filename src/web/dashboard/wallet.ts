import type { FastifyInstance, FastifyReply } from 'fastify';
import { can } from '../../modules/members/index.ts';
import {
  MINIMUM_TOPUP_PESEWAS,
  TOPUP_REFERENCE,
  type TopupCheck,
} from '../../modules/wallet/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { WebRefusal, type Member, type WebKit } from './kit.ts';
import { accraTime } from './format.ts';
import { definePage } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

/** What the form accepts: whole cedis or cedis and pesewas, no sign, no exponent, no separators. */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
export const MAXIMUM_TOPUP_PESEWAS = 10_000_000; // GHS 100,000 a top-up from the dashboard
const PAGE = 25;
const CHART_DAYS = 30;

const KIND_LABELS: Record<string, string> = {
  wallet_topup: 'Top-up',
  order_fee: 'Delivery fee',
  order_fee_refund: 'Fee refund',
  order_return_fee: 'Return fee',
  recipient_message: 'Text to a recipient',
  recipient_message_refund: 'Text refund (not sent)',
};

/** Cedis text ("30", "30.5", "30.50") as exact pesewas, or a sentence saying what is wrong. */
export function parseAmount(text: string): number | string {
  const t = text.trim();
  if (!AMOUNT.test(t))
    return 'Enter the amount in cedis, like 150 or 150.50 (digits, at most 2 decimals).';
  const [whole, fraction = ''] = t.split('.');
  const pesewas = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (pesewas < MINIMUM_TOPUP_PESEWAS)
    return `The minimum top-up is ${formatGhs(MINIMUM_TOPUP_PESEWAS)}.`;
  if (pesewas > MAXIMUM_TOPUP_PESEWAS)
    return `The maximum top-up from the dashboard is ${formatGhs(MAXIMUM_TOPUP_PESEWAS)}.`;
  return pesewas;
}

/** The wallet page (owners and finance): balance, statement with running balance, top-ups, chart; and top-ups from the dashboard. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerWalletRoutes(app: FastifyInstance, web: WebKit): void {
  const { accounts, activation, wallet, publicBaseUrl } = web.deps;

  async function walletPage(
    m: Member,
    after: string | undefined,
    extra: { problem?: string; amount?: string } = {},
  ) {
    const partnerId = m.membership.partner_id;
    const partner = await accounts.getPartner(partnerId);
    const [balance, rows, topups, days, apps] = await Promise.all([
      wallet.balancePesewas(partnerId),
      wallet.statement(partnerId, { limit: PAGE + 1, beforeJournalId: after }),
      wallet.recentTopups(partnerId, 10),
      wallet.daily(partnerId, CHART_DAYS),
      accounts.listApps(partnerId),
    ]);
    const more = rows.length > PAGE;
    const entries = rows.slice(0, PAGE).map((e) => ({
      journalId: e.journal_id,
      what: KIND_LABELS[e.kind] ?? e.kind,
      subject: e.subject_id,
      when: accraTime(e.created_at),
      amount: formatGhs(Number(e.amount_pesewas)),
      credit: Number(e.amount_pesewas) > 0,
      balanceAfter: formatGhs(Number(e.balance_after_pesewas)),
    }));
    const credit = Number(partner.credit_limit_pesewas);
    // A partner still on staging is told why it cannot top up, and where its activation stands.
    const activationState = partner.production_active
      ? undefined
      : ((await activation.current(partnerId))?.state ?? 'none');
    const chart = days.map((d) => ({
      day: d.day,
      closing: Number(d.closing_pesewas),
      spent: Number(d.spent_pesewas),
    }));
    return {
      title: 'Wallet',
      balance: formatGhs(balance),
      creditLimit: formatGhs(credit),
      headroom: formatGhs(balance + credit),
      entries,
      next: more ? `/dashboard/wallet?after=${entries.at(-1)!.journalId}` : undefined,
      firstPage: !after,
      topups: topups.map((t) => ({
        reference: t.client_reference,
        when: accraTime(t.created_at),
        amount: formatGhs(Number(t.amount_pesewas)),
        status: t.status,
        gatewayStatus: t.last_gateway_status ?? '—',
        open: t.status === 'pending',
      })),
      days: chart.map((d) => ({
        day: d.day,
        closing: formatGhs(d.closing),
        spent: formatGhs(d.spent),
      })),
      chartData: JSON.stringify({
        days: chart.map((d) => d.day),
        label: 'Chart of the daily closing balance and fees spent',
        series: [
          { label: 'Balance', unit: 'ghs', values: chart.map((d) => d.closing / 100) },
          { label: 'Fees spent', unit: 'ghs', bars: true, values: chart.map((d) => d.spent / 100) },
        ],
      }),
      chartAssets: {
        js: web.assetUrl('uplot.js'),
        css: web.assetUrl('uplot.css'),
        wallet: web.assetUrl('wallet.css'),
        chart: web.assetUrl('chart.js'),
      },
      canTopUp: can(m.membership.role, 'top_up_wallet'),
      activationState,
      canRequestActivation: can(m.membership.role, 'manage_team'),
      apps: apps.map((a) => ({ id: a.id, name: a.name })),
      minimum: formatGhs(MINIMUM_TOPUP_PESEWAS),
      maximum: formatGhs(MAXIMUM_TOPUP_PESEWAS),
      problem: extra.problem,
      amount: extra.amount ?? '',
    };
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/wallet', need: 'view_wallet' },
    async ({ request, reply, actor: m }) => {
      const after = request.query.after;
      if (after !== undefined && (typeof after !== 'string' || !isId('jrn', after)))
        throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
      return web.page(reply, 'wallet', await walletPage(m, after));
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/wallet/topups',
      need: 'top_up_wallet',
      form: { amount_ghs: { max: 20, label: 'Amount' }, app_id: { max: 40, label: 'App' } },
    },
    async ({ request, reply, actor: m, form }) => {
      const again = (problem: string, status: number): Promise<FastifyReply> =>
        walletPage(m, undefined, { problem, amount: form.amount_ghs }).then((d) =>
          web.page(reply, 'wallet', d, status),
        );
      const pesewas = parseAmount(form.amount_ghs);
      if (typeof pesewas === 'string') return again(pesewas, 400);
      const apps = await accounts.listApps(m.membership.partner_id);
      const appId =
        form.app_id === ''
          ? apps[0]?.id
          : isId('app', form.app_id)
            ? apps.find((a) => a.id === form.app_id)?.id
            : undefined;
      if (!appId)
        return again(
          apps.length === 0
            ? 'Create an app first: a top-up is recorded against one of your apps.'
            : 'Choose one of your apps.',
          400,
        );
      try {
        const started = await wallet.initiateDashboardTopup(
          m.membership.partner_id,
          appId,
          pesewas,
          (ref) => `${publicBaseUrl}/dashboard/wallet/topups/${ref}`,
        );
        request.log.info(
          {
            partner: m.membership.partner_id,
            member: m.member.id,
            clientReference: started.clientReference,
          },
          'dashboard top-up started',
        );
        return web.redirect(reply, started.checkoutUrl);
      } catch (err) {
        // A refusal (no production gateway: 503) or a gateway failure (502) is shown on the page with its sentence.
        if (isAppError(err) && err.statusCode !== 500) return again(err.message, err.statusCode);
        throw err;
      }
    },
  );

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/wallet/topups/:ref',
      params: {
        ref: {
          test: (v: string) => TOPUP_REFERENCE.test(v),
          missing: 'There is no such top-up in your account.',
        },
      },
      need: 'view_wallet',
    },
    async ({ request, reply, actor: m }) => {
      const ref = request.params.ref;
      if (!TOPUP_REFERENCE.test(ref))
        throw new WebRefusal(404, 'There is no such top-up in your account.');
      let check: TopupCheck;
      try {
        check = await wallet.verifyTopup({ partnerId: m.membership.partner_id }, ref);
      } catch (err) {
        if (isAppError(err) && err.statusCode === 404)
          throw new WebRefusal(404, 'There is no such top-up in your account.');
        if (isAppError(err) && err.statusCode === 502)
          throw new WebRefusal(
            502,
            'The payment gateway did not answer; nothing changed. Check again in a moment.',
          );
        throw err;
      }
      const shown =
        check.state === 'pending'
          ? { credited: false, gatewayStatus: check.gatewayStatus }
          : {
              credited: true,
              amount: formatGhs(check.creditedPesewas),
              balance: formatGhs(check.balancePesewas),
            };
      return web.page(reply, 'wallet-topup', { title: 'Top-up', reference: ref, ...shown });
    },
  );
}
