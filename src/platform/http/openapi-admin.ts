import type { AdminRoute } from './admin.ts';
import {
  errorExamples,
  errorResponses,
  jsonContent,
  parametersOf,
  type DocOptions,
  type OpenApiDocument,
} from './openapi-document.ts';
import { ERROR_DETAIL_SCHEMA, ERROR_SCHEMA } from './openapi-errors.ts';
import { sampleOf, toJsonSchema } from './openapi-schema.ts';
import { ADMIN_OVERVIEW } from './openapi-text.ts';

/** `/partners/:partner_id/apps` → `/admin/v1/partners/{partner_id}/apps`. */
export const adminPath = (url: string) => `/admin/v1${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

/** e.g. `admin.post.partners.partner_id.apps`: unique, since a method and URL are mounted once. */
export const adminOperationId = (route: AdminRoute) =>
  `admin.${route.method.toLowerCase()}.${route.url
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^:/, ''))
    .join('.')}`;

function adminOperation(route: AdminRoute): Record<string, unknown> {
  const body = route.body ? toJsonSchema(route.body) : undefined;
  const path = parametersOf(route.params, 'path');
  // OpenAPI requires every templated segment to be declared, even when the route has no params schema.
  for (const [, name] of route.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!path.some((q) => q.name === name))
      path.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  const parameters = [...path, ...parametersOf(route.querystring, 'query')];
  const hasInput = Boolean(route.body || route.params || route.querystring);
  // Operator routes carry no per-code list (their services decide): document statuses with the shared body.
  const errors = new Map<number, string[]>([
    ...(hasInput || route.method === 'GET'
      ? ([[400, route.body ? ['INVALID_JSON', 'VALIDATION_ERROR'] : ['VALIDATION_ERROR']]] as const)
      : []),
    [401, ['INVALID_ADMIN_TOKEN']],
    [403, ['FORBIDDEN']],
    [404, []],
    [409, []],
    ...(route.body ? [[415, ['UNSUPPORTED_MEDIA_TYPE']] as [number, string[]]] : []),
    [500, ['INTERNAL_ERROR']],
    [503, ['SERVICE_UNAVAILABLE']],
  ]);
  const success =
    route.method === 'DELETE'
      ? { '204': { description: 'Done; no body' } }
      : {
          '2XX': {
            description: 'Success: 201 when something was created, else 200',
            content: jsonContent({ type: 'object' }),
          },
        };
  return {
    operationId: adminOperationId(route),
    tags: [route.url.split('/')[1] ?? 'admin'],
    summary: route.summary,
    security: [{ AdminToken: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: jsonContent(body, {
              generated: {
                summary: 'Generated from the schema (required fields only)',
                value: sampleOf(body),
              },
            }),
          },
        }
      : {}),
    responses: {
      ...success,
      ...errorResponses(errors, () => ({
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      })),
    },
  };
}

/** The operator API, a separate document so the partner reference never shows operator routes. */
export function buildAdminDocument(
  routes: readonly AdminRoute[],
  opts: DocOptions,
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes)
    (paths[adminPath(route.url)] ??= {})[route.method.toLowerCase()] = adminOperation(route);
  return {
    openapi: '3.1.0',
    info: { title: 'Partner Platform operator API', version: '1.0.0', description: ADMIN_OVERVIEW },
    servers: [{ url: opts.baseUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, ErrorDetail: ERROR_DETAIL_SCHEMA },
      examples: errorExamples(paths),
      securitySchemes: {
        AdminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Authorization: Bearer <ADMIN_TOKEN>, or Bearer <operator token> (opt_...) of an active operator, held to their roles',
        },
      },
      headers: {
        'X-Request-Id': {
          description: 'Request id, equal to `request_id` in error bodies.',
          schema: { type: 'string', pattern: '^req_' },
        },
      },
    },
  };
}
