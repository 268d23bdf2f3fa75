import type { TSchema } from '@sinclair/typebox';
import { MULTILINE } from './input-rules.ts';

export type JsonSchema = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema 2020-12 (what OpenAPI 3.1 uses). TypeBox schemas already are
 * JSON Schema; the copy drops TypeBox's symbol keys (Kind, Optional) and any `$id`/`$schema`, which
 * would re-base `$ref`s inside the OpenAPI document.
 */
export function toJsonSchema(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { $id: _id, $schema: _s, ...rest } = value as JsonSchema;
      return rest;
    }
    return value;
  }) as JsonSchema;
}

const SAMPLE_TIME = '2025-11-21T09:30:00.000Z';

/** Candidates tried, in order, for a string with a pattern and no example (first match wins). */
const STRING_CANDIDATES = [
  'example',
  'example_1',
  '2025-11-21',
  SAMPLE_TIME,
  'https://example.com/hook',
  '0241234567',
  'abc',
];

function sampleString(s: JsonSchema): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const byFormat: Record<string, string> = {
    'date-time': SAMPLE_TIME,
    date: '2025-11-21',
    uri: 'https://example.com/hook',
    email: 'ops@example.com',
    uuid: '6f1c2a9e-4b7d-4e3a-9c51-0d2f8e7a1b3c',
  };
  const formatted = typeof s.format === 'string' ? byFormat[s.format] : undefined;
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  const fits = (v: string) => v.length >= min && v.length <= max && (!pattern || pattern.test(v));
  const padded = (v: string) => (v.length < min ? v + 'x'.repeat(min - v.length) : v);
  for (const candidate of [formatted, ...STRING_CANDIDATES].filter(
    (v): v is string => v !== undefined,
  )) {
    if (fits(padded(candidate))) return padded(candidate);
  }
  // No candidate fits: the docs test reports the example as invalid, asking for a hand-written one.
  return padded('example');
}

function sampleNumber(s: JsonSchema, integer: boolean): number {
  let n =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum + 1
        : 1;
  if (typeof s.maximum === 'number' && n > s.maximum) n = s.maximum;
  return integer ? Math.ceil(n) : n;
}

/**
 * A value that validates against a JSON schema, for operations without hand-written examples:
 * declared examples, defaults and enums first, then the smallest value each keyword allows. Objects
 * get their required properties only (a minimal request is the one a partner copies first).
 */
export function sampleOf(schema: JsonSchema, depth = 0): unknown {
  if (depth > 12) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches?.length)
      return sampleOf(branches.find((b) => b.type !== 'null') ?? branches[0]!, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign(
      {},
      ...schema.allOf.map((s) => sampleOf(s as JsonSchema, depth + 1) as object),
    );
  }
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== 'null') as string)
    : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return sampleString(schema);
    case 'number':
      return sampleNumber(schema, false);
    case 'integer':
      return sampleNumber(schema, true);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return Array.from({ length: count }, () =>
        sampleOf((schema.items as JsonSchema) ?? {}, depth + 1),
      );
    }
    default: {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return Object.fromEntries(
        Object.entries(props)
          .filter(([k]) => required.has(k))
          .map(([k, v]) => [k, sampleOf(v, depth + 1)]),
      );
    }
  }
}

/** One row of a fields table: a flattened property of a schema. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

function typeLabel(s: JsonSchema): string {
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) return branches.map(typeLabel).join(' or ');
  if (s.$ref) return String(s.$ref).split('/').at(-1)!;
  const type = Array.isArray(s.type) ? s.type.join(' or ') : String(s.type ?? 'any');
  if (type === 'array') return `array of ${typeLabel((s.items as JsonSchema) ?? {})}`;
  return typeof s.format === 'string' ? `${type} (${s.format})` : type;
}

function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  const say = (key: string, label: string) =>
    s[key] !== undefined && out.push(`${label} ${JSON.stringify(s[key])}`);
  say('minLength', 'min length');
  say('maxLength', 'max length');
  say('minimum', 'min');
  say('exclusiveMinimum', 'greater than');
  say('maximum', 'max');
  say('minItems', 'min items');
  say('maxItems', 'max items');
  if (typeof s.pattern === 'string') out.push(`pattern \`${s.pattern}\``);
  if (s[MULTILINE] === true) out.push('tabs and line breaks allowed');
  say('default', 'default');
  return out;
}

/** Flattens an object schema into dotted rows (`customer.phone`, `items[].quantity`) for the reference page. */
export function fieldRows(schema: JsonSchema, prefix = '', depth = 0): FieldRow[] {
  // A body that is one of several object shapes (e.g. by order_id or by order_reference): list each.
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!schema.properties && alternatives && depth < 6) {
    return alternatives.flatMap((alt, i) =>
      fieldRows(alt, prefix, depth + 1).map((r) => ({
        ...r,
        description: [`alternative ${i + 1} of ${alternatives.length}`, r.description]
          .filter(Boolean)
          .join('; '),
      })),
    );
  }
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows: FieldRow[] = [];
  for (const [key, raw] of Object.entries(props)) {
    const name = prefix ? `${prefix}.${key}` : key;
    // A nullable object (anyOf [object, null]) documents its members like a plain object.
    const branches = (raw.anyOf ?? raw.oneOf) as JsonSchema[] | undefined;
    const inner = branches?.find((b) => b.type === 'object') ?? raw;
    const description = [raw.description ?? inner.description, ...constraints(raw)]
      .filter(Boolean)
      .join('; ');
    rows.push({
      name,
      type: typeLabel(raw),
      required: required.has(key),
      description: String(description),
    });
    if (depth > 6) continue;
    if (inner.type === 'object') rows.push(...fieldRows(inner, name, depth + 1));
    const items = inner.items as JsonSchema | undefined;
    if (inner.type === 'array' && items?.type === 'object')
      rows.push(...fieldRows(items, `${name}[]`, depth + 1));
  }
  return rows;
}
