import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType, type HistogramMetricData } from '@opentelemetry/sdk-metrics';

/** One attribute set's cumulative histogram. */
interface HistogramPoint {
  readonly attributes: Attributes;
  /** one more than the boundaries: bucket i counts values in (boundaries[i-1], boundaries[i]] */
  readonly counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** What the histogram is called and measured in, by the conventions. */
export interface HistogramDescriptor {
  name: string;
  unit: string;
  description: string;
}

/**
 * A cumulative explicit-bucket histogram keyed by attribute object identity: a record is a map lookup, a binary
 * search and a few additions. The SDK's own instruments hash the attributes (sorted keys, JSON) on every record,
 * about 3 µs each here; the attribute objects of GenAiAttributeSets are made once, so identity is enough.
 */
export class ExplicitBucketHistogram {
  private readonly points = new Map<Attributes, HistogramPoint>();

  constructor(
    readonly descriptor: HistogramDescriptor,
    private readonly boundaries: readonly number[],
  ) {}

  record(value: number, attributes: Attributes): void {
    let point = this.points.get(attributes);
    if (!point) {
      point = {
        attributes,
        counts: new Array<number>(this.boundaries.length + 1).fill(0),
        count: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
      };
      this.points.set(attributes, point);
    }
    const bucket = this.bucketOf(value);
    point.counts[bucket] = (point.counts[bucket] ?? 0) + 1;
    point.count += 1;
    point.sum += value;
    if (value < point.min) point.min = value;
    if (value > point.max) point.max = value;
  }

  /** The histogram as the SDK's exporters and serializers take it (cumulative since `startTime`). */
  toMetricData(startTime: HrTime, endTime: HrTime): HistogramMetricData {
    const boundaries = [...this.boundaries];
    return {
      descriptor: { ...this.descriptor, valueType: ValueType.DOUBLE },
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: [...this.points.values()].map((point) => ({
        attributes: point.attributes,
        startTime,
        endTime,
        value: {
          buckets: { boundaries, counts: [...point.counts] },
          count: point.count,
          sum: point.sum,
          min: point.min,
          max: point.max,
        },
      })),
    };
  }

  /** The first bucket whose upper boundary is at least `value` (the last, unbounded one past them all). */
  private bucketOf(value: number): number {
    let low = 0;
    let high = this.boundaries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.boundaries[middle] ?? Infinity) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
