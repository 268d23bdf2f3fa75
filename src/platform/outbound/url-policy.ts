import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import type { Environment } from '../auth/scopes.ts';

/**
 * What an address is to webhook delivery: `public` (globally routable unicast), `local` (loopback,
 * RFC 1918 private, IPv6 unique-local: allowed only for local development receivers) or `refused`
 * (everything else: link-local and metadata, carrier-grade NAT, unspecified, broadcast, multicast,
 * documentation, benchmarking and reserved ranges).
 */
export type AddressKind = 'public' | 'local' | 'refused';

const cidr = (range: string) => ipaddr.IPv6.parseCIDR(range);
const GLOBAL_UNICAST_V6 = cidr('2000::/3');
// The last 32 bits are the IPv4 address a packet finally reaches: IPv4-mapped (the kernel connects
// over IPv4), IPv4-compatible and NAT64's well-known prefix (a translator connects over IPv4).
const EMBEDS_IPV4 = [cidr('::ffff:0:0/96'), cidr('::/96'), cidr('64:ff9b::/96')];

function ipv4Kind(address: ipaddr.IPv4): AddressKind {
  const range = address.range();
  if (range === 'unicast') return 'public';
  return range === 'loopback' || range === 'private' ? 'local' : 'refused';
}

function ipv6Kind(address: ipaddr.IPv6): AddressKind {
  const range = address.range();
  if (range === 'loopback' || range === 'uniqueLocal') return 'local';
  if (EMBEDS_IPV4.some((prefix) => address.match(prefix)))
    return ipv4Kind(new ipaddr.IPv4(address.toByteArray().slice(12)));
  // An allow-list: native global unicast only. Other IPv4-carrying forms (6to4, Teredo, NAT64
  // local-use 64:ff9b:1::/48, IPv4-translated) are refused outright rather than decoded: where their
  // IPv4 address sits depends on relays and site prefixes, and no partner receiver needs them.
  return range === 'unicast' && address.match(GLOBAL_UNICAST_V6) ? 'public' : 'refused';
}

/** The kind of a literal IPv4 or IPv6 address; anything that is not one is refused. */
export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 4) return ipv4Kind(ipaddr.IPv4.parse(address));
  if (family === 6) return ipv6Kind(ipaddr.IPv6.parse(address));
  return 'refused';
}

const LOCAL_HINT =
  ' (a development server sends staging events to local receivers only with WEBHOOK_LOCAL_DESTINATIONS=on)';

/**
 * Why an address may not receive an environment's events, or null, as the end of a sentence ("is
 * not ..."). `localForStaging` (WEBHOOK_LOCAL_DESTINATIONS=on) admits loopback and private
 * addresses for staging events; production events never reach them.
 */
export function addressProblem(
  address: string,
  environment: Environment,
  localForStaging: boolean,
): string | null {
  const kind = addressKind(address);
  if (kind === 'public') return null;
  if (kind === 'refused') return 'is not a globally routable address';
  if (environment === 'production') return 'is a loopback or private address';
  return localForStaging ? null : `is a loopback or private address${LOCAL_HINT}`;
}

// Names that mean something only on this machine or a local network (RFC 6761, 6762, 8375, 9476,
// ICANN's .internal, common private zones, reverse-lookup zones under .arpa, home.arpa among them).
const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'arpa',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
];

/** Why a host name cannot be a public destination, or null. */
function nameProblem(host: string): string | null {
  const suffix = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) return `${host} is under .${suffix}, which is not a public domain`;
  return host.includes('.')
    ? null
    : `${host} is a single-label name, which only resolves on a local network`;
}

/** The host as it is resolved and dialled: no IPv6 brackets, no trailing dots, lower case. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/**
 * Why a webhook URL may not receive events of an environment, judged without DNS, or null. URL
 * parsing has already turned decimal, octal and hex IPv4 spellings into dotted quads and IPv6 into
 * its canonical form, so literal addresses are checked whatever way they were written. Names are
 * checked against DNS by the caller; local-only names are refused here unless local receivers are
 * allowed (see addressProblem).
 */
export function webhookUrlProblem(
  raw: string,
  environment: Environment,
  localForStaging: boolean,
): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'must be an absolute http(s) URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (environment === 'production' && url.protocol !== 'https:')
    return 'must use https for production keys';
  const host = hostOf(url);
  if (isIP(host)) {
    const problem = addressProblem(host, environment, localForStaging);
    return problem ? `must point to a public address: ${host} ${problem}` : null;
  }
  const problem = environment === 'staging' && localForStaging ? null : nameProblem(host);
  if (!problem) return null;
  return `must point to a public host: ${problem}${environment === 'staging' ? LOCAL_HINT : ''}`;
}
