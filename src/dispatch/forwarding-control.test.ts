import { describe, expect, it } from 'vitest';
import type { ClientSink } from './client-sink.js';
import { ForwardingControl } from './forwarding-control.js';

/** Just what ForwardingControl reads of a client: whether it is gone, and its leaving. */
function fakeClient(state: { gone?: boolean } = {}) {
  const listeners = new Set<() => void>();
  const client = {
    gone: state.gone ?? false,
    onClientLeave(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const clientLeaves = () => {
    client.gone = true;
    for (const listener of listeners) listener();
  };
  return { client: client as unknown as ClientSink, clientLeaves, listenerCount: () => listeners.size };
}

/** A shutdown with `slots` drain slots, as InFlightForwardings hands them out. */
function drainSlots(slots: number) {
  let inUse = 0;
  const stopListeners = new Set<() => void>();
  const stop = {
    stopped: false,
    onStop: (listener: () => void) => (stopListeners.add(listener), () => stopListeners.delete(listener)),
    startDrain: () => {
      if (inUse >= slots) return undefined;
      inUse++;
      return () => {
        inUse--;
      };
    },
  };
  const endGrace = () => {
    for (const listener of stopListeners) listener();
  };
  return { stop, slotsInUse: () => inUse, endGrace };
}

describe('ForwardingControl', () => {
  it('cancels everything when the client leaves before the request was sent', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: false });
    clientLeaves();
    expect(control.aborted).toBe(true);
    expect(control.markSent()).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: false });
  });

  it('keeps a sent non-streamed request running when the client leaves, so its answer can be billed', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: false });
    expect(control.markSent()).toBe(true);
    clientLeaves();
    expect(control.aborted).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });

  it('aborts a sent stream when the client leaves and no drain slot can be had (no shutdown to hand one out)', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    control.markSent();
    clientLeaves();
    expect(control.aborted).toBe(true);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });

  it('stops listening to the client once disposed', () => {
    const { client, listenerCount } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    expect(listenerCount()).toBe(1);
    control.dispose();
    expect(listenerCount()).toBe(0);
  });

  it('knows a client that left before it was created', () => {
    const { client } = fakeClient({ gone: true });
    const control = new ForwardingControl({ client, stream: false });
    expect(control.markSent()).toBe(false);
    expect(control.abandoned).toBe(true);
  });

  it('cuts a sent request when shutdown stops it, and stops listening to shutdown once disposed', () => {
    const { client } = fakeClient();
    const stopListeners = new Set<() => void>();
    const stop = {
      stopped: false,
      onStop: (listener: () => void) => (stopListeners.add(listener), () => stopListeners.delete(listener)),
    };
    const control = new ForwardingControl({ client, stream: false, stop });
    control.markSent();
    for (const listener of stopListeners) listener();
    expect(control.aborted).toBe(true);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
    control.dispose();
    expect(stopListeners.size).toBe(0);
  });

  it('is cut at once when shutdown stopped before it was made', () => {
    const { client } = fakeClient();
    const control = new ForwardingControl({
      client,
      stream: false,
      stop: { stopped: true, onStop: () => () => undefined },
    });
    expect(control.markSent()).toBe(false);
    expect(control.abandoned).toBe(true);
  });

  it('aborts the vendor request (an emitter undici takes) and any fetch signal together', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    const fetchSignal = control.signal;
    let abortEvents = 0;
    control.upstreamSignal.on('abort', () => abortEvents++);
    clientLeaves();
    expect(abortEvents).toBe(1);
    expect(control.upstreamSignal.aborted).toBe(true);
    expect(control.upstreamSignal.reason).toBeInstanceOf(DOMException);
    expect(fetchSignal.aborted).toBe(true);
  });

  it('drains a sent stream when the client leaves and a drain slot is free, and gives the slot back once disposed', () => {
    const { client, clientLeaves } = fakeClient();
    const { stop, slotsInUse } = drainSlots(1);
    const control = new ForwardingControl({ client, stream: true, stop });
    control.markSent();
    clientLeaves();
    expect(control).toMatchObject({ aborted: false, draining: true, abandoned: true, sentUpstream: true });
    expect(slotsInUse()).toBe(1);
    control.dispose();
    expect(slotsInUse()).toBe(0);
  });

  it('cuts a stream whose client left when every drain slot is taken', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true, stop: drainSlots(0).stop });
    control.markSent();
    clientLeaves();
    expect(control).toMatchObject({ aborted: true, draining: false, abandoned: true });
  });

  it('cuts a drain once it read more than its byte cap, and counts nothing while the client is there', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true, stop: drainSlots(1).stop, drainMaxBytes: 100 });
    control.markSent();
    control.countDrainedBytes(1_000);
    clientLeaves();
    control.countDrainedBytes(60);
    expect(control.draining).toBe(true);
    control.countDrainedBytes(60);
    expect(control).toMatchObject({ aborted: true, draining: false });
  });

  it('cuts a drain when shutdown ends its grace period', () => {
    const { client, clientLeaves } = fakeClient();
    const { stop, endGrace } = drainSlots(1);
    const control = new ForwardingControl({ client, stream: true, stop });
    control.markSent();
    clientLeaves();
    endGrace();
    expect(control).toMatchObject({ aborted: true, draining: false });
  });

  it('knows whether the last vendor sent to refused the request', () => {
    const { client } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    control.markSent();
    control.markRefused();
    expect(control.refusedByVendor).toBe(true);
    control.markSent();
    expect(control.refusedByVendor).toBe(false);
  });

  it('makes a fetch signal asked for after the abort already aborted', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    clientLeaves();
    expect(control.signal.aborted).toBe(true);
  });
});
