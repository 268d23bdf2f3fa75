/** Health: each service's signed health operation, and the unauthenticated probes. */
export { healthOperation } from './operation.ts';
export { registerProbes, type ReadinessCheck } from './probes.ts';
export { healthModule } from './module.ts';
