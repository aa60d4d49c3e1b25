import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  compactionThresholds,
  HookEngine,
  type HookEventName,
  loadSession,
  PROMPT_TOO_LONG,
  readTranscriptLines,
  startSession,
  transcriptPathFor,
  userMessage,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { continuationMessage, extractSummary, summaryRequest } from '../../src/session/compaction-prompt.js';
import { pairingViolations, scriptedRun, tempProject, text, toolUse } from '../support/scripted-run.js';

const SUMMARY_TURN = {
  match: 'create a detailed summary of the conversation',
  content: [text('<analysis>a</analysis>\n<summary>SUMMARY-TEXT</summary>')],
};

/** Records the events of interest with the fields that matter here. */
function recorder(events: readonly HookEventName[]) {
  const hooks = new HookEngine();
  const calls: [string, Record<string, unknown>][] = [];
  for (const event of events)
    hooks.on(event, (input) => void calls.push([event, { ...(input as Record<string, unknown>) }]));
  return { hooks, calls };
}

describe('compaction thresholds', () => {
  it('default to the reference: proactive at 970k of a 1M window, required at 985k, none at 950k', () => {
    const { auto, blocking } = compactionThresholds();
    expect([950_000 >= auto, 970_000 >= auto, 970_000 >= blocking, 985_000 >= blocking]).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect(compactionThresholds({ contextWindow: 200_000 })).toEqual({ auto: 167_000, blocking: 177_000 });
  });
});

describe('automatic compaction', () => {
  it('runs between turns: PreCompact → summary request → SessionStart(compact) → PostCompact, then the summary replaces the history', async () => {
    const { hooks, calls } = recorder(['PreCompact', 'SessionStart', 'PostCompact', 'Stop']);
    hooks.on('SessionStart', { matcher: 'compact' }, () => ({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'AFTER-COMPACT-CTX' },
    }));
    const { result, model } = await scriptedRun(
      [
        { content: [toolUse('toolu_01', 'Bash', { command: 'echo one' })], usage: { input_tokens: 985_000 } },
        SUMMARY_TURN,
        [toolUse('toolu_02', 'Bash', { command: 'echo two' })],
        [text('done')],
      ],
      { hooks, tools: builtinTools(), permissions: { rules: { allow: ['Bash'] } } },
      'work a lot',
    );
    expect(result).toMatchObject({ result: 'done', terminalReason: 'completed' });
    expect(
      calls.map(([event, input]) => [event, input['source'] ?? input['trigger'] ?? '']).slice(1),
    ).toEqual([
      ['PreCompact', 'auto'],
      ['SessionStart', 'compact'],
      ['PostCompact', 'auto'],
      ['Stop', ''],
    ]);
    expect(calls[1]![1]).toMatchObject({ trigger: 'auto', custom_instructions: null });
    expect(calls[1]![1]).not.toHaveProperty('permission_mode');
    expect(calls[2]![1]).toMatchObject({ source: 'compact', model: 'scripted' });
    expect(calls[3]![1]).toMatchObject({
      compact_summary: '<analysis>a</analysis>\n<summary>SUMMARY-TEXT</summary>',
    });

    // The summary request: the whole conversation, then the instructions as user text.
    const summaryRequestSent = model.requests[1]!;
    expect(summaryRequestSent.messages.at(-1)).toEqual(userMessage(summaryRequest([])));
    expect(summaryRequestSent.messages.filter((message) => message.role === 'tool')).toHaveLength(1);
    // After it: the summary as a user message, then the SessionStart(compact) context.
    expect(model.requests[2]!.messages).toEqual([
      userMessage(continuationMessage('SUMMARY-TEXT', 'auto')),
      { role: 'system', content: 'SessionStart hook additional context: AFTER-COMPACT-CTX' },
    ]);
    expect(pairingViolations(result.messages)).toEqual([]);
    // Summary tokens count in the run's usage.
    expect(result.usage.inputTokens).toBe(985_000);
  });

  it('a PreCompact block skips a proactive compaction and the conversation goes on uncompacted', async () => {
    const { hooks, calls } = recorder(['PreCompact', 'PostCompact', 'Stop']);
    hooks.on('PreCompact', () => ({ decision: 'block', reason: 'not now' }));
    const { result, model } = await scriptedRun(
      [
        { content: [toolUse('toolu_01', 'Bash', { command: 'echo one' })], usage: { input_tokens: 970_000 } },
        [toolUse('toolu_02', 'Bash', { command: 'echo two' })],
        [text('done')],
      ],
      { hooks, tools: builtinTools(), permissions: { rules: { allow: ['Bash'] } } },
    );
    expect(result).toMatchObject({ result: 'done', terminalReason: 'completed' });
    expect(calls.map(([event]) => event)).toEqual(['PreCompact', 'Stop']);
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]!.messages[0]).toEqual(userMessage('go'));
  });

  it('a PreCompact block when compaction is required ends the run: "Prompt is too long", blocking_limit, no Stop', async () => {
    const { hooks, calls } = recorder(['PreCompact', 'Stop', 'StopFailure', 'SessionEnd']);
    hooks.on('PreCompact', () => ({ decision: 'block', reason: 'never' }));
    const { result, model } = await scriptedRun(
      [{ content: [toolUse('toolu_01', 'Bash', { command: 'echo one' })], usage: { input_tokens: 985_000 } }],
      {
        hooks,
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
      },
    );
    expect(result).toMatchObject({
      result: PROMPT_TOO_LONG,
      isError: true,
      terminalReason: 'blocking_limit',
      stopReason: 'stop_sequence',
      numTurns: 2,
    });
    expect(calls.map(([event]) => event)).toEqual(['PreCompact', 'SessionEnd']);
    expect(model.requests).toHaveLength(1);
    expect(pairingViolations(result.messages)).toEqual([]);
  });

  it('a failed summary request leaves the conversation as it was (proactive) and is reported', async () => {
    const warnings: string[] = [];
    const { result, model } = await scriptedRun(
      [
        { content: [toolUse('toolu_01', 'Bash', { command: 'echo one' })], usage: { input_tokens: 970_000 } },
        { match: 'create a detailed summary', error: { status: 500, message: 'overloaded' } },
        [text('done')],
      ],
      {
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
        observers: [(event) => void (event.type === 'warning' && warnings.push(event.text))],
      },
    );
    expect(result).toMatchObject({ result: 'done', terminalReason: 'completed' });
    expect(model.requests[2]!.messages[0]).toEqual(userMessage('go'));
    expect(warnings).toEqual([expect.stringContaining('automatic compaction failed')]);
  });

  it('is recorded in the transcript (boundary, summary line), and a resume starts from the summary', async () => {
    const projectDir = tempProject();
    const configDir = tempProject();
    const { result } = await scriptedRun(
      [
        { content: [toolUse('toolu_01', 'Bash', { command: 'echo one' })], usage: { input_tokens: 985_000 } },
        SUMMARY_TURN,
        [text('done')],
      ],
      {
        projectDir,
        configDir,
        tools: builtinTools(),
        permissions: { rules: { allow: ['Bash'] } },
      },
    );
    const file = transcriptPathFor(configDir, projectDir, result.sessionId);
    const lines = readTranscriptLines(file).lines;
    const boundary = lines.findIndex((line) => line.subtype === 'compact_boundary');
    expect(lines[boundary]).toMatchObject({
      type: 'system',
      parentUuid: null,
      logicalParentUuid: lines[boundary - 1]!.uuid,
      compactMetadata: { trigger: 'auto', preTokens: 985_000 },
    });
    expect(lines[boundary + 1]).toMatchObject({
      type: 'user',
      isCompactSummary: true,
      message: { content: continuationMessage('SUMMARY-TEXT', 'auto') },
    });
    // Append-only: everything before the boundary is still there.
    expect(lines.slice(0, boundary).some((line) => JSON.stringify(line).includes('toolu_01'))).toBe(true);
    expect(loadSession(file).messages).toEqual(result.messages);
    expect(result.messages[0]).toEqual(userMessage(continuationMessage('SUMMARY-TEXT', 'auto')));
  });
});

