import type { ServiceName } from '../../platform/http/operation.ts';
import type { Db } from '../../platform/db/index.ts';
import { HEALTH_EXAMPLES, HealthOk } from '../../platform/http/openapi-shapes.ts';
import { defineOperation } from '../../platform/http/operation.ts';
import { sharedRecent } from '../../platform/concurrency.ts';

/** How long a successful database check answers for every health call (no round trip per call). */
const TRUST_MS = 1000;

const SCOPES = { delivery: 'delivery:read', 'safe-catalog': 'safe:read' } as const;

/** A service's signed health operation: answers ok only when the database did within the last second. */
export const healthOperation = (service: ServiceName, db: Db) => {
  const databaseAnswers = sharedRecent(() => db.ping(), TRUST_MS);
  return defineOperation({
    id: `${service}.health`,
    service,
    method: 'GET',
    path: `/api/v1/${service}/health`,
    summary: `Check that the ${service} service and its database answer`,
    scope: SCOPES[service],
    access: 'read',
    response: HealthOk,
    examples: HEALTH_EXAMPLES,
    handler: async () => {
      await databaseAnswers();
      return { body: { status: 'ok' } };
    },
  });
};
