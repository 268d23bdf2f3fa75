import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks for operations' documented `response` schemas (design: Response shapes). Responses are
 * documented open (no additionalProperties: false): v1 may add response fields; the docs tests
 * close them to prove every field the server sends today is documented.
 */

const Message = Type.String({ description: 'One plain sentence' });

/** Delivery success body: `{status: "success", message, data}`. */
export const DeliverySuccess = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Literal('success'), message: Message, data });

/** Safe-catalog success body: `{status: "success", data}`. */
export const SafeSuccess = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Literal('success'), data });

/** Both health operations answer `{status: "ok"}`. */
export const HealthOk = Type.Object({ status: Type.Literal('ok') });

export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const IsoDate = (description?: string) =>
  Type.String({ format: 'date', ...(description ? { description } : {}) });

/** An amount in GHS: a number with at most two decimals (pesewas are storage). */
export const Ghs = (description: string) => Type.Number({ description });

/**
 * An amount documented twice, as `<name>_pesewas` (integer) and its `<name>_ghs` twin (what
 * `withGhs` adds), with one description; `nullable` when it may be unknown (null in both).
 */
export function PesewasAndGhs<N extends string>(name: N, description: string, nullable = false) {
  const orNull = <T extends TSchema>(t: T) =>
    nullable ? Type.Union([t, Type.Null()], { description: t.description }) : t;
  return {
    [`${name}_pesewas`]: orNull(Type.Integer({ description: `${description} (integer pesewas)` })),
    [`${name}_ghs`]: orNull(Ghs(`${description} (GHS, the same amount)`)),
  } as unknown as Record<`${N}_pesewas` | `${N}_ghs`, TSchema>;
}

export const LatLngOut = Type.Object(
  { lat: Type.Number(), lng: Type.Number() },
  { description: 'WGS84 decimal degrees' },
);

export const HEALTH_EXAMPLES = [
  { name: 'ok', summary: 'The service and its database answer', response: { status: 'ok' } },
] as const;
