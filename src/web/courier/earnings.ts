import type { FastifyInstance } from 'fastify';
import type { CourierKit } from './kit.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const cedis = (pesewas: number) => `GH₵ ${(pesewas / 100).toFixed(2)}`;
/** Accra keeps UTC: today's jobs show the time alone, earlier ones their weekday too. */
const when = (at: Date, today: string) => {
  const time = at.toISOString().slice(11, 16);
  return at.toISOString().slice(0, 10) === today ? time : `${DAYS[at.getUTCDay()]} ${time}`;
};
const occasion = (o: string) =>
  o === 'delivered' ? 'Delivered' : `Could not deliver (trip ${o.split(':')[1]})`;

/** The courier's earnings: today's and this week's totals and each job of the week with its amount. */
export function registerCourierEarnings(app: FastifyInstance, kit: CourierKit): void {
  app.get('/courier/earnings', async (request, reply) => {
    const current = await kit.current(request);
    if (!current) return kit.web.redirect(reply, '/courier/sign-in');
    const mine = await kit.deps.earnings.ofCourier(current.courier.id);
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
    });
  });
}
