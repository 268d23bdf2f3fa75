import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { courierView, VEHICLES, type Courier } from '../../modules/couriers/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  unlessMissing,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

type Params = { Params: { id: string } };
const FIELDS = {
  name: { max: 120, label: 'Name' },
  phone: { max: 20, label: 'Phone' },
  vehicle: { max: 10, label: 'Vehicle' },
  zones: { max: 1300, label: 'Zones' },
} as const;

const zonesOf = (text: string) =>
  text
    .split(',')
    .map((z) => z.trim())
    .filter(Boolean);

/** Couriers: list and search, create, a courier's page with its edit form, deactivate and reactivate; every change audited. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleCourierRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { service: couriers, endSessions } = kit.deps.couriers;

  async function find(id: string): Promise<Courier> {
    const courier = await unlessMissing(couriers.get(id));
    if (!courier) throw new WebRefusal(404, 'There is no such courier.');
    return courier;
  }

  async function listPage(
    request: FastifyRequest<{ Querystring: { q?: string; active?: string } }>,
    reply: FastifyReply,
    current: OperatorCurrent,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const q =
      typeof request.query.q === 'string'
        ? request.query.q.replace(/\p{Cc}/gu, '').slice(0, 120)
        : '';
    const active =
      request.query.active === 'yes' ? true : request.query.active === 'no' ? false : undefined;
    const list = await couriers.list({ search: q || undefined, active });
    return kit.page(
      reply,
      'couriers',
      {
        title: 'Couriers',
        q,
        active: request.query.active ?? '',
        couriers: list,
        vehicles: VEHICLES,
        canChange: holds(current, CHANGE_ROLES),
        values: {},
        ...extra,
      },
      status,
    );
  }

  function courierPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    courier: Courier,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    return kit.page(
      reply,
      'courier',
      {
        title: courier.name,
        courier,
        vehicles: VEHICLES,
        canChange: holds(current, CHANGE_ROLES),
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/couriers', need: ALL_ROLES },
    async ({ request, reply, actor: current }) => {
      return listPage(request, reply, current);
    },
  );

  definePage(
    app,
    kit,
    { method: 'POST', path: '/console/couriers', need: CHANGE_ROLES, form: FIELDS },
    async ({ request, reply, actor: current, form: f }) => {
      try {
        const courier = await couriers.create({
          name: f.name,
          phone: f.phone,
          vehicle: f.vehicle,
          zones: zonesOf(f.zones),
        });
        await kit.audit(request, current, {
          action: 'courier.create',
          target: { type: 'courier', id: courier.id },
          after: courierView(courier),
        });
        return kit.redirect(reply, `/console/couriers/${courier.id}`);
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return listPage(request, reply, current, { error: err.message, values: f }, err.statusCode);
      }
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/couriers/:id',
      params: { id: idParam('cou', 'There is no such courier.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return courierPage(reply, current, await find(request.params.id));
    },
  );

  /** Applies a change and writes it to the audit log as the operator's, before and after. */
  async function change(
    request: FastifyRequest<Params>,
    reply: FastifyReply,
    current: OperatorCurrent,
    patch: Parameters<typeof couriers.update>[1],
    notice: string,
  ) {
    const before = await find(request.params.id);
    let after: Courier;
    try {
      after = await couriers.update(before.id, patch);
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return courierPage(reply, current, before, { error: err.message }, err.statusCode);
    }
    if (patch.active === false) await endSessions(after.id);
    await kit.audit(request, current, {
      action: 'courier.update',
      target: { type: 'courier', id: after.id },
      before: courierView(before),
      after: courierView(after),
    });
    return courierPage(reply, current, after, { notice });
  }

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/couriers/:id',
      params: { id: idParam('cou', 'There is no such courier.') },
      need: CHANGE_ROLES,
      form: FIELDS,
    },
    async ({ request, reply, actor: current, form: f }) => {
      return change(
        request,
        reply,
        current,
        { name: f.name, phone: f.phone, vehicle: f.vehicle, zones: zonesOf(f.zones) },
        'Saved.',
      );
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/couriers/:id/active',
      params: { id: idParam('cou', 'There is no such courier.') },
      need: CHANGE_ROLES,
      form: { active: { max: 3, label: 'Active' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (f.active !== 'yes' && f.active !== 'no')
        throw new WebRefusal(400, 'Active must be yes or no.');
      const active = f.active === 'yes';
      return change(
        request,
        reply,
        current,
        { active },
        active
          ? 'Reactivated: they can sign in again.'
          : 'Deactivated: off duty and signed out of the courier app.',
      );
    },
  );
}
