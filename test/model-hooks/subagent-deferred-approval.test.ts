import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  callbackApprover,
  GENERAL_PURPOSE,
  HookEngine,
  loadSession,
  resumeAgent,
  runAgent,
  startSession,
  UNDECIDED_PENDING,
  type HookInput,
  type RunEvent,
  type RunOptions,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { runCli, writeJson } from '../support/cli.js';
import { pairingViolations, tempProject, text, toolUse } from '../support/scripted-run.js';

// Approval that survives a restart, for calls inside an Agent call's subagent: the subagent stops with its calls saved in its own transcript,
// the Agent call waits, and a later decision continues the subagent and then the parent.

const bash = (id: string, command: string) => toolUse(id, 'Bash', { command });
const agentCall = (id: string, prompt: string) =>
  toolUse(id, 'Agent', { description: 'sub task', prompt, subagent_type: 'general-purpose' });

function transcriptOf(projectDir: string, sessionId: string): string {
  const folder = path.join(projectDir, '.config', 'projects');
  return path.join(folder, fs.readdirSync(folder)[0]!, `${sessionId}.jsonl`);
}

function subagentTranscript(projectDir: string, sessionId: string, agentId: string): string {
  return path.join(
    path.dirname(transcriptOf(projectDir, sessionId)),
    sessionId,
    'subagents',
    `agent-${agentId}.jsonl`,
  );
}

function options(projectDir: string, model: ScriptedModel, extra: Partial<RunOptions> = {}): RunOptions {
  return {
    model,
    projectDir,
    tools: builtinTools(),
    agents: [GENERAL_PURPOSE],
    configDir: path.join(projectDir, '.config'),
    permissions: { rules: { ask: ['Bash'] } },
    ...extra,
  };
}

/** A first process: the main model starts a subagent whose two Bash calls the approver leaves for later. */
async function deferredInside(projectDir: string, extra: Partial<RunOptions> = {}) {
  const model = new ScriptedModel([
    [agentCall('toolu_A', 'SUB-TASK: make files')],
    { match: 'SUB-TASK', content: [bash('toolu_s1', 'touch sub.txt'), bash('toolu_s2', 'touch nope.txt')] },
  ]);
  const first = await runAgent(
    'delegate',
    options(projectDir, model, { approver: callbackApprover(() => 'later'), ...extra }),
  );
  return first;
}

