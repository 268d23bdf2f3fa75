import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { courierView, VEHICLES, type Courier } from '../../modules/couriers/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, unlessMissing, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const COURIER_ID = /^cou_[0-9A-Z]{26}$/;
type Params = { Params: { id: string } };
const FIELDS = { name: { max: 120, label: 'Name' }, phone: { max: 20, label: 'Phone' }, vehicle: { max: 10, label: 'Vehicle' }, zones: { max: 1300, label: 'Zones' } } as const;

const has = (current: OperatorCurrent, roles: readonly string[]) => current.operator.roles.some((r) => roles.includes(r));
const zonesOf = (text: string) => text.split(',').map((z) => z.trim()).filter(Boolean);

/** Couriers: list and search, create, a courier's page with its edit form, deactivate and reactivate; every change audited. */
export function registerConsoleCourierRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { audit } = kit.deps;
  const { service: couriers, endSessions } = kit.deps.couriers;

  async function find(id: string): Promise<Courier> {
    const courier = COURIER_ID.test(id) ? await unlessMissing(couriers.get(id)) : undefined;
    if (!courier) throw new WebRefusal(404, 'There is no such courier.');
    return courier;
  }

  async function listPage(request: FastifyRequest<{ Querystring: { q?: string; active?: string } }>, reply: FastifyReply, current: OperatorCurrent, extra: Record<string, unknown> = {}, status = 200) {
    const q = typeof request.query.q === 'string' ? request.query.q.replace(/\p{Cc}/gu, '').slice(0, 120) : '';
    const active = request.query.active === 'yes' ? true : request.query.active === 'no' ? false : undefined;
    const list = await couriers.list({ search: q || undefined, active });
    return kit.page(reply, 'couriers', { title: 'Couriers', q, active: request.query.active ?? '', couriers: list, vehicles: VEHICLES, canChange: has(current, CHANGE_ROLES), values: {}, ...extra }, status);
  }

  function courierPage(reply: FastifyReply, current: OperatorCurrent, courier: Courier, extra: Record<string, unknown> = {}, status = 200) {
    return kit.page(reply, 'courier', { title: courier.name, courier, vehicles: VEHICLES, canChange: has(current, CHANGE_ROLES), ...extra }, status);
  }

  app.get<{ Querystring: { q?: string; active?: string } }>('/console/couriers', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return listPage(request, reply, current);
  });

  app.post<{ Querystring: { q?: string; active?: string } }>('/console/couriers', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, FIELDS, current);
    try {
      const courier = await couriers.create({ name: f.name, phone: f.phone, vehicle: f.vehicle, zones: zonesOf(f.zones) });
      await audit.record({ actor: kit.actor(current), action: 'courier.create', target: { type: 'courier', id: courier.id }, before: null, after: courierView(courier), origin: kit.origin(request) });
      return kit.redirect(reply, `/console/couriers/${courier.id}`);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return listPage(request, reply, current, { error: err.message, values: f }, err.statusCode);
    }
  });

  app.get<Params>('/console/couriers/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return courierPage(reply, current, await find(request.params.id));
  });

  /** Applies a change and writes it to the audit log as the operator's, before and after. */
  async function change(request: FastifyRequest<Params>, reply: FastifyReply, current: OperatorCurrent, patch: Parameters<typeof couriers.update>[1], notice: string) {
    const before = await find(request.params.id);
    let after: Courier;
    try {
      after = await couriers.update(before.id, patch);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return courierPage(reply, current, before, { error: err.message }, err.statusCode);
    }
    if (patch.active === false) await endSessions(after.id);
    await audit.record({ actor: kit.actor(current), action: 'courier.update', target: { type: 'courier', id: after.id }, before: courierView(before), after: courierView(after), origin: kit.origin(request) });
    return courierPage(reply, current, after, { notice });
  }

  app.post<Params>('/console/couriers/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, FIELDS, current);
    return change(request, reply, current, { name: f.name, phone: f.phone, vehicle: f.vehicle, zones: zonesOf(f.zones) }, 'Saved.');
  });

  app.post<Params>('/console/couriers/:id/active', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { active: { max: 3, label: 'Active' } }, current);
    if (f.active !== 'yes' && f.active !== 'no') throw new WebRefusal(400, 'Active must be yes or no.');
    const active = f.active === 'yes';
    return change(request, reply, current, { active }, active ? 'Reactivated: they can sign in again.' : 'Deactivated: off duty and signed out of the courier app.');
  });
}
