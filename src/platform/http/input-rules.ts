import type { Ajv, SchemaValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * Rules every request value follows whatever its field, applied where schemas are compiled so a
 * new field is covered without saying so. Such values would otherwise reach the database (which
 * refuses NUL and cannot store unpaired surrogates) or date arithmetic (which overflows).
 */

/**
 * Schema keyword of the text rule. Free-text fields declare `'x-multiline': true` (tab, line feed
 * and carriage return allowed); every other string gets `false` at compile time.
 */
export const MULTILINE = 'x-multiline';

/** Any control character (C0, DEL, C1) or unpaired surrogate; the `u` flag keeps pairs whole. */
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;
const FORBIDDEN_IN_MULTILINE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

/** Why a string breaks the text rule, or undefined when it does not. */
function textProblem(value: string, multiline: boolean): string | undefined {
  const found = (multiline ? FORBIDDEN_IN_MULTILINE : FORBIDDEN).exec(value)?.[0];
  if (found === undefined) return undefined;
  const code = `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\p{Cs}/u.test(found)) return `must not contain an unpaired surrogate (found ${code})`;
  return multiline
    ? `must not contain control characters other than tab and line breaks (found ${code})`
    : `must not contain control characters (found ${code})`;
}

/** Dates (and the date part of date-times) a request may carry: wide, and far from overflow. */
export const DATE_RANGE = { min: '2000-01-01', max: '2100-12-31' } as const;

const inDateRange = (value: string) =>
  value.slice(0, 10) >= DATE_RANGE.min && value.slice(0, 10) <= DATE_RANGE.max;

const FORMAT_ISSUES: Record<string, string> = {
  date: `must be a real date from ${DATE_RANGE.min} to ${DATE_RANGE.max}, written YYYY-MM-DD`,
  'date-time': `must be an RFC 3339 date-time with a time zone, from ${DATE_RANGE.min} to ${DATE_RANGE.max}`,
};

export const formatIssue = (format: string): string =>
  FORMAT_ISSUES[format] ?? `must be a valid ${format}`;

/** The text keyword and range-checked date formats, on an Ajv instance that has ajv-formats. */
export function addInputRules(ajv: Ajv): void {
  const text: SchemaValidateFunction = (multiline: boolean, data: string) => {
    const issue = textProblem(data, multiline);
    text.errors = issue ? [{ keyword: MULTILINE, message: issue, params: {} }] : [];
    return issue === undefined;
  };
  ajv.addKeyword({
    keyword: MULTILINE,
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: text,
  });
  for (const name of ['date', 'date-time'] as const) {
    const base = fullFormats[name] as {
      validate: (s: string) => boolean;
      compare: (a: string, b: string) => number | undefined;
    };
    ajv.addFormat(name, {
      type: 'string',
      validate: (s: string) => base.validate(s) && inDateRange(s),
      compare: base.compare,
    });
  }
}

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set([
  '$defs',
  'definitions',
  'dependentSchemas',
  'patternProperties',
  'properties',
]);

/** A copy of a schema in which every string schema carries the text keyword (default: one line). */
export function withInputRules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withInputRules);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, withInputRules(sub)]),
      );
    } else out[key] = withInputRules(value);
  }
  if ([out.type].flat().includes('string') && !(MULTILINE in out)) out[MULTILINE] = false;
  return out;
}
