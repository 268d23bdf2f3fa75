import type { FastifyInstance, FastifyReply } from 'fastify';
import { can } from '../../modules/members/index.ts';
import { namesMatch, type DestinationRow } from '../../modules/payouts/index.ts';
import { PASSWORD_MAX_LENGTH } from '../../platform/auth/password.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { auditMember, WebRefusal, type DashboardPayouts, type Member, type WebKit } from './kit.ts';
import { accraTime } from './format.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const LINE_LABELS: Record<string, string> = {
  sale_settlement: 'Sale',
  sale_settlement_at_delivery: 'Sale',
  sale_refund: 'Return',
  sale_settlement_deferred: 'Paid before delivery: held until delivered',
};
const NETWORK_LABELS: Record<string, string> = {
  mtn: 'MTN',
  telecel: 'Telecel',
  airteltigo: 'AirtelTigo',
};

/** What a partner is told of its destination's check with the provider. */
const VERIFICATION: Record<DestinationRow['verification'], string> = {
  verified: 'Checked with the provider.',
  unverified: 'Being checked with the provider: payouts go to it once the check is done.',
  needs_review:
    'Our finance team is reviewing it (the name the provider holds differs from the one given, or it could not be found): payouts wait until they accept it.',
};

/** Only the last digits of a number or account are shown (the page may be seen over a shoulder). */
export const masked = (n: string) => `•••${n.slice(-3)}`;

const howPaid = (d: DestinationRow) =>
  d.kind === 'mobile_money'
    ? `${NETWORK_LABELS[d.network ?? ''] ?? d.network} mobile money`
    : `Bank ${d.bank_code}`;

function shownDestination(d: DestinationRow, cooling: boolean) {
  return {
    how: howPaid(d),
    number: masked(d.number),
    name: d.name,
    resolvedName: d.resolved_name,
    mismatch: d.resolved_name !== null && !namesMatch(d.name, d.resolved_name),
    changed: accraTime(d.changed_at),
    cooling,
    verification: VERIFICATION[d.verification],
    needsReview: d.verification === 'needs_review',
  };
}

/** The mail to the partner's owners when the destination changes: whoever did not make it can act. */
const changeNotice = (to: string, by: string, d: DestinationRow, baseUrl: string) => ({
  to,
  subject: 'Your Partner Platform payout destination was changed',
  text: `${by} changed where your markup is paid to: ${howPaid(d)} ${masked(d.number)} (${d.name}).\n\nPayouts to the new destination wait for our approval for a while.\nIf you did not expect this, sign in and change it back, and tell us at once:\n${baseUrl}/dashboard/payouts\n`,
});

