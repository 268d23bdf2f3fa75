import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { partnerView, type AccountsService } from '../../modules/accounts/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  FINANCE_ROLES,
  unlessMissing,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

const RESULTS = 50;
type Params = { Params: { id: string } };
type PartnerUpdate = Parameters<AccountsService['updatePartner']>[1];

/** Partners: search by name or id, a partner's page (apps, keys without secrets, production, status), suspend and reactivate, the credit limit. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsolePartnerRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { accounts, activation } = kit.deps;

  async function partnerPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const partner = await unlessMissing(accounts.getPartner(id));
    if (!partner) throw new WebRefusal(404, 'There is no such partner.');
    const apps = await Promise.all(
      (await accounts.listApps(id)).map(async (a) => ({
        ...a,
        keys: await accounts.listKeys(a.id),
      })),
    );
    const request = await activation.current(id);
    const view = partnerView(partner);
    return kit.page(
      reply,
      'partner',
      {
        title: partner.name,
        partner: view,
        apps,
        request,
        canChange: holds(current, CHANGE_ROLES),
        canCredit: holds(current, FINANCE_ROLES),
        ...extra,
      },
      status,
    );
  }

  /** Applies a change through AccountsService and writes it to the audit log as the operator's, before and after. */
  async function change(
    request: FastifyRequest<Params>,
    reply: FastifyReply,
    current: OperatorCurrent,
    update: PartnerUpdate,
    notice: string,
  ) {
    const id = request.params.id;
    const before = await unlessMissing(accounts.getPartner(id));
    if (!before) throw new WebRefusal(404, 'There is no such partner.');
    try {
      const after = await accounts.updatePartner(id, update);
      await kit.audit(request, current, {
        action: 'partner.update',
        target: { type: 'partner', id },
        before: partnerView(before),
        after: partnerView(after),
      });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return partnerPage(reply, current, id, { error: err.message }, err.statusCode);
    }
    return partnerPage(reply, current, id, { notice });
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/partners', need: ALL_ROLES },
    async ({ request, reply }) => {
      const q =
        typeof request.query.q === 'string'
          ? request.query.q.replace(/\p{Cc}/gu, '').slice(0, 120)
          : '';
      const partners = await accounts.searchPartners(q, RESULTS);
      return kit.page(reply, 'partners', { title: 'Partners', q, partners });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/partners/:id',
      params: { id: idParam('ptn', 'There is no such partner.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return partnerPage(reply, current, request.params.id);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/partners/:id/status',
      params: { id: idParam('ptn', 'There is no such partner.') },
      need: CHANGE_ROLES,
      form: { status: { max: 10, label: 'Status' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (f.status !== 'active' && f.status !== 'suspended')
        throw new WebRefusal(400, 'The status must be active or suspended.');
      return change(
        request,
        reply,
        current,
        { status: f.status },
        f.status === 'suspended'
          ? 'Suspended: its keys are refused until it is reactivated.'
          : 'Reactivated.',
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/partners/:id/credit-limit',
      params: { id: idParam('ptn', 'There is no such partner.') },
      need: FINANCE_ROLES,
      form: { credit_limit_ghs: { max: 20, label: 'Credit limit' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const text = f.credit_limit_ghs.trim();
      const amount = /^\d{1,9}(\.\d{1,2})?$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isNaN(amount))
        return partnerPage(
          reply,
          current,
          request.params.id,
          {
            error:
              'The credit limit must be an amount in cedis, zero or more, with at most two decimals (e.g. 500 or 1250.50).',
          },
          400,
        );
      return change(
        request,
        reply,
        current,
        { credit_limit_ghs: amount },
        `Credit limit set to GH₵ ${amount.toFixed(2)}.`,
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/partners/:id/rate-limits',
      params: { id: idParam('ptn', 'There is no such partner.') },
      need: CHANGE_ROLES,
      form: {
        reads_per_minute: { max: 10, label: 'Reads per minute' },
        writes_per_minute: { max: 10, label: 'Writes per minute' },
      },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const reads = f.reads_per_minute.trim();
      const writes = f.writes_per_minute.trim();
      // Both empty: back to the platform's defaults (null), as on the operator API.
      if (reads === '' && writes === '')
        return change(
          request,
          reply,
          current,
          { rate_limits: null },
          'Rate limits back to the platform defaults.',
        );
      const count = (text: string) =>
        /^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= 1_000_000
          ? Number(text)
          : undefined;
      const r = count(reads);
      const w = count(writes);
      if (r === undefined || w === undefined) {
        return partnerPage(
          reply,
          current,
          request.params.id,
          {
            error:
              'Rate limits are whole numbers of requests per minute from 1 to 1,000,000, both given (or both empty for the defaults).',
          },
          400,
        );
      }
      return change(
        request,
        reply,
        current,
        { rate_limits: { reads_per_minute: r, writes_per_minute: w } },
        `Rate limits set to ${r} reads and ${w} writes per minute.`,
      );
    },
  );
}
