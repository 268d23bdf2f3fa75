/**
 * CPU profiles of the platform per measure (issue 30): the platform runs with its inspector on a
 * loopback port (`--inspect=127.0.0.1:0`), and the bench starts V8's sampling profiler just before a
 * measure's timed platform run and stops it just after, so that each profile holds that measure's
 * requests alone (not start-up, seeding or the other measures, as one `--cpu-prof` file written at
 * exit would). Each is saved as `<dir>/<measure>.cpuprofile` (open it in Chrome DevTools'
 * Performance panel or speedscope for the flame graph) and summarised by its top self-time frames.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildServer } from './server.ts';
import { type CpuProfile, type SelfFrame, topSelfFrames } from './self-time.ts';

/** Node options that open the inspector on a free loopback port (it prints its address on start). */
export const INSPECT_ARGS = ['--inspect=127.0.0.1:0'];

export interface MeasureProfile {
  measure: string;
  file: string;
  busyMs: number;
  frames: SelfFrame[];
}

/** One inspector session with the server, speaking the DevTools protocol over its WebSocket. */
export class MeasureProfiler {
  readonly profiles: MeasureProfile[] = [];
  private next = 1;
  private readonly pending = new Map<
    number,
    (reply: { result?: unknown; error?: unknown }) => void
  >();

  private constructor(
    private readonly socket: WebSocket,
    private readonly dir: string,
  ) {
    socket.addEventListener('message', (event) => {
      const reply = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (reply.id !== undefined) this.pending.get(reply.id)?.(reply);
      if (reply.id !== undefined) this.pending.delete(reply.id);
    });
  }

  /** Connects to the inspector the server announced on its output. */
  static async attach(server: ChildServer, dir: string): Promise<MeasureProfiler> {
    const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(server.output())?.[0];
    if (!url)
      throw new Error('the platform printed no inspector address (started with --inspect?)');
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`inspector ${url} refused`)), {
        once: true,
      });
    });
    mkdirSync(dir, { recursive: true });
    const profiler = new MeasureProfiler(socket, dir);
    await profiler.call('Profiler.enable');
    return profiler;
  }

  private call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) =>
        reply.error
          ? reject(new Error(`${method}: ${JSON.stringify(reply.error)}`))
          : resolve(reply.result as T),
      );
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  start(): Promise<void> {
    return this.call('Profiler.start');
  }

  /** Stops the profiler, saves the measure's profile and keeps its top ten frames. */
  async stop(measure: string): Promise<MeasureProfile> {
    const { profile } = await this.call<{ profile: CpuProfile }>('Profiler.stop');
    const file = join(this.dir, `${measure}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const found = { measure, file, ...topSelfFrames(profile, 10) };
    this.profiles.push(found);
    return found;
  }

  close(): void {
    this.socket.close();
  }
}

/** Prints a measure's top ten frames by self time. */
export function printMeasureProfile(variant: string, p: MeasureProfile): void {
  console.log(
    `\n${variant} / ${p.measure}: top frames by self time (${(p.busyMs / 1000).toFixed(2)} s busy), profile ${p.file}`,
  );
  for (const f of p.frames)
    console.log(
      `  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.frame}`,
    );
}
