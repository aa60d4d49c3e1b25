import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query, type HookInput, type SDKMessage, type SDKSystemMessage } from '../../src/agent-sdk/index.js';
import { collect, scripted, toolResults, toolUseIds } from './support.js';

const bash = (id: string, command: string) => [{ type: 'tool_use', id, name: 'Bash', input: { command } }];

describe('hookloop/agent-sdk query(): hooks in the SDK callback form', () => {
  it('a PreToolUse deny reaches the model as Claude Code words it, and the stream is the SDK one', async () => {
    const { model, options } = scripted([
      bash('toolu_1', 'rm -rf build'),
      [{ type: 'text', text: 'ok, I will not' }],
    ]);
    const seen: { input: HookInput; toolUseID: string | undefined }[] = [];
    const messages = await collect(
      query({
        prompt: 'clean the build',
        options: {
          ...options,
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [
                  async (input, toolUseID) => {
                    seen.push({ input, toolUseID });
                    return {
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse',
                        permissionDecision: 'deny',
                        permissionDecisionReason: 'Dangerous command blocked',
                      },
                    };
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.toolUseID).toBe('toolu_1');
    expect(seen[0]!.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      tool_use_id: 'toolu_1',
    });
    expect(toolResults(messages)).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: 'PreToolUse:Bash hook error: Dangerous command blocked',
        is_error: true,
      },
    ]);
    // The model read the same text.
    const lastRequest = model.requests.at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).toContain(
      'PreToolUse:Bash hook error: Dangerous command blocked',
    );
    expect(messages.map((message) => message.type)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    const [init] = messages;
    expect(init).toMatchObject({ type: 'system', subtype: 'init', permissionMode: 'default' });
    expect((init as SDKSystemMessage).tools).toContain('Bash');
    const result = messages.at(-1) as Extract<SDKMessage, { type: 'result' }>;
    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'ok, I will not',
      num_turns: 2,
    });
    expect(result.session_id).toBe((init as SDKSystemMessage).session_id);
  });

  it('each content block of a model answer is its own assistant message, and every call gets one paired result', async () => {
    const { options } = scripted([
      [
        { type: 'text', text: 'Two things.' },
        { type: 'tool_use', id: 'toolu_a', name: 'Bash', input: { command: 'echo a' } },
        { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'echo b' } },
      ],
      [{ type: 'text', text: 'done' }],
    ]);
    const messages = await collect(
      query({ prompt: 'go', options: { ...options, allowedTools: ['Bash(echo:*)'] } }),
    );
    const assistant = messages.filter((message) => message.type === 'assistant');
    expect(assistant.map((message) => message.message.content.map((block) => block.type))).toEqual([
      ['text'],
      ['tool_use'],
      ['tool_use'],
      ['text'],
    ]);
    // The blocks of one answer share the message id, as the SDK's do.
    expect(assistant[0]!.message.id).toBe(assistant[2]!.message.id);
    expect(toolResults(messages).map((block) => [block.tool_use_id, block.content])).toEqual([
      ['toolu_a', 'a'],
      ['toolu_b', 'b'],
    ]);
    expect(toolUseIds(messages)).toEqual(['toolu_a', 'toolu_b']);
  });

  it('PostToolUse hooks see the tool response and their additionalContext reaches the model', async () => {
    const { model, options } = scripted([bash('toolu_1', 'echo hi'), [{ type: 'text', text: 'done' }]]);
    const responses: unknown[] = [];
    await collect(
      query({
        prompt: 'say hi',
        options: {
          ...options,
          allowedTools: ['Bash'],
          hooks: {
            PostToolUse: [
              {
                hooks: [
                  async (input) => {
                    if (input.hook_event_name === 'PostToolUse') responses.push(input.tool_response);
                    return {
                      hookSpecificOutput: {
                        hookEventName: 'PostToolUse',
                        additionalContext: 'audit: logged',
                      },
                    };
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ stdout: 'hi' });
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('audit: logged');
  });

  it('a Stop hook that blocks sends its reason back and sees stop_hook_active on the next stop', async () => {
    const { model, options } = scripted([
      [{ type: 'text', text: 'first' }],
      [{ type: 'text', text: 'second' }],
    ]);
    const active: unknown[] = [];
    const messages = await collect(
      query({
        prompt: 'work',
        options: {
          ...options,
          hooks: {
            Stop: [
              {
                hooks: [
                  async (input) => {
                    const again = input.hook_event_name === 'Stop' && input.stop_hook_active;
                    active.push(again);
                    return again ? {} : { decision: 'block', reason: 'run the tests first' };
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(active).toEqual([false, true]);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('run the tests first');
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'second' });
  });

  it('continue: false ends the run with the stopReason, the call still paired', async () => {
    const { options } = scripted([bash('toolu_1', 'echo hi'), [{ type: 'text', text: 'never asked' }]]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          allowedTools: ['Bash'],
          hooks: {
            PostToolUse: [{ hooks: [async () => ({ continue: false, stopReason: 'enough for today' })] }],
          },
        },
      }),
    );
    expect(toolResults(messages).map((block) => block.tool_use_id)).toEqual(['toolu_1']);
    expect(messages.filter((message) => message.type === 'assistant')).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({ type: 'result' });
  });

  it('{ async: true } is no opinion: the call runs', async () => {
    const { options } = scripted([bash('toolu_1', 'echo ran'), [{ type: 'text', text: 'done' }]]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          allowedTools: ['Bash'],
          hooks: { PreToolUse: [{ hooks: [async () => ({ async: true, asyncTimeout: 30 })] }] },
        },
      }),
    );
    expect(toolResults(messages)[0]).toMatchObject({ content: 'ran', is_error: false });
  });

  it('a PreToolUse callback that throws refuses the call (fails closed)', async () => {
    const { options } = scripted([bash('toolu_1', 'touch marker'), [{ type: 'text', text: 'done' }]]);
    const messages = await collect(
      query({
        prompt: 'go',
        options: {
          ...options,
          allowedTools: ['Bash'],
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  async () => {
                    throw new Error('guard is down');
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(toolResults(messages)[0]!.is_error).toBe(true);
    expect(fs.existsSync(path.join(options.cwd!, 'marker'))).toBe(false);
  });

  it('an event hookloop does not fire is refused by name before anything runs', async () => {
    const { options } = scripted([]);
    await expect(
      collect(
        query({
          prompt: 'go',
          options: { ...options, hooks: { TeammateIdle: [{ hooks: [async () => ({})] }] } },
        }),
      ),
    ).rejects.toThrow('query() options.hooks.TeammateIdle: hookloop does not fire TeammateIdle hooks');
  });
  it('UserPromptSubmit and SessionStart callbacks add context the model reads; a prompt block ends the turn', async () => {
    const { model, options } = scripted([[{ type: 'text', text: 'ok' }]]);
    const sources: unknown[] = [];
    await collect(
      query({
        prompt: 'hello',
        options: {
          ...options,
          hooks: {
            SessionStart: [
              {
                hooks: [
                  async (input) => {
                    if (input.hook_event_name === 'SessionStart') sources.push(input.source);
                    return {
                      hookSpecificOutput: {
                        hookEventName: 'SessionStart',
                        additionalContext: 'repo uses pnpm',
                      },
                    };
                  },
                ],
              },
            ],
            UserPromptSubmit: [
              {
                hooks: [
                  async () => ({
                    hookSpecificOutput: {
                      hookEventName: 'UserPromptSubmit',
                      additionalContext: 'today is a holiday',
                    },
                  }),
                ],
              },
            ],
          },
        },
      }),
    );
    expect(sources).toEqual(['startup']);
    const sent = JSON.stringify(model.requests[0]!.messages);
    expect(sent).toContain('repo uses pnpm');
    expect(sent).toContain('today is a holiday');

    const blocked = scripted([]);
    const messages = await collect(
      query({
        prompt: 'leak the secrets',
        options: {
          ...blocked.options,
          hooks: { UserPromptSubmit: [{ hooks: [async () => ({ decision: 'block', reason: 'not that' })] }] },
        },
      }),
    );
    expect(blocked.model.requests).toHaveLength(0);
    expect(messages.at(-1)).toMatchObject({ type: 'result' });
    expect(JSON.stringify(messages.at(-1))).toContain('not that');
  });
});
