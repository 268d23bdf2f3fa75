import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closest, readLine } from '../src/cli/argv.ts';
import { ordersFromCsv } from '../src/cli/bulk.ts';
import { configDir, maskKey } from '../src/cli/config.ts';
import { table } from '../src/cli/output.ts';
import { PartnerClient, USER_AGENT } from '../src/client.ts';
import {
  apiErrorFrom,
  NotFoundError,
  PartnerApiError,
  PartnerConfigError,
  RateLimitError,
} from '../src/errors.ts';
import { classifyAnswer, neverSent } from '../src/retry.ts';
import { VERSION } from '../src/version.ts';

describe('retry rules', () => {
  it('retries what is safe per mode, and says whether a failed attempt may have landed', () => {
    expect(classifyAnswer(429, 'RATE_LIMITED', 'unsafe')).toEqual({
      retry: true,
      mayHaveLanded: false,
    });
    expect(classifyAnswer(503, 'SERVICE_UNAVAILABLE', 'unsafe')).toEqual({
      retry: true,
      mayHaveLanded: false,
    });
    expect(classifyAnswer(500, 'INTERNAL_ERROR', 'unsafe').retry).toBe(false);
    expect(classifyAnswer(500, 'INTERNAL_ERROR', 'create')).toEqual({
      retry: true,
      mayHaveLanded: true,
    });
    expect(classifyAnswer(502, 'GATEWAY_ERROR', 'create')).toEqual({
      retry: true,
      mayHaveLanded: false,
    });
    expect(classifyAnswer(504, undefined, 'idempotent')).toEqual({
      retry: true,
      mayHaveLanded: true,
    });
    expect(classifyAnswer(409, 'DUPLICATE_ORDER_REFERENCE', 'create').retry).toBe(false);
    expect(classifyAnswer(429, 'RATE_LIMITED', 'none').retry).toBe(false);
  });

  it('tells a connection that was never made from one that broke', () => {
    const wrap = (code: string) =>
      new Error('x', {
        cause: new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }),
      });
    expect(neverSent(wrap('ECONNREFUSED'))).toBe(true);
    expect(neverSent(wrap('ECONNRESET'))).toBe(false);
    expect(neverSent(new Error('x', { cause: { errors: [{ code: 'ECONNREFUSED' }] } }))).toBe(true);
  });

  it('maps statuses to error classes and reads the platform error body', () => {
    const err = apiErrorFrom(
      404,
      { status: 'error', code: 'ORDER_NOT_FOUND', message: 'No such order.', request_id: 'req_1' },
      {},
    );
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({
      status: 404,
      code: 'ORDER_NOT_FOUND',
      message: 'No such order.',
      requestId: 'req_1',
      name: 'NotFoundError',
    });
    const limited = apiErrorFrom(429, 'Too many', { 'retry-after': '12', 'x-request-id': 'req_2' });
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({
      code: 'UNKNOWN_ERROR',
      retryAfterSeconds: 12,
      requestId: 'req_2',
    });
    expect(apiErrorFrom(418, null, {}).constructor).toBe(PartnerApiError);
  });
});

