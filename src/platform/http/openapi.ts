import type { FastifyInstance } from 'fastify';

/** Serves the OpenAPI document built from the registered operations (being written). */
export function registerApiDocs(_app: FastifyInstance): void {}
