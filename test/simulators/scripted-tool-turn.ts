import { z } from 'zod';

// A prompt can script the simulated model's turn, so a coding agent (which always offers a dozen tools) can be driven
// to call one named tool with exact arguments, or to answer in text, instead of the default "call every tool".

/** What the prompt asked for: one call of a named tool with these JSON arguments, or a plain text answer. */
export type ScriptedToolTurn =
  { kind: 'call'; name: string; argumentsText: string; input: Record<string, unknown> } | { kind: 'answer' };

const argumentsSchema = z.record(z.string(), z.unknown());

// `sim-call <tool> {json}` on one line: the JSON runs to the line's last `}`.
const callPattern = /sim-call (\S+) (\{[^\n]*\})/;
const answerWord = 'sim-answer';

/**
 * The turn a user text scripts: `sim-call <tool> <JSON object>` calls that tool when it is offered (else the model
 * answers in text), `sim-answer` answers in text though tools are offered; undefined when the text scripts nothing.
 */
export function scriptedToolTurnOf(text: string, offeredToolNames: readonly string[]): ScriptedToolTurn | undefined {
  const call = callPattern.exec(text);
  if (call) {
    const [, name = '', argumentsText = '{}'] = call;
    if (!offeredToolNames.includes(name)) return { kind: 'answer' };
    return { kind: 'call', name, argumentsText, input: argumentsSchema.parse(JSON.parse(argumentsText)) };
  }
  return text.includes(answerWord) ? { kind: 'answer' } : undefined;
}
