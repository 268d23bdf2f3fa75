import type { TSchema } from '@sinclair/typebox';
import type { Operation, OperationExample } from './operation.ts';
import {
  ERROR_DETAIL_SCHEMA,
  ERROR_SCHEMA,
  errorCodesByStatus,
  errorExample,
  hintOf,
  statusText,
} from './openapi-errors.ts';
import { sampleOf, toJsonSchema, type JsonSchema } from './openapi-schema.ts';
import { overview, signingRecipe, TAG_TEXT, type DocFacts } from './openapi-text.ts';
import { WEBHOOK_PARAMETERS, webhooksOf, type WebhookEventDocs } from './openapi-webhooks.ts';

/** An OpenAPI 3.1 document (kept loose: it is built here and only serialized). */
export type OpenApiDocument = Record<string, any>;

export interface DocOptions extends DocFacts {
  /** PUBLIC_BASE_URL: both services answer on it. */
  baseUrl: string;
}

type Examples = Record<string, { summary: string; value: unknown }>;

const GENERATED = 'Generated from the schema (required fields only)';

/** Named examples, or one generated from the schema when the operation has none of that kind. */
function examplesOf(
  given: readonly OperationExample[],
  pick: (e: OperationExample) => unknown,
  schema: JsonSchema | undefined,
): Examples | undefined {
  const named = given.filter((e) => pick(e) !== undefined);
  if (named.length > 0)
    return Object.fromEntries(named.map((e) => [e.name, { summary: e.summary, value: pick(e) }]));
  return schema ? { generated: { summary: GENERATED, value: sampleOf(schema) } } : undefined;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

export function jsonContent(
  schema: JsonSchema,
  examples?: Record<string, unknown>,
): Record<string, unknown> {
  return { 'application/json': { schema, ...(examples ? { examples } : {}) } };
}

/** Query (or path) parameters from an object schema: one parameter per property. */
export function parametersOf(
  schema: TSchema | undefined,
  where: 'query' | 'path',
  example?: Record<string, unknown>,
): JsonSchema[] {
  if (!schema) return [];
  const json = toJsonSchema(schema);
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, prop]) => {
      const { description, ...rest } = prop;
      return {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(example?.[name] !== undefined ? { example: example[name] } : {}),
      };
    },
  );
}

/**
 * One response per error status, its `code` an enum of exactly the codes that status can carry.
 * Each code's example is shared under components.examples (see errorExamples).
 */
export function errorResponses(
  byStatus: ReadonlyMap<number, readonly string[]>,
  headersOf: (status: number) => object,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, codes] of byStatus) {
    const schema =
      codes.length > 0
        ? {
            allOf: [
              ref('schemas', 'Error'),
              { type: 'object', properties: { code: { type: 'string', enum: codes } } },
            ],
          }
        : ref('schemas', 'Error');
    const examples = Object.fromEntries(codes.map((c) => [c, ref('examples', c)]));
    out[String(status)] = {
      description: `${statusText(status)}${codes.length ? `: ${codes.join(', ')}` : ''}`,
      headers: headersOf(status),
      content: jsonContent(schema, codes.length ? examples : undefined),
    };
  }
  return out;
}

/** components.examples: one error body per code the document's responses name. */
export function errorExamples(paths: Record<string, Record<string, any>>): Record<string, unknown> {
  const codes = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      for (const res of Object.values(op.responses as Record<string, any>)) {
        for (const code of Object.keys(res.content?.['application/json']?.examples ?? {}))
          if (/^[A-Z_]+$/.test(code)) codes.add(code);
      }
    }
  }
  return Object.fromEntries(
    [...codes].sort().map((c) => [c, { summary: hintOf(c), value: errorExample(c) }]),
  );
}

const rateHeaders = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};
const requestIdHeader = { 'X-Request-Id': ref('headers', 'X-Request-Id') };

/**
 * Answers given after the rate limit admitted the request (body, business errors) carry its headers;
 * key and signature failures (401) come before it and never do. A 429 always has Retry-After.
 */
function partnerErrorHeaders(status: number): object {
  if (status === 429)
    return {
      ...requestIdHeader,
      ...rateHeaders,
      'Retry-After': { ...ref('headers', 'Retry-After') },
    };
  return status === 401 ? requestIdHeader : { ...requestIdHeader, ...rateHeaders };
}

/** Success body for operations without a `response` schema: the service's envelope, data undescribed. */
function genericSuccess(op: Operation): JsonSchema {
  const message = op.service === 'delivery' ? { message: { type: 'string' } } : {};
  return {
    type: 'object',
    description: 'The service envelope; this operation does not describe its data yet.',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['success', 'ok'] },
      ...message,
      data: { type: 'object' },
    },
  };
}

