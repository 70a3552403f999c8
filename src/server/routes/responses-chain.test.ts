import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import { createReasoningSealer } from '../../protocols/shared/reasoning-sealer.js';
import type { ResponsesStore, StoredResponseRecord } from '../../storage/responses-store.js';
import { loadResponsesChain } from './responses-chain.js';

/** An in-memory store with the repository's owner scoping. */
function memoryStore(records: StoredResponseRecord[]): ResponsesStore {
  return {
    save: async (record) => void records.push(record),
    find: async (id, userId) => records.find((record) => record.id === id && record.userId === userId),
    delete: async () => false,
  };
}

function turn(
  id: string,
  previousResponseId: string | null,
  question: string,
  answer: string,
  served: Partial<StoredResponseRecord> = {},
): StoredResponseRecord {
  return {
    id,
    userId: 'user_a',
    apiKeyId: 'key_a',
    model: 'gpt-5',
    channelId: null,
    vendorResponseId: null,
    previousResponseId,
    inputItems: [
      { id: `msg_in_${id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text: question }] },
    ],
    response: {
      id,
      object: 'response',
      output: [
        {
          id: `msg_out_${id}`,
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: answer, annotations: [] }],
        },
      ],
    },
    createdAt: 0,
    ...served,
  };
}

const noUnseal = () => null;

describe('loadResponsesChain', () => {
  it('turns every ancestor, oldest first, into input items and canonical messages', async () => {
    const store = memoryStore([
      turn('resp_1', null, 'alpha', 'Echo: alpha'),
      turn('resp_2', 'resp_1', 'beta', 'Echo: beta'),
    ]);
    const chain = await loadResponsesChain(store, 'resp_2', 'user_a', noUnseal);
    expect(chain.passThrough.items.map((item) => item.id)).toEqual([
      'msg_in_resp_1',
      'msg_out_resp_1',
      'msg_in_resp_2',
      'msg_out_resp_2',
    ]);
    expect(chain.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'alpha' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Echo: alpha' }] },
      { role: 'user', content: [{ type: 'text', text: 'beta' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Echo: beta' }] },
    ]);
    expect(chain.passThrough.vendorContinuation).toBeNull();
  });

  it('offers the vendor id of the newest response when a channel passed it through', async () => {
    const store = memoryStore([
      turn('resp_1', null, 'a', 'b', { channelId: 'channel_x', vendorResponseId: 'resp_vendor' }),
    ]);
    const chain = await loadResponsesChain(store, 'resp_1', 'user_a', noUnseal);
    expect(chain.passThrough).toMatchObject({
      previousResponseId: 'resp_1',
      vendorContinuation: { channelId: 'channel_x', vendorResponseId: 'resp_vendor' },
    });
  });

  it("is a 404 naming previous_response_id for another user's response or a missing ancestor", async () => {
    const store = memoryStore([turn('resp_1', null, 'a', 'b'), turn('resp_3', 'resp_gone', 'c', 'd')]);
    await expect(loadResponsesChain(store, 'resp_1', 'user_b', noUnseal)).rejects.toMatchObject({
      status: 404,
      param: 'previous_response_id',
    });
    await expect(loadResponsesChain(store, 'resp_3', 'user_a', noUnseal)).rejects.toMatchObject({
      status: 404,
      param: 'previous_response_id',
    });
  });

  it('replays a tool call artefact stored in the reasoning item before the call onto that call, across responses', async () => {
    const sealer = createReasoningSealer(createSecretBox('gateway secret'));
    const artefact = { producer: 'gemini', signature: 'c2lnLTE=' };
    const first = turn('resp_1', null, 'weather?', '', {
      response: {
        id: 'resp_1',
        object: 'response',
        output: [
          {
            id: 'rs_1',
            type: 'reasoning',
            summary: [],
            encrypted_content: sealer.seal({ artefact, callId: 'call_r_0_0' }),
          },
          {
            id: 'fc_1',
            type: 'function_call',
            call_id: 'call_r_0_0',
            name: 'get_weather',
            arguments: '{}',
            status: 'completed',
          },
        ],
      },
    });
    const second = turn('resp_2', 'resp_1', '', 'Sunny.', {
      inputItems: [{ id: 'fco_1', type: 'function_call_output', call_id: 'call_r_0_0', output: 'sunny' }],
    });
    const chain = await loadResponsesChain(memoryStore([first, second]), 'resp_2', 'user_a', (sealed) =>
      sealer.unseal(sealed),
    );
    expect(chain.messages).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', callId: 'call_r_0_0', name: 'get_weather', arguments: '{}', artefact }],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_r_0_0', output: 'sunny' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] },
    ]);
  });

  it("replays a custom tool's call and output as the vendor's call of its function and its result", async () => {
    const first = turn('resp_1', null, 'patch it', '', {
      response: {
        id: 'resp_1',
        object: 'response',
        output: [
          { id: 'fc_1', type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch' },
        ],
      },
    });
    const second = turn('resp_2', 'resp_1', '', 'Done.', {
      inputItems: [{ id: 'ctco_1', type: 'custom_tool_call_output', call_id: 'call_p', output: 'Success.' }],
    });
    const chain = await loadResponsesChain(memoryStore([first, second]), 'resp_2', 'user_a', noUnseal);
    expect(chain.messages.slice(1, 3)).toStrictEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', callId: 'call_p', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_p', output: 'Success.' }] },
    ]);
  });
});
