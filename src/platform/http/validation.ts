import { Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { addInputRules, formatIssue, withInputRules } from './input-rules.ts';
import type { ValidationIssue } from './operation.ts';
import { strictObject } from './schemas.ts';

const MAX_ISSUES = 20;

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are taken as sent (no coercion, nothing removed: unknown properties are refused);
  // query strings are text, so their numbers and booleans are coerced. Numbers must be finite
  // (JSON's 1e400 parses as Infinity).
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    strictNumbers: true,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  addInputRules(ajv);
  return ajv;
}

type Validate = ReturnType<Ajv['compile']>;
const compilers = { body: undefined as Ajv | undefined, query: undefined as Ajv | undefined };
const compiled = new Map<string, Validate>();

/**
 * A validator for a schema (with the input rules), compiled once per process: every app built in
 * it (tests build hundreds, a worker thread its own) shares the code Ajv made for the same schema,
 * which is most of what building an app costs. A compiled schema depends only on its JSON and on
 * whether values are coerced (the Ajv instances' options never change).
 */
function compile(schema: unknown, coerceTypes: boolean): Validate {
  const rules = withInputRules(schema) as object;
  const key = `${coerceTypes ? 'q' : 'b'}${JSON.stringify(rules)}`;
  let validate = compiled.get(key);
  if (!validate) {
    const ajv = coerceTypes
      ? (compilers.query ??= makeAjv(true))
      : (compilers.body ??= makeAjv(false));
    validate = ajv.compile(rules);
    compiled.set(key, validate);
  }
  return validate;
}

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => compile(schema, httpPart === 'querystring');
}

/** Every route's body, query and path parameters are validated by the same rules. */
export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler());
  // Path parameters are input too: a route that declares no schema for them (public pages) gets
  // plain strings, so the input rules still apply.
  app.addHook('onRoute', (route) => {
    const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    if (names.length === 0 || route.schema?.params) return;
    route.schema = {
      ...route.schema,
      params: strictObject(Object.fromEntries(names.map((name) => [name, Type.String()]))),
    };
  });
}

function joinPath(base: string, prop: string): string {
  return base ? `${base}.${prop}` : prop;
}

function issueOf(e: ErrorObject): ValidationIssue {
  const base = e.instancePath.slice(1).split('/').filter(Boolean).join('.');
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return {
        field: joinPath(base, String(params.missingProperty)),
        issue: 'is required',
        keyword: e.keyword,
      };
    case 'additionalProperties':
      return {
        field: joinPath(base, String(params.additionalProperty)),
        issue: 'is not an accepted property',
        keyword: e.keyword,
      };
    case 'type':
      return {
        field: base || '(body)',
        issue: `must be ${String(params.type).replace(',', ' or ')}`,
        keyword: e.keyword,
      };
    case 'enum':
      return {
        field: base,
        issue: `must be one of ${(params.allowedValues as unknown[]).join(', ')}`,
        keyword: e.keyword,
      };
    case 'format':
      return { field: base, issue: formatIssue(String(params.format)), keyword: e.keyword };
    default:
      return { field: base || '(body)', issue: e.message ?? 'is invalid', keyword: e.keyword };
  }
}

/** The outermost union (anyOf/oneOf) an error sits in, and which of its alternatives. */
function alternativeOf(e: ErrorObject): [string, string] | undefined {
  const m = /^(.*?\/(?:anyOf|oneOf))\/(\d+)\//.exec(e.schemaPath);
  return m ? [m[1]!, m[2]!] : undefined;
}

/**
 * For a union, only the alternatives that came closest (fewest errors) are reported: for
 * `{order_reference: "a\u0000"}` against "order_id or order_reference", the control character,
 * not "order_id is required".
 */
function closestAlternatives(errs: readonly ErrorObject[]): ErrorObject[] {
  const counts = new Map<string, Map<string, number>>();
  for (const e of errs) {
    const alt = alternativeOf(e);
    if (!alt) continue;
    const perUnion = counts.get(alt[0]) ?? new Map<string, number>();
    perUnion.set(alt[1], (perUnion.get(alt[1]) ?? 0) + 1);
    counts.set(alt[0], perUnion);
  }
  return errs.filter((e) => {
    const alt = alternativeOf(e);
    if (!alt) return true;
    const perUnion = counts.get(alt[0])!;
    return perUnion.get(alt[1]) === Math.min(...perUnion.values());
  });
}

/** Ajv errors as partner-facing details: one per field, the first issue of each. */
export function toIssues(errs: readonly ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of closestAlternatives(errs)) {
    // anyOf/oneOf summaries repeat what their branches said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const issue = issueOf(e);
    if (seen.has(issue.field)) continue;
    seen.add(issue.field);
    issues.push(issue);
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}

export function summarize(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'The request is invalid.';
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})`
      : '';
  return `${first.field} ${first.issue}${more}.`;
}

/** A body validator outside a route (bulk items), with the same rules as route bodies. */
export function compileBodyValidator(schema: object): (value: unknown) => ValidationIssue[] {
  const validate = compile(schema, false);
  return (value) => (validate(value) ? [] : toIssues(validate.errors ?? []));
}
