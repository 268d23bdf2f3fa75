/**
 * Samples what the server's PostgreSQL connections are doing (pg_stat_activity, filtered by the
 * application_name the bench gives the server through PGAPPNAME), attributed to the route whose
 * throughput slice is running. A view from outside the server, with no server code changes.
 */
import pg from 'pg';
import { POSTGRES_URL } from './backends.ts';

/** What one connection was doing when sampled. */
export type ConnState =
  | 'running'
  | 'lock wait'
  | 'io/wal wait'
  | 'other wait'
  | 'idle in tx'
  | 'idle';
export const CONN_STATES: readonly ConnState[] = [
  'running',
  'lock wait',
  'io/wal wait',
  'other wait',
  'idle in tx',
  'idle',
];

interface Row {
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
  query: string | null;
}

/** The statement a lock waiter is running, shortened: which table it waits on. */
const statement = (q: string | null) => (q ?? '?').replace(/\s+/g, ' ').trim().slice(0, 48);

function classify(r: Row): ConnState {
  if (r.state === 'idle') return 'idle';
  if (r.state?.startsWith('idle in transaction')) return 'idle in tx';
  if (r.wait_event_type === 'Lock') return 'lock wait';
  if (r.wait_event_type === 'IO' || r.wait_event?.startsWith('WAL')) return 'io/wal wait';
  if (r.wait_event_type === null) return 'running';
  return 'other wait';
}

export interface ActivityProfile {
  samples: number;
  /** Mean number of the server's connections in each state. */
  mean: Record<ConnState, number>;
  /** Lock waits by wait_event (transactionid: behind the holder's transaction; tuple: queued for the row). */
  lockEvents: Record<string, number>;
  /** Lock waits by the statement waiting (mean number of connections). */
  lockStatements: Record<string, number>;
}

export class ActivitySampler {
  private readonly client = new pg.Client({ connectionString: POSTGRES_URL });
  private label: string | null = null;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly tallies = new Map<
    string,
    {
      samples: number;
      counts: Record<ConnState, number>;
      lockEvents: Record<string, number>;
      lockStatements: Record<string, number>;
    }
  >();

  constructor(
    private readonly appName: string,
    private readonly intervalMs = 10,
  ) {
    this.client.on('error', () => {});
  }

  async start(): Promise<void> {
    await this.client.connect();
    this.running = true;
    this.loop = this.run();
  }

  /** Samples taken from now on count for `label`; null pauses attribution. */
  attribute(label: string | null): void {
    this.label = label;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const label = this.label;
      if (label !== null) {
        const { rows } = await this.client.query<Row>(
          'select state, wait_event_type, wait_event, query from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
          [this.appName],
        );
        // The slice may have ended while the query ran: only keep samples still inside it.
        if (this.label === label) {
          let t = this.tallies.get(label);
          if (!t)
            this.tallies.set(
              label,
              (t = {
                samples: 0,
                counts: Object.fromEntries(CONN_STATES.map((s) => [s, 0])) as Record<
                  ConnState,
                  number
                >,
                lockEvents: {},
                lockStatements: {},
              }),
            );
          t.samples++;
          for (const r of rows) {
            const s = classify(r);
            t.counts[s]++;
            if (s !== 'lock wait') continue;
            const e = r.wait_event ?? '?';
            const q = statement(r.query);
            t.lockEvents[e] = (t.lockEvents[e] ?? 0) + 1;
            t.lockStatements[q] = (t.lockStatements[q] ?? 0) + 1;
          }
        }
      }
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }

  profile(label: string): ActivityProfile | undefined {
    const t = this.tallies.get(label);
    if (!t || t.samples === 0) return undefined;
    const mean = Object.fromEntries(CONN_STATES.map((s) => [s, t.counts[s] / t.samples])) as Record<
      ConnState,
      number
    >;
    const per = (m: Record<string, number>) =>
      Object.fromEntries(
        Object.entries(m)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, v / t.samples]),
      );
    return {
      samples: t.samples,
      mean,
      lockEvents: per(t.lockEvents),
      lockStatements: per(t.lockStatements),
    };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop?.catch(() => {});
    await this.client.end().catch(() => {});
  }
}
