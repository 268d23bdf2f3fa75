import { Type, type TProperties } from '@sinclair/typebox';
import { MULTILINE } from './input-rules.ts';

/** An object schema that refuses unknown properties (design: Response shapes; on every request body). */
export const strictObject = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

export const NonEmptyString = (maxLength = 200) => Type.String({ minLength: 1, maxLength });

/** Free text (notes, instructions, descriptions): may hold tabs and line breaks, unlike other strings. */
export const FreeText = (maxLength: number, description?: string) =>
  Type.String({ maxLength, [MULTILINE]: true, ...(description ? { description } : {}) });

export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' });

export const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });

/** A string enum that validates (and documents) as `enum`, so errors list the allowed values. */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });

/** A point as partners send it (`coordinates: {lat, lng}`), the canonical form on every request body. */
export const Coordinates = strictObject(
  {
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
  },
  'WGS84 decimal degrees; both members are required when the object is present',
);
