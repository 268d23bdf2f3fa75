import fc from 'fast-check';
import { rfc3986Encode } from '@partner-platform/sdk';
import { sampleOf, toJsonSchema, type JsonSchema } from '../../src/platform/http/openapi-schema.ts';
import type { Operation } from '../../src/platform/http/operation.ts';

/**
 * Hostile values for every field of every operation, found from the operation's own schemas, so
 * a field added later is fuzzed without anyone listing it.
 */

type Key = string | number;
type FieldKind = 'text' | 'date' | 'date-time' | 'number';

export interface Field {
  where: 'body' | 'query';
  path: Key[];
  kind: FieldKind;
  multiline: boolean;
  /** For each step of the path, a valid value to start from when the base request lacks it. */
  fill: unknown[];
}

export interface Shape {
  where: 'body' | 'query';
  /** A request that passes validation; one field at a time is then made hostile. */
  base: Record<string, unknown>;
  fields: Field[];
}

function leaves(schema: JsonSchema, where: Field['where'], path: Key[], fill: unknown[]): Field[] {
  const branch = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.find(
    (b) => b.type !== 'null',
  );
  if (branch) return leaves(branch, where, path, fill);
  const type = [schema.type].flat()[0];
  if (type === 'object') {
    return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap(
      ([name, sub]) => leaves(sub, where, [...path, name], [...fill, sampleOf(sub)]),
    );
  }
  if (type === 'array')
    return leaves(
      schema.items as JsonSchema,
      where,
      [...path, 0],
      [...fill, sampleOf(schema.items as JsonSchema)],
    );
  if (type === 'number' || type === 'integer')
    return [{ where, path, kind: 'number', multiline: false, fill }];
  if (type !== 'string') return [];
  const kind = schema.format === 'date' || schema.format === 'date-time' ? schema.format : 'text';
  return [{ where, path, kind, multiline: schema['x-multiline'] === true, fill }];
}

/** The request shapes of an operation: its body (one per alternative of a union body) and its query. */
export function shapesOf(op: Operation): Shape[] {
  const shapes: Shape[] = [];
  const bodySchema = op.body ?? op.documentedBody;
  if (bodySchema) {
    const json = toJsonSchema(bodySchema);
    const roots = (json.anyOf as JsonSchema[] | undefined) ?? [json];
    const example = roots.length === 1 ? op.examples?.find((e) => e.request)?.request : undefined;
    for (const root of roots) {
      shapes.push({
        where: 'body',
        base: (example ?? sampleOf(root)) as Record<string, unknown>,
        fields: leaves(root, 'body', [], []),
      });
    }
  }
  if (op.querystring) {
    const json = toJsonSchema(op.querystring);
    const base =
      op.examples?.find((e) => e.query)?.query ?? (sampleOf(json) as Record<string, unknown>);
    shapes.push({ where: 'query', base, fields: leaves(json, 'query', [], []) });
  }
  return shapes;
}

/** The base request with one field set to `value`, filling in the objects and arrays on the way. */
function withField(
  base: Record<string, unknown>,
  field: Field,
  value: unknown,
): Record<string, unknown> {
  const out = structuredClone(base);
  let node = out as Record<Key, unknown>;
  field.path.forEach((key, i) => {
    if (i === field.path.length - 1) {
      node[key] = value;
      return;
    }
    if (node[key] === null || typeof node[key] !== 'object')
      node[key] = structuredClone(field.fill[i]);
    node = node[key] as Record<Key, unknown>;
  });
  return out;
}

export const dotted = (path: readonly Key[]) => path.join('.');

/** Control characters (C0, DEL, C1) and lone surrogates; tab and line breaks only where text is one line. */
const forbiddenChar = (multiline: boolean) =>
  fc
    .oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.integer({ min: 0x7f, max: 0x9f }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    )
    .filter((c) => !(multiline && (c === 0x09 || c === 0x0a || c === 0x0d)))
    .map((c) => String.fromCharCode(c));

