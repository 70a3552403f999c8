import { describe, expect, it } from 'vitest';
import { scriptedToolTurnOf } from './scripted-tool-turn.js';

describe('scriptedToolTurnOf', () => {
  it('calls the named tool with the JSON on its line when the tool is offered', () => {
    const turn = scriptedToolTurnOf('Read it. sim-call Read {"file_path":"/tmp/a {b}.txt"}\nmore', ['Bash', 'Read']);
    expect(turn).toEqual({
      kind: 'call',
      name: 'Read',
      argumentsText: '{"file_path":"/tmp/a {b}.txt"}',
      input: { file_path: '/tmp/a {b}.txt' },
    });
  });

  it('answers in text when the scripted tool is not offered, or when asked to', () => {
    expect(scriptedToolTurnOf('sim-call Read {"file_path":"x"}', ['Bash'])).toEqual({ kind: 'answer' });
    expect(scriptedToolTurnOf('just talk, sim-answer', ['Bash'])).toEqual({ kind: 'answer' });
  });

  it('scripts nothing in an ordinary prompt', () => {
    expect(scriptedToolTurnOf('What is the weather?', ['get_weather'])).toBeUndefined();
  });
});