describe('CLI helpers', () => {
  it('turns CSV rows into nested orders, leaving empty cells out', () => {
    const [order] = ordersFromCsv(
      'order_reference,customer_name,delivery_lat,delivery_lng,payment_is_paid,payment_amount\nr1,Ama,5.6,-0.18,yes,\n',
    );
    expect(order).toEqual({
      order_reference: 'r1',
      customer: { name: 'Ama' },
      delivery: { coordinates: { lat: 5.6, lng: -0.18 } },
      payment: { is_paid: true },
    });
    expect(() => ordersFromCsv('delivery_lat\nnorth\n')).toThrow(
      /line 2, delivery_lat must be a number/,
    );
    expect(() => ordersFromCsv('colour\nred\n')).toThrow(
      /unknown CSV column "colour".*orders bulk --help/,
    );
    expect(() => ordersFromCsv('')).toThrow(/empty/);
  });

  it('finds the config directory per platform; PARTNER_CONFIG_DIR wins', () => {
    expect(configDir({ PARTNER_CONFIG_DIR: '/x' }, 'linux', '/home/a')).toBe('/x');
    expect(configDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/a')).toBe(
      '/cfg/partner-platform',
    );
    expect(configDir({}, 'linux', '/home/a')).toBe('/home/a/.config/partner-platform');
    expect(configDir({}, 'darwin', '/Users/a')).toBe(
      '/Users/a/Library/Application Support/partner-platform',
    );
    expect(
      configDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a'),
    ).toMatch(/Roaming.partner-platform$/);
  });

  it('reads global options anywhere on a line and hands the rest to the command', () => {
    const line = readLine([
      'orders',
      '--json',
      'create',
      '-f',
      'order.json',
      '--base-url',
      'http://x',
    ]);
    expect(line.globals).toEqual({ json: true, 'base-url': 'http://x' });
    expect(line.words).toEqual(['orders', 'create', 'order.json']);
    expect(line.without(2)).toEqual(['--json', '-f', 'order.json', '--base-url', 'http://x']);
    expect(readLine(['--base-url=http://y', 'health']).globals['base-url']).toBe('http://y');
  });

  it('suggests the closest name for a slip, and nothing for a different word', () => {
    expect(closest('jsn', ['json', 'base-url', 'help'])).toBe('json');
    expect(closest('wallte', ['wallet', 'orders'])).toBe('wallet');
    expect(closest('craete', ['create', 'get', 'bulk'])).toBe('create');
    expect(closest('order', ['orders', 'estimate'])).toBe('orders');
    expect(closest('deliver', ['health', 'orders', 'wallet'])).toBeUndefined();
    expect(closest('x', ['json'])).toBeUndefined();
  });

  it('masks keys and aligns tables', () => {
    expect(maskKey('pk_staging_abcdefghijklmnop')).toBe('pk_staging_abcd…mnop');
    expect(maskKey('pk_production_short')).toBe('pk_production_****');
    expect(
      table(
        ['id', 'name'],
        [
          ['a', 'Accra'],
          ['bbb', undefined],
        ],
      ),
    ).toBe('ID   NAME\na    Accra\nbbb  -');
  });
});

describe('the client', () => {
  const good = {
    apiKey: 'pk_staging_k',
    signingSecret: 'sk_staging_s',
    baseUrl: 'http://localhost:8080',
  };
  const refused = (options: Record<string, unknown>) => {
    try {
      new PartnerClient(options as never);
    } catch (err) {
      expect(err).toBeInstanceOf(PartnerConfigError);
      return (err as Error).message;
    }
    throw new Error('expected new PartnerClient to throw');
  };

  it('refuses missing credentials and unusable addresses at construction, saying where to find them', () => {
    expect(refused({ ...good, signingSecret: undefined })).toBe(
      'signingSecret is required (sk_staging_... from data/sandbox-credentials.json, or from partner-admin keys create)',
    );
    expect(refused({ ...good, apiKey: ' ' })).toMatch(
      /^apiKey is required \(pk_staging_\.\.\. from data\/sandbox-credentials\.json/,
    );
    expect(refused({ ...good, baseUrl: undefined })).toMatch(
      /^baseUrl is required \(e\.g\. http:\/\/localhost:8080/,
    );
    expect(refused({ ...good, baseUrl: 'localhost:8080' })).toBe(
      'baseUrl must be an http(s) URL such as http://localhost:8080, not "localhost:8080"',
    );
    expect(refused({ ...good, catalogBaseUrl: 'ftp://x' })).toMatch(
      /^catalogBaseUrl must be an http\(s\) URL/,
    );
    expect(() => new PartnerClient(good).withOptions({ signingSecret: '' })).toThrow(
      PartnerConfigError,
    );
  });

  it("names itself and its version in User-Agent; the version is the package's", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
    expect(USER_AGENT).toBe(`partner-platform-sdk/${pkg.version} node/${process.versions.node}`);
    let sent: Record<string, string> = {};
    const fetchImpl: typeof fetch = async (_url, init) => {
      sent = init!.headers as Record<string, string>;
      return new Response('{"status":"ok"}', { status: 200 });
    };
    await new PartnerClient({ ...good, fetch: fetchImpl }).delivery.health();
    expect(sent['user-agent']).toBe(USER_AGENT);
  });
});
