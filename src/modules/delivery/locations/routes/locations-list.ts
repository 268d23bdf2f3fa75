import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { DeliverySuccess, LatLngOut } from '../../../../platform/http/openapi-shapes.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { LocationsService } from '../service.ts';

const Filter = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: `${what}; case-insensitive exact match, echoed back as given`,
    }),
  );

/** The 200 body, for the reference and the docs tests. */
const LocationsResponse = DeliverySuccess(
  Type.Object({
    locations: Type.Array(
      Type.Object({
        id: Type.String({ description: 'Use as delivery.location_id or pickup.location_id' }),
        name: Type.String(),
        region: Type.Optional(Type.String()),
        zone: Type.Optional(Type.String()),
        coordinates: Type.Optional(LatLngOut),
      }),
    ),
    total: Type.Integer({ minimum: 0 }),
    filters: Type.Object({
      region: Type.Union([Type.String(), Type.Null()]),
      zone: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
);

const LOCATIONS_EXAMPLES = [
  {
    name: 'region',
    summary: 'Areas of one region, with coordinates',
    request: { region: 'Greater Accra', include_coordinates: true },
    response: {
      status: 'success',
      message: '2 delivery locations found.',
      data: {
        locations: [
          {
            id: 'loc_accra_central',
            name: 'Accra Central',
            region: 'Greater Accra',
            zone: 'Accra Metro',
            coordinates: { lat: 5.549, lng: -0.205 },
          },
          {
            id: 'loc_accra_jamestown',
            name: 'Jamestown',
            region: 'Greater Accra',
            zone: 'Accra Metro',
            coordinates: { lat: 5.533, lng: -0.212 },
          },
        ],
        total: 2,
        filters: { region: 'Greater Accra', zone: null },
      },
    },
  },
];

export const locationsList = (locations: LocationsService) =>
  defineOperation({
    id: 'delivery.locations.list',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/locations.list',
    summary: 'List supported delivery areas: the curated major zones plus areas operators added',
    scope: 'delivery:read',
    access: 'read',
    body: strictObject({
      region: Filter('Region name, e.g. "Greater Accra"'),
      zone: Filter('Zone name, e.g. "Accra Metro"'),
      include_coordinates: Type.Optional(
        Type.Boolean({
          description: 'Add {lat, lng} to each location that has them (default false)',
        }),
      ),
    }),
    response: LocationsResponse,
    examples: LOCATIONS_EXAMPLES,
    handler: async ({ body }) => {
      const data = await locations.list({
        region: body.region,
        zone: body.zone,
        includeCoordinates: body.include_coordinates,
      });
      const message = `${data.total} delivery location${data.total === 1 ? '' : 's'} found.`;
      return { body: { status: 'success', message, data } };
    },
  });
