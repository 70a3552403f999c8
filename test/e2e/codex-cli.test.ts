// Codex, the real CLI from its npm package (`codex exec --json`), against the gateway on loopback with its default
// tools (`web_search = "disabled"` aside): for gpt-5.5 those include the custom `apply_patch` tool and a client-run
// `tool_search`. A plain answer and an exec_command step, to an OpenAI channel with the Responses API (passed through)
// and an Anthropic channel (translated). The simulators script the turns (`sim-answer`, `sim-call`, see
// test/simulators/scripted-tool-turn.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCodexGateway, type CodexGateway, type CodexVendor } from './coding-agents/codex-gateway.js';
import { runCodex, type CodexRun } from './coding-agents/codex-run.js';

/** A model Codex 0.171 knows: its metadata gives it apply_patch (custom) and tool_search by default. */
const model = 'gpt-5.5';
/** Each CLI run; a run takes a few seconds here. */
const runTimeoutMs = 40_000;
const fileSecret = 'the secret word is pineapple';

/** The text of the run's last agent message. */
function finalText(run: CodexRun): string | undefined {
  return run.events.findLast((event) => event.item?.type === 'agent_message')?.item?.text;
}

describe.each<CodexVendor>(['openai-responses', 'anthropic'])('Codex through a %s channel', (vendor) => {
  let gateway: CodexGateway;
  let workDirectory: string;

  beforeAll(async () => {
    gateway = await startCodexGateway(vendor, model);
    workDirectory = await mkdtemp(path.join(os.tmpdir(), 'codex-work-'));
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
      expect(row).toMatchObject({ model, endpoint: 'responses', status: 200, errorCode: null });
      expect(row.promptTokens).toBeGreaterThan(0);
      expect(row.completionTokens).toBeGreaterThan(0);
      expect(row.cost).toBeGreaterThan(0);
    }
  }

  it('answers a plain prompt with the text the vendor produced', { timeout: runTimeoutMs + 10_000 }, async () => {
    const rowsBefore = (await gateway.usageRows()).length;
    const requestsBefore = gateway.vendorRequests().length;
    const run = await runCodex({
      gatewayUrl: gateway.url,
      apiKey: gateway.apiKey,
      prompt: 'Name a fruit, sim-answer',
      model,
      workDirectory,
      timeoutMs: runTimeoutMs,
    });
    expect(run.exitCode, run.stderr || run.stdout).toBe(0);
    expect(run.events.map((event) => event.type)).toContain('turn.completed');
    // The simulators answer "Echo: <the user's text>".
    expect(finalText(run)).toMatch(/^Echo: /);
    expect(finalText(run)).toContain('Name a fruit, sim-answer');
    // Codex's defaults reached the vendor: apply_patch as a custom tool (or the function standing for it) and tool_search.
    const firstBody = JSON.stringify(gateway.vendorRequests()[requestsBefore]?.body);
    expect(firstBody).toContain('apply_patch');
    expect(firstBody).toContain('tool_search');
    await expectBilledRows(rowsBefore);
  });

  it('reads a file with exec_command and answers from its output', { timeout: runTimeoutMs + 10_000 }, async () => {
    const rowsBefore = (await gateway.usageRows()).length;
    const requestsBefore = gateway.vendorRequests().length;
    const run = await runCodex({
      gatewayUrl: gateway.url,
      apiKey: gateway.apiKey,
      prompt: 'Read my notes. sim-call exec_command {"cmd":"cat notes.txt"}',
      model,
      workDirectory,
      timeoutMs: runTimeoutMs,
    });
    expect(run.exitCode, run.stderr || run.stdout).toBe(0);
    expect(run.events.some((event) => event.item?.type === 'command_execution')).toBe(true);
    // The file's content came back only if the command ran: the prompt names the file, never its content.
    expect(finalText(run)).toContain(fileSecret);
    const turnRequests = gateway.vendorRequests().slice(requestsBefore);
    expect(turnRequests.length).toBe(2);
    expect(JSON.stringify(turnRequests[0]?.body)).not.toContain(fileSecret);
    expect(JSON.stringify(turnRequests[1]?.body)).toContain(fileSecret);
    await expectBilledRows(rowsBefore);
  });

  // Only a translated vendor calls apply_patch here (the Responses simulator never calls custom tools).
  if (vendor === 'anthropic')
    it(
      "edits a file with its custom apply_patch tool, the vendor's call mapped to a custom_tool_call and back",
      { timeout: runTimeoutMs + 10_000 },
      async () => {
        const requestsBefore = gateway.vendorRequests().length;
        const patch = '*** Begin Patch\n*** Add File: added.txt\n+hello from the patch\n*** End Patch\n';
        const run = await runCodex({
          gatewayUrl: gateway.url,
          apiKey: gateway.apiKey,
          prompt: `Add a file. sim-call apply_patch ${JSON.stringify({ input: patch })}`,
          model,
          workDirectory,
          sandbox: 'workspace-write',
          timeoutMs: runTimeoutMs,
        });
        expect(run.exitCode, run.stderr || run.stdout).toBe(0);
        expect(run.events.some((event) => event.item?.type === 'file_change')).toBe(true);
        expect(await readFile(path.join(workDirectory, 'added.txt'), 'utf8')).toBe('hello from the patch\n');
        const turnRequests = gateway.vendorRequests().slice(requestsBefore);
        expect(turnRequests.length).toBe(2);
        // Codex replayed its custom_tool_call and its output; the vendor got them as its own tool_use and tool_result.
        const followUp = JSON.stringify(turnRequests[1]?.body);
        const call = /\{"type":"tool_use","id":"([^"]+)","name":"apply_patch","input":(\{[^}]*\})\}/.exec(followUp);
        expect(JSON.parse(call?.[2] ?? 'null')).toEqual({ input: patch });
        expect(followUp).toMatch(
          new RegExp(
            `"tool_result","tool_use_id":"${call?.[1]}","content":"[^"]*Success\\. Updated the following files`,
          ),
        );
      },
    );
});
