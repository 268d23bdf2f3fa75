import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { defineOperation, type Operation } from '../../src/platform/http/operation.ts';
import { registerOperations } from '../../src/platform/http/register.ts';
import { strictObject } from '../../src/platform/http/schemas.ts';

/**
 * Operations mounted on the real signed-request pipeline for tests of the pipeline itself: a write
 * (the built-in writes have business rules in the way), a production-only one, an echo with a
 * schema, and one that throws.
 */
export const TEST_PATHS = {
  write: '/api/v1/test/write',
  productionOnly: '/api/v1/test/production-only',
  echo: '/api/v1/test/echo',
  boom: '/api/v1/test/boom',
} as const;

const operations: Record<keyof typeof TEST_PATHS, Operation> = {
  write: defineOperation({
    id: 'test.write',
    service: 'delivery',
    method: 'POST',
    path: TEST_PATHS.write,
    summary: 'test',
    scope: 'delivery:write',
    access: 'write',
    body: strictObject({}),
    handler: async () => ({ statusCode: 201, body: { status: 'success' } }),
  }) as Operation,
  productionOnly: defineOperation({
    id: 'test.production_only',
    service: 'delivery',
    method: 'POST',
    path: TEST_PATHS.productionOnly,
    summary: 'test',
    scope: 'delivery:wallet:topup',
    productionOnly: true,
    access: 'write',
    handler: async () => ({ body: { status: 'ok' } }),
  }) as Operation,
  echo: defineOperation({
    id: 'test.echo',
    service: 'delivery',
    method: 'POST',
    path: TEST_PATHS.echo,
    summary: 'test',
    scope: 'delivery:write',
    access: 'write',
    body: strictObject({
      name: Type.String({ minLength: 1 }),
      nested: Type.Optional(strictObject({ n: Type.Integer() })),
    }),
    handler: async ({ body }) => ({ body: { status: 'success', data: body } }),
  }) as Operation,
  boom: defineOperation({
    id: 'test.boom',
    service: 'delivery',
    method: 'POST',
    path: TEST_PATHS.boom,
    summary: 'test',
    scope: 'delivery:write',
    access: 'write',
    handler: async () => {
      throw new Error('secret internals: select * from api_keys');
    },
  }) as Operation,
};

/** A `beforeListen` hook mounting the named test operations. */
export const mountTestOperations =
  (...names: Array<keyof typeof TEST_PATHS>) =>
  (app: FastifyInstance): void =>
    registerOperations(
      app,
      names.map((n) => operations[n]),
      app.platform.pipeline,
    );