describe('compaction on demand', () => {
  it('session.compact(instructions): PreCompact trigger manual with custom_instructions, which the summarizer gets', async () => {
    const { hooks, calls } = recorder(['PreCompact', 'PostCompact']);
    const model = new ScriptedModel([[text('hello')], SUMMARY_TURN, [text('after')]]);
    const session = await startSession({ model, projectDir: tempProject(), hooks });
    await session.send('hi');
    const outcome = await session.compact('focus on the tests');
    expect(outcome).toMatchObject({ kind: 'compacted' });
    expect(calls).toEqual([
      [
        'PreCompact',
        expect.objectContaining({ trigger: 'manual', custom_instructions: 'focus on the tests' }),
      ],
      ['PostCompact', expect.objectContaining({ trigger: 'manual' })],
    ]);
    expect(model.requests[1]!.messages.at(-1)).toEqual(userMessage(summaryRequest(['focus on the tests'])));
    expect(summaryRequest(['focus on the tests'])).toMatch(
      /\n\nAdditional Instructions:\nfocus on the tests$/,
    );
    const next = await session.send('and now?');
    expect(next.result).toBe('after');
    expect(model.requests[2]!.messages).toEqual([
      userMessage(continuationMessage('SUMMARY-TEXT', 'manual')),
      userMessage('and now?'),
    ]);
    await session.end();
    model.assertConsumed();
  });

  it('reports a block without touching the conversation', async () => {
    const hooks = new HookEngine();
    hooks.on('PreCompact', () => ({ decision: 'block', reason: 'keep it all' }));
    const model = new ScriptedModel([[text('hello')]]);
    const session = await startSession({ model, projectDir: tempProject(), hooks });
    await session.send('hi');
    expect(await session.compact()).toEqual({ kind: 'blocked', reason: 'keep it all' });
    expect(session.messages).toHaveLength(2);
    await session.end();
  });
});

describe('summary texts', () => {
  it('take the <summary> part of the answer, else the answer without its analysis', () => {
    expect(extractSummary('<analysis>x</analysis>\n<summary>\nS\n</summary>')).toBe('S');
    expect(extractSummary('<analysis>x</analysis>plain')).toBe('plain');
    expect(continuationMessage('S', 'manual')).toBe(
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\nS',
    );
  });
});
