import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Access } from '../guard/types.ts';
import type { ErrorDetail } from '../errors.ts';

/** The services an instance can serve (SERVICES); each operation belongs to one. */
export type ServiceName = 'delivery' | 'safe-catalog';
export const ALL_SERVICES: readonly ServiceName[] = ['delivery', 'safe-catalog'];

export interface ValidationIssue extends ErrorDetail {
  /** The JSON Schema keyword that failed, e.g. `required`, `type`, `additionalProperties`. */
  keyword: string;
}

export interface OperationResult {
  statusCode?: number;
  body: unknown;
}

export interface OperationInput<B, Q> {
  body: B;
  query: Q;
  auth: AuthContext;
  requestId: string;
  log: FastifyBaseLogger;
}

/** One documented example (OpenAPI and /docs); the docs tests validate each part against its schema. */
export interface OperationExample {
  /** Key in the OpenAPI `examples` map, e.g. `recipient_pays`. */
  name: string;
  summary: string;
  /** Request body, for operations with a body. */
  request?: unknown;
  /** Query parameters, for operations with a query string. */
  query?: Record<string, string | number | boolean>;
  /** The success body this request answers. */
  response?: unknown;
}

/** One partner operation: its contract (path, scope, schemas, errors) and its handler. */
export interface Operation<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
> {
  /** e.g. `delivery.orders.get`. */
  id: string;
  service: ServiceName;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  scope: Scope;
  productionOnly?: boolean;
  /** Staging keys only (the sandbox's test clocks); production keys answer 403 STAGING_KEY_REQUIRED. */
  stagingOnly?: boolean;
  access: Access;
  body?: B;
  /** Parse a JSON object body even without a body schema (the operation checks it itself). */
  parseBody?: boolean;
  querystring?: Q;
  /** Codes beyond the shared pipeline ones, for the reference documentation. */
  errorCodes?: readonly string[];
  /** Which error answers a body that fails its schema (default VALIDATION_ERROR). */
  validationError?: (issues: ValidationIssue[]) => { code: string; message: string };
  /** Checks that need the parsed body but precede validation (the wallet spend scope). */
  beforeValidation?: (body: unknown, auth: AuthContext) => void;
  /** Longer text for the reference documentation (conditions, extra scopes). */
  description?: string;
  /** The success body's schema: documentation and docs tests only, never enforced or used to serialize. */
  response?: TSchema;
  /** Status of the success answer (default 200), for the documentation. */
  successStatus?: number;
  /** The body as documented when the operation checks it itself (`parseBody` without `body`). */
  documentedBody?: TSchema;
  /** Examples for the documentation; operations without them get examples generated from their schemas. */
  examples?: readonly OperationExample[];
  handler: (
    input: OperationInput<
      B extends TSchema ? Static<B> : undefined,
      Q extends TSchema ? Static<Q> : undefined
    >,
  ) => Promise<OperationResult>;
}

/** Identity function that keeps the operation's schema types attached to its handler. */
export function defineOperation<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
>(op: Operation<B, Q>): Operation<B, Q> {
  return op;
}

/**
 * What metrics and traces call a route: its partner operation's id, else its method and route
 * pattern; never the raw URL, whose ids would make a series per order.
 */
export function routeName(route: {
  method: string | string[];
  url: string;
  config?: unknown;
}): string {
  const operation = (route.config as { operation?: Operation } | undefined)?.operation;
  return operation?.id ?? `${[route.method].flat().join(',')} ${route.url}`;
}
