import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ForwardingControl } from './forwarding-control.js';

/** Just what ForwardingControl reads of a response: its `close` event and two flags. */
function fakeResponse(state: { destroyed?: boolean; writableFinished?: boolean } = {}) {
  const response = Object.assign(new EventEmitter(), { destroyed: state.destroyed ?? false, writableFinished: state.writableFinished ?? false });
  const clientLeaves = () => {
    response.destroyed = true;
    response.emit('close');
  };
  const finish = () => {
    response.writableFinished = true;
    response.emit('close');
  };
  return { response: response as unknown as ServerResponse, clientLeaves, finish };
}

describe('ForwardingControl', () => {
  it('cancels everything when the client leaves before the request was sent', () => {
    const { response, clientLeaves } = fakeResponse();
    const control = new ForwardingControl({ response, stream: false });
    clientLeaves();
    expect(control.signal.aborted).toBe(true);
    expect(control.markSent()).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: false });
  });

  it('keeps a sent non-streamed request running when the client leaves, so its answer can be billed', () => {
    const { response, clientLeaves } = fakeResponse();
    const control = new ForwardingControl({ response, stream: false });
    expect(control.markSent()).toBe(true);
    clientLeaves();
    expect(control.signal.aborted).toBe(false);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });

  it('aborts a sent stream when the client leaves', () => {
    const { response, clientLeaves } = fakeResponse();
    const control = new ForwardingControl({ response, stream: true });
    control.markSent();
    clientLeaves();
    expect(control.signal.aborted).toBe(true);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });

  it('ignores the close that follows a complete answer', () => {
    const { response, finish } = fakeResponse();
    const control = new ForwardingControl({ response, stream: true });
    control.markSent();
    finish();
    expect(control.signal.aborted).toBe(false);
    expect(control.abandoned).toBe(false);
  });

  it('knows a client that left before it was created', () => {
    const { response } = fakeResponse({ destroyed: true });
    const control = new ForwardingControl({ response, stream: false });
    expect(control.markSent()).toBe(false);
    expect(control.abandoned).toBe(true);
  });

  it('cuts a sent request when shutdown stops it', () => {
    const { response } = fakeResponse();
    const stop = new AbortController();
    const control = new ForwardingControl({ response, stream: false, stopSignal: stop.signal });
    control.markSent();
    stop.abort();
    expect(control.signal.aborted).toBe(true);
    expect(control).toMatchObject({ abandoned: true, sentUpstream: true });
  });
});
