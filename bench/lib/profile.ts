/** Summarises V8 CPU profiles (`node --cpu-prof`) of a bench server: where its CPU time went. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CpuProfile, topSelfFrames } from './self-time.ts';

export interface ProfileSummary {
  totalMs: number;
  idleShare: number;
  /** Share of busy (non-idle) time per area, largest first. */
  areas: Array<{ area: string; share: number }>;
  /** The functions with the most self time, as a share of busy time. */
  functions: Array<{ fn: string; share: number }>;
}

/** Which part of the stack a frame belongs to. */
function area(url: string, fn: string): string {
  if (!url)
    return fn === '(garbage collector)'
      ? 'GC'
      : fn === '(program)'
        ? 'V8 (program)'
        : 'native calls (writev/writeBuffer: socket writes, syscalls)';
  if (url.startsWith('wasm://')) return 'PGlite (embedded database)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) {
    if (
      /^(fastify|@fastify\/|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|secure-json-parse)/.test(
        pkg,
      )
    )
      return 'fastify (routing, serialisation)';
    if (/^(ajv|ajv-formats|@sinclair\/typebox)$/.test(pkg)) return 'validation (ajv)';
    if (/^(pg|pg-protocol|pg-types|pg-pool|postgres-.*|pgpass)$/.test(pkg)) return 'pg driver';
    if (/^(ioredis|@ioredis\/|redis-.*|denque|cluster-key-slot)/.test(pkg)) return 'redis client';
    if (/^(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact)$/.test(pkg))
      return 'logging (pino)';
    if (/^@electric-sql\/pglite$/.test(pkg)) return 'PGlite (embedded database)';
    if (/^(tsx|esbuild|get-tsconfig)$/.test(pkg)) return 'module loading (start-up, tsx)';
    return `other packages (${pkg})`;
  }
  if (/^node:internal\/(modules|source_map|deps\/cjs-module-lexer|bootstrap)/.test(url))
    return 'module loading (start-up, tsx)';
  if (url.startsWith('node:')) {
    if (/^node:(events|internal\/process\/task_queues|internal\/timers|timers)/.test(url))
      return 'node event loop (events, microtasks, timers)';
    if (
      /^node:(internal\/)?(http|_http|net|stream|internal\/streams|internal\/http|dns|tls|internal\/stream_base)/.test(
        url,
      )
    )
      return 'node http/net/streams';
    if (/crypto/.test(url)) return 'node crypto';
    return 'node core (other)';
  }
  const src = /\/src\/(.+)$/.exec(url)?.[1];
  if (src) {
    if (src.startsWith('platform/auth') || src.startsWith('platform/guard'))
      return 'app: auth + guard (signing, nonce, limits)';
    if (src.startsWith('platform/db')) return 'app: db wrapper';
    if (src.startsWith('platform/')) return 'app: platform (http, errors, ids)';
    if (src.startsWith('modules/wallet')) return 'app: wallet';
    if (/^modules\/delivery\/domain\/(holidays|calendar)/.test(src))
      return 'app: delivery calendar (holidays, windows)';
    if (src.startsWith('modules/')) return `app: ${src.split('/')[1]}`;
    return 'app: other';
  }
  return 'other';
}

export function summariseProfiles(dir: string, top = 12): ProfileSummary | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  if (files.length === 0) return undefined;
  // `node --import tsx` also profiles tsx's loader thread; the main thread is the busiest profile.
  const busiest = files
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile)
    .map((prof) => {
      const idleIds = new Set(
        prof.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
      );
      return {
        prof,
        busy: prof.samples.reduce(
          (sum, id, i) => sum + (idleIds.has(id) ? 0 : (prof.timeDeltas[i] ?? 0)),
          0,
        ),
      };
    })
    .sort((a, b) => b.busy - a.busy)[0]!.prof;
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const byId = new Map(busiest.nodes.map((n) => [n.id, n.callFrame]));
  busiest.samples.forEach((id, i) => {
    const us = busiest.timeDeltas[i] ?? 0;
    const frame = byId.get(id);
    if (!frame) return;
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    const a = area(frame.url, frame.functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
  });
  const busy = Math.max(1, total - idle);
  return {
    totalMs: total / 1000,
    idleShare: idle / Math.max(1, total),
    areas: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => ({ area: k, share: v / busy })),
    functions: topSelfFrames(busiest, top).frames.map((f) => ({ fn: f.frame, share: f.share })),
  };
}

export function printProfile(title: string, p: ProfileSummary): void {
  console.log(
    `\n${title}: main thread, ${(p.totalMs / 1000).toFixed(1)} s profiled, ${(p.idleShare * 100).toFixed(0)}% idle; busy time by area:`,
  );
  for (const a of p.areas.slice(0, 10))
    console.log(`  ${(a.share * 100).toFixed(1).padStart(5)}%  ${a.area}`);
  console.log('  top functions by self time:');
  for (const f of p.functions) console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.fn}`);
}