function describe(op: Operation): string {
  const env = op.productionOnly
    ? 'Production keys only: staging keys answer 403 `PRODUCTION_KEY_REQUIRED`.'
    : op.stagingOnly
      ? 'Staging keys only: production keys answer 403 `STAGING_KEY_REQUIRED`.'
      : 'Staging and production keys.';
  const lines = [
    op.description,
    `Scope: \`${op.scope}\`. ${env} Counts as a ${op.access} for rate limits.`,
  ];
  return lines.filter(Boolean).join('\n\n');
}

function operationObject(op: Operation): JsonSchema {
  const given = op.examples ?? [];
  const bodySchema = op.body ?? op.documentedBody;
  const body = bodySchema ? toJsonSchema(bodySchema) : undefined;
  const response = op.response ? toJsonSchema(op.response) : genericSuccess(op);
  const queryExample =
    given.find((e) => e.query)?.query ??
    (op.querystring
      ? (sampleOf(toJsonSchema(op.querystring)) as Record<string, unknown>)
      : undefined);
  const parameters = parametersOf(op.querystring, 'query', queryExample);
  const security = ['ApiKey', 'BearerKey'].map((key) => ({
    [key]: [op.scope],
    Signature: [],
    Timestamp: [],
    Nonce: [],
  }));
  return {
    operationId: op.id,
    tags: [op.service],
    summary: op.summary,
    description: describe(op),
    'x-scopes': [op.scope],
    'x-production-only': Boolean(op.productionOnly),
    ...(op.stagingOnly ? { 'x-staging-only': true } : {}),
    'x-access': op.access,
    security,
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: jsonContent(
              body,
              examplesOf(given, (e) => e.request, body),
            ),
          },
        }
      : {}),
    responses: {
      [String(op.successStatus ?? 200)]: {
        description: 'Success',
        headers: { ...requestIdHeader, ...rateHeaders },
        content: jsonContent(
          response,
          examplesOf(given, (e) => e.response, response),
        ),
      },
      ...errorResponses(errorCodesByStatus(op), partnerErrorHeaders),
    },
  };
}

const header = (description: string, schema: JsonSchema = { type: 'integer', minimum: 0 }) => ({
  description,
  schema,
});

const keyHeader = (name: string, description: string) => ({
  type: 'apiKey',
  in: 'header',
  name,
  description,
});

/**
 * The partner API: one path item per operation, generated from the operations the server mounts,
 * and the webhook events of the services they belong to.
 */
export function buildPartnerDocument(
  operations: readonly Operation[],
  opts: DocOptions,
  events: WebhookEventDocs,
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations)
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  const services = [...new Set(operations.map((op) => op.service))];
  const { webhooks, schemas } = webhooksOf(events, new Set(services));
  const hasWebhooks = Object.keys(webhooks).length > 0;
  const together =
    'Required together with the key, X-Timestamp, X-Nonce and X-Signature; see Signature for the recipe.';
  return {
    openapi: '3.1.0',
    info: { title: 'Partner Platform API', version: '1.0.0', description: overview(opts) },
    servers: [
      {
        url: opts.baseUrl,
        description:
          'Staging and production share this address: the API key decides the environment.',
      },
    ],
    tags: services.map((name) => ({ name, description: TAG_TEXT[name] ?? name })),
    paths,
    ...(hasWebhooks ? { webhooks } : {}),
    components: {
      schemas: { Error: ERROR_SCHEMA, ErrorDetail: ERROR_DETAIL_SCHEMA, ...schemas },
      ...(hasWebhooks ? { parameters: WEBHOOK_PARAMETERS } : {}),
      examples: errorExamples(paths),
      securitySchemes: {
        ApiKey: keyHeader(
          'X-API-Key',
          `The API key (\`pk_staging_...\` or \`pk_production_...\`): identifies partner, app and environment. The security requirement lists the scope the key must hold. ${together}`,
        ),
        BearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: `The API key as \`Authorization: Bearer <key>\`, in place of X-API-Key (when both are sent they must match). ${together}`,
        },
        Signature: keyHeader('X-Signature', signingRecipe(opts)),
        Timestamp: keyHeader(
          'X-Timestamp',
          `Unix time in whole seconds, within ${opts.clockSkewSeconds} s of the server clock. ${together}`,
        ),
        Nonce: keyHeader(
          'X-Nonce',
          `16 to 128 characters of A-Z a-z 0-9 . _ ~ - (a UUID works), never reused with the same key. ${together}`,
        ),
      },
      headers: {
        'X-Request-Id': header(
          'Request id, equal to `request_id` in error bodies; on every response.',
          { type: 'string', pattern: '^req_' },
        ),
        'RateLimit-Limit': header(
          'Requests of this kind (read or write) the key may make in a rolling 60 s window.',
        ),
        'RateLimit-Remaining': header('Requests of this kind left in the current window.'),
        'RateLimit-Reset': header('Whole seconds until a slot frees.'),
        'Retry-After': header('Whole seconds to wait before retrying (at least 1).', {
          type: 'integer',
          minimum: 1,
        }),
      },
    },
  };
}
