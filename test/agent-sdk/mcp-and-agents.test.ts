import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSdkMcpServer, query, tool, type SDKSystemMessage } from '../../src/agent-sdk/index.js';
import { collect, scripted, toolResults } from './support.js';

/** An in-process server as the SDK's docs write one. */
function weatherServer(calls: { city: string }[]) {
  return createSdkMcpServer({
    name: 'weather',
    version: '1.0.0',
    tools: [
      tool(
        'get_weather',
        'The weather in a city',
        { city: z.string().describe('the city') },
        async (args) => {
          calls.push(args);
          return { content: [{ type: 'text', text: `Sunny in ${args.city}` }] };
        },
      ),
    ],
  });
}

describe('hookloop/agent-sdk: in-process MCP tools and subagents', () => {
  it('a createSdkMcpServer tool is offered as mcp__<server>__<tool>, runs in process, and its hooks fire', async () => {
    const calls: { city: string }[] = [];
    const hooked: string[] = [];
    const { model, options } = scripted([
      [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__weather__get_weather', input: { city: 'Oslo' } }],
      [{ type: 'text', text: 'It is sunny.' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'weather in Oslo?',
        options: {
          ...options,
          mcpServers: { weather: weatherServer(calls) },
          allowedTools: ['mcp__weather__get_weather'],
          hooks: {
            PreToolUse: [
              {
                matcher: 'mcp__weather__.*',
                hooks: [
                  async (input) => {
                    if (input.hook_event_name === 'PreToolUse') hooked.push(String(input.tool_name));
                    return {};
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    const init = messages[0] as SDKSystemMessage;
    expect(init.tools).toContain('mcp__weather__get_weather');
    expect(init.mcp_servers).toEqual([{ name: 'weather', status: 'connected' }]);
    expect(model.requests[0]!.tools?.map((spec) => spec.name)).toContain('mcp__weather__get_weather');
    expect(calls).toEqual([{ city: 'Oslo' }]);
    expect(hooked).toEqual(['mcp__weather__get_weather']);
    expect(toolResults(messages)[0]).toMatchObject({ tool_use_id: 'toolu_1', is_error: false });
    expect(JSON.stringify(toolResults(messages)[0]!.content)).toContain('Sunny in Oslo');
  });

  it('input the tool schema refuses is an error result, and the handler never runs', async () => {
    const calls: { city: string }[] = [];
    const { options } = scripted([
      [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__weather__get_weather', input: { town: 'Oslo' } }],
      [{ type: 'text', text: 'sorry' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'weather?',
        options: {
          ...options,
          mcpServers: { weather: weatherServer(calls) },
          allowedTools: ['mcp__weather'],
        },
      }),
    );
    expect(calls).toEqual([]);
    expect(toolResults(messages)[0]!.is_error).toBe(true);
  });

  it('a subagent from `agents` runs under the session hooks with its own prompt and tools', async () => {
    const events: { event: string; agent_type?: string }[] = [];
    const { model, options } = scripted([
      [
        {
          type: 'tool_use',
          id: 'toolu_agent',
          name: 'Agent',
          input: { subagent_type: 'code-reviewer', description: 'review', prompt: 'Review src/' },
        },
      ],
      {
        match: 'You review code.',
        content: [{ type: 'tool_use', id: 'toolu_sub', name: 'Bash', input: { command: 'echo reviewed' } }],
      },
      { match: 'You review code.', content: [{ type: 'text', text: 'Looks good.' }] },
      [{ type: 'text', text: 'The reviewer says it looks good.' }],
    ]);
    const record = async (input: { hook_event_name: string; agent_type?: string }) => {
      events.push({
        event: input.hook_event_name,
        ...(input.agent_type ? { agent_type: input.agent_type } : {}),
      });
      return {};
    };
    const messages = await collect(
      query({
        prompt: 'get my code reviewed',
        options: {
          ...options,
          allowedTools: ['Bash(echo:*)'],
          agents: {
            'code-reviewer': {
              description: 'Reviews code',
              prompt: 'You review code.',
              tools: ['Bash', 'Read'],
            },
          },
          hooks: {
            SubagentStart: [{ hooks: [record] }],
            PreToolUse: [{ matcher: 'Bash', hooks: [record] }],
            SubagentStop: [{ hooks: [record] }],
          },
        },
      }),
    );
    expect((messages[0] as SDKSystemMessage).agents).toContain('code-reviewer');
    expect(events).toEqual([
      { event: 'SubagentStart', agent_type: 'code-reviewer' },
      { event: 'PreToolUse', agent_type: 'code-reviewer' },
      { event: 'SubagentStop', agent_type: 'code-reviewer' },
    ]);
    const subagentRequest = model.requests.find((request) => request.system.includes('You review code.'));
    expect(subagentRequest?.tools?.map((spec) => spec.name).sort()).toEqual(['Bash', 'Read']);
    expect(toolResults(messages)).toHaveLength(1);
    expect(JSON.stringify(toolResults(messages)[0]!.content)).toContain('Looks good.');
    expect(messages.at(-1)).toMatchObject({ subtype: 'success', result: 'The reviewer says it looks good.' });
  });

  it('an agents field hookloop does not run is refused by name', async () => {
    const { options } = scripted([]);
    await expect(
      collect(
        query({
          prompt: 'go',
          options: {
            ...options,
            agents: { helper: { description: 'd', prompt: 'p', skills: ['x'] } as never },
          },
        }),
      ),
    ).rejects.toThrow('query() options.agents.helper.skills: not supported by hookloop/agent-sdk');
  });
  it('one server object serves one query after another, as a module-level server in an SDK program does', async () => {
    const calls: { city: string }[] = [];
    const server = weatherServer(calls);
    for (const city of ['Oslo', 'Lima']) {
      const { options } = scripted([
        [{ type: 'tool_use', id: `toolu_${city}`, name: 'mcp__weather__get_weather', input: { city } }],
        [{ type: 'text', text: 'ok' }],
      ]);
      const messages = await collect(
        query({
          prompt: city,
          options: { ...options, mcpServers: { weather: server }, allowedTools: ['mcp__weather'] },
        }),
      );
      expect(toolResults(messages)[0]!.is_error).toBe(false);
    }
    expect(calls).toEqual([{ city: 'Oslo' }, { city: 'Lima' }]);
  });

  it('PermissionRequest callbacks decide what the policy asks about, before canUseTool', async () => {
    let asked = 0;
    const { options } = scripted([
      [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo approved' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          canUseTool: async () => {
            asked++;
            return { behavior: 'deny', message: 'no' };
          },
          hooks: {
            PermissionRequest: [
              {
                matcher: 'Bash',
                hooks: [
                  async () => ({
                    hookSpecificOutput: {
                      hookEventName: 'PermissionRequest',
                      decision: { behavior: 'allow' },
                    },
                  }),
                ],
              },
            ],
          },
        },
      }),
    );
    expect(asked).toBe(0);
    expect(toolResults(messages)[0]).toMatchObject({ is_error: false, content: 'approved' });
  });
});
