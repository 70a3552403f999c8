import { MetricReader } from '@opentelemetry/sdk-metrics';

/** A metric reader that only answers `collect()`: what `/metrics` renders on each scrape (cumulative, like Prometheus). */
export class PullMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}

  protected override async onShutdown(): Promise<void> {}
}
