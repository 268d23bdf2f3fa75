import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.ts';
import { Destinations, type Resolver } from './destinations.ts';

const PUBLIC = ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];

const table: Record<string, string[]> = {
  'hooks.example.com': PUBLIC,
  'rebind.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.215.14', '10.0.0.7'],
  'metadata.example.com': ['169.254.169.254'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'six-to-four.example.com': ['2002:a9fe:a9fe::1'],
  'empty.example.com': [],
  localhost: ['127.0.0.1', '::1'],
};
const resolve: Resolver = async (host) => {
  const answer = table[host.replace(/\.$/, '')];
  if (!answer)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

const strict = new Destinations(false, resolve);
const local = new Destinations(true, resolve);

afterEach(() => {
  vi.useRealTimers();
});

describe('destinations, checked with DNS when a URL is set', () => {
  it('accepts a name whose every address is public', async () => {
    expect(await strict.problem('https://hooks.example.com/x', 'production')).toBeNull();
    expect(await strict.problem('http://hooks.example.com./x', 'staging')).toBeNull();
  });

  it.each(['rebind', 'mixed', 'metadata', 'nat64', 'mapped', 'six-to-four'])(
    'refuses %s.example.com, which resolves to a refused address',
    async (name) => {
      for (const env of ['production', 'staging'] as const) {
        expect(await strict.problem(`https://${name}.example.com/x`, env)).toMatch(
          /^must point to a public address: .* resolves to /,
        );
      }
    },
  );

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    expect(await strict.problem('https://nowhere.example.com/x', 'production')).toMatch(
      /could not be resolved \(ENOTFOUND\)/,
    );
    expect(await strict.problem('https://empty.example.com/x', 'staging')).toMatch(
      /has no addresses/,
    );
  });

  it('refuses a name whose resolver does not answer in time, without holding the request', async () => {
    vi.useFakeTimers();
    const hanging = new Destinations(false, () => new Promise<string[]>(() => {}));
    const answer = hanging.problem('https://slow.example.com/x', 'production');
    await vi.advanceTimersByTimeAsync(3000);
    expect(await answer).toMatch(/could not be resolved \(ETIMEOUT\)/);
  });

  it('with local destinations on, lets staging (only) reach names that resolve to loopback, never to metadata', async () => {
    expect(await local.problem('http://localhost:4000/x', 'staging')).toBeNull();
    expect(await local.problem('http://rebind.example.com:4000/x', 'staging')).toBeNull();
    expect(await local.problem('https://rebind.example.com/x', 'production')).toMatch(
      /loopback or private/,
    );
    expect(await local.problem('https://localhost/x', 'production')).toMatch(
      /localhost is under \.localhost/,
    );
    expect(await local.problem('http://metadata.example.com/x', 'staging')).toMatch(
      /not a globally routable address/,
    );
    expect(await strict.problem('http://localhost:4000/x', 'staging')).toMatch(
      /WEBHOOK_LOCAL_DESTINATIONS=on/,
    );
  });

  it("answers 400 VALIDATION_ERROR for an app's URL that is refused for the environment its keys serve", async () => {
    await expect(
      strict.requireAppUrl('http://hooks.example.com/x', 'staging'),
    ).resolves.toBeUndefined();
    await expect(strict.requireAppUrl(null, 'production')).resolves.toBeUndefined();
    const err = await strict
      .requireAppUrl('http://[::ffff:a9fe:a9fe]/x', 'staging')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ field: 'webhook_url' }],
    });
    await expect(
      local.requireAppUrl('http://127.0.0.1:4000/x', 'staging'),
    ).resolves.toBeUndefined();
    // An app with a production key: https and public addresses only, local receivers or not.
    await expect(
      strict.requireAppUrl('https://hooks.example.com/x', 'production'),
    ).resolves.toBeUndefined();
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1:4000/x']) {
      const refused = await local.requireAppUrl(url, 'production').catch((e: unknown) => e);
      expect(refused, url).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(
          /\(the app has a production key; http and local receivers suit apps with staging keys alone\)\.$/,
        ),
      });
    }
  });
});

describe('the gate a connection resolves through when an event is sent', () => {
  const lookup = (d: Destinations, env: 'staging' | 'production', host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: string | LookupAddress[] }>((done) => {
      d.gate(env).lookup(host, { all }, (err, address) => done({ err, address }));
    });

  it('answers like dns.lookup for acceptable names', async () => {
    expect(await lookup(strict, 'production', 'hooks.example.com', true)).toEqual({
      err: null,
      address: [
        { address: PUBLIC[0], family: 4 },
        { address: PUBLIC[1], family: 6 },
      ],
    });
    expect((await lookup(strict, 'production', 'hooks.example.com', false)).address).toBe(
      PUBLIC[0],
    );
  });

  it('fails the lookup when any answer is refused, so nothing is dialled', async () => {
    for (const host of [
      'rebind.example.com',
      'mixed.example.com',
      'nat64.example.com',
      'empty.example.com',
    ]) {
      expect((await lookup(strict, 'staging', host, true)).err?.message, host).toMatch(
        /resolves to|no addresses/,
      );
    }
    expect((await lookup(strict, 'production', 'nowhere.example.com', false)).err?.message).toMatch(
      /ENOTFOUND/,
    );
    expect((await lookup(local, 'production', 'rebind.example.com', true)).err?.message).toMatch(
      /loopback or private/,
    );
    expect((await lookup(local, 'staging', 'rebind.example.com', true)).err).toBeNull();
  });

  it('checks literal addresses with the same rule', () => {
    expect(strict.gate('production').problem('::ffff:a9fe:a9fe')).toMatch(
      /not a globally routable/,
    );
    expect(local.gate('production').problem('127.0.0.1')).toMatch(/loopback or private/);
    expect(local.gate('staging').problem('127.0.0.1')).toBeNull();
    expect(strict.gate('staging').problem('8.8.8.8')).toBeNull();
  });
});
