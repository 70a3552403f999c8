// The strict Prometheus text reader the /metrics tests rely on: it must accept what prom-client writes and refuse
// every breach a scraper would trip on, or a test that parses /metrics would prove nothing.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../doubles/prometheus/parse-prometheus-text.js';

describe('parsePrometheusText', () => {
  it('reads what prom-client writes: families, labels with escapes, histograms', async () => {
    const registry = new Registry();
    const counter = new Counter({
      name: 'demo_total',
      help: 'A "demo" \\ counter',
      labelNames: ['path'],
      registers: [registry],
    });
    counter.inc({ path: 'a"b\\c\nd' }, 3);
    const histogram = new Histogram({
      name: 'demo_seconds',
      help: 'Durations',
      buckets: [0.1, 1],
      registers: [registry],
    });
    histogram.observe(0.05);
    histogram.observe(0.5);
    histogram.observe(5);
    const families = parsePrometheusText(await registry.metrics());
    expect(families.get('demo_total')).toMatchObject({
      type: 'counter',
      help: 'A "demo" \\ counter',
      samples: [{ name: 'demo_total', labels: { path: 'a"b\\c\nd' }, value: 3 }],
    });
    const buckets = families.get('demo_seconds')!.samples.filter((sample) => sample.name === 'demo_seconds_bucket');
    expect(buckets.map((sample) => [sample.labels.le, sample.value])).toEqual([
      ['0.1', 1],
      ['1', 2],
      ['+Inf', 3],
    ]);
  });

  const valid = '# HELP a_total A\n# TYPE a_total counter\na_total 1\n';
  const histogram = (buckets: string, count = 2): string =>
    `# HELP h H\n# TYPE h histogram\n${buckets}h_sum 1\nh_count ${count}\n`;

  it.each([
    ['a sample line without a value', `${valid}b_total\n`],
    ['a value that is not a number', '# TYPE a gauge\na one\n'],
    ['two spaces before the value', '# TYPE a gauge\na  1\n'],
    ['an unterminated label value', '# TYPE a gauge\na{x="1} 1\n'],
    ['an invalid escape', '# TYPE a gauge\na{x="\\t"} 1\n'],
    ['a label given twice', '# TYPE a gauge\na{x="1",x="2"} 1\n'],
    ['an invalid label name', '# TYPE a gauge\na{1x="1"} 1\n'],
    ['a TYPE after the samples', 'a 1\n# TYPE a gauge\n'],
    ['a second TYPE', '# TYPE a gauge\n# TYPE a gauge\na 1\n'],
    ['an unknown type', '# TYPE a meter\na 1\n'],
    ['interleaved families', '# TYPE a gauge\na{x="1"} 1\n# TYPE b gauge\nb 1\na{x="2"} 1\n'],
    ['the same sample twice', '# TYPE a gauge\na 1\na 2\n'],
    ['a counter below zero', '# TYPE a_total counter\na_total -1\n'],
    ['no final line feed', '# TYPE a gauge\na 1'],
    ['buckets that are not cumulative', histogram('h_bucket{le="1"} 2\nh_bucket{le="2"} 1\nh_bucket{le="+Inf"} 2\n')],
    ['a histogram without +Inf', histogram('h_bucket{le="1"} 1\nh_bucket{le="2"} 2\n')],
    ['a +Inf bucket other than the count', histogram('h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\n', 3)],
    ['bounds out of order', histogram('h_bucket{le="2"} 1\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\n')],
  ])('refuses %s', (_breach, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });

  it('accepts blank lines and other comments', () => {
    expect(parsePrometheusText(`# UNIT a_total 1\n\n${valid}\n`).get('a_total')?.samples).toHaveLength(1);
  });
});
