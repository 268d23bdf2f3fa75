import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { isId, type IdPrefix } from '../ids.ts';
import type { FieldRule, FormFields } from './form.ts';
import { WebRefusal } from './refusal.ts';

/**
 * A path parameter: one of our ids (by prefix), one of a few words, or a test of its own. Anything
 * else is answered `missing` (404 unless `status` says otherwise), exactly like a record that does
 * not exist, before the handler runs.
 */
export interface ParamRule {
  missing: string;
  status?: number;
  prefix?: IdPrefix;
  oneOf?: readonly string[];
  test?: (value: string) => boolean;
}

/** A path parameter the page answers itself (a mailed token: a bad one gets the page's own 400). */
export const OWN_CHECK: ParamRule = { missing: '' };

/**
 * The gate of pages open to anyone signed in, whatever their role (sign-out, resend the email
 * check): no session sends them to `signInPath`, forgetting the cookie it had.
 */
export function signedInGate<V>(
  kit: Pick<PageGate<V, never>, 'form'> & {
    current(request: FastifyRequest): Promise<V | undefined>;
    redirect(reply: FastifyReply, to: string): unknown;
    signOutCookie(reply: FastifyReply): void;
  },
  signInPath: string,
): PageGate<V, 'signed-in'> {
  return {
    admit: async (request, reply) => {
      const current = await kit.current(request);
      if (current) return current;
      kit.signOutCookie(reply);
      kit.redirect(reply, signInPath);
      return undefined;
    },
    form: (request, rules, actor) => kit.form(request, rules, actor),
  };
}

/** The usual path parameter: an id with this prefix, or `missing` (404). */
export const idParam = (prefix: IdPrefix, missing: string): ParamRule => ({ prefix, missing });

/**
 * A query value: absent or empty is undefined; repeated, longer than `max` (100), or not matching
 * `prefix`/`oneOf` is a 400 with `invalid`, never a 500.
 */
export interface QueryRule {
  invalid: string;
  prefix?: IdPrefix;
  oneOf?: readonly string[];
  max?: number;
}

/** Who may open a page besides the gate's own needs: anyone at all (sign-in pages, public forms). */
export type Public = 'public';

/**
 * What a family of pages (the console, the dashboard) checks before any page of it runs: who is
 * signed in, whether they hold the page's need, and the same-site token of a state-changing form.
 */
export interface PageGate<Actor, Need> {
  /**
   * The signed-in actor holding `need`; undefined once the gate has answered itself (sent to
   * sign-in). A signed-in person without the need is refused (WebRefusal 403, thrown).
   */
  admit(request: FastifyRequest, reply: FastifyReply, need: Need): Promise<Actor | undefined>;
  /** Same-site and token check (the actor's session's, or without one the signed-out form cookie's), then the fields. */
  form<R extends Record<string, FieldRule>>(
    request: FastifyRequest,
    rules: R,
    actor?: NoInfer<Actor>,
  ): FormFields<R>;
}

// biome-ignore lint/suspicious/noExplicitAny: read back from a gate's own types
type NeedOf<G> = G extends PageGate<any, infer Need> ? Need : never;
/** The handler's actor: the gate's admitted actor, none on a public page (which looks itself if it cares). */
// biome-ignore lint/suspicious/noExplicitAny: read back from a gate's own types
type WhoFor<G, N> = [N] extends [Public] ? undefined : G extends PageGate<infer A, any> ? A : never;

export interface PageSpec<
  N,
  P extends Record<string, ParamRule>,
  F extends Record<string, FieldRule>,
  Q extends Record<string, QueryRule>,
> {
  method: 'GET' | 'POST';
  path: string;
  /** The role(s) or permission the page needs, or 'public'. */
  need: N;
  params?: P;
  /** The form's fields (POST only); the CSRF token is checked whether fields are declared or not. */
  form?: F;
  query?: Q;
  /** Fastify's own options: an upload's body limit, and its config (`tooLarge`: the sentence past that limit). */
  route?: { bodyLimit?: number; config?: Record<string, unknown> };
}

export interface PageContext<A, P, F extends Record<string, FieldRule>, Q> {
  /** Its params are the checked ones; its query is still raw (values may be arrays): read it through `query`. */
  request: FastifyRequest<{
    Params: { [K in keyof P]: string };
    Querystring: Record<string, unknown>;
  }>;
  reply: FastifyReply;
  actor: A;
  params: { [K in keyof P]: string };
  form: FormFields<F>;
  query: { [K in keyof Q]?: string };
}

function checkParams(rules: Record<string, ParamRule>, raw: unknown): Record<string, string> {
  const values = (raw ?? {}) as Record<string, string>;
  for (const [name, rule] of Object.entries(rules)) {
    const v = values[name] ?? '';
    const ok =
      (!rule.prefix || isId(rule.prefix, v)) &&
      (!rule.oneOf || rule.oneOf.includes(v)) &&
      (!rule.test || rule.test(v));
    if (!ok) throw new WebRefusal(rule.status ?? 404, rule.missing);
  }
  return values;
}

function checkQuery(
  rules: Record<string, QueryRule>,
  raw: unknown,
): Record<string, string | undefined> {
  const values = (raw ?? {}) as Record<string, unknown>;
  const out: Record<string, string | undefined> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const v = values[name];
    if (v === undefined || v === '') continue;
    const ok =
      typeof v === 'string' &&
      v.length <= (rule.max ?? 100) &&
      (!rule.prefix || isId(rule.prefix, v)) &&
      (!rule.oneOf || rule.oneOf.includes(v));
    if (!ok) throw new WebRefusal(400, rule.invalid);
    out[name] = v;
  }
  return out;
}

/**
 * Registers one page: the gate admits the actor (or answers: sign-in, 403), every POST has its
 * same-site token checked and its declared fields read, path ids and query values are checked, and
 * only then does the handler run, with all of it typed. A bad id is the page's 404, a bad field the
 * form's 400: refusals are WebRefusal or FormProblem, shown by the scope's error page.
 */
type None = Record<never, never>;

export function definePage<
  G extends PageGate<unknown, unknown>,
  N extends NeedOf<G> | Public,
  P extends Record<string, ParamRule> = None,
  F extends Record<string, FieldRule> = None,
  Q extends Record<string, QueryRule> = None,
>(
  app: FastifyInstance,
  gate: G,
  spec: PageSpec<N, P, F, Q>,
  handler: (page: PageContext<WhoFor<G, N>, P, F, Q>) => Promise<unknown>,
): void {
  const open = spec.need === 'public';
  app.route({
    ...(spec.route as RouteShorthandOptions),
    method: spec.method,
    url: spec.path,
    handler: async (request, reply) => {
      const actor = open ? undefined : await gate.admit(request, reply, spec.need);
      if (!open && actor === undefined) return reply;
      // A public form carries the signed-out token (the form cookie) even when someone is signed in.
      const form =
        spec.method === 'POST'
          ? gate.form(request, spec.form ?? ({} as F), open ? undefined : actor)
          : ({} as FormFields<F>);
      const params = checkParams(spec.params ?? {}, request.params) as { [K in keyof P]: string };
      const query = checkQuery(spec.query ?? {}, request.query) as { [K in keyof Q]?: string };
      return handler({
        request: request as PageContext<WhoFor<G, N>, P, F, Q>['request'],
        reply,
        actor: actor as WhoFor<G, N>,
        params,
        form,
        query,
      });
    },
  });
}
