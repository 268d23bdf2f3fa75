import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ADMIN_TOKEN_ACTOR,
  type AdminActor,
  type OperatorRole,
  originOf,
  type RequestOrigin,
} from '../auth/actor.ts';
import type { Db, Queryable } from '../db/index.ts';
import { errors } from '../errors.ts';
import { constantTimeEqual } from '../secrets.ts';
import { parseJsonObject } from './body.ts';
import type { OperationResult } from './operation.ts';

type StaticOr<T, D> = T extends TSchema ? Static<T> : D;

export interface AdminInput<B, P, Q> {
  body: B;
  params: P;
  query: Q;
  /** Who called: an operator (by one of their tokens) or the ADMIN_TOKEN superuser. */
  actor: AdminActor;
  origin: RequestOrigin;
}

/** One operator API route: `/admin/v1` + url, behind the operator bearer token. */
export interface AdminRoute<
  B extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  body?: B;
  params?: P;
  querystring?: Q;
  /** Roles allowed to call it (see `rolesOf` for the defaults); the ADMIN_TOKEN has them all. */
  roles?: readonly OperatorRole[];
  /**
   * A second person's approval of a money action (maker-checker): only an operator, by their own
   * token, may give it. The shared ADMIN_TOKEN may propose but never approve, or a person holding it
   * and a finance account could be both maker and checker.
   */
  approval?: true;
  /** A path parameter naming an operator: that operator may call the route on themselves whatever their roles. */
  self?: string;
  /** How a successful change is written to the audit log (mutating routes only). */
  audit?: {
    /** `<target type>.<what happened>`, e.g. `partner.update`, `key.revoke` (test/operators/contract/audit.test.ts requires one on every change). */
    action?: string;
    /** The state before the change, read before the handler runs (e.g. the partner a PATCH changes). */
    before?: (input: { params: StaticOr<P, Record<string, string>> }) => Promise<unknown>;
    /** The route's service records the change itself, in the change's own transaction. */
    recordedByService?: boolean;
    /**
     * Why the handler cannot run inside one transaction with its audit entry (a network call such as a
     * DNS lookup); the entry is then written after the change commits, and lost if the process dies between.
     */
    outsideTransaction?: string;
  };
  handler: (
    input: AdminInput<
      StaticOr<B, undefined>,
      StaticOr<P, Record<string, string>>,
      StaticOr<Q, undefined>
    >,
  ) => Promise<OperationResult>;
}

export function defineAdminRoute<
  B extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
>(route: AdminRoute<B, P, Q>): AdminRoute<B, P, Q> {
  return route;
}

/** Reads are open to every role; changes to support and admin unless the route says otherwise (docs/operators.md). */
export function rolesOf(route: Pick<AdminRoute, 'method' | 'roles'>): readonly OperatorRole[] {
  return (
    route.roles ?? (route.method === 'GET' ? ['support', 'finance', 'admin'] : ['support', 'admin'])
  );
}

/** Refuses (403 FORBIDDEN) an operator holding none of `roles` (the ADMIN_TOKEN passes every check); handlers use it for checks that depend on the body. */
export function requireRoles(
  actor: AdminActor,
  roles: readonly OperatorRole[],
  what = 'this operation',
): void {
  if (actor.kind === 'admin_token') return;
  if (!actor.roles.some((r) => roles.includes(r))) {
    throw errors.forbidden(
      `Your operator roles (${actor.roles.join(', ')}) do not allow ${what}; it needs one of: ${roles.join(', ')}.`,
    );
  }
}

/** The route's audit action; without one, its fixed path segments and the verb (`PATCH /vendors/:id` → `vendors.update`). */
export function auditAction(route: Pick<AdminRoute, 'method' | 'url' | 'audit'>): string {
  if (route.audit?.action) return route.audit.action;
  const verb = { GET: 'read', POST: 'create', PATCH: 'update', DELETE: 'delete' }[route.method];
  return [...route.url.split('/').filter((s) => s && !s.startsWith(':')), verb].join('.');
}

/** What the mounting code hands to the audit log for a successful change. */
export interface AdminChange {
  actor: AdminActor;
  action: string;
  target: { type: string; id: string } | null;
  before: unknown;
  after: unknown;
  origin: RequestOrigin;
}