const hostileText = (multiline: boolean) =>
  fc
    .tuple(fc.string({ maxLength: 12 }), forbiddenChar(multiline), fc.string({ maxLength: 12 }))
    .map(([a, c, b]) => a + c + b);

/** Well-formed but impossible or out-of-range dates (the accepted range is 2000-01-01 to 2100-12-31). */
const EXTREME_DATES = [
  '0000-01-01',
  '9999-12-31',
  '2024-02-30',
  '2023-02-29',
  '1999-12-31',
  '2101-01-01',
  '2024-13-01',
  '2024-00-10',
  '+275760-09-13',
];
const time = (date: string) => `${date}T00:00:00Z`;

const hostileDate = (kind: 'date' | 'date-time') => {
  const outOfRange = fc
    .integer({ min: 0, max: 9999 })
    .filter((y) => y < 2000 || y > 2100)
    .map((y) => `${String(y).padStart(4, '0')}-06-15`);
  return fc
    .oneof(fc.constantFrom(...EXTREME_DATES), outOfRange)
    .map((d) => (kind === 'date' ? d : time(d)));
};

/** JSON number texts at the edges: huge, tiny, negative zero, beyond double range (parsed as Infinity), long decimals. */
const EXTREME_NUMBERS = [
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '-0',
  '5e-324',
  '1.7976931348623157e308',
  '9007199254740993',
  '123456789012345678901234567890',
  '0.1000000000000000055511151231257827',
  '3.14159265358979323846264338327950288',
];

const hostileNumber = fc.oneof(
  fc.constantFrom(...EXTREME_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);

/** Values every field must be tried with, whatever the random runs pick. */
export function mustTry(field: Field): string[] {
  switch (field.kind) {
    case 'text':
      return [
        '\u0000',
        'a\u0000b',
        '\u001f',
        '\u007f',
        '\u0085',
        'x\ud800',
        '\udc00',
        ...(field.multiline ? [] : ['a\nb']),
      ];
    case 'number':
      return ['1e308', '-0', '1e400', '123456789012345678901234567890'];
    default:
      return ['0000-01-01', '9999-12-31', '2024-02-30'].map((d) =>
        field.kind === 'date' ? d : time(d),
      );
  }
}

/** Percent-encoding as the SDK signs it; a lone surrogate has no UTF-8 form, so it goes as its WTF-8 bytes. */
function encodeQueryValue(value: string): string {
  return value
    .split(/(\p{Cs})/u)
    .map((part) => {
      if (!/^\p{Cs}$/u.test(part)) return rfc3986Encode(part);
      const u = part.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}

const NUMBER_MARKER = '__hostile_number__';

/** The request to send: a raw JSON body (numbers written as the literal text) or a raw query string. */
export function requestFor(
  shape: Shape,
  field: Field,
  value: string,
): { rawBody?: string; query?: string } {
  const isNumber = field.kind === 'number';
  const filled = withField(
    shape.base,
    field,
    isNumber && shape.where === 'body' ? NUMBER_MARKER : value,
  );
  if (shape.where === 'body') {
    const raw = JSON.stringify(filled);
    return { rawBody: isNumber ? raw.replace(`"${NUMBER_MARKER}"`, value) : raw };
  }
  return {
    query: Object.entries(filled)
      .map(([name, v]) => `${rfc3986Encode(name)}=${encodeQueryValue(String(v))}`)
      .join('&'),
  };
}

/** Whether the server must refuse the value: all text and dates, except surrogates, which a query string cannot carry. */
export const mustRefuse = (shape: Shape, field: Field, value: string) =>
  field.kind !== 'number' && !(shape.where === 'query' && /\p{Cs}/u.test(value));

export const hostileValue = (field: Field) =>
  field.kind === 'number'
    ? hostileNumber
    : field.kind === 'text'
      ? hostileText(field.multiline)
      : hostileDate(field.kind);