/** The partner's payouts (owners and finance): markup earned, pending and available, payouts and their remittance advice, and the destination. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerPayoutRoutes(
  app: FastifyInstance,
  web: WebKit,
  payouts: DashboardPayouts,
): void {
  const { payees, service } = payouts.module;
  const { members, publicBaseUrl } = web.deps;

  async function payoutsPage(
    m: Member,
    extra: { error?: string; notice?: string; values?: Record<string, string> } = {},
  ) {
    const partnerId = m.membership.partner_id;
    const [earned, balance, list, destination] = await Promise.all([
      payees.earnedPesewas('partner', partnerId),
      payees.balance('partner', partnerId),
      service.list({ payee: `partner:${partnerId}`, limit: 50 }),
      payees.destination('partner', partnerId),
    ]);
    return {
      title: 'Payouts',
      earned: formatGhs(earned),
      pending: formatGhs(Number(balance.pending_pesewas)),
      available: formatGhs(Number(balance.available_pesewas)),
      payouts: list.map((p) => ({
        id: p.id,
        when: accraTime(p.created_at),
        amount: formatGhs(Number(p.amount_pesewas)),
        payeeFee:
          Number(p.payee_fee_pesewas) > 0 ? formatGhs(Number(p.payee_fee_pesewas)) : undefined,
        status: p.replaced_by
          ? 'cancelled: made again for your new destination'
          : p.status.replace('_', ' '),
        to: masked(
          p.destination.kind === 'bank' ? p.destination.accountNumber : p.destination.number,
        ),
      })),
      destination: destination && shownDestination(destination, payees.cooling(destination)),
      coolingHours: payouts.coolingHours,
      canChange: can(m.membership.role, 'set_payout_destination'),
      values: { kind: 'mobile_money', ...extra.values },
      error: extra.error,
      notice: extra.notice,
    };
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/payouts', need: 'view_payouts' },
    async ({ reply, actor: m }) => {
      return web.page(reply, 'payouts', await payoutsPage(m));
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/payouts/destination',
      need: 'set_payout_destination',
      form: {
        kind: { max: 20 },
        network: { max: 20 },
        number: { max: 30 },
        bank_code: { max: 10 },
        account_number: { max: 30 },
        name: { max: 100, label: 'Registered name' },
        password: { max: PASSWORD_MAX_LENGTH, label: 'Password' },
      },
    },
    async ({ request, reply, actor: m, form: f }) => {
      const { password, ...values } = f;
      const again = (error: string, status: number): Promise<FastifyReply> =>
        payoutsPage(m, { error, values }).then((d) => web.page(reply, 'payouts', d, status));
      // A fresh sign-in: the member's password again, through the sign-in itself (its throttle included).
      try {
        await members.signIn(m.member.email, password, request.ip);
      } catch (err) {
        if (isAppError(err) && err.statusCode < 500) {
          if (err.headers) reply.headers(err.headers);
          return again(
            err.statusCode === 429
              ? err.message
              : 'Your password was not right, so nothing changed. Enter the password you sign in with.',
            err.statusCode === 429 ? 429 : 403,
          );
        }
        throw err;
      }
      const partnerId = m.membership.partner_id;
      const owners = (await members.team(partnerId)).filter((t) => t.role === 'owner');
      try {
        const saved = await payees.setDestination(
          'partner',
          partnerId,
          values,
          `member:${m.member.id}`,
          async (tx, { saved: d, replaced }) => {
            for (const o of owners)
              await payouts.mail.send(tx, changeNotice(o.email, m.member.email, d, publicBaseUrl));
            const after = {
              version: d.version,
              kind: d.kind,
              number_ending: d.number.slice(-3),
              replaced: replaced.map((r) => ({
                cancelled: r.cancelled,
                replaced_by: r.replacement.id,
              })),
            };
            await auditMember(
              payouts.audit,
              request,
              m,
              {
                action: 'payout_destination.set',
                target: { type: 'partner', id: partnerId },
                after,
              },
              tx,
            );
          },
        );
        request.log.info(
          { partner: partnerId, member: m.member.id },
          'payout destination changed from the dashboard',
        );
        const notice =
          saved.name_matches === false
            ? `Saved. The name registered with the ${saved.destination.kind === 'bank' ? 'bank' : 'network'} is “${saved.destination.resolved_name}”, not the name you gave: our finance team reviews it before payouts go there.`
            : 'Saved.';
        const remade =
          saved.replaced.length > 0
            ? ` ${saved.replaced.length} payout(s) not yet sent were made again for it.`
            : '';
        return web.page(
          reply,
          'payouts',
          await payoutsPage(m, {
            notice: `${notice}${remade} Your team's owners were told by mail.`,
          }),
        );
      } catch (err) {
        // Bad input (400) names its fields; a payout being sent (409) or the provider failing (502) is said in its own sentence.
        if (isAppError(err) && err.statusCode !== 500)
          return again(
            err.details?.map((d) => `${d.field}: ${d.issue}`).join('; ') || err.message,
            err.statusCode,
          );
        throw err;
      }
    },
  );

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/payouts/:id',
      params: { id: idParam('pout', 'There is no such payout in your account.') },
      need: 'view_payouts',
    },
    async ({ request, reply, actor: m }) => {
      const notFound = () => new WebRefusal(404, 'There is no such payout in your account.');
      const found = await service.get(request.params.id).catch((err: unknown) => {
        if (isAppError(err) && err.statusCode === 404) throw notFound();
        throw err;
      });
      // Another partner's payout is answered exactly like a missing one.
      if (found.payout.payee !== `partner:${m.membership.partner_id}`) throw notFound();
      const { payout, lines } = found;
      const sum = (pick: (n: number) => boolean) =>
        lines
          .map((l) => Number(l.amount_pesewas))
          .filter(pick)
          .reduce((a, b) => a + b, 0);
      return web.page(reply, 'payout', {
        title: 'Remittance advice',
        id: payout.id,
        when: accraTime(payout.created_at),
        status: payout.status.replace('_', ' '),
        amount: formatGhs(Number(payout.amount_pesewas)),
        to: masked(
          payout.destination.kind === 'bank'
            ? payout.destination.accountNumber
            : payout.destination.number,
        ),
        reference: payout.provider_reference,
        failure: payout.failure_reason,
        sales: formatGhs(sum((n) => n > 0)),
        deductions: formatGhs(sum((n) => n < 0)),
        fee: payout.fee_pesewas === null ? undefined : formatGhs(Number(payout.fee_pesewas)),
        payeeFee:
          Number(payout.payee_fee_pesewas) > 0
            ? formatGhs(Number(payout.payee_fee_pesewas))
            : undefined,
        lines: lines.map((l) => ({
          what: LINE_LABELS[l.kind] ?? l.kind,
          subject: l.subject_id,
          amount: formatGhs(Number(l.amount_pesewas)),
        })),
      });
    },
  );
}
