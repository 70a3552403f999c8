import { describe, expect, it } from 'vitest';
import { renderWrkComparison } from '../../../bench/wrk/render-wrk-comparison.js';
import { summarizeWrkComparison, type PathRound } from '../../../bench/wrk/summarize-wrk-comparison.js';

function round(overrides: Partial<PathRound>): PathRound {
  return {
    requestsPerSecond: 1000,
    cpuPerRequestMs: 0.2,
    burstRequestsPerSecond: 900,
    pacedCpuPerStreamMs: 1,
    pacedP99Ms: 120,
    pacedPeakRssBytes: 100e6,
    firstEventP50Ms: 1,
    firstEventP99Ms: 2,
    ...overrides,
  };
}

const rounds = {
  direct: [
    round({
      requestsPerSecond: 30000,
      cpuPerRequestMs: undefined,
      pacedCpuPerStreamMs: undefined,
      pacedPeakRssBytes: undefined,
      firstEventP50Ms: 0.2,
      firstEventP99Ms: 0.5,
    }),
    round({
      requestsPerSecond: 32000,
      cpuPerRequestMs: undefined,
      pacedCpuPerStreamMs: undefined,
      pacedPeakRssBytes: undefined,
      firstEventP50Ms: 0.4,
      firstEventP99Ms: 0.7,
    }),
  ],
  proxy: [round({ requestsPerSecond: 6000 }), round({ requestsPerSecond: 6200 })],
  portkey: [round({ requestsPerSecond: 800 }), round({ requestsPerSecond: 1000 })],
  gateway: [
    round({
      requestsPerSecond: 4000,
      cpuPerRequestMs: 0.24,
      pacedCpuPerStreamMs: 1.2,
      pacedPeakRssBytes: 150e6,
      firstEventP50Ms: 0.4,
      firstEventP99Ms: 1.4,
    }),
    round({
      requestsPerSecond: 4400,
      cpuPerRequestMs: 0.26,
      pacedCpuPerStreamMs: 1.4,
      pacedPeakRssBytes: 170e6,
      firstEventP50Ms: 0.7,
      firstEventP99Ms: 1.9,
    }),
  ],
  unbilled: [round({ cpuPerRequestMs: 0.2 }), round({ cpuPerRequestMs: 0.21 })],
};

describe('the wrk comparison summary', () => {
  const summary = summarizeWrkComparison(rounds);

  it('takes medians per path and the time to first event minus direct per round', () => {
    expect(summary.paths.gateway.requestsPerSecond.median).toBe(4200);
    expect(summary.paths.gateway.addedFirstEventP50Ms.values.map((value) => value.toFixed(2))).toEqual([
      '0.20',
      '0.30',
    ]);
    expect(summary.paths.gateway.addedFirstEventP99Ms.median).toBeCloseTo(1.05);
    expect(summary.paths.direct.cpuPerRequestMs).toBeUndefined();
  });

  it('divides the gateway by its peers per round', () => {
    expect(summary.gatewayToProxy.values).toEqual([4000 / 6000, 4400 / 6200]);
    expect(summary.gatewayToPortkey.values).toEqual([5, 4.4]);
  });

  it("takes billing's CPU as the gateway's minus its own with billing off, per round, and against the proxy's", () => {
    expect(summary.billingCpuPerRequestMs.values.map((value) => value.toFixed(3))).toEqual(['0.040', '0.050']);
    expect(summary.billingCpuToProxy.median).toBeCloseTo(0.225);
  });

  it('judges the issue targets on the medians', () => {
    const verdicts = Object.fromEntries(
      summary.targets.map((target) => [`${target.target} ${target.goal}`, target.passed]),
    );
    expect(verdicts).toEqual({
      'non-streamed throughput ≥ 0.6 × reference proxy': true,
      'non-streamed throughput ≥ 5 × Portkey': false,
      'CPU per request ≤ 0.25 ms': true,
      'billing: CPU per request (billing on − off) ≤ 0.2 × reference proxy': false,
      'time to first event, added p50 < 0.3 ms': true,
      'time to first event, added p99 < 1 ms': false,
      'paced streams: CPU per stream ≤ 1.3 × reference proxy': true,
      'paced streams: peak RSS at 50 streams ≤ 160 MB': true,
    });
  });

  it("renders the issue's table layout with ratios and the verdicts", () => {
    const markdown = renderWrkComparison(summary, ['Date: test']);
    expect(markdown).toContain('- Date: test');
    expect(markdown).toContain(
      '| our gateway | 4,200 (0.69× proxy, 4.7× Portkey) | 0.250 ms | 900 | 1.30 ms / 120 ms / 160 MB | 0.55 / 1.65 ms (+0.25 / +1.05) |',
    );
    expect(markdown).toContain('| direct (mock upstream) | 31,000 | – | 900 | – / 120 ms / – | 0.30 / 0.60 ms |');
    expect(markdown).toContain("| our gateway, billing off | 1,000 | 0.205 ms (billing: 45 µs, 0.22× the proxy's) |");
    expect(markdown).toContain('Targets (our gateway): 5 of 8 met');
  });
});
