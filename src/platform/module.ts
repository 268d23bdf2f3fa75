import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { AdminRoute } from './http/admin.ts';
import type { Operation } from './http/operation.ts';

/** Background work a module runs in every process that composes it (the server and the worker). */
export interface ModuleWorker {
  start(): void;
  stop(): Promise<void> | void;
}

/** What a module adds to the process once built: its face and what the process mounts or runs for it. */
export interface ModuleParts<Face> {
  /** What other modules, the flows and the presentation layer may use, by name (merged into the context). */
  face: Face;
  /** Partner operations (signed requests), in the order they are documented. */
  operations?: readonly Operation[];
  /** Operator API routes under /admin/v1. */
  adminRoutes?: readonly AdminRoute[];
  /** Anything else served over HTTP (public pages, callbacks); never called by the worker. */
  pages?: (app: FastifyInstance) => void;
  /** Jobs: started when the process is ready, stopped when it closes. */
  workers?: readonly ModuleWorker[];
  /** Settles the gateway callbacks whose client reference is this module's (others are ignored). */
  paymentCallback?: (clientReference: string) => Promise<void>;
  /** Gauges on the process's metrics registry. */
  gauges?: (registry: Registry) => void;
  /** Settles work still in flight after the workers stopped (the process closes after it). */
  settled?: () => Promise<unknown>;
}

/**
 * A module's declaration: its name, the tables it owns (docs/architecture.md lists the same, which
 * test/architecture checks), the faces it needs built before it, its settings and how it is built.
 * `Needs` is structural: a module names what it reads of the composition without importing it, so
 * `platform/` still knows no module and a module still knows no app.
 */
export interface ModuleDefinition<Needs, Face, Settings = undefined> {
  name: string;
  tables: readonly string[];
  /** The faces (of modules earlier in the app's list, or the app's ports) read while building. */
  needs: readonly string[];
  /** The module's part of the app's settings (parsed by config.ts). */
  settings?: (needs: Needs) => Settings;
  /** Whether this process serves the module (a disabled module's face is `{ [name]: undefined }`). */
  enabled?: (needs: Needs) => boolean;
  build: (needs: Needs, settings: Settings) => ModuleParts<Face> | Promise<ModuleParts<Face>>;
}

export function defineModule<Needs, Face, Settings = undefined>(
  definition: ModuleDefinition<Needs, Face, Settings>,
): ModuleDefinition<Needs, Face, Settings> {
  return definition;
}

/**
 * One module's reaction to another's event, or one module's port filled from another's face: wired
 * once every module is built. Flows live in `src/flows/`, the only place that registers hooks on
 * another module (test/architecture/unit/flows.test.ts).
 */
export interface FlowDefinition<Needs> {
  name: string;
  wire: (needs: Needs) => void;
}

export function defineFlow<Needs>(definition: FlowDefinition<Needs>): FlowDefinition<Needs> {
  return definition;
}
