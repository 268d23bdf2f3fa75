import type { Resolver } from '../../src/platform/outbound/destinations.ts';

/** Public addresses (example.com's) for names that must pass the destination policy. */
export const PUBLIC_ADDRESSES = ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];

/**
 * DNS for webhook destinations in tests (the machine has no external DNS): names answer from a
 * table that a test may change (to rebind a name); any other name does not resolve.
 */
export class FakeDns {
  readonly table = new Map<string, string[]>([
    ['example.com', PUBLIC_ADDRESSES],
    ['hooks.example.com', PUBLIC_ADDRESSES],
    ['localhost', ['127.0.0.1', '::1']],
  ]);

  readonly resolve: Resolver = async (hostname) => {
    const addresses = this.table.get(hostname.replace(/\.$/, '').toLowerCase());
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
}
