import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Environment } from '../auth/scopes.ts';
import { errors } from '../errors.ts';
import { addressProblem, hostOf, webhookUrlProblem } from './url-policy.ts';

/** Every address a name resolves to; rejects when it does not resolve. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map((a) => a.address);

/** A URL is set inside a request: a resolver that does not answer must not hold the request long. */
const RESOLVE_TIMEOUT_MS = 3000;

/** What one event's connection may reach: literal addresses are checked directly, names through `lookup`. */
export interface AddressGate {
  problem(address: string): string | null;
  /** Resolves like dns.lookup but fails when any answer is refused. */
  lookup: LookupFunction;
}

class RefusedDestination extends Error {
  override readonly name = 'RefusedDestination';
}

function resolveWithin(resolve: Resolver, host: string, ms: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })),
      ms,
    );
  });
  return Promise.race([resolve(host), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Where webhook events may go. Production and staging events go only to globally routable unicast
 * addresses; with `localForStaging` (WEBHOOK_LOCAL_DESTINATIONS=on) staging events may also go to
 * loopback and private addresses, for local development receivers. Checked when a URL is set
 * (with DNS) and again for every connection when an event is sent.
 */
export class Destinations {
  constructor(
    private readonly localForStaging: boolean,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** Why `url` may not receive this environment's events, judged without DNS (at send, before connecting). */
  urlProblem(url: string, environment: Environment): string | null {
    return webhookUrlProblem(url, environment, this.localForStaging);
  }

  /**
   * The same, with DNS: every address the name resolves to must be acceptable, and a name that
   * does not resolve is refused (for when a URL is set: a request answers 400 rather than storing
   * a destination that can never be reached).
   */
  async problem(url: string, environment: Environment): Promise<string | null> {
    const problem = this.urlProblem(url, environment);
    if (problem) return problem;
    const host = hostOf(new URL(url));
    if (isIP(host)) return null;
    let addresses: string[];
    try {
      addresses = await resolveWithin(this.resolve, host, RESOLVE_TIMEOUT_MS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'no answer';
      return `must name a host that resolves: ${host} could not be resolved (${code})`;
    }
    if (addresses.length === 0) return `must name a host that resolves: ${host} has no addresses`;
    for (const address of addresses) {
      const refused = addressProblem(address, environment, this.localForStaging);
      if (refused)
        return `must point to a public address: ${host} resolves to ${address}, which ${refused}`;
    }
    return null;
  }

  /**
   * For an app's URL: 400 VALIDATION_ERROR unless it may receive `environment`'s events, the
   * strictest environment the app's keys serve. An app with a production key needs https and a
   * public address; an app with staging keys alone may use http (and local receivers with
   * WEBHOOK_LOCAL_DESTINATIONS=on), for local testing.
   */
  async requireAppUrl(url: string | null | undefined, environment: Environment): Promise<void> {
    const problem = url ? await this.problem(url, environment) : null;
    if (!problem) return;
    const why =
      environment === 'production'
        ? ' (the app has a production key; http and local receivers suit apps with staging keys alone)'
        : '';
    throw errors.validation(`webhook_url ${problem}${why}.`, [
      { field: 'webhook_url', issue: problem },
    ]);
  }

  /**
   * The gate for one event's connection. Its lookup refuses a name when any answer is refused, and
   * the connection uses the answers checked here, so a name that changes its answer after it was
   * set (DNS rebinding) cannot slip through.
   */
  gate(environment: Environment): AddressGate {
    let gate = this.gates.get(environment);
    if (!gate) this.gates.set(environment, (gate = this.newGate(environment)));
    return gate;
  }

  /** One gate per environment, so connections kept alive for one are never reused by the other (see the sender). */
  private readonly gates = new Map<Environment, AddressGate>();

  private newGate(environment: Environment): AddressGate {
    const problem = (address: string) => addressProblem(address, environment, this.localForStaging);
    const lookup: LookupFunction = (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          if (addresses.length === 0)
            return callback(new RefusedDestination(`${hostname} has no addresses`), '');
          const refused = addresses.find((address) => problem(address) !== null);
          if (refused)
            return callback(
              new RefusedDestination(
                `${hostname} resolves to ${refused}, which ${problem(refused)}`,
              ),
              '',
            );
          const answers = addresses.map((address) => ({ address, family: isIP(address) }));
          if (options.all) return callback(null, answers);
          return callback(null, answers[0]!.address, answers[0]!.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, ''),
      );
    };
    return { problem, lookup };
  }
}
