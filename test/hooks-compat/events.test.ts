import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { callbackApprover, HookEngine, ttyApprover } from '../../src/index.js';
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

// Every event hookloop declares fires, with the payload Claude Code gives it.

const ECHO_BACK = '[structured-output-enforce]';

describe('Notification', () => {
  it('fires permission_prompt before an approver that waits for a person is asked, with Claude Code’s message', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: { Notification: [{ matcher: 'permission_prompt', hooks: [recorder('notification.jsonl')] }] },
      },
      dir,
    );
    const order: string[] = [];
    hooks.on('Notification', () => void order.push('notification'));
    const approver = callbackApprover(
      () => {
        order.push('approver');
        return 'deny';
      },
      { awaitsHuman: true },
    );
    await compatRun([[toolUse('toolu_01', 'Bash', { command: 'touch x.txt' })], [text('done')]], {
      projectDir: dir,
      hooks,
      approver,
    });
    expect(order).toEqual(['notification', 'approver']);
    const [payload] = recorded(dir, 'notification.jsonl');
    expect(payload).toMatchObject({
      hook_event_name: 'Notification',
      message: 'Claude needs your permission to use Bash',
      notification_type: 'permission_prompt',
    });
    expect(payload).not.toHaveProperty('permission_mode');
  });

  it('fires for the terminal approver (ttyApprover)', async () => {
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on('Notification', ({ notification_type }) => void seen.push(notification_type));
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    input.end('n\n');
    await compatRun([[toolUse('toolu_01', 'Bash', { command: 'touch x.txt' })], [text('done')]], {
      hooks,
      approver: ttyApprover({ input, output }),
    });
    expect(seen).toEqual(['permission_prompt']);
  });

  it('does not fire in a headless run, where nobody is waiting (as the reference in -p)', async () => {
    const hooks = new HookEngine();
    let fired = 0;
    hooks.on('Notification', () => void fired++);
    const { result } = await compatRun(
      [[toolUse('toolu_01', 'Bash', { command: 'touch x.txt' })], [text('done')]],
      { hooks },
    );
    expect(fired).toBe(0);
    expect(result.permissionDenials).toHaveLength(1);
  });
});

describe('PermissionDenied', () => {
  const bashTouch = [[toolUse('toolu_01', 'Bash', { command: 'touch denied.txt' })], [text('done')]];

  const auto = { mode: 'dontAsk' as const, autoMode: true };

  it('fires when auto mode (the classifier stand-in) refuses a call, with tool_name, tool_input, tool_use_id and the refusal as reason', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      { hooks: { PermissionDenied: [{ matcher: 'Bash', hooks: [recorder('denied.jsonl')] }] } },
      dir,
    );
    const { result } = await compatRun(bashTouch, { projectDir: dir, hooks, permissions: auto });
    expect(recorded(dir, 'denied.jsonl')).toEqual([
      expect.objectContaining({
        hook_event_name: 'PermissionDenied',
        permission_mode: 'dontAsk',
        effort: { level: 'medium' },
        tool_name: 'Bash',
        tool_input: { command: 'touch denied.txt' },
        tool_use_id: 'toolu_01',
        reason: toolResults(result.messages)[0]!.content,
      }),
    ]);
  });

  it('fires nowhere else, as in Claude Code: not for deny rules, the headless approver, plain dontAsk, plan mode or a boundary', async () => {
    const cases = [
      { permissions: { rules: { deny: ['Bash(touch *)'] } } },
      { permissions: { mode: 'default' as const } },
      { permissions: { mode: 'dontAsk' as const } },
      { permissions: { mode: 'plan' as const } },
      { permissions: { mode: 'acceptEdits' as const }, outside: true },
    ];
    for (const { permissions, outside } of cases) {
      const hooks = new HookEngine();
      let fired = 0;
      hooks.on('PermissionDenied', () => void fired++);
      const call = outside
        ? [
            [toolUse('toolu_01', 'Write', { file_path: '/tmp/hookloop-outside-never.txt', content: 'x' })],
            [text('done')],
          ]
        : bashTouch;
      const { result } = await compatRun(call, { hooks, permissions });
      expect(result.permissionDenials).toHaveLength(1);
      expect(fired).toBe(0);
    }
  });

  it('matches on the tool name and evaluates `if` like the other tool events', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      {
        hooks: {
          PermissionDenied: [
            { matcher: 'Bash', hooks: [{ ...recorder('touch.jsonl'), if: 'Bash(touch *)' }] },
          ],
        },
      },
      dir,
    );
    await compatRun(
      [
        [
          toolUse('toolu_01', 'Bash', { command: 'mkdir d' }),
          toolUse('toolu_02', 'Bash', { command: 'touch t' }),
        ],
        [text('done')],
      ],
      { projectDir: dir, hooks, permissions: auto },
    );
    expect(recorded(dir, 'touch.jsonl').map((payload) => payload['tool_use_id'])).toEqual(['toolu_02']);
  });

  it('does not fire when a hook refused the call (PreToolUse deny, PermissionRequest deny), even in auto mode', async () => {
    let fired = 0;
    const preToolUse = new HookEngine();
    preToolUse.on('PermissionDenied', () => void fired++);
    preToolUse.on('PreToolUse', () => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    }));
    const refused = await compatRun(bashTouch, { hooks: preToolUse, permissions: auto });
    expect(toolResults(refused.result.messages)[0]!.content).toBe('PreToolUse:Bash hook error: no');
    const permissionRequest = new HookEngine();
    permissionRequest.on('PermissionDenied', () => void fired++);
    permissionRequest.on('PermissionRequest', () => ({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not today' },
      },
    }));
    const { result } = await compatRun(bashTouch, { hooks: permissionRequest });
    expect(toolResults(result.messages)[0]!.content).toBe('not today');
    expect(fired).toBe(0);
  });

  it('retry: true adds the reference’s user text after the refused call’s result', async () => {
    const dir = tempProject();
    const retry = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'`;
    const { hooks } = settingsHooks(
      { hooks: { PermissionDenied: [{ matcher: 'Bash', hooks: [{ type: 'command', command: retry }] }] } },
      dir,
    );
    const { model } = await compatRun(bashTouch, { projectDir: dir, hooks, permissions: auto });
    const second = model.requests[1]!.messages;
    const afterResult = second.slice(second.findIndex((message) => message.role === 'tool') + 1);
    expect(afterResult).toEqual([
      { role: 'user', content: 'The PermissionDenied hook indicated you may retry this tool call.' },
    ]);
  });
});

