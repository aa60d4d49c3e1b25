import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allow,
  callbackApprover,
  defineTool,
  GENERAL_PURPOSE,
  HookEngine,
  runAgent,
  type AgentDefinition,
  type HookInput,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

/** A tool that records each run, so a test sees what really executed. */
function recordingTool(name: string, ran: string[], readOnly = false) {
  return defineTool({
    name,
    description: `records ${name}`,
    inputSchema: z.object({ value: z.string() }),
    readOnly,
    handler: ({ value }) => (ran.push(`${name}:${value}`), `${name} ran ${value}`),
  });
}

const agentCall = (id: string, prompt: string, type = 'general-purpose') =>
  toolUse(id, 'Agent', { description: 'sub task', prompt, subagent_type: type });

describe('the Agent tool', () => {
  it('runs a subagent in its own conversation and returns its final text; its tool events carry agent_id and agent_type', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    const hooks = new HookEngine();
    const seen: HookInput<'PreToolUse'>[] = [];
    hooks.on('PreToolUse', (input) => void seen.push(input));
    const model = new ScriptedModel([
      [agentCall('toolu_1', 'SUB-TASK one')],
      { match: 'SUB-TASK', content: [toolUse('s1', 'Probe', { value: 'inside' })] },
      { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [recordingTool('Probe', ran, true)],
      agents: [GENERAL_PURPOSE],
      configDir: path.join(projectDir, 'home'),
    });
    expect(result.result).toBe('done');
    expect(ran).toEqual(['Probe:inside']);
    const agentResult = result.messages.find(
      (message) => message.role === 'tool' && message.toolCallId === 'toolu_1',
    );
    expect(agentResult).toMatchObject({ isError: false, content: 'SUB-ANSWER' });
    const inside = seen.find((input) => input.tool_name === 'Probe')!;
    expect(inside.agent_type).toBe('general-purpose');
    expect(inside.agent_id).toMatch(/^a[0-9a-f]{16}$/);
    expect(seen.find((input) => input.tool_name === 'Agent')!.agent_id).toBeUndefined();
    // The subagent's transcript is where Claude Code writes it, every line a sidechain line of its agent.
    const file = path.join(
      path.dirname(transcriptOf(projectDir)),
      result.sessionId,
      'subagents',
      `agent-${inside.agent_id}.jsonl`,
    );
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { isSidechain: boolean; agentId: string });
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => line.isSidechain && line.agentId === inside.agent_id)).toBe(true);
  });

  it("a SubagentStop hook that reads agent_transcript_path as it starts finds the subagent's last answer in it", async () => {
    const projectDir = tempProject();
    const hooks = new HookEngine();
    let lastLine: { message?: { content?: unknown } } | undefined;
    hooks.on('SubagentStop', ({ agent_transcript_path }) => {
      // Read synchronously, the moment the hook is called: what a hook script would see.
      const lines = fs.readFileSync(agent_transcript_path, 'utf8').trim().split('\n');
      lastLine = JSON.parse(lines[lines.length - 1]!) as typeof lastLine;
    });
    const model = new ScriptedModel([
      [agentCall('toolu_1', 'SUB-TASK one')],
      { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
      [text('done')],
    ]);
    await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [],
      agents: [GENERAL_PURPOSE],
      configDir: path.join(projectDir, 'home'),
    });
    expect(JSON.stringify(lastLine?.message?.content)).toContain('SUB-ANSWER');
  });

  it('offers an agent only its tools: a call outside them is refused with a paired error and never runs', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    const reader: AgentDefinition = {
      name: 'reader',
      description: 'reads',
      prompt: 'READER-PROMPT',
      tools: ['Probe'],
      source: 'cli',
    };
    const model = new ScriptedModel([
      [agentCall('toolu_1', 'SUB-TASK', 'reader')],
      { match: 'READER-PROMPT', content: [toolUse('s1', 'Writer', { value: 'x' })] },
      { match: 'READER-PROMPT', content: [text('gave up')] },
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      tools: [recordingTool('Probe', ran, true), recordingTool('Writer', ran, true)],
      agents: [reader],
      transcript: false,
    });
    expect(ran).toEqual([]);
    const sub = model.requests.filter((request) => request.system.startsWith('READER-PROMPT\n\n'));
    expect(sub[0]!.tools.map((tool) => tool.name)).toEqual(['Probe']);
    expect(sub[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 's1',
      isError: true,
      content: '<tool_use_error>Error: No such tool available: Writer</tool_use_error>',
    });
    expect(result.result).toBe('done');
  });

  it("an agent's bypassPermissions does not loosen a default parent: what the parent would ask is refused headless", async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    const bypass: AgentDefinition = {
      name: 'yolo',
      description: 'bypasses',
      prompt: 'YOLO',
      permissionMode: 'bypassPermissions',
      source: 'project',
    };
    const hooks = new HookEngine();
    const modes: string[] = [];
    hooks.on('PreToolUse', { matcher: 'Act' }, (input) => void modes.push(input.permission_mode));
    const model = new ScriptedModel([
      [agentCall('toolu_1', 'SUB-TASK', 'yolo')],
      { match: 'YOLO', content: [toolUse('s1', 'Act', { value: 'x' })] },
      { match: 'YOLO', content: [text('tried')] },
      [text('done')],
    ]);
    await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [recordingTool('Act', ran)],
      agents: [bypass],
      transcript: false,
    });
    expect(ran).toEqual([]);
    expect(modes).toEqual(['default']);
  });

  it('a PreToolUse allow inside a subagent never beats a deny rule, and a hook deny inside holds', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'Forbidden' }, () => allow('hooks may not lift a deny rule'));
    hooks.on('PreToolUse', { matcher: 'Probe' }, (input) =>
      input.agent_id !== undefined
        ? {
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: 'not in subagents',
            },
          }
        : undefined,
    );
    const model = new ScriptedModel([
      [agentCall('toolu_1', 'SUB-TASK')],
      {
        match: 'SUB-TASK',
        content: [toolUse('s1', 'Forbidden', { value: 'a' }), toolUse('s2', 'Probe', { value: 'b' })],
      },
      { match: 'SUB-TASK', content: [text('sub done')] },
      [toolUse('m1', 'Probe', { value: 'main' })],
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [recordingTool('Forbidden', ran, true), recordingTool('Probe', ran, true)],
      agents: [GENERAL_PURPOSE],
      permissions: { rules: { deny: ['Forbidden'] } },
      transcript: false,
    });
    expect(ran).toEqual(['Probe:main']);
    const subResults = model.requests
      .filter((request) => request.system.startsWith(GENERAL_PURPOSE.prompt))
      .at(-1)!
      .messages.filter((message) => message.role === 'tool');
    expect(subResults.map((message) => [message.toolCallId, message.isError])).toEqual([
      ['s1', true],
      ['s2', true],
    ]);
    expect(result.result).toBe('done');
  });

  it('several Agent calls of one message all run, each paired in call order; a continue:false inside ends the whole run after the batch, as a continue:false in the message itself does', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'Probe' }, (input) =>
      (input.tool_input as { value: string }).value === 'stop'
        ? { continue: false, stopReason: 'enough' }
        : undefined,
    );
    const model = new ScriptedModel(
      [
        [
          agentCall('a1', 'TASK-ONE'),
          agentCall('a2', 'TASK-TWO'),
          toolUse('m1', 'Probe', { value: 'after' }),
        ],
        { match: 'TASK-ONE', content: [toolUse('s1', 'Probe', { value: 'one' })] },
        { match: 'TASK-TWO', content: [toolUse('s2', 'Probe', { value: 'stop' })] },
        { match: 'TASK-ONE', content: [text('one done')] },
      ],
      { mode: 'lenient' },
    );
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [recordingTool('Probe', ran, true)],
      agents: [GENERAL_PURPOSE],
      transcript: false,
    });
    expect(result.terminalReason).toBe('hook_stopped');
    // Claude Code lets the rest of a batch run after a hook's continue:false, then ends the run (measured).
    expect(ran).toContain('Probe:after');
    const results = result.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.toolCallId);
    expect(results).toEqual(['a1', 'a2', 'm1']);
  });
});

