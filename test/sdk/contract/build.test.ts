import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSandboxQuickstart } from '../../../src/modules/accounts/quickstart.ts';
import {
  createPartner,
  singlePass,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { ROOT } from '../../helpers/process.ts';

// The package as a consumer gets it: packed with `npm pack` (its prepack builds it, ESM and
// CommonJS, and bundles the protocol package), installed from the tarball into an empty project
// with no registry, imported by its name with `import` and `require`, type-checked from
// TypeScript, and running the READMEs' first examples as pasted.

const npmAvailable = (() => {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('NOTICE: SDK package tests skipped: npm is not on PATH');
    return false;
  }
})();

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

function run(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  command = process.execPath,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 90_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

let p: TestPlatform;
let s: PartnerSetup;
let tmp: string;
let dir: string;
let pkg: string;

/**
 * `npm pack` of the SDK, then `npm install <tarball>` into an empty project, offline. The two
 * workspace packages are packed from a copy (sharing the repository's node_modules for tsc), so
 * the build writes nothing into the repository while other tests read it.
 */
async function packAndInstall(): Promise<void> {
  const repo = join(tmp, 'repo');
  const sources = (path: string) => !/[\\/](dist|node_modules)$/.test(path);
  await Promise.all(
    ['sdk', 'protocol'].map((name) =>
      cp(join(ROOT, 'packages', name), join(repo, 'packages', name), {
        recursive: true,
        filter: sources,
      }),
    ),
  );
  await cp(join(ROOT, 'scripts/commonjs-dist.mjs'), join(repo, 'scripts/commonjs-dist.mjs'));
  await symlink(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'junction');
  const pack = await run(
    ['pack', '--pack-destination', tmp],
    join(repo, 'packages/sdk'),
    {},
    'npm',
  );
  expect(pack, pack.stdout + pack.stderr).toMatchObject({ code: 0 });
  const tarball = (await readdir(tmp)).find((f) => f.endsWith('.tgz'))!;
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  const install = await run(
    ['install', '--offline', '--no-audit', '--no-fund', join(tmp, tarball)],
    dir,
    {},
    'npm',
  );
  expect(install, install.stdout + install.stderr).toMatchObject({ code: 0 });
}

const CONSUMER_MJS = `
import { NotFoundError, OPERATIONS, PartnerApiError, PartnerClient, signRequest, verifyWebhook } from '@partner-platform/sdk';
const client = new PartnerClient({ apiKey: process.env.KEY, signingSecret: process.env.SECRET, baseUrl: process.env.URL });
const health = await client.delivery.health();
const estimate = await client.delivery.orders.estimate({ delivery_location: { coordinates: { lat: 5.635, lng: -0.161 } } });
let notFound;
try {
  await client.delivery.orders.get('dlv_00000000000000000000000000');
} catch (err) {
  notFound = { typed: err instanceof NotFoundError && err instanceof PartnerApiError, code: err.code };
}
const signature = signRequest('sk_example_secret', {
  timestamp: '1763683200', nonce: '6f1c2a9e-4b7d-4e3a-9c51-0d2f8e7a1b3c', method: 'POST',
  url: '/api/v1/delivery/orders.get', body: '{"order_id":"dlv_01HZX"}',
});
console.log(JSON.stringify({ health, price: estimate.data.estimated_price, notFound, signature, operations: Object.keys(OPERATIONS).length, verify: typeof verifyWebhook }));
`;

const CONSUMER_CJS = `
const { NotFoundError, PartnerApiError, PartnerClient, PartnerConfigError, USER_AGENT, verifyWebhook } = require('@partner-platform/sdk');
const client = new PartnerClient({ apiKey: process.env.KEY, signingSecret: process.env.SECRET, baseUrl: process.env.URL });
let config;
try {
  new PartnerClient({ apiKey: process.env.KEY, baseUrl: process.env.URL });
} catch (err) {
  config = err instanceof PartnerConfigError && err.message;
}
client.delivery.health().then(async (health) => {
  const notFound = await client.delivery.orders.get('dlv_00000000000000000000000000').catch((err) => err instanceof NotFoundError && err instanceof PartnerApiError && err.code);
  console.log(JSON.stringify({ health, notFound, config, userAgent: USER_AGENT, verify: typeof verifyWebhook }));
});
`;

const CONSUMER_TS = `
import { PartnerClient, RateLimitError, type CreateOrderRequest, type Tracking } from '@partner-platform/sdk';
const client = new PartnerClient({ apiKey: 'pk_staging_x', signingSecret: 'sk_x', baseUrl: 'http://localhost:8080', maxRetries: 3 });
export async function demo(order: CreateOrderRequest): Promise<Tracking> {
  const created = await client.delivery.orders.create(order);
  const id: string = created.data.order_details.order_id;
  // @ts-expect-error a number is not an order id
  await client.delivery.orders.cancel(42);
  // @ts-expect-error payment_method is online or cod
  await client.catalog.orders.create({ payment_method: 'card' });
  const err = new RateLimitError(429, 'RATE_LIMITED', 'slow', 'req_1', undefined, { 'retry-after': '3' });
  const wait: number | undefined = err.retryAfterSeconds;
  void wait;
  return (await client.delivery.orders.track(id)).data;
}
`;

const CONSUMER_CTS = `
import sdk = require('@partner-platform/sdk');
const client = new sdk.PartnerClient({ apiKey: 'pk_staging_x', signingSecret: 'sk_x', baseUrl: 'http://localhost:8080' });
export const estimate = (): Promise<sdk.EstimateResponse> => client.delivery.orders.estimate({ delivery_location: { coordinates: { lat: 5.6, lng: -0.2 } } });
// @ts-expect-error a number is not an order id
void client.delivery.orders.get(42);
`;

/** The first js or ts code block of a README, dedented (it may sit in a list item): what a reader pastes. */
function firstExample(readme: string): string {
  const block = /^( *)```(?:js|ts)\n([\s\S]*?)^\1```$/m.exec(readme);
  if (!block) throw new Error('the README has no js or ts code block');
  return block[2]!.replace(new RegExp(`^${block[1]}`, 'gm'), '');
}

/** The same example through require(): its imports become requires, its top-level awaits an async function's. */
function asCommonJs(code: string): string {
  const body = code.replace(
    /^import \{([^}]+)\} from '([^']+)';$/gm,
    (_, names: string, from: string) => `const {${names}} = require('${from}');`,
  );
  expect(body).not.toMatch(/^import /m);
  return `(async () => {\n${body}})().catch((err) => {\n  console.error(err);\n  process.exitCode = 1;\n});\n`;
}

