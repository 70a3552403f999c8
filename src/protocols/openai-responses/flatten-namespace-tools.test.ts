import { describe, expect, it } from 'vitest';
import { flattenNamespaceTools, type NamedTool } from './flatten-namespace-tools.js';

const vendorName = /^[a-zA-Z0-9_-]{1,64}$/;

describe('flattenNamespaceTools', () => {
  it('names a namespaced function <namespace>__<name> and maps it back, leaving top-level names alone', () => {
    const names = flattenNamespaceTools([
      { type: 'function', name: 'exec_command' },
      { type: 'namespace', name: 'multi_agent_v1', tools: [{ name: 'spawn_agent' }, { name: 'wait_agent' }] },
    ]);
    expect(names.vendorNameOf({ name: 'exec_command' })).toBe('exec_command');
    expect(names.vendorNameOf({ namespace: 'multi_agent_v1', name: 'spawn_agent' })).toBe(
      'multi_agent_v1__spawn_agent',
    );
    expect(names.clientNameOf('multi_agent_v1__wait_agent')).toEqual({
      namespace: 'multi_agent_v1',
      name: 'wait_agent',
    });
    expect(names.clientNameOf('exec_command')).toEqual({ name: 'exec_command' });
    expect(names.clientNameOf('unknown_tool')).toEqual({ name: 'unknown_tool' });
  });

  it('gives a name a top-level function already has a hashed one, the same on every turn', () => {
    const tools: NamedTool[] = [
      { type: 'function', name: 'crm__lookup' },
      { type: 'namespace', name: 'crm', tools: [{ name: 'lookup' }] },
    ];
    const first = flattenNamespaceTools(tools).vendorNameOf({ namespace: 'crm', name: 'lookup' });
    expect(first).not.toBe('crm__lookup');
    expect(first).toMatch(/^crm__lookup_[0-9a-f]{8}$/);
    expect(flattenNamespaceTools(tools).vendorNameOf({ namespace: 'crm', name: 'lookup' })).toBe(first);
    expect(flattenNamespaceTools(tools).clientNameOf(first)).toEqual({ namespace: 'crm', name: 'lookup' });
    expect(flattenNamespaceTools(tools).clientNameOf('crm__lookup')).toEqual({ name: 'crm__lookup' });
  });

  it('shortens an over-long or invalid joined name to a valid unique vendor name', () => {
    const longNamespace = 'mcp__a_very_long_server_name_that_goes_on_and_on';
    const tools: NamedTool[] = [
      {
        type: 'namespace',
        name: longNamespace,
        tools: [{ name: 'list_everything_there_is' }, { name: 'list_everything_there_was' }],
      },
      { type: 'namespace', name: 'my.server', tools: [{ name: 'ping' }] },
    ];
    const names = flattenNamespaceTools(tools);
    const is = names.vendorNameOf({ namespace: longNamespace, name: 'list_everything_there_is' });
    const was = names.vendorNameOf({ namespace: longNamespace, name: 'list_everything_there_was' });
    const ping = names.vendorNameOf({ namespace: 'my.server', name: 'ping' });
    for (const name of [is, was, ping]) expect(name).toMatch(vendorName);
    expect(new Set([is, was, ping]).size).toBe(3);
    expect(names.clientNameOf(was)).toEqual({ namespace: longNamespace, name: 'list_everything_there_was' });
    expect(names.clientNameOf(ping)).toEqual({ namespace: 'my.server', name: 'ping' });
  });

  it('names a replayed call of a namespace the request no longer lists as that namespace alone would be', () => {
    const names = flattenNamespaceTools([{ type: 'function', name: 'exec_command' }]);
    expect(names.vendorNameOf({ namespace: 'multi_agent_v1', name: 'close_agent' })).toBe(
      'multi_agent_v1__close_agent',
    );
  });
});
