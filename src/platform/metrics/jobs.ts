import { Gauge } from 'prom-client';
import { processMetrics } from './registry.ts';

interface JobState {
  intervalSeconds: number;
  /** Seconds since the epoch. */
  startedAt: number;
  lastSuccess: number | undefined;
}

const jobs = new Map<string, JobState>();
const seconds = () => Date.now() / 1000;

/** Each gauge reads every job at scrape time; none is touched when a job runs. */
function jobGauge(
  name: string,
  help: string,
  value: (job: JobState, now: number) => number | undefined,
): void {
  new Gauge({
    name,
    help,
    labelNames: ['job'],
    registers: [processMetrics],
    collect() {
      this.reset();
      const now = seconds();
      for (const [job, state] of jobs) {
        const v = value(state, now);
        if (v !== undefined) this.set({ job }, v);
      }
    },
  });
}

jobGauge(
  'job_last_success_timestamp_seconds',
  'When each background job last finished a run without failing (Unix seconds)',
  (j) => j.lastSuccess,
);
jobGauge(
  'job_lag_seconds',
  'Seconds since each background job last succeeded (since it started, if it has not yet); alert when it exceeds a few intervals',
  (j, now) => now - (j.lastSuccess ?? j.startedAt),
);
jobGauge('job_interval_seconds', 'How often each background job runs', (j) => j.intervalSeconds);

/** Makes a started job visible to the job gauges; call `succeeded` after each run that did not fail. */
export function trackJob(name: string, intervalMs: number): { succeeded(): void } {
  const state: JobState = {
    intervalSeconds: intervalMs / 1000,
    startedAt: seconds(),
    lastSuccess: undefined,
  };
  jobs.set(name, state);
  return {
    succeeded() {
      state.lastSuccess = seconds();
    },
  };
}
