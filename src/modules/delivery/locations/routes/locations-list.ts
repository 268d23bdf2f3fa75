import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../../platform/http/operation.ts';
import { strictObject } from '../../../../platform/http/schemas.ts';
import type { LocationsService } from '../service.ts';

const Filter = (what: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: `${what}; case-insensitive exact match, echoed back as given` }));

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
        Type.Boolean({ description: 'Add {lat, lng} to each location that has them (default false)' }),
      ),
    }),
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
