import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onResponseHookHandler,
} from 'fastify';
import type { Metric, Registry } from 'prom-client';
import { routeName } from '../http/operation.ts';

/** Upper bounds in seconds: fine below 100 ms, where signed requests answer. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'http_request_duration_seconds';
const HELP =
  'Requests by operation (partner operation id, or method and route) and status code, with their duration';

/** Observations of one operation and status code; the last count is above every bound. */
class Series {
  readonly counts = new Float64Array(BUCKETS.length + 1);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    this.counts[i]!++;
    this.sum += seconds;
    this.count++;
  }
}

export type RecordRequest = (status: number, seconds: number) => void;

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * The request histogram, kept apart from prom-client's Histogram because it is on every request:
 * prom-client hashes the label values into a new string and wraps the value in a new object at
 * each observe (about 0.5 µs); here a route's recorder is made once, when the route is mounted,
 * and an observation is a Map lookup by status code and a few additions. The registry renders it
 * in the text format with the other metrics.
 */
export class RequestHistogram {
  readonly name = NAME;
  readonly help = HELP;
  private readonly series = new Map<string, Map<number, Series>>();

  recorder(operation: string): RecordRequest {
    let byStatus = this.series.get(operation);
    if (!byStatus) this.series.set(operation, (byStatus = new Map()));
    const statuses = byStatus;
    return (status, seconds) => {
      let s = statuses.get(status);
      if (!s) statuses.set(status, (s = new Series()));
      s.observe(seconds);
    };
  }

  /** Adds the histogram to a registry, which reads only its name and `get`. */
  registerOn(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }

  async get() {
    const values: Sample[] = [];
    for (const [operation, byStatus] of this.series) {
      for (const [status, s] of byStatus) {
        const labels = { operation, status_code: status };
        let cumulative = 0;
        BUCKETS.forEach((le, i) => {
          cumulative += s.counts[i]!;
          values.push({
            metricName: `${NAME}_bucket`,
            labels: { ...labels, le },
            value: cumulative,
          });
        });
        values.push({
          metricName: `${NAME}_bucket`,
          labels: { ...labels, le: '+Inf' },
          value: s.count,
        });
        values.push({ metricName: `${NAME}_sum`, labels, value: s.sum });
        values.push({ metricName: `${NAME}_count`, labels, value: s.count });
      }
    }
    return { name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values };
  }
}

/** A route's onResponse hook; callback style, so no promise is made per request. */
function observer(record: RecordRequest): onResponseHookHandler {
  return (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    record(reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
}

/** Requests that match no route, under one operation name (the 404 handler records them). */
export const UNMATCHED = 'unmatched';

/** Times every route mounted from now on, under its name (see routeName). */
export function timeRoutes(app: FastifyInstance, histogram: RequestHistogram): void {
  app.addHook('onRoute', (route) => {
    const hook = observer(histogram.recorder(routeName(route)));
    route.onResponse = [...[route.onResponse ?? []].flat(), hook];
  });
}
