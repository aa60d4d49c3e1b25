import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  HookEngine,
  runAgent,
  startSession,
  sendAndAwaitDecisions,
  type Durability,
  type RunOptions,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// An engine stand-in: each completed step's JSON result is kept in `journal`; a run given the same
// journal replays those steps instead of running them. `crashAfter` throws after that many new
// steps completed, the way a killed worker stops between two steps.
class Crash extends Error {}
function journalingDurability(
  journal: Map<string, string>,
  options: { crashAfter?: number; decisions?: Record<string, unknown> } = {},
): Durability & { readonly names: string[] } {
  let fresh = 0;
  let ids = 0;
  const names: string[] = [];
  return {
    names,
    step: async (name, fn) => {
      names.push(name);
      const recorded = journal.get(name);
      if (recorded !== undefined) return JSON.parse(recorded);
      const value = await fn();
      journal.set(name, JSON.stringify(value ?? null));
      if (options.crashAfter !== undefined && ++fresh >= options.crashAfter) {
        throw new Crash('worker killed');
      }
      return JSON.parse(JSON.stringify(value ?? null));
    },
    uuid: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    now: () => Promise.resolve(1_700_000_000_000),
    waitForDecision: () => Promise.resolve(options.decisions as never),
  };
}

function scenario() {
  const effects: number[] = [];
  const hookFirings: string[] = [];
  const seenKeys: string[] = [];
  const write = defineTool({
    name: 'Append',
    description: 'appends a number to a list (a side effect)',
    inputSchema: z.strictObject({ n: z.number() }),
    handler: ({ n }, context) => {
      effects.push(n);
      seenKeys.push(context.toolUseId ?? '');
      return `appended ${n}`;
    },
  });
  const hooks = new HookEngine();
  hooks.on('PreToolUse', ({ tool_use_id }) => void hookFirings.push(`pre ${tool_use_id}`));
  hooks.on('PostToolUse', ({ tool_use_id }) => void hookFirings.push(`post ${tool_use_id}`));
  hooks.on('Stop', () => void hookFirings.push('stop'));
  const model = new ScriptedModel([
    [toolUse('toolu_1', 'Append', { n: 1 })],
    [toolUse('toolu_2', 'Append', { n: 2 })],
    [text('done')],
  ]);
  const options: RunOptions = {
    model,
    projectDir: tempProject(),
    tools: [write],
    hooks,
    transcript: false,
    permissions: { mode: 'bypassPermissions' },
  };
  return { effects, hookFirings, seenKeys, model, options };
}

describe('the durability seam', () => {
  it('in-process (the default) runs every step once, as before', async () => {
    const { effects, hookFirings, options } = scenario();
    const result = await runAgent('go', options);
    expect(result.result).toBe('done');
    expect(effects).toEqual([1, 2]);
    expect(hookFirings).toEqual(['pre toolu_1', 'post toolu_1', 'pre toolu_2', 'post toolu_2', 'stop']);
  });

  it('a run replayed from its journal after a crash after the first tool step runs nothing twice and ends the same', async () => {
    const { effects, hookFirings, seenKeys, model, options } = scenario();
    const journal = new Map<string, string>();
    // Steps: model turn 1, PreToolUse, the handler, then the crash (before PostToolUse is journaled... it is the 4th step).
    await expect(
      runAgent('go', { ...options, durability: journalingDurability(journal, { crashAfter: 3 }) }),
    ).rejects.toThrow('worker killed');
    expect(effects).toEqual([1]);
    const replay = journalingDurability(journal);
    const result = await runAgent('go', { ...options, durability: replay });
    expect(result.result).toBe('done');
    expect(effects).toEqual([1, 2]);
    expect(seenKeys).toEqual(['toolu_1', 'toolu_2']);
    expect(hookFirings).toEqual(['pre toolu_1', 'post toolu_1', 'pre toolu_2', 'post toolu_2', 'stop']);
    // Three model turns in all: the replay asked only for the two the crashed run had not.
    expect(model.requests).toHaveLength(3);
    expect(replay.names.filter((name) => name.startsWith('model:'))).toEqual([
      'model:main:turn-1',
      'model:main:turn-2',
      'model:main:turn-3',
    ]);
  });

  it('session and prompt ids come from the durability, so a replay names the same session', async () => {
    const { options } = scenario();
    const session = await startSession({ ...options, durability: journalingDurability(new Map()) });
    expect(session.sessionId).toBe('00000000-0000-4000-8000-000000000001');
    await session.end();
  });

  it('a deferred call waits for the decision instead of ending the run, and an approval runs it', async () => {
    const { effects, options } = scenario();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', ({ tool_use_id }) =>
      tool_use_id === 'toolu_1'
        ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }
        : undefined,
    );
    const durability = journalingDurability(new Map(), { decisions: { toolu_1: { behavior: 'allow' } } });
    const session = await startSession({ ...options, hooks, durability });
    const result = await sendAndAwaitDecisions(session, 'go', durability);
    await session.end();
    expect(result.terminalReason).toBe('completed');
    expect(effects).toEqual([1, 2]);
  });

  it('a denial decided while the run waits pairs the call with its message, and the run goes on', async () => {
    const { effects, options } = scenario();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', ({ tool_use_id }) =>
      tool_use_id === 'toolu_1'
        ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } }
        : undefined,
    );
    const durability = journalingDurability(new Map(), {
      decisions: { toolu_1: { behavior: 'deny', message: 'not today' } },
    });
    const session = await startSession({ ...options, hooks, durability });
    const result = await sendAndAwaitDecisions(session, 'go', durability);
    await session.end();
    expect(result.terminalReason).toBe('completed');
    expect(effects).toEqual([2]);
    expect(
      result.messages.find((message) => message.role === 'tool' && message.toolCallId === 'toolu_1'),
    ).toMatchObject({ content: 'not today', isError: true });
  });

  it('in-process, a deferred call still ends the run tool_deferred with the call pending', async () => {
    const { effects, options } = scenario();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', () => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' },
    }));
    const session = await startSession({ ...options, hooks });
    const result = await sendAndAwaitDecisions(
      session,
      'go',
      (await import('../../src/index.js')).inProcessDurability,
    );
    await session.end();
    expect(result.terminalReason).toBe('tool_deferred');
    expect(result.pending?.map((call) => call.id)).toEqual(['toolu_1']);
    expect(effects).toEqual([]);
  });
});
