import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import { constantTimeEqual } from '../secrets.ts';
import { parseJsonObject } from './body.ts';
import type { OperationResult } from './operation.ts';

type StaticOr<T, D> = T extends TSchema ? Static<T> : D;

/** One operator API route: `/admin/v1` + url, behind the operator bearer token. */
export interface AdminRoute<B extends TSchema | undefined = TSchema | undefined, P extends TSchema | undefined = TSchema | undefined, Q extends TSchema | undefined = TSchema | undefined> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  body?: B;
  params?: P;
  querystring?: Q;
  handler: (input: { body: StaticOr<B, undefined>; params: StaticOr<P, Record<string, string>>; query: StaticOr<Q, undefined> }) => Promise<OperationResult>;
}

export function defineAdminRoute<B extends TSchema | undefined = undefined, P extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined>(
  route: AdminRoute<B, P, Q>,
): AdminRoute<B, P, Q> {
  return route;
}

/** The operator API's check, `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminTokenCheck(adminToken: string): (request: FastifyRequest) => void {
  const expected = `Bearer ${adminToken}`;
  return (request) => {
    if (!constantTimeEqual(request.headers.authorization ?? '', expected)) {
      throw errors.invalidAdminToken('The operator API needs Authorization: Bearer <ADMIN_TOKEN>.');
    }
  };
}

/** Mounts the operator API; without an ADMIN_TOKEN it is not mounted at all (404). */
export function registerAdminRoutes(app: FastifyInstance, adminToken: string, routes: readonly AdminRoute[]): void {
  const checkToken = adminTokenCheck(adminToken);
  for (const route of routes) {
    app.route({
      method: route.method,
      url: `/admin/v1${route.url}`,
      // A JSON API, like the partner one: only the methods it defines (HEAD answers 404).
      exposeHeadRoute: false,
      schema: {
        ...(route.body ? { body: route.body } : {}),
        ...(route.params ? { params: route.params } : {}),
        ...(route.querystring ? { querystring: route.querystring } : {}),
      },
      preValidation: async (request) => {
        checkToken(request);
        if (route.body) request.body = parseJsonObject(request.body, request.headers['content-type']);
      },
      handler: async (request, reply) => {
        const result = await route.handler({ body: request.body as never, params: request.params as never, query: request.query as never });
        return reply.code(result.statusCode ?? 200).send(result.body ?? undefined);
      },
    });
  }
}
