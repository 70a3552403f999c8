import { describe, expect, it } from 'vitest';
import { decodeChatToolCallId, encodeChatToolCallId } from './chat-tool-call-id.js';

const signature = 'c2lnOmdldF93ZWF0aGVyOvv/+A==';

describe('chat tool call ids carrying a vendor artefact', () => {
  it('carry a signature in URL-safe characters, readably, and give back the plain id and the artefact exactly', () => {
    const id = encodeChatToolCallId('call_r1_0_0', { producer: 'gemini', signature });
    expect(id).toBe('call_r1_0_0__sig_gemini_c2lnOmdldF93ZWF0aGVyOvv_-A');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeChatToolCallId(id)).toStrictEqual({
      callId: 'call_r1_0_0',
      artefact: { producer: 'gemini', signature },
    });
  });

  it('leave a call without artefact, or with one that would not come back byte for byte, plain', () => {
    expect(encodeChatToolCallId('call_1', undefined)).toBe('call_1');
    expect(encodeChatToolCallId('call_1', { producer: 'gemini', signature: 'not base64!' })).toBe('call_1');
    expect(encodeChatToolCallId('call_1', { producer: 'anthropic', redactedData: 'opaque' })).toBe('call_1');
    expect(encodeChatToolCallId('call_1', { producer: 'Vendor_X', signature })).toBe('call_1');
    expect(decodeChatToolCallId('call_plain')).toStrictEqual({ callId: 'call_plain' });
    expect(decodeChatToolCallId('toolu_01abc')).toStrictEqual({ callId: 'toolu_01abc' });
  });

  it('still read the Gemini-only form shown before artefacts were generic', () => {
    expect(decodeChatToolCallId('call_r1_0_0__ts__c2lnOmdldF93ZWF0aGVyOvv_-A')).toStrictEqual({
      callId: 'call_r1_0_0',
      artefact: { producer: 'gemini', signature },
    });
  });
});
