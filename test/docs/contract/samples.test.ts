import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PartnerClient } from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../../packages/sdk/src/cli/run.ts';
import {
  SAMPLED_OPERATIONS,
  samplesFor,
  type SampleInput,
} from '../../../src/platform/http/openapi-samples.ts';
import { sampleInput } from '../../../src/platform/http/openapi-html.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';

// The /docs code samples, run: the SDK's and ppctl's against a fetch that records what they send
// (it must be the operation's documented example, which test/docs/openapi-examples validates
// against the schema), curl's through bash and openssl against a real server, which must accept
// the signature and the body.

let p: TestPlatform;
let partner: PartnerSetup;
let tmp: string;
let ops: Array<{ id: string; input: SampleInput }>;
beforeAll(async () => {
  p = await startPlatform();
  partner = await createPartner(p, { scopes: ['*'] });
  tmp = await mkdtemp(join(tmpdir(), 'docs-samples-'));
  const doc = await (await p.fetch(`${p.url}/openapi.json`)).json();
  ops = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      id: op.operationId as string,
      input: sampleInput(path, method, op),
    })),
  );
});
afterAll(async () => {
  await p.close();
  await rm(tmp, { recursive: true, force: true });
});

interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** Runs `fn` with fetch recording each request and answering 200 `{status: "success", data: {}}`. */
async function recording(fn: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const fake = vi.fn(async (url: string | URL, init?: RequestInit) => {
    const u = new URL(String(url));
    sent.push({
      method: init?.method ?? 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(
      JSON.stringify({ status: 'success', message: 'ok', data: { orders: [], summary: {} } }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  });
  vi.stubGlobal('fetch', fake);
  try {
    await fn().catch(() => undefined); // a canned answer may not satisfy the command's printing: the request is what is checked
  } finally {
    vi.unstubAllGlobals();
  }
  return sent;
}

const expected = (x: SampleInput): Sent => ({
  method: x.method.toUpperCase(),
  path: x.path,
  query: Object.fromEntries(Object.entries(x.query).map(([k, v]) => [k, String(v)])),
  body: x.body,
});

describe('/docs code samples', () => {
  it('exist for every operation of the document, and only for those', () => {
    expect([...SAMPLED_OPERATIONS].sort()).toEqual(ops.map((o) => o.id).sort());
  });

  it('SDK: each sample calls its operation with the documented example', async () => {
    for (const { id, input } of ops) {
      const code = samplesFor(id, input)!
        .sdk.replace(/^import .*$/m, '')
        .replace('new PartnerClient', 'new deps.PartnerClient');
      const env = {
        PARTNER_API_KEY: 'pk_staging_x',
        PARTNER_SIGNING_SECRET: 'secret',
        PARTNER_BASE_URL: 'http://docs.example',
      };
      const body = `const process = { env: deps.env };\n${code}\nreturn result;`;
      const sent = await recording(() =>
        new Function('deps', `return (async () => { ${body} })();`)({ PartnerClient, env }),
      );
      expect(sent[0], id).toEqual(expected(input));
    }
  });

  it('ppctl: each command sends the documented example', async () => {
    for (const { id, input } of ops) {
      const s = samplesFor(id, input)!;
      if (s.ppctlFile) await writeFile(join(tmp, s.ppctlFile.name), s.ppctlFile.content);
      const argv = words(s.ppctl)
        .slice(1)
        .map((w) => (w === s.ppctlFile?.name ? join(tmp, w) : w));
      const err: string[] = [];
      const io = {
        out: () => {},
        err: (t: string) => err.push(t),
        env: {
          PARTNER_API_KEY: 'pk_staging_x',
          PARTNER_SIGNING_SECRET: 'secret',
          PARTNER_BASE_URL: 'http://docs.example',
          PARTNER_CONFIG_DIR: tmp,
        },
      } as any;
      const sent = await recording(() => run(argv, io));
      expect(err.join('\n'), id).not.toMatch(/usage|unknown|missing argument/i);
      // `health` asks both services; the bulk command sends the file's orders.
      const mine = sent.find((r) => r.path === input.path);
      expect(mine, `${id}: ${s.ppctl} sent ${JSON.stringify(sent)}`).toEqual(
        expected(s.ppctlOmits ? { ...input, body: s.ppctlOmits.body } : input),
      );
    }
  });

  it('curl: each sample, run by bash with openssl, is signed and shaped as the server accepts', async () => {
    const env = {
      PATH: process.env.PATH,
      PARTNER_API_KEY: partner.apiKey,
      PARTNER_SIGNING_SECRET: partner.signingSecret,
      PARTNER_BASE_URL: p.url,
    };
    const answers = await Promise.all(
      ops.map(async ({ id, input }) => {
        const script = `${samplesFor(id, input)!.curl} -o /dev/null -w "%{http_code}"`;
        return [
          id,
          Number((await promisify(execFile)('bash', ['-c', script], { env })).stdout),
        ] as const;
      }),
    );
    // Staging keys: production-only operations answer 403 and unknown example ids 404, after the signature and body were accepted.
    for (const [id, status] of answers)
      expect([200, 201, 403, 404, 409], `${id}: ${status}`).toContain(status);
  }, 180_000);
});

/** Splits the sample command as a POSIX shell would (bare words and single-quoted ones). */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!,
  );
}
