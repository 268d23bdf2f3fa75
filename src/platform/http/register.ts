import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import { authenticate, rateHeaders, type PipelineDeps } from '../auth/pipeline.ts';
import { parseJsonObject } from './body.ts';
import type { Operation } from './operation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

/** Mounts partner operations behind the signed-request pipeline. */
export function registerOperations(
  app: FastifyInstance,
  operations: readonly Operation[],
  deps: PipelineDeps,
): void {
  for (const op of operations) {
    app.route({
      method: op.method,
      url: op.path,
      schema: {
        ...(op.body ? { body: op.body } : {}),
        ...(op.querystring ? { querystring: op.querystring } : {}),
      },
      config: { operation: op },
      // HEAD would run the whole pipeline (a nonce, a rate-limit slot) for nothing: 404 like any method not defined.
      exposeHeadRoute: false,
      preValidation: async (request, reply) => {
        const { auth, rate } = await authenticate(
          deps,
          {
            scope: op.scope,
            productionOnly: op.productionOnly ?? false,
            stagingOnly: op.stagingOnly ?? false,
            access: op.access,
          },
          {
            headers: request.headers,
            method: request.method,
            url: request.raw.url ?? request.url,
            rawBody: request.body as Buffer | undefined,
          },
        );
        request.auth = auth;
        reply.headers(rateHeaders(rate));
        if (op.body || op.parseBody) {
          request.body = parseJsonObject(request.body, request.headers['content-type']);
          op.beforeValidation?.(request.body, auth);
        }
      },
      handler: async (request, reply) => {
        const result = await op.handler({
          body: request.body as never,
          query: request.query as never,
          auth: request.auth!,
          requestId: request.id,
          log: request.log,
        });
        return reply.code(result.statusCode ?? 200).send(result.body);
      },
    });
  }
}
