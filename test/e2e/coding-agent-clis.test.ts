// Claude Code, the real CLI from its npm package, with its defaults (its default model, tool search on, its betas) in
// print mode against the gateway on loopback: a plain answer, a Read tool step and a ToolSearch step, to an Anthropic
// channel (Messages as sent), an OpenAI-wire channel (translated to chat completions) and a Gemini channel. Each channel
// only maps Claude Code's model ids (docs/API.md, "Coding-agent CLIs"). The simulators script the turns (`sim-answer`,
// `sim-call`, see test/simulators/scripted-tool-turn.ts).
// Codex has its own file, test/e2e/codex-cli.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaudeCode } from './coding-agents/run-claude-code.js';
import {
  startCodingAgentGateway,
  type CodingAgentGateway,
  type CodingAgentVendor,
} from './coding-agents/start-coding-agent-gateway.js';

/** Claude Code 2.1.332's default model for an API key, and its small models for side calls, as the channel maps them. */
const mainModel = 'claude-opus-5-5';
const smallModels = ['claude-haiku-5-5', 'claude-haiku-4-5'];
/** Each CLI run; a run takes a few seconds here. */
const runTimeoutMs = 60_000;
const fileSecret = 'the secret word is pineapple';

/** The tool list of a vendor request as JSON (each vendor's shape: `tools`, with names inside). */
function toolsOf(body: unknown): string {
  return JSON.stringify((body as { tools?: unknown } | undefined)?.tools ?? []);
}

describe.each<CodingAgentVendor>(['anthropic', 'openai-chat', 'gemini'])(
  'Claude Code through a %s channel',
  (vendor) => {
    let gateway: CodingAgentGateway;
    let workDirectory: string;

    beforeAll(async () => {
      gateway = await startCodingAgentGateway(vendor, [mainModel, ...smallModels]);
      workDirectory = await mkdtemp(path.join(os.tmpdir(), 'claude-code-work-'));
      await writeFile(path.join(workDirectory, 'notes.txt'), `${fileSecret}\n`);
    });

    afterAll(async () => {
      await gateway?.close();
      if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
    });

    /** The usage rows of the requests since `before` rows: all answered 200, with tokens and a cost. */
    async function expectBilledRows(before: number): Promise<void> {
      const rows = (await gateway.usageRows()).slice(0, -before || undefined);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).toMatchObject({ model: mainModel, endpoint: 'messages', status: 200, errorCode: null });
        expect(row.promptTokens).toBeGreaterThan(0);
        expect(row.completionTokens).toBeGreaterThan(0);
        expect(row.cost).toBeGreaterThan(0);
      }
    }

    it('answers a plain prompt with the text the vendor produced', { timeout: runTimeoutMs + 10_000 }, async () => {
      const rowsBefore = (await gateway.usageRows()).length;
      const run = await runClaudeCode({
        gatewayUrl: gateway.url,
        apiKey: gateway.apiKey,
        prompt: 'Name a fruit, sim-answer',
        workDirectory,
        timeoutMs: runTimeoutMs,
      });
      expect(run.exitCode, run.stderr || run.stdout).toBe(0);
      expect(run.result).toMatchObject({ is_error: false, num_turns: 1 });
      // The simulators answer "Echo: <the user's text>"; Claude Code adds its reminders to the same message.
      expect(run.result?.result).toMatch(/^Echo: /);
      expect(run.result?.result).toContain('Name a fruit, sim-answer');
      await expectBilledRows(rowsBefore);
    });

    it('reads a file with its Read tool and answers from the result', { timeout: runTimeoutMs + 10_000 }, async () => {
      const rowsBefore = (await gateway.usageRows()).length;
      const requestsBefore = gateway.vendorRequests().length;
      const notes = path.join(workDirectory, 'notes.txt');
      const run = await runClaudeCode({
        gatewayUrl: gateway.url,
        apiKey: gateway.apiKey,
        prompt: `Read my notes. sim-call Read {"file_path":${JSON.stringify(notes)}}`,
        workDirectory,
        allowedTools: ['Read'],
        timeoutMs: runTimeoutMs,
      });
      expect(run.exitCode, run.stderr || run.stdout).toBe(0);
      expect(run.result).toMatchObject({ is_error: false, num_turns: 2 });
      // The file's content came back only if the tool ran: the prompt names the path, never the content.
      expect(run.result?.result).toMatch(/^Tool results: /);
      expect(run.result?.result).toContain(fileSecret);
      const turnRequests = gateway.vendorRequests().slice(requestsBefore);
      expect(turnRequests.length).toBe(2);
      expect(JSON.stringify(turnRequests[0]?.body)).not.toContain(fileSecret);
      expect(JSON.stringify(turnRequests[1]?.body)).toContain(fileSecret);
      await expectBilledRows(rowsBefore);
    });

    it(
      'loads a deferred tool with ToolSearch and gets it offered in the next request',
      { timeout: runTimeoutMs + 10_000 },
      async () => {
        const rowsBefore = (await gateway.usageRows()).length;
        const requestsBefore = gateway.vendorRequests().length;
        const run = await runClaudeCode({
          gatewayUrl: gateway.url,
          apiKey: gateway.apiKey,
          prompt: 'Fetch pages later. sim-call ToolSearch {"query":"select:WebFetch"}',
          workDirectory,
          timeoutMs: runTimeoutMs,
        });
        expect(run.exitCode, run.stderr || run.stdout).toBe(0);
        expect(run.result).toMatchObject({ is_error: false, num_turns: 2 });
        const [search, followUp] = gateway.vendorRequests().slice(requestsBefore);
        const sent = JSON.stringify(followUp?.body);
        // Claude Code's system message inside `messages` (its environment) reached the vendor in both requests.
        expect(JSON.stringify(search?.body)).toContain('Primary working directory');
        expect(sent).toContain('Primary working directory');
        // The loaded tool is offered from then on; Anthropic gets the tool_reference as sent, translated vendors a text.
        expect(toolsOf(search?.body)).not.toContain('"WebFetch"');
        expect(toolsOf(followUp?.body)).toContain('"WebFetch"');
        expect(sent).toContain(vendor === 'anthropic' ? '"tool_reference"' : 'Tool WebFetch is loaded');
        // A deferred tool never loaded is hidden from the model: Anthropic hides it, translation leaves it out.
        expect(toolsOf(followUp?.body).includes('DeferredToolPlaceholder')).toBe(vendor === 'anthropic');
        await expectBilledRows(rowsBefore);
      },
    );
  },
);