export interface AdminAuth {
  adminToken: string;
  /** An operator token's actor, or undefined when the bearer is no live token of an active operator. */
  resolveToken?: (bearer: string) => Promise<AdminActor | undefined>;
  /** Writes successful changes to the audit log (not for routes whose service records them). */
  changes?: {
    /**
     * Writes one change's entry, in `tx`: the transaction the route's handler ran in, so the change
     * and its entry commit together, and a failed entry rolls the change back.
     */
    record: (change: AdminChange, tx: Queryable) => Promise<void>;
    /** The database whose units of work the handlers' services join. */
    db: Pick<Db, 'unitOfWork' | 'transaction'>;
  };
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

/** Resolves the caller: the ADMIN_TOKEN, else an operator token; 401 INVALID_ADMIN_TOKEN for anything else. */
export function adminActorResolver(
  auth: AdminAuth,
): (request: FastifyRequest) => Promise<AdminActor> {
  const expected = `Bearer ${auth.adminToken}`;
  return async (request) => {
    const header = request.headers.authorization ?? '';
    if (constantTimeEqual(header, expected)) return ADMIN_TOKEN_ACTOR;
    const bearer = /^Bearer (\S{1,200})$/.exec(header)?.[1];
    const actor = bearer && auth.resolveToken ? await auth.resolveToken(bearer) : undefined;
    if (!actor)
      throw errors.invalidAdminToken(
        'The operator API needs Authorization: Bearer <ADMIN_TOKEN> or the token of an active operator.',
      );
    return actor;
  };
}

/** The audit target: what a 201 created (its answer's first `*_id`), else the route's last path parameter. */
function targetOf(
  url: string,
  params: Record<string, string>,
  result: OperationResult,
): AdminChange['target'] {
  const answer = result.body;
  if (result.statusCode === 201 && answer && typeof answer === 'object') {
    const key = Object.keys(answer).find(
      (k) => k.endsWith('_id') && typeof (answer as Record<string, unknown>)[k] === 'string',
    );
    if (key) return { type: key.replace(/_id$/, ''), id: (answer as Record<string, string>)[key]! };
  }
  const name = [...url.matchAll(/:(\w+)/g)].at(-1)?.[1];
  return name && params[name] ? { type: name.replace(/_id$/, ''), id: params[name] } : null;
}

const answer = (reply: FastifyReply, result: OperationResult) =>
  reply.code(result.statusCode ?? 200).send(result.body ?? undefined);

/** Mounts the operator API; without an ADMIN_TOKEN it is not mounted at all (404). */
export function registerAdminRoutes(
  app: FastifyInstance,
  settings: AdminAuth,
  routes: readonly AdminRoute[],
): void {
  const resolveActor = adminActorResolver(settings);
  const actors = new WeakMap<FastifyRequest, AdminActor>();
  for (const route of routes) {
    const roles = rolesOf(route);
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
        const actor = await resolveActor(request);
        const params = request.params as Record<string, string>;
        const onSelf =
          route.self !== undefined && actor.kind === 'operator' && params[route.self] === actor.id;
        if (!onSelf) requireRoles(actor, roles, `${route.method} /admin/v1${route.url}`);
        if (route.approval && actor.kind === 'admin_token') {
          throw errors.forbidden(
            "An approval of a money action needs an operator's own token (partner-admin operators tokens create); the shared ADMIN_TOKEN may propose, never approve.",
          );
        }
        actors.set(request, actor);
        if (route.body)
          request.body = parseJsonObject(request.body, request.headers['content-type']);
      },
      handler: async (request, reply) => {
        const actor = actors.get(request)!;
        const origin = originOf(request);
        const params = request.params as Record<string, string>;
        const changes =
          route.method !== 'GET' && !route.audit?.recordedByService ? settings.changes : undefined;
        const run = (): Promise<OperationResult> =>
          route.handler({
            body: request.body as never,
            params: params as never,
            query: request.query as never,
            actor,
            origin,
          });
        if (!changes) return answer(reply, await run());
        const change = async (tx: Queryable, before: unknown, result: OperationResult) =>
          changes.record(
            {
              actor,
              action: auditAction(route),
              target: targetOf(route.url, params, result),
              before,
              after: { request: request.body ?? null, response: result.body ?? null },
              origin,
            },
            tx,
          );
        const beforeOf = async () =>
          route.audit?.before ? await route.audit.before({ params: params as never }) : null;
        if (route.audit?.outsideTransaction) {
          const before = await beforeOf();
          const result = await run();
          await changes.db
            .transaction((tx) => change(tx, before, result))
            .catch((err: unknown) => {
              // The change has committed: answering an error would invite a retry that repeats it.
              request.log.error(
                { err, action: auditAction(route) },
                'audit entry not written for a change that succeeded',
              );
            });
          return answer(reply, result);
        }
        // The handler's services join this transaction; the change commits only with its audit entry.
        return answer(
          reply,
          await changes.db.unitOfWork(async (tx) => {
            const before = await beforeOf();
            const result = await run();
            await change(tx, before, result);
            return result;
          }),
        );
      },
    });
  }
}
