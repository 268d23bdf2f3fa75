import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../../platform/http/admin.ts';
import { NonEmptyString, strictObject } from '../../../../platform/http/schemas.ts';
import type { LocationsService } from '../service.ts';

const Coordinates = strictObject({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});

export const locationAdminRoutes = (locations: LocationsService) => [
  defineAdminRoute({
    method: 'POST',
    url: '/locations',
    audit: { action: 'location.create' },
    summary: 'Add a live delivery area; every instance lists it within seconds',
    body: strictObject({
      name: NonEmptyString(),
      // One of the 16 regions, any case; checked by the service, whose message lists them.
      region: NonEmptyString(100),
      zone: NonEmptyString(),
      // Inside Ghana (checked by the service); without them the area is listed but never matched to a point.
      coordinates: Type.Optional(Coordinates),
    }),
    handler: async ({ body }) => ({ statusCode: 201, body: await locations.create(body) }),
  }),
  defineAdminRoute({
    method: 'GET',
    url: '/locations',
    summary: 'List every delivery area (curated and live) with coordinates',
    querystring: strictObject({
      region: Type.Optional(NonEmptyString(100)),
      zone: Type.Optional(NonEmptyString()),
    }),
    handler: async ({ query }) => ({
      body: await locations.list({
        region: query.region,
        zone: query.zone,
        includeCoordinates: true,
      }),
    }),
  }),
];