describe('approval that survives a restart, inside a subagent (library)', () => {
  it('the Agent call waits with its subagent; a second process approves and denies its calls, the subagent finishes and its answer is the Agent result', async () => {
    const projectDir = tempProject();
    const first = await deferredInside(projectDir);
    expect(first.terminalReason).toBe('tool_deferred');
    const agentId = first.pending?.[0]?.agentId ?? '';
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(first.pending).toEqual([
      {
        id: 'toolu_s1',
        name: 'Bash',
        input: { command: 'touch sub.txt' },
        reason: 'approver',
        message: expect.any(String),
        agentId,
        agentType: 'general-purpose',
        parentToolUseId: 'toolu_A',
      },
      {
        id: 'toolu_s2',
        name: 'Bash',
        input: { command: 'touch nope.txt' },
        reason: 'batch',
        agentId,
        agentType: 'general-purpose',
        parentToolUseId: 'toolu_A',
      },
    ]);
    // The Agent call is not paired with a "did not finish" error: it waits.
    expect(first.messages.filter((message) => message.role === 'tool')).toEqual([]);
    // The subagent's own transcript saved its calls as pending (they are its calls there, without agent fields).
    const subFile = subagentTranscript(projectDir, first.sessionId, agentId);
    expect(loadSession(subFile, { sidechain: true }).pending.map(({ id, reason }) => [id, reason])).toEqual([
      ['toolu_s1', 'approver'],
      ['toolu_s2', 'batch'],
    ]);
    const saved = loadSession(transcriptOf(projectDir, first.sessionId));
    expect(saved.pending.map(({ assistantUuid: _uuid, ...call }) => call)).toEqual(first.pending);
    expect(saved.repairs).toEqual([]);

    // The second process: hooks see the subagent's calls again, SubagentStop fires when it ends.
    const hooks = new HookEngine();
    const seen: string[] = [];
    hooks.on(
      'PreToolUse',
      (input: HookInput<'PreToolUse'>) =>
        void seen.push(`PreToolUse:${input.tool_use_id}:${input.agent_id ?? 'main'}`),
    );
    hooks.on('SubagentStart', () => void seen.push('SubagentStart'));
    hooks.on('SubagentStop', (input) => void seen.push(`SubagentStop:${input.agent_id}`));
    hooks.on('PostToolUse', (input) => void seen.push(`PostToolUse:${input.tool_use_id}`));
    const model = new ScriptedModel([
      { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
      [text('parent done')],
    ]);
    const lanes: string[] = [];
    const observers = [
      (event: RunEvent) =>
        void (event.type === 'subagent_started'
          ? lanes.push(`started:${event.agentId}:${event.toolUseId}`)
          : event.type === 'subagent_finished'
            ? lanes.push(`finished:${event.agentId}:${event.terminalReason}`)
            : undefined),
    ];
    const result = await resumeAgent(
      { toolu_s1: { behavior: 'allow' }, toolu_s2: { behavior: 'deny', message: 'not this one' } },
      options(projectDir, model, { resume: saved, hooks, observers }),
    );
    // Observers of the resuming process see the same subagent continue, under the same Agent call.
    expect(lanes).toEqual([`started:${agentId}:toolu_A`, `finished:${agentId}:completed`]);
    expect(result).toMatchObject({ result: 'parent done', terminalReason: 'completed' });
    expect(result.pending ?? []).toEqual([]);
    expect(fs.existsSync(path.join(projectDir, 'sub.txt'))).toBe(true);
    expect(fs.existsSync(path.join(projectDir, 'nope.txt'))).toBe(false);
    expect(seen).toEqual([
      `PreToolUse:toolu_s1:${agentId}`,
      'PostToolUse:toolu_s1',
      `SubagentStop:${agentId}`,
      'PostToolUse:toolu_A',
    ]);
    expect(
      result.messages.find((message) => message.role === 'tool' && message.toolCallId === 'toolu_A'),
    ).toMatchObject({ isError: false, content: 'SUB-ANSWER' });
    expect(pairingViolations(result.messages)).toEqual([]);
    // The subagent's model request had both results, in call order, the denial's reason as the error.
    const subRequest = model.requests.find((request) => request.system.startsWith(GENERAL_PURPOSE.prompt))!;
    expect(
      subRequest.messages
        .filter((message) => message.role === 'tool')
        .map((message) => [message.toolCallId, message.isError]),
    ).toEqual([
      ['toolu_s1', false],
      ['toolu_s2', true],
    ]);

    // Both transcripts are resumable again: every call paired once, nothing pending.
    const again = loadSession(transcriptOf(projectDir, first.sessionId));
    expect([again.pending, again.repairs, pairingViolations(again.messages)]).toEqual([[], [], []]);
    const sub = loadSession(subFile, { sidechain: true });
    expect([sub.pending, sub.repairs, pairingViolations(sub.messages)]).toEqual([[], [], []]);
    expect(sub.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'SUB-ANSWER' });
  });

  it('security: a deny rule still wins over an approval inside the subagent; deciding the Agent call itself, or another input, is an error before anything runs', async () => {
    const projectDir = tempProject();
    const first = await deferredInside(projectDir);
    const saved = loadSession(transcriptOf(projectDir, first.sessionId));
    const idle = new ScriptedModel([]);
    await expect(
      resumeAgent({ toolu_A: { behavior: 'allow' } }, options(projectDir, idle, { resume: saved })),
    ).rejects.toThrow(
      'decision for toolu_A: the call waits for the calls inside its subagent, not for a decision of its own; decide those (pending: toolu_s1, toolu_s2)',
    );
    await expect(
      resumeAgent(
        { toolu_s1: { behavior: 'allow', input: { command: 'rm -rf /' } } },
        options(projectDir, idle, { resume: saved }),
      ),
    ).rejects.toThrow('decision for toolu_s1: the approved input is not the pending input');
    // A session without the agents cannot continue the subagent: refused before the model is asked.
    await expect(
      resumeAgent(
        { toolu_s1: { behavior: 'allow' } },
        options(projectDir, idle, { resume: saved, agents: [] }),
      ),
    ).rejects.toThrow('cannot continue toolu_A');
    expect(idle.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(projectDir, 'sub.txt'))).toBe(false);

    const model = new ScriptedModel([
      { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
      [text('parent done')],
    ]);
    const denied = await resumeAgent(
      { toolu_s1: { behavior: 'allow' }, toolu_s2: { behavior: 'allow' } },
      options(projectDir, model, {
        resume: saved,
        permissions: { rules: { deny: ['Bash(touch sub.txt)'] } },
      }),
    );
    expect(denied.result).toBe('parent done');
    expect(fs.existsSync(path.join(projectDir, 'sub.txt'))).toBe(false);
    expect(fs.existsSync(path.join(projectDir, 'nope.txt'))).toBe(true);
    const subRequest = model.requests.find((request) => request.system.startsWith(GENERAL_PURPOSE.prompt))!;
    expect(
      subRequest.messages
        .filter((message) => message.role === 'tool')
        .map((message) => [message.toolCallId, message.isError]),
    ).toEqual([
      ['toolu_s1', true],
      ['toolu_s2', false],
    ]);
  });

  it('a subagent transcript that no longer lists the waiting calls is refused before anything runs', async () => {
    const projectDir = tempProject();
    const first = await deferredInside(projectDir);
    const saved = loadSession(transcriptOf(projectDir, first.sessionId));
    const subFile = subagentTranscript(projectDir, first.sessionId, first.pending![0]!.agentId!);
    // Someone edits the subagent's frozen input on disk: the parent's list and the file disagree.
    fs.writeFileSync(
      subFile,
      fs.readFileSync(subFile, 'utf8').replaceAll('touch sub.txt', 'touch other.txt'),
    );
    const model = new ScriptedModel([]);
    await expect(
      resumeAgent({ toolu_s1: { behavior: 'allow' } }, options(projectDir, model, { resume: saved })),
    ).rejects.toThrow(/cannot resume agent a[0-9a-f]{16}: its transcript does not list the calls/);
    expect(model.requests).toHaveLength(0);
    expect(fs.readdirSync(projectDir).filter((name) => name.endsWith('.txt'))).toEqual([]);
  });

  it("a session whose agents no longer include the subagent's type fails the Agent call; nothing inside runs and its calls are paired in its transcript", async () => {
    const projectDir = tempProject();
    const first = await deferredInside(projectDir);
    const model = new ScriptedModel([[text('went on without it')]]);
    const result = await resumeAgent(
      { toolu_s1: { behavior: 'allow' } },
      options(projectDir, model, {
        resume: loadSession(transcriptOf(projectDir, first.sessionId)),
        agents: [{ ...GENERAL_PURPOSE, name: 'someone-else' }],
      }),
    );
    expect(result.result).toBe('went on without it');
    expect(result.messages.find((message) => message.role === 'tool')).toMatchObject({
      toolCallId: 'toolu_A',
      isError: true,
      content: "Agent type 'general-purpose' not found: the waiting subagent cannot continue",
    });
    expect(fs.existsSync(path.join(projectDir, 'sub.txt'))).toBe(false);
    const sub = loadSession(subagentTranscript(projectDir, first.sessionId, first.pending![0]!.agentId!), {
      sidechain: true,
    });
    expect([sub.pending, sub.repairs, pairingViolations(sub.messages)]).toEqual([[], [], []]);
  });

  it('a subagent that waits again on resume leaves the Agent call waiting again; the transcript resumes a second time', async () => {
    const projectDir = tempProject();
    const script = [
      [agentCall('toolu_A', 'SUB-TASK: two steps')],
      { match: 'SUB-TASK', content: [bash('toolu_s1', 'touch one.txt')] },
    ];
    const first = await runAgent(
      'delegate',
      options(projectDir, new ScriptedModel(script), { approver: callbackApprover(() => 'later') }),
    );
    expect(first.pending?.map((call) => call.id)).toEqual(['toolu_s1']);
    const second = await resumeAgent(
      { toolu_s1: { behavior: 'allow' } },
      options(
        projectDir,
        new ScriptedModel([{ match: 'SUB-TASK', content: [bash('toolu_s2', 'touch two.txt')] }]),
        {
          resume: loadSession(transcriptOf(projectDir, first.sessionId)),
          approver: callbackApprover(() => 'later'),
        },
      ),
    );
    expect(second.terminalReason).toBe('tool_deferred');
    expect(second.pending).toEqual([
      {
        id: 'toolu_s2',
        name: 'Bash',
        input: { command: 'touch two.txt' },
        reason: 'approver',
        message: expect.any(String),
        agentId: first.pending![0]!.agentId,
        agentType: 'general-purpose',
        parentToolUseId: 'toolu_A',
      },
    ]);
    const third = await resumeAgent(
      { toolu_s2: { behavior: 'allow' } },
      options(
        projectDir,
        new ScriptedModel([{ match: 'SUB-TASK', content: [text('both made')] }, [text('all done')]]),
        { resume: loadSession(transcriptOf(projectDir, first.sessionId)) },
      ),
    );
    expect(third).toMatchObject({ result: 'all done', terminalReason: 'completed' });
    expect(['one.txt', 'two.txt'].map((name) => fs.existsSync(path.join(projectDir, name)))).toEqual([
      true,
      true,
    ]);
    expect(
      third.messages
        .filter((message) => message.role === 'tool')
        .map((message) => [message.toolCallId, message.content]),
    ).toEqual([['toolu_A', 'both made']]);
    const sub = loadSession(subagentTranscript(projectDir, first.sessionId, first.pending![0]!.agentId!), {
      sidechain: true,
    });
    expect([sub.pending, sub.repairs, pairingViolations(sub.messages)]).toEqual([[], [], []]);
  });

  it('in one process: session.resume continues the subagent; a new prompt instead pairs the Agent call and the subagent calls with an error', async () => {
    const projectDir = tempProject();
    const model = new ScriptedModel([
      [agentCall('toolu_A', 'SUB-TASK: one')],
      { match: 'SUB-TASK', content: [bash('toolu_s1', 'touch x.txt')] },
      { match: 'SUB-TASK', content: [text('made x')] },
      [text('first done')],
      [agentCall('toolu_B', 'SUB-TASK: two')],
      { match: 'SUB-TASK: two', content: [bash('toolu_s2', 'touch y.txt')] },
      [text('moved on')],
    ]);
    const session = await startSession(
      options(projectDir, model, { approver: callbackApprover(() => 'later') }),
    );
    const first = await session.send('go');
    expect(first.pending?.map((call) => [call.id, call.parentToolUseId])).toEqual([['toolu_s1', 'toolu_A']]);
    const resumed = await session.resume({ toolu_s1: { behavior: 'allow' } });
    expect(resumed.result).toBe('first done');
    expect(fs.existsSync(path.join(projectDir, 'x.txt'))).toBe(true);

    const waiting = await session.send('again');
    expect(waiting.pending?.map((call) => call.id)).toEqual(['toolu_s2']);
    const moved = await session.send('never mind');
    await session.end();
    expect(moved.result).toBe('moved on');
    expect(pairingViolations(moved.messages)).toEqual([]);
    expect(
      moved.messages.find((message) => message.role === 'tool' && message.toolCallId === 'toolu_B'),
    ).toMatchObject({ isError: true, content: UNDECIDED_PENDING });
    const sub = loadSession(subagentTranscript(projectDir, first.sessionId, waiting.pending![0]!.agentId!), {
      sidechain: true,
    });
    expect([sub.pending, sub.repairs, pairingViolations(sub.messages)]).toEqual([[], [], []]);
    expect(sub.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'toolu_s2',
      content: UNDECIDED_PENDING,
    });
    expect(fs.existsSync(path.join(projectDir, 'y.txt'))).toBe(false);
  });

  it('two Agent calls side by side both wait; each subagent continues with its own decisions; an id both subagents use cannot be decided by id', async () => {
    const projectDir = tempProject();
    const both = (inner: [string, string]) =>
      new ScriptedModel([
        [agentCall('toolu_A', 'SUB-ONE: first'), agentCall('toolu_B', 'SUB-TWO: second')],
        { match: 'SUB-ONE', content: [bash(inner[0], 'touch one.txt')] },
        { match: 'SUB-TWO', content: [bash(inner[1], 'touch two.txt')] },
      ]);
    const first = await runAgent(
      'delegate',
      options(projectDir, both(['toolu_s1', 'toolu_s2']), { approver: callbackApprover(() => 'later') }),
    );
    expect(first.pending?.map((call) => [call.id, call.parentToolUseId])).toEqual([
      ['toolu_s1', 'toolu_A'],
      ['toolu_s2', 'toolu_B'],
    ]);
    expect(new Set(first.pending?.map((call) => call.agentId)).size).toBe(2);
    const model = new ScriptedModel([
      { match: 'SUB-ONE', content: [text('one made')] },
      { match: 'SUB-TWO', content: [text('two refused')] },
      [text('both back')],
    ]);
    const result = await resumeAgent(
      { toolu_s1: { behavior: 'allow' }, toolu_s2: { behavior: 'deny' } },
      options(projectDir, model, { resume: loadSession(transcriptOf(projectDir, first.sessionId)) }),
    );
    expect(result.result).toBe('both back');
    expect(['one.txt', 'two.txt'].map((name) => fs.existsSync(path.join(projectDir, name)))).toEqual([
      true,
      false,
    ]);
    expect(
      result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => [message.toolCallId, message.content]),
    ).toEqual([
      ['toolu_A', 'one made'],
      ['toolu_B', 'two refused'],
    ]);
    expect(pairingViolations(result.messages)).toEqual([]);

    const other = tempProject();
    const same = await runAgent(
      'delegate',
      options(other, both(['toolu_s', 'toolu_s']), { approver: callbackApprover(() => 'later') }),
    );
    expect(same.pending?.map((call) => call.id)).toEqual(['toolu_s', 'toolu_s']);
    await expect(
      resumeAgent(
        { toolu_s: { behavior: 'allow' } },
        options(other, new ScriptedModel([]), { resume: loadSession(transcriptOf(other, same.sessionId)) }),
      ),
    ).rejects.toThrow('decision for toolu_s: more than one pending tool call has this id');
    expect(fs.readdirSync(other).filter((name) => name.endsWith('.txt'))).toEqual([]);
  });

  it('without a transcript nothing could resume the subagent: the Agent call fails as unfinished, paired as before', async () => {
    const projectDir = tempProject();
    const model = new ScriptedModel([
      [agentCall('toolu_A', 'SUB-TASK: one')],
      { match: 'SUB-TASK', content: [bash('toolu_s1', 'touch x.txt')] },
      [text('gave up')],
    ]);
    const result = await runAgent(
      'go',
      options(projectDir, model, { approver: callbackApprover(() => 'later'), transcript: false }),
    );
    expect(result).toMatchObject({ result: 'gave up', terminalReason: 'completed' });
    expect(result.pending ?? []).toEqual([]);
    expect(result.messages.find((message) => message.role === 'tool')).toMatchObject({
      toolCallId: 'toolu_A',
      isError: true,
      content: expect.stringContaining(
        'did not finish (tool_deferred): its calls can wait for a decision only when the session writes transcripts',
      ),
    });
  });
});

