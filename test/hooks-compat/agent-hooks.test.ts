import { describe, expect, it } from 'vitest';
import { MAX_SUBAGENT_TURNS } from '../../src/agents/hook-subagent.js';
import {
  compatRun,
  recorded,
  recorder,
  settingsHooks,
  tempProject,
  text,
  toolResults,
  toolUse,
} from './support.js';

// `type: "agent"` (conformance hook-type-agent): a bounded sub-run of
// the loop with read-only tools that answers through StructuredOutput.

const VERIFY = 'AGENT-HOOK-VERIFY: check that the answer is complete. $ARGUMENTS';
const stopAgent = (extra: Record<string, unknown> = {}) => ({
  hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: VERIFY, ...extra }] }] },
});

describe('agent hooks', () => {
  it('Stop ok:false → the main model gets `Stop hook feedback:\\nAgent hook condition was not met: <reason>`; ok:true ends the run (hook-type-agent)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(stopAgent(), dir);
    const { result, model } = await compatRun(
      [
        [text('main answer')],
        {
          match: 'AGENT-HOOK-VERIFY',
          content: [
            toolUse('toolu_ah1', 'StructuredOutput', { ok: false, reason: 'AGENT-HOOK-SAYS-CONTINUE' }),
          ],
        },
        [text('second main answer')],
        { match: 'AGENT-HOOK-VERIFY', content: [toolUse('toolu_ah2', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: dir, hooks },
    );
    expect(result).toMatchObject({ result: 'second main answer', terminalReason: 'completed' });
    const main = model.requests.filter((request) => request.system === model.requests[0]!.system);
    expect(main).toHaveLength(2);
    // Only the user feedback: no "Stop hook blocking error" system text, as the reference.
    expect(main[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Stop hook feedback:\nAgent hook condition was not met: AGENT-HOOK-SAYS-CONTINUE',
    });
    const sub = model.requests.filter((request) => request.system !== model.requests[0]!.system);
    expect(
      sub.map(
        (request) =>
          JSON.parse(
            (request.messages[0] as { content: string }).content.replace(
              'AGENT-HOOK-VERIFY: check that the answer is complete. ',
              '',
            ),
          ) as Record<string, unknown>,
      ),
    ).toEqual([
      expect.objectContaining({
        hook_event_name: 'Stop',
        stop_hook_active: false,
        last_assistant_message: 'main answer',
      }),
      expect.objectContaining({
        hook_event_name: 'Stop',
        stop_hook_active: true,
        last_assistant_message: 'second main answer',
      }),
    ]);
  });

  it('the subagent gets the read-only tools and StructuredOutput, runs them through PreToolUse/PostToolUse, and no PostToolBatch for the answering batch', async () => {
    const dir = tempProject({ 'notes.md': 'all done\n' });
    const settings = {
      hooks: {
        ...stopAgent().hooks,
        PreToolUse: [{ hooks: [recorder('pre.jsonl')] }],
        PostToolUse: [{ hooks: [recorder('post.jsonl')] }],
        PostToolBatch: [{ hooks: [recorder('batch.jsonl')] }],
      },
    };
    const { hooks } = settingsHooks(settings, dir);
    const { model } = await compatRun(
      [
        [text('main answer')],
        { match: 'AGENT-HOOK-VERIFY', content: [toolUse('toolu_r1', 'Read', { file_path: 'notes.md' })] },
        { match: 'all done', content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: dir, hooks },
    );
    const sub = model.requests.filter((request) => request.system !== model.requests[0]!.system);
    expect(sub[0]!.tools.map((tool) => tool.name)).toEqual(['Read', 'Glob', 'Grep', 'StructuredOutput']);
    expect(
      recorded(dir, 'pre.jsonl').map((payload) => [
        payload['tool_name'],
        payload['permission_mode'],
        typeof payload['agent_id'],
      ]),
    ).toEqual([
      ['Read', 'dontAsk', 'string'],
      ['StructuredOutput', 'dontAsk', 'string'],
    ]);
    expect(recorded(dir, 'post.jsonl').at(-1)).toMatchObject({
      tool_name: 'StructuredOutput',
      tool_response: 'Structured output provided successfully',
    });
    // One PostToolBatch, for the Read turn; the answering batch ends the sub-run.
    expect(
      recorded(dir, 'batch.jsonl').map((payload) =>
        (payload['tool_calls'] as { tool_name: string }[]).map((call) => call.tool_name),
      ),
    ).toEqual([['Read']]);
  });

  it('agent hooks do not run inside an agent hook’s own subagent (no recursion on its StructuredOutput call)', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        permissions: { allow: ['Bash'] },
        hooks: { PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'GATE $ARGUMENTS' }] }] },
      },
      dir,
    );
    const { result, model } = await compatRun(
      [
        [toolUse('toolu_01', 'Bash', { command: 'echo hi' })],
        {
          match: 'GATE',
          content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: false, reason: 'not allowed' })],
        },
        [text('done')],
      ],
      { projectDir: dir, hooks, permissions: { rules: { allow: ['Bash'] } } },
    );
    expect(model.requests.filter((request) => request.system !== model.requests[0]!.system)).toHaveLength(1);
    expect(toolResults(result.messages)[0]).toMatchObject({
      isError: true,
      content: 'PreToolUse:Bash hook error: Agent hook condition was not met: not allowed',
    });
  });

  it(`a subagent that never answers gives up after ${MAX_SUBAGENT_TURNS} requests: a non-blocking failure`, async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(stopAgent(), dir);
    const { result, model, events } = await compatRun(
      [[text('main answer')], { match: 'AGENT-HOOK-VERIFY', sticky: true, content: [text('hmm')] }],
      { projectDir: dir, hooks },
    );
    expect(result).toMatchObject({ result: 'main answer', terminalReason: 'completed' });
    expect(model.requests.filter((request) => request.system !== model.requests[0]!.system)).toHaveLength(
      MAX_SUBAGENT_TURNS,
    );
    expect(events.find((event) => event.type === 'hook_outcome' && event.event === 'Stop')).toMatchObject({
      outcome: {
        status: 'failed',
        failClosed: false,
        error: `the subagent gave no verdict through StructuredOutput within ${MAX_SUBAGENT_TURNS} turns`,
      },
    });
  });

  it('a subagent past its timeout is stopped: `timeout`', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(stopAgent({ timeout: 0.2 }), dir);
    const started = Date.now();
    const { result, events } = await compatRun(
      [
        [text('main answer')],
        {
          match: 'AGENT-HOOK-VERIFY',
          delay_ms: 2000,
          content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: false, reason: 'late' })],
        },
      ],
      {
        projectDir: dir,
        hooks,
        lenient: true,
      },
    );
    expect(result.result).toBe('main answer');
    // The timeout holds even though the scripted model ignores the abort while it waits.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(events.find((event) => event.type === 'hook_outcome' && event.event === 'Stop')).toMatchObject({
      outcome: { status: 'timeout' },
    });
  });
});
