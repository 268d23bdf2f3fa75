import type { FastifyInstance } from 'fastify';
import type { PayoutStatus } from '../../modules/payouts/index.ts';
import { PAYOUTS_SHOWN, type CourierKit } from './kit.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const cedis = (pesewas: number) => `GH₵ ${(pesewas / 100).toFixed(2)}`;
/** Accra keeps UTC: today's jobs show the time alone, earlier ones their weekday too. */
const when = (at: Date, today: string) => {
  const time = at.toISOString().slice(11, 16);
  return at.toISOString().slice(0, 10) === today ? time : `${DAYS[at.getUTCDay()]} ${time}`;
};
const occasion = (o: string) =>
  o === 'delivered' ? 'Delivered' : `Could not deliver (trip ${o.split(':')[1]})`;
/** A payout's state in a courier's words. */
const PAYOUT_STATES: Record<PayoutStatus, string> = {
  awaiting_approval: 'Waiting for approval',
  created: 'On its way',
  sending: 'On its way',
  pending: 'On its way',
  paid: 'Paid',
  failed: 'Not paid',
  reversed: 'Sent back',
  rejected: 'Not approved',
  cancelled: 'Cancelled',
};

/**
 * The courier's earnings: today's and this week's totals, each job of the week with its amount,
 * and the latest payouts to their wallet. It updates itself while open (GET /courier/events/earnings,
 * console-live.js), and works as a plain page without.
 */
export function registerCourierEarnings(app: FastifyInstance, kit: CourierKit): void {
  const { earnings, payouts, listen } = kit.deps;
  app.get('/courier/earnings', async (request, reply) => {
    const current = await kit.current(request);
    if (!current) return kit.web.redirect(reply, '/courier/sign-in');
    const [mine, paid] = await Promise.all([
      earnings.ofCourier(current.courier.id),
      payouts?.list({ payee: `courier:${current.courier.id}`, limit: PAYOUTS_SHOWN }),
    ]);
    const today = new Date(kit.deps.clock()).toISOString().slice(0, 10);
    return kit.page(reply, 'earnings', {
      title: 'Earnings',
      courier: current.courier,
      csrf: current.session.csrfToken,
      today: cedis(mine.today_pesewas),
      week: cedis(mine.week_pesewas),
      jobs: mine.jobs.map((j) => ({
        when: when(j.earned_at, today),
        what: occasion(j.occasion),
        order: j.order_id,
        amount: cedis(j.amount_pesewas),
        netted: j.netted_pesewas > 0 ? cedis(j.netted_pesewas) : undefined,
      })),
      payouts: paid?.map((p) => ({
        when: when(p.updated_at, today),
        amount: cedis(Number(p.amount_pesewas)),
        state: PAYOUT_STATES[p.status],
        paid: p.status === 'paid',
      })),
      ...(listen && {
        live: '/courier/events/earnings',
        pageJs: [kit.web.assetUrl('console-live.js')],
      }),
    });
  });
}
