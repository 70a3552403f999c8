import { describe, expect, it } from 'vitest';
import { InFlightForwardings } from './in-flight-forwardings.js';

describe('InFlightForwardings', () => {
  it('tells every listener still registered when it stops, once', () => {
    const inFlight = new InFlightForwardings();
    const heard: string[] = [];
    inFlight.onStop(() => heard.push('first'));
    const stopListening = inFlight.onStop(() => heard.push('gone'));
    stopListening();
    expect(inFlight.stopped).toBe(false);
    inFlight.stop();
    inFlight.stop();
    expect(heard).toEqual(['first']);
    expect(inFlight.stopped).toBe(true);
  });

  it('is drained once every tracked forwarding finished, failed ones included', async () => {
    const inFlight = new InFlightForwardings();
    let fail: (error: Error) => void = () => undefined;
    let succeed: () => void = () => undefined;
    inFlight.track(new Promise<void>((_resolve, reject) => (fail = reject)));
    inFlight.track(new Promise<void>((resolve) => (succeed = resolve)));
    expect(inFlight.size).toBe(2);
    let drained = false;
    const draining = inFlight.drained().then(() => (drained = true));
    fail(new Error('vendor failed'));
    await Promise.resolve();
    expect(drained).toBe(false);
    succeed();
    await draining;
    expect(inFlight.size).toBe(0);
  });

  it('hands out at most its drain slots at once, each given back once, and none once stopped', () => {
    const inFlight = new InFlightForwardings({ maxAbandonedStreamDrains: 2 });
    const first = inFlight.startDrain();
    const second = inFlight.startDrain();
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(inFlight.startDrain()).toBeUndefined();
    first!();
    first!();
    expect(inFlight.drainCount).toBe(1);
    expect(inFlight.startDrain()).toBeTypeOf('function');
    inFlight.stop();
    second!();
    expect(inFlight.startDrain()).toBeUndefined();
  });

  it('drains no stream when its limit is 0', () => {
    expect(new InFlightForwardings({ maxAbandonedStreamDrains: 0 }).startDrain()).toBeUndefined();
  });
});
