import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, NonEmptyString, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import { MAX_ZONES, VEHICLES } from '../domain/courier.ts';
import type { CourierRow } from '../repository.ts';
import { COURIERS_PAGE, type CouriersService } from '../service.ts';

export function courierView(c: CourierRow) {
  return {
    courier_id: c.id,
    name: c.name,
    phone: c.phone,
    vehicle: c.vehicle,
    zones: c.zones,
    active: c.active,
    on_duty: c.on_duty,
    last_position:
      c.last_lat === null || c.last_lng === null
        ? null
        : { lat: c.last_lat, lng: c.last_lng, at: c.last_position_at?.toISOString() ?? null },
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

const Zones = Type.Array(NonEmptyString(64), { maxItems: MAX_ZONES });
const CourierParams = strictObject({ courier_id: Id });

export interface CourierRouteHooks {
  /** Told after a courier is deactivated: their sessions end (the app passes the session store in). */
  onDeactivated: (courierId: string) => Promise<void>;
}

/** Courier accounts: every role reads; support and admin create and change them (the defaults of rolesOf). */
export const courierRoutes = (couriers: CouriersService, hooks: CourierRouteHooks) => [
  defineAdminRoute({
    method: 'POST',
    url: '/couriers',
    summary: 'Create a courier account (they sign in to the courier app with this phone number)',
    body: strictObject({
      name: NonEmptyString(120),
      phone: NonEmptyString(20),
      vehicle: StringEnum(VEHICLES),
      zones: Type.Optional(Zones),
    }),
    audit: { action: 'courier.create' },
    handler: async ({ body }) => ({
      statusCode: 201,
      body: courierView(await couriers.create(body)),
    }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/couriers',
    summary: 'List couriers by id (search by name or phone, filter by active; page with `after`)',
    querystring: strictObject({
      q: Type.Optional(NonEmptyString(120)),
      active: Type.Optional(Type.Boolean()),
      after: Type.Optional(Id),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: COURIERS_PAGE })),
    }),
    handler: async ({ query }) => {
      const limit = query.limit ?? COURIERS_PAGE;
      const rows = await couriers.list({
        search: query.q,
        active: query.active,
        after: query.after,
        limit,
      });
      return {
        body: {
          couriers: rows.map(courierView),
          next_after: rows.length === limit ? rows.at(-1)!.id : null,
        },
      };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/couriers/:courier_id',
    summary: 'Get a courier account, with their duty and last position',
    params: CourierParams,
    handler: async ({ params }) => ({ body: courierView(await couriers.get(params.courier_id)) }),
  }),
  defineAdminRoute({
    method: 'PATCH',
    url: '/couriers/:courier_id',
    summary:
      'Change a courier (name, phone, vehicle, zones), deactivate them (off duty, signed out) or reactivate them',
    params: CourierParams,
    body: strictObject({
      name: Type.Optional(NonEmptyString(120)),
      phone: Type.Optional(NonEmptyString(20)),
      vehicle: Type.Optional(StringEnum(VEHICLES)),
      zones: Type.Optional(Zones),
      active: Type.Optional(Type.Boolean()),
    }),
    audit: {
      action: 'courier.update',
      before: async ({ params }) => courierView(await couriers.get(params.courier_id)),
    },
    handler: async ({ params, body }) => {
      const row = await couriers.update(params.courier_id, body);
      if (body.active === false) await hooks.onDeactivated(row.id);
      return { body: courierView(row) };
    },
  }),
];
