import { int, onOff, type Env } from '../../platform/settings.ts';

export interface WebhookSettings {
  /** Run the dispatcher in this process (API-only instances turn it off). */
  dispatcher: boolean;
  retryScheduleMs: number[];
  timeoutMs: number;
  /** Staging events may go to loopback and private addresses (local receivers in development). */
  localDestinations: boolean;
  concurrency: number;
  perEndpointConcurrency: number;
  pollMs: number;
  /** Delivered (and unaddressed) events and their attempts are deleted after this many days; dead letters stay. */
  retentionDays: number;
}

const DEFAULT_RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** The webhook dispatcher's settings, read from the environment. */
export function webhookSettings(env: Env, problems: string[]): WebhookSettings {
  let schedule = DEFAULT_RETRY_SCHEDULE_S;
  if (env.WEBHOOK_RETRY_SCHEDULE) {
    const parsed = env.WEBHOOK_RETRY_SCHEDULE.split(',').map((x) => Number(x.trim()));
    if (parsed.some((x) => !Number.isFinite(x) || x < 0))
      problems.push('WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, e.g. 5,300,1800');
    else schedule = parsed;
  }
  return {
    dispatcher: (env.WEBHOOK_DISPATCHER ?? 'on') !== 'off',
    retryScheduleMs: schedule.map((s) => Math.round(s * 1000)),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000, problems),
    localDestinations: onOff(env, 'WEBHOOK_LOCAL_DESTINATIONS', problems),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1000, problems),
    perEndpointConcurrency: int(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 16, 1, 100, problems),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 250, 10, 60_000, problems),
    retentionDays: int(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650, problems),
  };
}
