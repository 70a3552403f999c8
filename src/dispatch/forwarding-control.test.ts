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
    expect(control.signal.aborted).toBe(true);
    expect(control.markSent()).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: false });
  });

  it('keeps a sent non-streamed request running when the client leaves, so its answer can be billed', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: false });
    expect(control.markSent()).toBe(true);
    clientLeaves();
    expect(control.signal.aborted).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });

  it('aborts a sent stream when the client leaves', () => {
    const { client, clientLeaves } = fakeClient();
    const control = new ForwardingControl({ client, stream: true });
    control.markSent();
    clientLeaves();
    expect(control.signal.aborted).toBe(true);
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

  it('cuts a sent request when shutdown stops it', () => {
    const { client } = fakeClient();
    const stop = new AbortController();
    const control = new ForwardingControl({ client, stream: false, stopSignal: stop.signal });
    control.markSent();
    stop.abort();
    expect(control.signal.aborted).toBe(true);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });
});
