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

  it('aborts a sent stream when the client leaves', () => {
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

  it('makes a fetch signal asked for after the abort already aborted', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    clientLeaves();
    expect(control.signal.aborted).toBe(true);
  });
});
