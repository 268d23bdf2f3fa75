import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceName } from '../../config.ts';
import type { AuthContext } from '../auth/context.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Access } from '../guard/types.ts';
import type { ErrorDetail } from '../errors.ts';

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

/** One partner operation: its contract (path, scope, schemas, errors) and its handler. */
export interface Operation<B extends TSchema | undefined = TSchema | undefined, Q extends TSchema | undefined = TSchema | undefined> {
  /** e.g. `delivery.orders.get`. */
  id: string;
  service: ServiceName;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  scope: Scope;
  productionOnly?: boolean;
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
  handler: (
    input: OperationInput<B extends TSchema ? Static<B> : undefined, Q extends TSchema ? Static<Q> : undefined>,
  ) => Promise<OperationResult>;
}

/** Identity function that keeps the operation's schema types attached to its handler. */
export function defineOperation<B extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined>(
  op: Operation<B, Q>,
): Operation<B, Q> {
  return op;
}
