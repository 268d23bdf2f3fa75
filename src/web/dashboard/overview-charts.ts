import { can } from '../../modules/members/index.ts';
import { formatGhs } from '../../platform/money.ts';
import type { Member, WebKit } from './kit.ts';

export const OVERVIEW_DAYS = 30;

const percent = (delivered: number, finished: number) =>
  finished === 0 ? null : Math.round((delivered / finished) * 1000) / 10;
const minutes = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 60));

/**
 * The overview's four daily charts over the last 30 days (UTC days, which are Accra days): orders
 * created, delivery success rate (delivered / finished, finished = delivered, returned or failed, by the day
 * the order was created), average created → delivered time, and fees spent (only for roles that may
 * see the wallet). Each chart's figures are also rendered as a plain table.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: both charts' series and their plain-table alternatives are built from the same reads, side by side
export async function overviewCharts(web: WebKit, m: Member) {
  const { partnerOrders, wallet } = web.deps;
  const partnerId = m.membership.partner_id;
  const showFees = can(m.membership.role, 'view_wallet');
  const today = new Date().toISOString().slice(0, 10);
  const [orderDays, walletDays] = await Promise.all([
    partnerOrders
      ? partnerOrders.daily(partnerId, today, OVERVIEW_DAYS)
      : Promise.resolve(undefined),
    showFees ? wallet.daily(partnerId, OVERVIEW_DAYS) : Promise.resolve(undefined),
  ]);
  const charts: {
    id: string;
    title: string;
    caption: string;
    columns: string[];
    rows: string[][];
    data: string;
  }[] = [];
  if (orderDays) {
    const days = orderDays.map((d) => d.day);
    const rates = orderDays.map((d) => percent(d.delivered, d.finished));
    const mins = orderDays.map((d) => minutes(d.avg_delivery_seconds));
    charts.push(
      {
        id: 'orders-chart',
        title: 'Orders per day',
        caption: 'Orders created each day (UTC), both environments',
        columns: ['Day', 'Orders'],
        rows: orderDays.map((d) => [d.day, String(d.created)]),
        data: JSON.stringify({
          days,
          label: 'Chart of orders per day',
          series: [
            { label: 'Orders', unit: 'count', bars: true, values: orderDays.map((d) => d.created) },
          ],
        }),
      },
      {
        id: 'success-chart',
        title: 'Delivery success rate',
        caption:
          'Of the orders created that day which finished (delivered, returned or failed), the share delivered',
        columns: ['Day', 'Delivered', 'Finished', 'Success rate'],
        rows: orderDays.map((d, i) => [
          d.day,
          String(d.delivered),
          String(d.finished),
          rates[i] === null ? '—' : `${rates[i]!.toFixed(1)}%`,
        ]),
        data: JSON.stringify({
          days,
          label: 'Chart of the daily delivery success rate',
          series: [{ label: 'Success rate', unit: 'percent', values: rates }],
        }),
      },
      {
        id: 'time-chart',
        title: 'Average delivery time',
        caption:
          'Average time from creation to delivery of the orders created that day and delivered',
        columns: ['Day', 'Delivered', 'Average time'],
        rows: orderDays.map((d, i) => [
          d.day,
          String(d.delivered),
          mins[i] === null ? '—' : `${mins[i]} min`,
        ]),
        data: JSON.stringify({
          days,
          label: 'Chart of the average delivery time per day',
          series: [{ label: 'Average time', unit: 'minutes', values: mins }],
        }),
      },
    );
  }
  if (walletDays) {
    charts.push({
      id: 'fees-chart',
      title: 'Fees spent per day',
      caption: 'Delivery fees taken from the wallet each day (UTC), net of refunds',
      columns: ['Day', 'Fees spent'],
      rows: walletDays.map((d) => [d.day, formatGhs(Number(d.spent_pesewas))]),
      data: JSON.stringify({
        days: walletDays.map((d) => d.day),
        label: 'Chart of the fees spent per day',
        series: [
          {
            label: 'Fees spent',
            unit: 'ghs',
            bars: true,
            values: walletDays.map((d) => Number(d.spent_pesewas) / 100),
          },
        ],
      }),
    });
  }
  return {
    charts,
    chartAssets: {
      js: web.assetUrl('uplot.js'),
      css: web.assetUrl('uplot.css'),
      charts: web.assetUrl('wallet.css'),
      chart: web.assetUrl('chart.js'),
    },
  };
}