// What is tested is the package, packed and installed the same in either pass: one pass runs it.
describe.runIf(npmAvailable && singlePass)('the built package', () => {
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sdk-build-'));
    dir = join(tmp, 'consumer');
    pkg = join(dir, 'node_modules/@partner-platform/sdk');
    await Promise.all([
      packAndInstall(),
      (async () => {
        p = await startPlatform();
        // What `npm start` writes on an empty database, where the repository README's example reads it.
        const { db, accounts, config } = p.app.platform;
        if (
          (await ensureSandboxQuickstart(db, accounts, join(dir, 'data'), config.publicBaseUrl))
            .length === 0
        )
          throw new Error('no sandbox quick start');
        s = await createPartner(p);
      })(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('emits ESM and CommonJS with declarations for every module, the import paths rewritten to .js', async () => {
    const files = await readdir(join(pkg, 'dist'), { recursive: true });
    for (const name of [
      'index.js',
      'index.d.ts',
      'client.js',
      'types.d.ts',
      'version.js',
      'cli/main.js',
      'cli/run.js',
    ])
      expect(files).toContain(name);
    for (const name of ['index.js', 'index.d.ts', 'client.js', 'version.js', 'package.json'])
      expect(files).toContain(`cjs/${name}`);
    expect(files.filter((f) => f.startsWith('cjs/cli/'))).toEqual([]);
    const index = await readFile(join(pkg, 'dist/index.js'), 'utf8');
    expect(index).toMatch(/from "\.\/client\.js"/);
    expect(index).not.toMatch(/\.ts"/);
    expect(await readFile(join(pkg, 'dist/cjs/index.js'), 'utf8')).toMatch(
      /require\("\.\/client\.js"\)/,
    );
    expect(JSON.parse(await readFile(join(pkg, 'dist/cjs/package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
    const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      license: 'MIT',
      repository: { type: 'git', directory: 'packages/sdk' },
    });
    const { import: esm, require: cjs } = manifest.exports['.'];
    for (const target of [
      esm.types,
      esm.default,
      cjs.types,
      cjs.default,
      manifest.bin.ppctl,
      manifest.main,
      manifest.types,
    ]) {
      expect(existsSync(join(pkg, target)), target).toBe(true);
    }
    expect(
      (await readFile(join(pkg, manifest.bin.ppctl), 'utf8')).startsWith('#!/usr/bin/env node\n'),
    ).toBe(true);
    // The protocol package travels inside the tarball, in both forms: nothing else is installed.
    for (const form of ['dist/index.js', 'dist/cjs/index.js'])
      expect(existsSync(join(pkg, 'node_modules/@partner-platform/protocol', form)), form).toBe(
        true,
      );
    expect(await readdir(join(dir, 'node_modules/@partner-platform'))).toEqual(['sdk']);
  });

  it('is imported by name from a plain .mjs script in another process, and calls the real server', async () => {
    await writeFile(join(dir, 'consumer.mjs'), CONSUMER_MJS);
    const res = await run(['consumer.mjs'], dir, {
      KEY: s.apiKey,
      SECRET: s.signingSecret,
      URL: p.url,
    });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      health: { status: 'ok' },
      price: expect.any(Number),
      notFound: { typed: true, code: 'ORDER_NOT_FOUND' },
      signature: 'e23ec0b87ec2919995239c4a6f300c89bd52ea8237877c830af28c88c02fcfed',
      operations: 26,
      verify: 'function',
    });
  });

  it('is required by name from a CommonJS script, with the same classes and errors', async () => {
    await writeFile(join(dir, 'consumer.cjs'), CONSUMER_CJS);
    const res = await run(['consumer.cjs'], dir, {
      KEY: s.apiKey,
      SECRET: s.signingSecret,
      URL: p.url,
    });
    expect(res.stderr).toBe('');
    const version = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')).version;
    expect(JSON.parse(res.stdout)).toEqual({
      health: { status: 'ok' },
      notFound: 'ORDER_NOT_FOUND',
      config: expect.stringMatching(/^signingSecret is required \(sk_staging_/),
      userAgent: `partner-platform-sdk/${version} node/${process.versions.node}`,
      verify: 'function',
    });
  });

  it('type-checks strict TypeScript consumers, ESM and CommonJS, against the emitted declarations', async () => {
    await writeFile(join(dir, 'consumer.mts'), CONSUMER_TS);
    await writeFile(join(dir, 'consumer.cts'), CONSUMER_CTS);
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['consumer.mts', 'consumer.cts'],
    };
    // skipLibCheck keeps it quick; the @ts-expect-error lines fail if the declarations resolved to any.
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const res = await run([TSC, '-p', dir], dir);
    expect(res.stdout + res.stderr).toBe('');
    expect(res.code).toBe(0);
  }, 60_000);

  it("runs the SDK README's first example as pasted, as ESM and through require; an unset variable is a PartnerConfigError", async () => {
    const code = firstExample(await readFile(join(ROOT, 'packages/sdk/README.md'), 'utf8'));
    await writeFile(join(dir, 'sdk-readme.mjs'), code);
    await writeFile(join(dir, 'sdk-readme.cjs'), asCommonJs(code));
    const env = {
      PARTNER_API_KEY: s.apiKey,
      PARTNER_SIGNING_SECRET: s.signingSecret,
      PARTNER_BASE_URL: p.url,
    };
    const [esm, cjs, unset] = await Promise.all([
      run(['sdk-readme.mjs'], dir, env),
      run(['sdk-readme.cjs'], dir, env),
      run(['sdk-readme.mjs'], dir, { ...env, PARTNER_SIGNING_SECRET: '' }),
    ]);
    for (const res of [esm, cjs]) {
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(/^\{ status: 'ok' \}\nfee \d+(\.\d+)?\n$/);
    }
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(
      /PartnerConfigError: signingSecret is required \(sk_staging_\.\.\. from data\/sandbox-credentials\.json/,
    );
    expect(unset.stdout).toBe('');
  });

  it("runs the repository README's first example as pasted, as ESM and through require, with the quick start's credentials", async () => {
    const code = firstExample(await readFile(join(ROOT, 'README.md'), 'utf8'));
    expect(code).toContain("readFileSync('data/sandbox-credentials.json'");
    await writeFile(join(dir, 'first-call.mjs'), code);
    await writeFile(join(dir, 'first-call.cjs'), asCommonJs(code));
    // One after the other: each makes its order_reference from the clock.
    for (const file of ['first-call.mjs', 'first-call.cjs']) {
      const res = await run([file], dir);
      expect(res.stderr, file).toBe('');
      expect(res.stdout, file).toMatch(/^\{ status: 'ok' \}\ndlv_\w+ placed\n$/);
    }
  });

  it('runs the built CLI', async () => {
    const res = await run([join(pkg, 'dist/cli/main.js'), '--help'], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: ppctl <command>/);
  });
});
