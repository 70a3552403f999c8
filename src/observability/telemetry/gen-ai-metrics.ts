import type { HrTime } from '@opentelemetry/api';
import { hrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { CollectionResult, MetricProducer } from '@opentelemetry/sdk-metrics';
import { genAiBucketBoundaries } from './gen-ai-bucket-boundaries.js';
import { GenAiAttributeSets } from './gen-ai-attribute-sets.js';
import { ExplicitBucketHistogram } from './explicit-bucket-histogram.js';

/** What one upstream attempt reports to `gen_ai.client.*`. */
export interface GenAiAttemptMeasurement {
  operation: string;
  /** `gen_ai.provider.name` of the channel */
  provider: string;
  /** the model id sent upstream */
  requestModel: string;
  /** low-cardinality error class (the gateway's error code); '' for a success */
  errorType: string;
  durationSeconds: number;
  /** tokens the vendor reported; undefined when it reported none (a failure) */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/** What one client request reports to `gen_ai.server.*`. */
export interface GenAiRequestMeasurement {
  operation: string;
  /** the provider of the channel that answered; '' when none did */
  provider: string;
  /** the public model id the client asked for */
  requestModel: string;
  errorType: string;
  durationSeconds: number;
  /** for a successful stream only: from the request's arrival to its first byte to the client */
  timeToFirstTokenSeconds: number | undefined;
  /** for a successful stream with more than one output token: the time after the first byte per further token */
  timePerOutputTokenSeconds: number | undefined;
}

/**
 * The five GenAI histograms of the OpenTelemetry conventions with their recommended buckets, as a metric producer
 * the readers collect (the `/metrics` pull reader, the OTLP periodic one). No key, user or request ids among the
 * attributes: those belong to traces and logs (cardinality).
 */
export class GenAiMetrics implements MetricProducer {
  private readonly attributeSets = new GenAiAttributeSets();
  /** when the cumulative histograms started */
  private readonly startTime: HrTime = hrTime();
  private readonly clientTokenUsage = new ExplicitBucketHistogram(
    {
      name: 'gen_ai.client.token.usage',
      unit: '{token}',
      description: 'Number of input and output tokens used, per upstream attempt',
    },
    genAiBucketBoundaries.tokenUsage,
  );
  private readonly clientOperationDuration = new ExplicitBucketHistogram(
    {
      name: 'gen_ai.client.operation.duration',
      unit: 's',
      description: 'Duration of one upstream GenAI call (one attempt of a client request)',
    },
    genAiBucketBoundaries.duration,
  );
  private readonly serverRequestDuration = new ExplicitBucketHistogram(
    {
      name: 'gen_ai.server.request.duration',
      unit: 's',
      description: 'Duration of a client request to the gateway, failovers included',
    },
    genAiBucketBoundaries.duration,
  );
  private readonly serverTimeToFirstToken = new ExplicitBucketHistogram(
    {
      name: 'gen_ai.server.time_to_first_token',
      unit: 's',
      description: 'Time from a streamed request arriving to its first byte to the client',
    },
    genAiBucketBoundaries.timeToFirstToken,
  );
  private readonly serverTimePerOutputToken = new ExplicitBucketHistogram(
    {
      name: 'gen_ai.server.time_per_output_token',
      unit: 's',
      description: 'Time per output token after the first, for streamed requests',
    },
    genAiBucketBoundaries.timePerOutputToken,
  );
  private readonly histograms = [
    this.clientTokenUsage,
    this.clientOperationDuration,
    this.serverRequestDuration,
    this.serverTimeToFirstToken,
    this.serverTimePerOutputToken,
  ];

  constructor(
    private readonly resource: Resource,
    private readonly scopeName: string,
  ) {}

  /** One upstream attempt: its duration, and its tokens when the vendor reported them. */
  recordAttempt(measurement: GenAiAttemptMeasurement): void {
    const set = this.attributeSets.of(
      measurement.operation,
      measurement.provider,
      measurement.requestModel,
      measurement.errorType,
    );
    this.clientOperationDuration.record(measurement.durationSeconds, set.plain);
    if (measurement.inputTokens !== undefined) this.clientTokenUsage.record(measurement.inputTokens, set.input);
    if (measurement.outputTokens !== undefined) this.clientTokenUsage.record(measurement.outputTokens, set.output);
  }

  /** One client request, from its arrival to its settlement. */
  recordRequest(measurement: GenAiRequestMeasurement): void {
    const set = this.attributeSets.of(
      measurement.operation,
      measurement.provider,
      measurement.requestModel,
      measurement.errorType,
    );
    this.serverRequestDuration.record(measurement.durationSeconds, set.plain);
    if (measurement.timeToFirstTokenSeconds !== undefined)
      this.serverTimeToFirstToken.record(measurement.timeToFirstTokenSeconds, set.plain);
    if (measurement.timePerOutputTokenSeconds !== undefined)
      this.serverTimePerOutputToken.record(measurement.timePerOutputTokenSeconds, set.plain);
  }

  /** The histograms with at least one record, for a reader (MetricProducer). */
  async collect(): Promise<CollectionResult> {
    const endTime = hrTime();
    const metrics = this.histograms
      .map((histogram) => histogram.toMetricData(this.startTime, endTime))
      .filter((metric) => metric.dataPoints.length > 0);
    return {
      resourceMetrics: { resource: this.resource, scopeMetrics: [{ scope: { name: this.scopeName }, metrics }] },
      errors: [],
    };
  }
}
