/**
 * `npm run openapi`: writes docs/openapi.json from the operations the server mounts, through the
 * same code that serves GET /openapi.json, so the file is never a hand-written copy. The
 * test/docs tests fail when the file is stale. PUBLIC_BASE_URL sets `servers` (default
 * http://localhost:8080).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const out = new URL('../docs/openapi.json', import.meta.url);

// Only what shapes the document: an in-memory database, no Redis, no operator API, no workers.
const config = loadConfig({
  DATABASE_URL: 'memory:',
  LOG_LEVEL: 'silent',
  SANDBOX_COURIER_STEP_SECONDS: '0',
  ...(process.env.PUBLIC_BASE_URL ? { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL } : {}),
});
const app = await buildApp(config);
try {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200)
    throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
  await mkdir(new URL('.', out), { recursive: true });
  await writeFile(out, `${JSON.stringify(res.json(), null, 2)}\n`);
  const doc = res.json() as { paths: Record<string, object> };
  console.log(`wrote ${out.pathname}: ${Object.keys(doc.paths).length} paths`);
} finally {
  await app.close();
}
