import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '@partner-platform/sdk';
import { STATUS_OF_CODE } from '../../../src/platform/http/openapi-errors.ts';
import { adminOperationId, adminPath } from '../../../src/platform/http/openapi-admin.ts';
import { SIGNING_VECTOR } from '../../../src/platform/http/openapi-text.ts';
import { ADMIN_TOKEN, startPlatform, type TestPlatform } from '../../helpers/harness.ts';

type Doc = Record<string, any>;

/**
 * Every route Fastify actually mounted, from its route tree (`printRoutes`), so the check does not
 * trust app.platform.operations: a route mounted some other way would show up here and fail.
 */
function mountedRoutes(app: FastifyInstance): Array<{ path: string; method: string }> {
  const out: Array<{ path: string; method: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack[depth] = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    for (const method of m[3]?.split(', ') ?? [])
      if (method !== 'HEAD') out.push({ path: stack[depth]!, method });
  }
  return out;
}

/** JSON pointer resolution inside the document. */
function resolve(doc: Doc, pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, found));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('OpenAPI document', () => {
  let p: TestPlatform;
  let doc: Doc;
  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    const res = await p.fetch(`${p.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = await res.json();
  });
  afterAll(() => p?.close());

  const operation = (path: string, method: string) => doc.paths[path]?.[method.toLowerCase()];

  it('is OpenAPI 3.1 in shape, version 1.0.0, served at the public base URL', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '1.0.0' });
    expect(doc.servers).toEqual([
      expect.objectContaining({ url: p.app.platform.config.publicBaseUrl }),
    ]);
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      expect(path).toMatch(/^\//);
      for (const [method, op] of Object.entries(item)) {
        expect(HTTP_METHODS).toContain(method);
        expect(ids.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const status of Object.keys(op.responses))
          expect(status).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        for (const req of op.security)
          for (const scheme of Object.keys(req))
            expect(doc.components.securitySchemes[scheme]).toBeDefined();
      }
    }
    for (const tag of doc.tags)
      expect(tag).toMatchObject({ name: expect.any(String), description: expect.any(String) });
  });

  it('resolves every $ref', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//);
      expect(resolve(doc, ref), `unresolved ${ref}`).toBeDefined();
    }
  });

  it('documents every partner route Fastify mounted under /api/v1, with its method, and nothing else', () => {
    const mounted = mountedRoutes(p.app).filter((r) => r.path.startsWith('/api/v1/'));
    expect(mounted.length).toBeGreaterThanOrEqual(p.app.platform.operations.length);
    for (const r of mounted)
      expect(operation(r.path, r.method), `${r.method} ${r.path} is missing`).toBeDefined();
    const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(mounted.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('describes each operation from the schemas the server validates with: id, tag, scope, body, query', () => {
    for (const op of p.app.platform.operations) {
      const d = operation(op.path, op.method);
      expect(d, op.id).toBeDefined();
      expect(d).toMatchObject({
        operationId: op.id,
        tags: [op.service],
        summary: op.summary,
        'x-scopes': [op.scope],
        'x-production-only': Boolean(op.productionOnly),
      });
      expect(d.description).toContain(op.scope);
      // The key (either header) with its scope, and the three signature headers, all together.
      const signed = { Signature: [], Timestamp: [], Nonce: [] };
      expect(d.security).toEqual([
        { ApiKey: [op.scope], ...signed },
        { BearerKey: [op.scope], ...signed },
      ]);
      const body = op.body ?? op.documentedBody;
      // The very schema object the route was mounted with (TypeBox symbols aside): no hand-written copy.
      if (body)
        expect(d.requestBody.content['application/json'].schema).toEqual(
          JSON.parse(JSON.stringify(body)),
        );
      else expect(d.requestBody).toBeUndefined();
      const query = op.querystring
        ? Object.keys(JSON.parse(JSON.stringify(op.querystring)).properties)
        : [];
      expect((d.parameters ?? []).map((q: any) => q.name)).toEqual(query);
      if (op.response)
        expect(
          d.responses[String(op.successStatus ?? 200)].content['application/json'].schema,
        ).toEqual(JSON.parse(JSON.stringify(op.response)));
    }
  });

  it('lists every error code an operation can answer, under the status errors.ts gives it', () => {
    const shared401 = [
      'MISSING_API_KEY',
      'INVALID_API_KEY',
      'MISSING_SIGNATURE',
      'INVALID_TIMESTAMP',
      'STALE_REQUEST',
      'INVALID_NONCE',
      'INVALID_SIGNATURE',
      'SIGNING_NOT_CONFIGURED',
    ];
    for (const op of p.app.platform.operations) {
      const responses = operation(op.path, op.method).responses as Record<string, any>;
      const codes = new Map<string, number>();
      for (const [status, res] of Object.entries(responses)) {
        if (!/^[45]/.test(status)) continue;
        const schema = res.content['application/json'].schema;
        expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
        for (const code of schema.allOf[1].properties.code.enum) codes.set(code, Number(status));
        expect(Object.keys(res.content['application/json'].examples).sort()).toEqual(
          [...schema.allOf[1].properties.code.enum].sort(),
        );
      }
      for (const [code, status] of codes)
        expect(status, `${op.id} ${code}`).toBe(STATUS_OF_CODE.get(code));
      const expected = [
        ...shared401,
        'INSUFFICIENT_SCOPE',
        'PARTNER_INACTIVE',
        'ENVIRONMENT_NOT_ACTIVE',
        'NONCE_REPLAYED',
        'RATE_LIMITED',
        'SERVICE_UNAVAILABLE',
        'INTERNAL_ERROR',
        ...(op.errorCodes ?? []),
      ];
      if (op.body || op.parseBody) expected.push('INVALID_JSON', 'PAYLOAD_TOO_LARGE');
      for (const code of expected) expect(codes.has(code), `${op.id} lacks ${code}`).toBe(true);
      expect(codes.has('PRODUCTION_KEY_REQUIRED'), op.id).toBe(Boolean(op.productionOnly));
      expect(Object.keys(responses['429'].headers)).toEqual(
        expect.arrayContaining([
          'Retry-After',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ]),
      );
      const success = responses[String(op.successStatus ?? 200)];
      expect(Object.keys(success.headers)).toEqual(
        expect.arrayContaining([
          'X-Request-Id',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ]),
      );
    }
  });

  it('documents the key and the three signature headers, with a signing recipe whose test vector holds', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.BearerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.Signature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Signature' });
    expect(schemes.Timestamp).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Timestamp' });
    expect(schemes.Nonce).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Nonce' });
    const v = SIGNING_VECTOR;
    expect(
      signRequest(v.secret, {
        timestamp: v.timestamp,
        nonce: v.nonce,
        method: v.method,
        url: v.url,
        body: v.body,
      }),
    ).toBe(v.signature);
    expect(schemes.Signature.description).toContain(v.signature);
    expect(schemes.Signature.description).toMatch(/HMAC-SHA256/);
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
      ]),
    );
    expect(doc.components.schemas.Error.required).toEqual([
      'status',
      'code',
      'message',
      'request_id',
    ]);
  });

  it('is public: no key, no signature', async () => {
    const res = await p.fetch(`${p.url}/openapi.json`, { headers: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('matches the committed docs/openapi.json (regenerate with `npx tsx scripts/openapi.ts`)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'),
    );
    expect({ ...committed, servers: undefined }).toEqual({ ...doc, servers: undefined });
  });

  it('serves the operator routes in a separate document behind the operator token', async () => {
    expect((await p.fetch(`${p.url}/admin/openapi.json`)).status).toBe(401);
    const wrong = await p.fetch(`${p.url}/admin/openapi.json`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect((await wrong.json()).code).toBe('INVALID_ADMIN_TOKEN');
    const res = await p.fetch(`${p.url}/admin/openapi.json`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const admin = await res.json();
    expect(admin).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } });
    const mounted = mountedRoutes(p.app).filter((r) => r.path.startsWith('/admin/v1/'));
    expect(mounted.length).toBe(p.app.platform.adminRoutes.length);
    for (const route of p.app.platform.adminRoutes) {
      const d = admin.paths[adminPath(route.url)]?.[route.method.toLowerCase()];
      expect(d, `${route.method} ${route.url}`).toMatchObject({
        operationId: adminOperationId(route),
        security: [{ AdminToken: [] }],
      });
      // Every templated segment is declared as a required path parameter.
      const declared = (d.parameters ?? [])
        .filter((q: any) => q.in === 'path' && q.required)
        .map((q: any) => q.name);
      expect(declared.sort()).toEqual(
        [...adminPath(route.url).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort(),
      );
    }
    for (const ref of refsIn(admin)) expect(resolve(admin, ref), ref).toBeDefined();
    // The partner document never shows operator routes.
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
  });

  it('renders /docs from the document with a strict CSP and every operation', async () => {
    const res = await p.fetch(`${p.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    const html = await res.text();
    // No inline script or style; its own two files, served by this server; every link stays here.
    expect(html).not.toMatch(/<script>|<style/i);
    expect(html.match(/<(?:script|link)\b[^>]*>/g)).toEqual([
      expect.stringMatching(/^<link rel="stylesheet" href="\/assets\/docs\.\w+\.css">$/),
      expect.stringMatching(/^<script src="\/assets\/docs\.\w+\.js" defer>$/),
    ]);
    expect(html.match(/\b(?:src|href)="(?![#/])[^"]*"/g) ?? []).toEqual([]);
    for (const op of p.app.platform.operations) {
      expect(html).toContain(op.id);
      expect(html).toContain(op.path);
    }
  });
});