describe('approval that survives a restart, inside a subagent (CLI, two processes)', () => {
  it("a subagent's deferred call is approved from a second process after the first exited; the subagent and the parent finish, every call paired", () => {
    const dir = tempProject();
    const env = { HOOKLOOP_HOME: path.join(dir, '.config') };
    // Defers Bash inside subagents only (the payload names the agent); logs every PreToolUse it sees.
    const defer = `input=$(cat); printf '%s\\n' "$input" >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; if printf '%s' "$input" | grep -q '"agent_id"'; then printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"a human checks subagent shells"}}'; fi`;
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: defer }] }] },
    });
    writeJson(dir, 'first.json', [
      [agentCall('toolu_01', 'SUBAGENT-TASK: make a file')],
      { match: 'SUBAGENT-TASK', content: [bash('toolu_s1', 'touch from-sub.txt')] },
    ]);
    const first = runCli(
      [
        '-p',
        'delegate',
        '--settings',
        'settings.json',
        '--model-script',
        'first.json',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(first.status, first.stderr).toBe(0);
    const ended = JSON.parse(first.stdout) as {
      session_id: string;
      terminal_reason: string;
      deferred_tool_use: { id: string };
      pending_tool_uses: Record<string, unknown>[];
    };
    expect(ended).toMatchObject({ terminal_reason: 'tool_deferred', deferred_tool_use: { id: 'toolu_s1' } });
    expect(ended.pending_tool_uses).toEqual([
      {
        id: 'toolu_s1',
        name: 'Bash',
        input: { command: 'touch from-sub.txt' },
        reason: 'defer',
        message: 'a human checks subagent shells',
        agent_id: expect.stringMatching(/^a[0-9a-f]{16}$/),
        agent_type: 'general-purpose',
        parent_tool_use_id: 'toolu_01',
      },
    ]);
    expect(fs.existsSync(path.join(dir, 'from-sub.txt'))).toBe(false);
    const agentId = String(ended.pending_tool_uses[0]!['agent_id']);

    // The Agent call itself is not decidable: one line, exit 2, nothing runs.
    const wrong = runCli(
      [
        '--resume',
        ended.session_id,
        '--approve',
        'toolu_01',
        '--settings',
        'settings.json',
        '--model-script',
        'first.json',
      ],
      dir,
      env,
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(
      'hookloop: decision for toolu_01: the call waits for the calls inside its subagent, not for a decision of its own; decide those (pending: toolu_s1)\n',
    );

    // `-p --resume ID` with no decision: PreToolUse runs again inside the subagent, defers again, and the call waits again.
    const undecided = runCli(
      [
        '-p',
        '--resume',
        ended.session_id,
        '--settings',
        'settings.json',
        '--model-script',
        'first.json',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(undecided.status, undecided.stderr).toBe(0);
    expect(JSON.parse(undecided.stdout)).toMatchObject({
      terminal_reason: 'tool_deferred',
      pending_tool_uses: [{ id: 'toolu_s1', agent_id: agentId, parent_tool_use_id: 'toolu_01' }],
    });
    expect(fs.existsSync(path.join(dir, 'from-sub.txt'))).toBe(false);

    writeJson(dir, 'second.json', [
      { match: 'SUBAGENT-TASK', content: [{ type: 'text', text: 'SUB-ANSWER: file made' }] },
      [{ type: 'text', text: 'the subagent made it' }],
    ]);
    const second = runCli(
      [
        '--resume',
        ended.session_id,
        '--approve',
        'toolu_s1',
        '--settings',
        'settings.json',
        '--model-script',
        'second.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
      env,
    );
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      result: 'the subagent made it',
      terminal_reason: 'completed',
    });
    expect(JSON.parse(second.stdout)).not.toHaveProperty('pending_tool_uses');
    expect(fs.existsSync(path.join(dir, 'from-sub.txt'))).toBe(true);
    // PreToolUse ran inside the subagent in each process (its defer no longer holds an approved call); the Agent call's ran once.
    const pre = fs
      .readFileSync(path.join(dir, 'pre.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_use_id: string; agent_id?: string });
    expect(pre.map((input) => [input.tool_use_id, input.agent_id ?? 'main'])).toEqual([
      ['toolu_s1', agentId],
      ['toolu_s1', agentId],
      ['toolu_s1', agentId],
    ]);
    // The main model's request after the resume has the subagent's answer as the Agent call's result.
    const requests = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: { role: string; content: unknown }[] });
    const main = requests.at(-1)!;
    const results = main.messages
      .flatMap((message) =>
        Array.isArray(message.content)
          ? (message.content as {
              type: string;
              tool_use_id?: string;
              content?: unknown;
              is_error?: boolean;
            }[])
          : [],
      )
      .filter((block) => block.type === 'tool_result');
    expect(results.map((block) => [block.tool_use_id, block.is_error === true])).toEqual([
      ['toolu_01', false],
    ]);
    expect(JSON.stringify(results[0])).toContain('SUB-ANSWER: file made');

    // Both transcripts resume again: every call paired once, nothing pending.
    const parent = loadSession(transcriptOf(dir, ended.session_id));
    expect([parent.pending, parent.repairs, pairingViolations(parent.messages)]).toEqual([[], [], []]);
    const sub = loadSession(subagentTranscript(dir, ended.session_id, agentId), { sidechain: true });
    expect([sub.pending, sub.repairs, pairingViolations(sub.messages)]).toEqual([[], [], []]);
    writeJson(dir, 'third.json', [[{ type: 'text', text: 'still here' }]]);
    const third = runCli(
      [
        '-p',
        'anything else?',
        '--resume',
        ended.session_id,
        '--settings',
        'settings.json',
        '--model-script',
        'third.json',
      ],
      dir,
      env,
    );
    expect(third.status, third.stderr).toBe(0);
    expect(third.stdout).toBe('still here\n');
  });
});
