import { describe, expect, it } from 'vitest';
import { ExplicitBucketHistogram } from '../../src/observability/telemetry/explicit-bucket-histogram.js';

const descriptor = { name: 'test.histogram', unit: 's', description: 'a test histogram' };

describe('ExplicitBucketHistogram', () => {
  it('counts a value in the first bucket whose upper boundary is at least the value (upper bounds inclusive)', () => {
    const histogram = new ExplicitBucketHistogram(descriptor, [1, 4, 16]);
    const attributes = { 'gen_ai.request.model': 'gpt-4o' };
    for (const value of [0, 1, 1.5, 4, 16, 17, 1000]) histogram.record(value, attributes);
    const data = histogram.toMetricData([0, 0], [1, 0]);

    expect(data.dataPoints).toHaveLength(1);
    const [point] = data.dataPoints;
    expect(point?.attributes).toBe(attributes);
    expect(point?.value.buckets).toEqual({ boundaries: [1, 4, 16], counts: [2, 2, 1, 2] });
    expect(point?.value).toMatchObject({ count: 7, sum: 1039.5, min: 0, max: 1000 });
  });

  it('keeps one point per attribute object', () => {
    const histogram = new ExplicitBucketHistogram(descriptor, [1]);
    const first = { model: 'a' };
    const second = { model: 'b' };
    histogram.record(0.5, first);
    histogram.record(2, second);
    histogram.record(0.5, first);
    const points = histogram.toMetricData([0, 0], [1, 0]).dataPoints;
    expect(points.map((point) => [point.attributes, point.value.count])).toEqual([
      [first, 2],
      [second, 1],
    ]);
  });
});
