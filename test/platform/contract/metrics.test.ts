import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  createPartner,
  onPostgres,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { freePort } from '../../helpers/process.ts';
import type { PromHistogramData } from 'prom2javascript';
import { Scrape } from '../../helpers/prometheus.ts';
import { topUp, walletPartner } from '../../wallet/helpers.ts';

const HEALTH = '/api/v1/delivery/health';

let p: TestPlatform;
let s: PartnerSetup;
beforeAll(async () => {
  p = await startPlatform();
  s = await createPartner(p, { rateLimits: { reads_per_minute: 3, writes_per_minute: 3 } });
});
afterAll(() => p.close());

async function scrape(
  url = `${p.url}/metrics`,
  headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` },
): Promise<Scrape> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return Scrape.parse(await res.text());
}

const badlySigned = () =>
  p.fetch(`${p.url}${HEALTH}`, {
    headers: {
      'x-api-key': s.apiKey,
      'x-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-nonce': crypto.randomUUID(),
      'x-signature': 'f'.repeat(64),
    },
  });

describe('/metrics', () => {
  it('needs the operator token when METRICS_PORT is not set', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }] as Record<
      string,
      string
    >[]) {
      const res = await p.fetch(`${p.url}/metrics`, { headers });
      expect([res.status, (await res.json()).code]).toEqual([401, 'INVALID_ADMIN_TOKEN']);
    }
  });

  it('times a signed call under its operation id and status, and other routes by pattern, never by raw URL', async () => {
    expect((await s.client.send('GET', HEALTH)).status).toBe(200);
    expect((await p.fetch(`${p.url}/no/such/route`)).status).toBe(404);
    const m = await scrape();
    expect(m.type('http_request_duration_seconds')).toBe('histogram');
    const health = m.histogram('http_request_duration_seconds', {
      operation: 'delivery.health',
      status_code: '200',
    });
    expect(health?.count).toBeGreaterThanOrEqual(1);
    expect(health?.sum).toBeGreaterThan(0);
    const counts = Object.entries(health!.buckets)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, c]) => c);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(
      m.histogram('http_request_duration_seconds', {
        operation: 'POST /admin/v1/partners/:partner_id/apps',
        status_code: '201',
      })?.count,
    ).toBeGreaterThanOrEqual(1);
    expect(
      m.histogram('http_request_duration_seconds', { operation: 'unmatched', status_code: '404' })
        ?.count,
    ).toBeGreaterThanOrEqual(1);
    const operations = m
      .series<PromHistogramData>('http_request_duration_seconds')
      .map((x) => x.labels.operation!);
    expect(operations.filter((o) => o.includes(s.partnerId) || o.includes('/no/such'))).toEqual([]);
  });

  it('counts auth pipeline outcomes by error code, and rate-limit rejections by access kind', async () => {
    const before = await scrape();
    expect((await badlySigned()).status).toBe(401);
    const other = await createPartner(p, {
      rateLimits: { reads_per_minute: 1, writes_per_minute: 1 },
    });
    expect((await other.client.send('GET', HEALTH)).status).toBe(200);
    expect((await other.client.send('GET', HEALTH)).status).toBe(429);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta('auth_outcomes_total', { outcome: 'INVALID_SIGNATURE' })).toBe(1);
    expect(delta('auth_outcomes_total', { outcome: 'RATE_LIMITED' })).toBe(1);
    expect(delta('auth_outcomes_total', { outcome: 'ok' })).toBe(1);
    expect(delta('rate_limit_rejections_total', { access: 'read' })).toBe(1);
    expect(delta('rate_limit_rejections_total', { access: 'write' })).toBe(0);
  });

  it('reports the webhook backlog from the outbox at scrape time', async () => {
    const row = (id: string, status: string, ageSeconds: number) =>
      p.app.platform.db.query(
        `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload, delivery_status, created_at)
         values ($1, $2, 'staging', 'delivery.order.created', $1, 1, '{}', $3, now() - make_interval(secs => $4))`,
        [id, s.appId, status, ageSeconds],
      );
    await row('evt_metrics_old', 'pending', 120);
    await row('evt_metrics_new', 'pending', 1);
    await row('evt_metrics_dead', 'dead', 3600);
    await row('evt_metrics_done', 'delivered', 7200);
    const m = await scrape();
    expect(m.value('webhook_backlog_events', { status: 'pending' })).toBe(2);
    expect(m.value('webhook_backlog_events', { status: 'dead' })).toBe(1);
    const age = m.value('webhook_backlog_oldest_pending_age_seconds');
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(180);
  });

  it('reports pool use, background jobs, Node itself, top-ups and ledger journals', async () => {
    const before = await scrape();
    await topUp(await walletPartner(p), 50);
    const m = await scrape();
    // The embedded database is one session; PostgreSQL a pool of DATABASE_POOL_SIZE (10 by default).
    expect(m.value('db_pool_max_connections')).toBe(onPostgres ? 10 : 1);
    expect(m.value('db_pool_open_connections')).toBeGreaterThanOrEqual(1);
    expect(m.find('db_pool_waiting')).toBeDefined();
    expect(m.value('job_interval_seconds', { job: 'safe-catalog-sales' })).toBeGreaterThan(0);
    expect(m.find('job_lag_seconds', { job: 'safe-catalog-sales' })).toBeDefined();
    expect(m.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    const delta = (name: string, labels: Record<string, string>) =>
      m.value(name, labels) - before.value(name, labels);
    expect(delta('wallet_topups_total', { outcome: 'initiated' })).toBe(1);
    expect(delta('wallet_topups_total', { outcome: 'credited' })).toBe(1);
    expect(delta('ledger_journals_posted_total', { kind: 'wallet_topup' })).toBe(1);
  });
});

describe('/metrics on METRICS_PORT', () => {
  it('is served there without a token, and not beside the operator API', async () => {
    const port = await freePort();
    const q = await startPlatform({ env: { METRICS_PORT: String(port) } });
    try {
      expect(
        (await q.fetch(`${q.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }))
          .status,
      ).toBe(404);
      const m = await scrape(`http://127.0.0.1:${port}/metrics`, {});
      expect(m.type('http_request_duration_seconds')).toBe('histogram');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await q.close();
    }
  });
});
