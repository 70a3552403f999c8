import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './describe-user-agent';

describe('describeUserAgent', () => {
  it('names the browser and system people recognise', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toEqual({ browser: 'Edge', system: 'Windows' });
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:132.0) Gecko/20100101 Firefox/132.0')).toEqual({ browser: 'Firefox', system: 'macOS' });
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toEqual({ browser: 'Chrome', system: 'Android' });
  });

  it('answers null for nothing it knows', () => {
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent('something-else/1.0')).toBeNull();
  });
});
