import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetrics,
} from 'prom2javascript';

/** A sample whose value is NaN, which the format allows in any case (Go's ParseFloat reads it so). */
const NAN_SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? nan$/i;

/**
 * A scrape read by an independent parser of the Prometheus text format (prom2javascript: it throws
 * on a line it cannot parse and on a histogram whose +Inf bucket differs from its count).
 * parse-prometheus-text-format was tried first: it drops the labels of labelled histograms.
 * prom2javascript reads no NaN, which prom-client writes for Node's event-loop mean before its
 * first sample: such lines are recognised here and left out.
 */
export class Scrape {
  private constructor(readonly metrics: PromMetrics) {}

  static async parse(text: string): Promise<Scrape> {
    const lines = text.split('\n').filter((line) => !NAN_SAMPLE.test(line));
    return new Scrape(await getMetricsFromIterator(lines[Symbol.iterator]()));
  }

  type(name: string): string | undefined {
    return this.metrics[name]?.type;
  }

  /** Every series of a metric (for a histogram, one per label set, buckets folded in). */
  series<T extends PromData | PromHistogramData = PromData>(name: string): T[] {
    return (this.metrics[name]?.data ?? []) as T[];
  }

  /** The series whose labels include `labels`. */
  find<T extends PromData | PromHistogramData = PromData>(
    name: string,
    labels: Record<string, string> = {},
  ): T | undefined {
    return this.series<T>(name).find((s) =>
      Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
  }

  /** A counter's or gauge's value; 0 for a labelled series not seen yet. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.find(name, labels)?.value ?? 0;
  }

  histogram(name: string, labels: Record<string, string>): PromHistogramData | undefined {
    return this.find<PromHistogramData>(name, labels);
  }
}
