import { describe, expect, it } from 'vitest';
import { EXTENSION_EVENTS, eventSpec } from '../../src/hooks/event-table.js';
import { buildPayload } from '../../src/hooks/payload.js';
import { HookEngine, MODEL_CALLERS, rewritePrompt, type HookPayload } from '../../src/index.js';

const session = {
  sessionId: 's1',
  transcriptPath: '/tmp/t.jsonl',
  cwd: '/tmp',
  promptId: 'p1',
  mode: 'default',
  effort: 'medium',
};
const call = { caller: 'main', turn: 1, model: 'm' } as const;

describe('the extensions in the event table', () => {
  it('lists the three model-call events as extensions, matched on caller (PermissionDecision is the other extension)', () => {
    const modelEvents = ['PreModelRequest', 'PreToolSelection', 'PostModelResponse'] as const;
    expect([...EXTENSION_EVENTS].sort()).toEqual([...modelEvents, 'PermissionDecision'].sort());
    for (const event of modelEvents) expect(eventSpec(event).matchField).toBe('caller');
    expect(MODEL_CALLERS).toEqual(['main', 'subagent', 'compaction', 'hook']);
  });
});

describe('merge rules of the extensions (what fire returns)', () => {
  it('UserPromptSubmit: the last updatedPrompt wins, each callback sees the previous one, and any suppressOriginalPrompt counts', async () => {
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on('UserPromptSubmit', ({ prompt }) => (seen.push(prompt), rewritePrompt(`${prompt}+a`)));
    hooks.on(
      'UserPromptSubmit',
      ({ prompt }) => (
        seen.push(prompt),
        {
          hookSpecificOutput: {
            hookEventName: 'UserPromptSubmit',
            updatedPrompt: `${prompt}+b`,
            suppressOriginalPrompt: true,
          },
        }
      ),
    );
    const result = await hooks.fire(
      'UserPromptSubmit',
      buildPayload('UserPromptSubmit', session, { prompt: 'typed' }),
    );
    expect(seen).toEqual(['typed', 'typed+a']);
    expect(result).toMatchObject({ updatedPrompt: 'typed+a+b', suppressOriginalPrompt: true, blocks: [] });
    expect(eventSpec('UserPromptSubmit').merge.verdict(result)).toEqual({
      decision: 'rewrite',
      refuses: false,
    });
  });

  it('PreToolSelection: allowedTools narrow in turn (no hook widens), the last toolChoice wins', async () => {
    const hooks = new HookEngine();
    const offered: string[][] = [];
    hooks.on(
      'PreToolSelection',
      ({ tools }) => (
        offered.push(tools.map((tool) => tool.name)),
        { hookSpecificOutput: { hookEventName: 'PreToolSelection', allowedTools: ['Read', 'Grep'] } }
      ),
    );
    hooks.on(
      'PreToolSelection',
      ({ tools }) => (
        offered.push(tools.map((tool) => tool.name)),
        {
          hookSpecificOutput: {
            hookEventName: 'PreToolSelection',
            allowedTools: ['Grep', 'Bash'],
            toolChoice: { type: 'any' },
          },
        }
      ),
    );
    const tools = ['Bash', 'Read', 'Grep'].map((name) => ({ name, description: name }));
    const result = await hooks.fire(
      'PreToolSelection',
      buildPayload('PreToolSelection', session, { ...call, tools } as HookPayload<'PreToolSelection'>),
    );
    expect(offered).toEqual([
      ['Bash', 'Read', 'Grep'],
      ['Read', 'Grep'],
    ]);
    expect(result).toMatchObject({ allowedTools: ['Grep'], toolChoice: { type: 'any' } });
  });

  it('PostModelResponse: every dropped id counts, the last updatedText wins; nothing refuses', async () => {
    const hooks = new HookEngine();
    hooks.on('PostModelResponse', () => ({
      hookSpecificOutput: {
        hookEventName: 'PostModelResponse',
        dropToolCalls: ['toolu_1'],
        updatedText: 'first',
      },
    }));
    hooks.on('PostModelResponse', ({ response }) => ({
      hookSpecificOutput: {
        hookEventName: 'PostModelResponse',
        dropToolCalls: response.tool_calls.map((toolCall) => toolCall.id),
        updatedText: 'second',
      },
    }));
    const response = {
      text: 'hi',
      tool_calls: [
        { id: 'toolu_1', name: 'Bash', input: {} },
        { id: 'toolu_2', name: 'Bash', input: {} },
      ],
      stop_reason: 'tool_use',
    };
    const result = await hooks.fire(
      'PostModelResponse',
      buildPayload('PostModelResponse', session, {
        ...call,
        synthetic: false,
        response,
        usage: { input_tokens: 1, output_tokens: 1 },
      } as HookPayload<'PostModelResponse'>),
    );
    // The second hook saw the first one's drop: only toolu_2 was left for it to name.
    expect(result).toMatchObject({ updatedText: 'second', dropToolCalls: ['toolu_1', 'toolu_2'] });
    expect(eventSpec('PostModelResponse').merge.verdict(result)).toEqual({
      decision: 'rewrite',
      refuses: false,
    });
  });

  it('PermissionRequest defer (hookloop extension): deny > defer > allow', async () => {
    const hooks = new HookEngine();
    hooks.on('PermissionRequest', () => ({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    }));
    hooks.on('PermissionRequest', () => ({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'defer', message: 'ask the on-call' },
      },
    }));
    const payload = buildPayload('PermissionRequest', session, {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(await hooks.fire('PermissionRequest', payload)).toMatchObject({
      behavior: 'defer',
      message: 'ask the on-call',
    });
    hooks.on('PermissionRequest', () => ({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no' },
      },
    }));
    expect(await hooks.fire('PermissionRequest', payload)).toMatchObject({ behavior: 'deny', message: 'no' });
  });
});
