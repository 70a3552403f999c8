import { describe, expect, it } from 'vitest';
import { failedRequests, parseWrkResult, requestsPerSecond } from '../../../bench/wrk/parse-wrk-result.js';
import { createWrkScript } from '../../../bench/wrk/run-wrk.js';

const output = [
  'Running 3s test @ http://127.0.0.1:4000/v1/chat/completions',
  '  1 threads and 50 connections',
  '  3000 requests in 3.00s, 1.20MB read',
  'Requests/sec:   1000.00',
  'WRK_RESULT {"requests":3000,"durationMicros":3000000,"bytes":1200000,"errors":{"connect":0,"read":1,"write":0,"status":2,"timeout":3},"latencyMicros":{"p50":1500,"p99":9000,"max":12000}}',
  '',
].join('\n');

describe("wrk's summary line", () => {
  it("is found among wrk's own text and read into numbers", () => {
    const result = parseWrkResult(output, 'WRK_RESULT ');
    expect(result.requests).toBe(3000);
    expect(result.latencyMicros).toEqual({ p50: 1500, p99: 9000, max: 12000 });
    expect(requestsPerSecond(result)).toBe(1000);
  });

  it('counts status errors (400 and above), timeouts and socket errors as failures', () => {
    expect(failedRequests(parseWrkResult(output, 'WRK_RESULT '))).toBe(6);
  });

  it("is an error when missing, with wrk's output in the message", () => {
    expect(() => parseWrkResult('unable to connect to 127.0.0.1:1', 'WRK_RESULT ')).toThrow(/unable to connect/);
  });

  it('is printed by the Lua script, which also sends the headers and the body file', () => {
    const script = createWrkScript(
      { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
      '/tmp/body.json',
    );
    expect(script).toContain('wrk.method = "POST"');
    expect(script).toContain('wrk.headers["authorization"] = "Bearer sk-1"');
    expect(script).toContain('io.open("/tmp/body.json", "rb")');
    expect(script).toContain("io.write(string.format('WRK_RESULT {");
  });
});
