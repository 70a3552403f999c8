import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import { createReasoningSealer } from './reasoning-sealer.js';

describe('createReasoningSealer', () => {
  const artefact = { producer: 'anthropic', signature: 'EqQBCgIYAhIM', redactedData: 'opaque' };

  it('round-trips an artefact through the gateway secret box without showing it in the clear', () => {
    const sealer = createReasoningSealer(createSecretBox('gateway secret'));
    const sealed = sealer.seal({ artefact });
    expect(sealed).not.toContain('EqQBCgIYAhIM');
    expect(sealer.unseal(sealed)).toStrictEqual({ artefact });
  });

  it('round-trips a tool call artefact with the call id it belongs to', () => {
    const sealer = createReasoningSealer(createSecretBox('gateway secret'));
    const sealed = sealer.seal({ artefact: { producer: 'gemini', signature: 'c2ln' }, callId: 'call_r_0_0' });
    expect(sealed).not.toContain('call_r_0_0');
    expect(sealer.unseal(sealed)).toStrictEqual({
      artefact: { producer: 'gemini', signature: 'c2ln' },
      callId: 'call_r_0_0',
    });
  });

  it('still opens blobs sealed before tool call ids were sealed with them', () => {
    const box = createSecretBox('gateway secret');
    const sealer = createReasoningSealer(box);
    expect(sealer.unseal(box.encrypt('reasoning-artefact:{"producer":"anthropic","signature":"sig"}'))).toStrictEqual({
      artefact: { producer: 'anthropic', signature: 'sig' },
    });
  });

  it('returns null for blobs sealed with another key, altered, foreign or not artefacts at all', () => {
    const box = createSecretBox('gateway secret');
    const sealer = createReasoningSealer(box);
    expect(sealer.unseal(createReasoningSealer(createSecretBox('other secret')).seal({ artefact }))).toBeNull();
    const sealed = sealer.seal({ artefact });
    expect(sealer.unseal(`${sealed.slice(0, -4)}AAAA`)).toBeNull();
    expect(sealer.unseal('gAAAAABopenai-encrypted-content')).toBeNull();
    expect(sealer.unseal(box.encrypt('a channel api key'))).toBeNull();
    expect(sealer.unseal(box.encrypt('reasoning-artefact:{"signature":"no producer"}'))).toBeNull();
  });
});