describe('SubagentStart / SubagentStop around an agent hook’s subagent', () => {
  it('fire with agent_id and agent_type; the subagent’s tool events carry the same agent_id and dontAsk', async () => {
    const dir = tempProject();
    const settings = {
      hooks: {
        Stop: [{ hooks: [{ type: 'agent', prompt: 'VERIFY: is the answer complete? $ARGUMENTS' }] }],
        SubagentStart: [{ matcher: 'agent-hook', hooks: [recorder('sub.jsonl')] }],
        SubagentStop: [{ hooks: [recorder('sub.jsonl')] }],
        PreToolUse: [{ matcher: 'StructuredOutput', hooks: [recorder('tools.jsonl')] }],
      },
    };
    const { hooks } = settingsHooks(settings, dir);
    const { result } = await compatRun(
      [
        [text('main answer')],
        { match: 'VERIFY', content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: dir, hooks },
    );
    expect(result.result).toBe('main answer');
    const [start, stop] = recorded(dir, 'sub.jsonl');
    expect(start).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'agent-hook' });
    expect(start).not.toHaveProperty('permission_mode');
    expect(stop).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: start!['agent_id'],
      agent_type: 'agent-hook',
      permission_mode: 'dontAsk',
      stop_hook_active: false,
      last_assistant_message: '',
      background_tasks: [],
      session_crons: [],
    });
    expect(String(stop!['agent_transcript_path'])).toMatch(
      new RegExp(`/subagents/agent-${String(start!['agent_id'])}\\.jsonl$`),
    );
    const [toolEvent] = recorded(dir, 'tools.jsonl');
    expect(toolEvent).toMatchObject({
      tool_name: 'StructuredOutput',
      agent_id: start!['agent_id'],
      permission_mode: 'dontAsk',
      tool_input: { ok: true },
    });
    expect(toolEvent).not.toHaveProperty('agent_type');
  });

  it('SubagentStart additionalContext opens the subagent’s first system message; a SubagentStop block sends it back to work', async () => {
    const hooks = new HookEngine();
    hooks.on('SubagentStart', () => ({
      hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'SUB-CTX' },
    }));
    let stops = 0;
    hooks.on('SubagentStop', ({ stop_hook_active }) =>
      stops++ === 0 && !stop_hook_active ? { decision: 'block', reason: 'look again' } : undefined,
    );
    const dir = tempProject();
    const { hooks: withAgent } = settingsHooks(
      { hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'VERIFY $ARGUMENTS' }] }] } },
      dir,
    );
    for (const handler of withAgent.list()) hooks.add(handler);
    const { model } = await compatRun(
      [
        [text('main answer')],
        { match: 'VERIFY', content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: true })] },
        { match: 'look again', content: [toolUse('toolu_ah2', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: dir, hooks },
    );
    const sub = model.requests.filter((request) => request.system !== model.requests[0]!.system);
    expect(sub).toHaveLength(2);
    expect(sub[0]!.messages[1]).toEqual({
      role: 'system',
      content: 'SubagentStart hook additional context: SUB-CTX',
    });
    expect(sub[1]!.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Stop hook feedback:\nlook again' },
      { role: 'system', content: 'SubagentStop hook blocking error from callback: "callback": look again' },
    ]);
    expect(stops).toBe(2);
  });

  it('a subagent that ends with text is told to call StructuredOutput', async () => {
    const dir = tempProject();
    const { hooks } = settingsHooks(
      { hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'VERIFY $ARGUMENTS' }] }] } },
      dir,
    );
    const { model } = await compatRun(
      [
        [text('main answer')],
        { match: 'VERIFY', content: [text('looks fine to me')] },
        { match: ECHO_BACK, content: [toolUse('toolu_ah1', 'StructuredOutput', { ok: true })] },
      ],
      { projectDir: dir, hooks },
    );
    const last = model.requests.at(-1)!;
    expect(last.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(
        /^\[structured-output-enforce\] You MUST call the StructuredOutput tool/,
      ),
    });
    expect(fs.existsSync(path.join(dir, '.test-config'))).toBe(true);
  });
});
