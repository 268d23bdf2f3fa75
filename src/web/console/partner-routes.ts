import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { partnerView, type AccountsService } from '../../modules/accounts/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, FINANCE_ROLES, unlessMissing, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const PARTNER_ID = /^ptn_[0-9A-Z]{26}$/;
const RESULTS = 50;
type Params = { Params: { id: string } };
type PartnerUpdate = Parameters<AccountsService['updatePartner']>[1];

const has = (current: OperatorCurrent, roles: readonly string[]) => current.operator.roles.some((r) => roles.includes(r));

/** Partners: search by name or id, a partner's page (apps, keys without secrets, production, status), suspend and reactivate, the credit limit. */
export function registerConsolePartnerRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { accounts, activation, audit } = kit.deps;

  async function partnerPage(reply: FastifyReply, current: OperatorCurrent, id: string, extra: Record<string, unknown> = {}, status = 200) {
    const partner = PARTNER_ID.test(id) ? await unlessMissing(accounts.getPartner(id)) : undefined;
    if (!partner) throw new WebRefusal(404, 'There is no such partner.');
    const apps = await Promise.all((await accounts.listApps(id)).map(async (a) => ({ ...a, keys: await accounts.listKeys(a.id) })));
    const request = await activation.current(id);
    const view = partnerView(partner);
    return kit.page(reply, 'partner', { title: partner.name, partner: view, apps, request, canChange: has(current, CHANGE_ROLES), canCredit: has(current, FINANCE_ROLES), ...extra }, status);
  }

  /** Applies a change through AccountsService and writes it to the audit log as the operator's, before and after. */
  async function change(request: FastifyRequest<Params>, reply: FastifyReply, current: OperatorCurrent, update: PartnerUpdate, notice: string) {
    const id = request.params.id;
    const before = PARTNER_ID.test(id) ? await unlessMissing(accounts.getPartner(id)) : undefined;
    if (!before) throw new WebRefusal(404, 'There is no such partner.');
    try {
      const after = await accounts.updatePartner(id, update);
      await audit.record({ actor: kit.actor(current), action: 'partner.update', target: { type: 'partner', id }, before: partnerView(before), after: partnerView(after), origin: kit.origin(request) });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return partnerPage(reply, current, id, { error: err.message }, err.statusCode);
    }
    return partnerPage(reply, current, id, { notice });
  }

  app.get<{ Querystring: { q?: string } }>('/console/partners', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    const q = typeof request.query.q === 'string' ? request.query.q.replace(/\p{Cc}/gu, '').slice(0, 120) : '';
    const partners = await accounts.searchPartners(q, RESULTS);
    return kit.page(reply, 'partners', { title: 'Partners', q, partners });
  });

  app.get<Params>('/console/partners/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return partnerPage(reply, current, request.params.id);
  });

  app.post<Params>('/console/partners/:id/status', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { status: { max: 10, label: 'Status' } }, current);
    if (f.status !== 'active' && f.status !== 'suspended') throw new WebRefusal(400, 'The status must be active or suspended.');
    return change(request, reply, current, { status: f.status }, f.status === 'suspended' ? 'Suspended: its keys are refused until it is reactivated.' : 'Reactivated.');
  });

  app.post<Params>('/console/partners/:id/credit-limit', async (request, reply) => {
    const current = await kit.operator(request, reply, FINANCE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { credit_limit_ghs: { max: 20, label: 'Credit limit' } }, current);
    const text = f.credit_limit_ghs.trim();
    const amount = /^\d{1,9}(\.\d{1,2})?$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isNaN(amount)) return partnerPage(reply, current, request.params.id, { error: 'The credit limit must be an amount in cedis, zero or more, with at most two decimals (e.g. 500 or 1250.50).' }, 400);
    return change(request, reply, current, { credit_limit_ghs: amount }, `Credit limit set to GH₵ ${amount.toFixed(2)}.`);
  });

  app.post<Params>('/console/partners/:id/rate-limits', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { reads_per_minute: { max: 10, label: 'Reads per minute' }, writes_per_minute: { max: 10, label: 'Writes per minute' } }, current);
    const reads = f.reads_per_minute.trim();
    const writes = f.writes_per_minute.trim();
    // Both empty: back to the platform's defaults (null), as on the operator API.
    if (reads === '' && writes === '') return change(request, reply, current, { rate_limits: null }, 'Rate limits back to the platform defaults.');
    const count = (text: string) => (/^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= 1_000_000 ? Number(text) : undefined);
    const r = count(reads);
    const w = count(writes);
    if (r === undefined || w === undefined) {
      return partnerPage(reply, current, request.params.id, { error: 'Rate limits are whole numbers of requests per minute from 1 to 1,000,000, both given (or both empty for the defaults).' }, 400);
    }
    return change(request, reply, current, { rate_limits: { reads_per_minute: r, writes_per_minute: w } }, `Rate limits set to ${r} reads and ${w} writes per minute.`);
  });
}