describe('approvals from subagents side by side', () => {
  it('are asked one at a time, and what the person allows runs', async () => {
    const projectDir = tempProject();
    const ran: string[] = [];
    let open = 0;
    let most = 0;
    const approver = callbackApprover(async (): Promise<'allow'> => {
      most = Math.max(most, ++open);
      await new Promise((resolve) => setTimeout(resolve, 20));
      open--;
      return 'allow';
    });
    const model = new ScriptedModel([
      [agentCall('a1', 'TASK-ONE'), agentCall('a2', 'TASK-TWO')],
      { match: 'TASK-ONE', content: [toolUse('s1', 'Act', { value: 'one' })] },
      { match: 'TASK-TWO', content: [toolUse('s2', 'Act', { value: 'two' })] },
      { match: 'TASK-ONE', content: [text('one done')] },
      { match: 'TASK-TWO', content: [text('two done')] },
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      approver,
      tools: [recordingTool('Act', ran)],
      agents: [GENERAL_PURPOSE],
      transcript: false,
    });
    expect(result.result).toBe('done');
    expect(ran.sort()).toEqual(['Act:one', 'Act:two']);
    expect(most).toBe(1);
  });
});

function transcriptOf(projectDir: string): string {
  const projects = path.join(projectDir, 'home', 'projects');
  const slug = fs.readdirSync(projects)[0]!;
  const file = fs.readdirSync(path.join(projects, slug)).find((name) => name.endsWith('.jsonl'))!;
  return path.join(projects, slug, file);
}
