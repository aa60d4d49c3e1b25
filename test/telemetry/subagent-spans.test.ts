import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  GENERAL_PURPOSE,
  HookEngine,
  registerSettingsHandlers,
  runAgent,
  type RunEvent,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';
import { children, collector, one } from '../support/spans.js';

// A subagent's own work in the parent's trace: its invoke_agent span under the call that started it,
// its model requests, tool calls, decisions and hooks under that.

const probe = defineTool({
  name: 'Probe',
  description: 'probes',
  inputSchema: z.object({ value: z.string() }),
  readOnly: true,
  handler: ({ value }) => `probed ${value}`,
});

describe("a subagent's spans", () => {
  it('nest: execute_tool Agent → invoke_agent general-purpose → its chat and execute_tool spans → the hook that blocked its call, with the decision on its permission span', async () => {
    const { exporter, tracer } = collector();
    const projectDir = tempProject();
    fs.writeFileSync(`${projectDir}/guard.sh`, '#!/bin/sh\necho "no probing from subagents" >&2\nexit 2\n', {
      mode: 0o755,
    });
    const hooks = new HookEngine();
    registerSettingsHandlers(
      hooks,
      [
        {
          event: 'PreToolUse',
          matcher: 'Probe',
          config: { type: 'command', command: `${projectDir}/guard.sh` },
          source: { file: 'settings.json' },
          groupIndex: 0,
          handlerIndex: 0,
        },
      ],
      projectDir,
    );
    hooks.on('SubagentStop', { name: 'sub-stop-audit' }, () => undefined);
    const model = new ScriptedModel([
      [
        toolUse('toolu_1', 'Agent', {
          description: 'sub task',
          prompt: 'SUB-TASK one',
          subagent_type: 'general-purpose',
        }),
      ],
      { match: 'SUB-TASK', content: [toolUse('s1', 'Probe', { value: 'inside' })] },
      { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
      [text('done')],
    ]);
    const events: RunEvent[] = [];
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [probe],
      agents: [GENERAL_PURPOSE],
      tracer,
      transcript: false,
      observers: [(event) => events.push(event)],
    });
    expect(result.result).toBe('done');
    const spans = exporter.getFinishedSpans();

    const prompt = one(spans, (span) => span.name === 'invoke_agent hookloop');
    // The main agent's own turns stay its own: two chats under the prompt, one call (the Agent call).
    expect(
      children(spans, prompt)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['chat scripted', 'chat scripted', 'execute_tool Agent']);
    const agentCall = one(children(spans, prompt), (span) => span.name === 'execute_tool Agent');

    const subagent = one(children(spans, agentCall), (span) => span.name === 'invoke_agent general-purpose');
    const agentId = subagent.attributes['gen_ai.agent.id'];
    expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
    expect(subagent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'general-purpose',
      'gen_ai.conversation.id': result.sessionId,
      'hookloop.terminal_reason': 'completed',
    });
    expect(subagent.spanContext().traceId).toBe(prompt.spanContext().traceId);

    const inside = children(spans, subagent);
    expect(inside.map((span) => span.name).sort()).toEqual([
      'chat scripted',
      'chat scripted',
      'execute_tool Probe',
      'hook SubagentStop',
    ]);
    for (const span of inside) expect(span.attributes['hookloop.agent.id']).toBe(agentId);
    const chats = inside.filter((span) => span.name === 'chat scripted');
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool_use'],
      ['end_turn'],
    ]);

    const call = one(inside, (span) => span.name === 'execute_tool Probe');
    expect(call.attributes).toMatchObject({
      'gen_ai.tool.call.id': 's1',
      'hookloop.permission.decision': 'deny',
      'hookloop.permission.decided_by': 'hook',
      'hookloop.tool.ran': false,
    });
    expect(call.status).toMatchObject({
      code: 2,
      message: expect.stringContaining('no probing from subagents'),
    });
    expect(
      children(spans, call)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['hook PreToolUse', 'permission Probe']);
    const guard = one(children(spans, call), (span) => span.name === 'hook PreToolUse');
    expect(guard.attributes).toMatchObject({
      'hookloop.agent.id': agentId,
      'hookloop.hook.name': `${projectDir}/guard.sh`,
      'hookloop.hook.status': 'blocked',
      'hookloop.hook.exit_code': 2,
      'hookloop.hook.decision': 'block',
    });
    const permission = one(children(spans, call), (span) => span.name === 'permission Probe');
    expect(permission.attributes).toMatchObject({
      'hookloop.permission.decision': 'deny',
      'hookloop.permission.decided_by': 'hook',
      'hookloop.permission.hook': `${projectDir}/guard.sh`,
      'hookloop.permission.hook.event': 'PreToolUse',
    });

    // Observers of the parent hear the subagent's work tagged with its id, never as the main agent's.
    const plain = events
      .filter((event) => event.type === 'tool_started')
      .map((event) => (event as { toolUseId: string }).toolUseId);
    expect(plain).toEqual(['toolu_1']);
    const tagged = events.flatMap((event) =>
      event.type === 'subagent_event' ? [`${event.agentType}:${event.event.type}`] : [],
    );
    expect(tagged).toContain('general-purpose:tool_started');
    expect(tagged).toContain('general-purpose:permission_decision');
    expect(events.find((event) => event.type === 'subagent_started')).toMatchObject({
      agentId,
      agentType: 'general-purpose',
      toolUseId: 'toolu_1',
      prompt: 'SUB-TASK one',
    });
  });

  it('keeps side-by-side subagents apart, even when their call ids repeat: each call under its own subagent, each subagent under its own Agent call', async () => {
    const { exporter, tracer } = collector();
    const model = new ScriptedModel([
      [
        toolUse('toolu_a', 'Agent', { description: 'a', prompt: 'SUB-A', subagent_type: 'general-purpose' }),
        toolUse('toolu_b', 'Agent', { description: 'b', prompt: 'SUB-B', subagent_type: 'general-purpose' }),
      ],
      { match: 'SUB-A', content: [toolUse('s1', 'Probe', { value: 'from-a' })] },
      { match: 'SUB-B', content: [toolUse('s1', 'Probe', { value: 'from-b' })] },
      { match: 'SUB-A', content: [text('A done')] },
      { match: 'SUB-B', content: [text('B done')] },
      [text('done')],
    ]);
    const result = await runAgent('go', {
      model,
      projectDir: tempProject(),
      tools: [probe],
      agents: [GENERAL_PURPOSE],
      tracer,
      transcript: false,
    });
    expect(result.result).toBe('done');
    const spans = exporter.getFinishedSpans();
    for (const callId of ['toolu_a', 'toolu_b']) {
      const agentCall = one(
        spans,
        (span) => span.name === 'execute_tool Agent' && span.attributes['gen_ai.tool.call.id'] === callId,
      );
      const subagent = one(
        children(spans, agentCall),
        (span) => span.name === 'invoke_agent general-purpose',
      );
      expect(subagent.attributes['hookloop.agent.prompt']).toBe(callId === 'toolu_a' ? 'SUB-A' : 'SUB-B');
      const call = one(children(spans, subagent), (span) => span.name === 'execute_tool Probe');
      expect(call.attributes).toMatchObject({
        'gen_ai.tool.call.id': 's1',
        'hookloop.permission.decision': 'allow',
        'hookloop.tool.ran': true,
      });
      const ran = one(children(spans, call), (span) => span.name === 'run Probe');
      expect(ran.attributes['hookloop.agent.id']).toBe(subagent.attributes['gen_ai.agent.id']);
    }
  });

  it("an agent hook's subagent nests under the hook's span, with its own StructuredOutput call", async () => {
    const { exporter, tracer } = collector();
    const projectDir = tempProject();
    const hooks = new HookEngine();
    registerSettingsHandlers(
      hooks,
      [
        {
          event: 'Stop',
          matcher: undefined,
          config: { type: 'agent', prompt: 'VERIFY $ARGUMENTS' },
          source: { file: 'settings.json' },
          groupIndex: 0,
          handlerIndex: 0,
        },
      ],
      projectDir,
    );
    const model = new ScriptedModel([
      [text('done')],
      { match: 'VERIFY', content: [toolUse('toolu_v', 'StructuredOutput', { ok: true })] },
    ]);
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [probe],
      tracer,
      transcript: false,
    });
    expect(result.result).toBe('done');
    const spans = exporter.getFinishedSpans();
    const hook = one(spans, (span) => span.name === 'hook Stop');
    const subagent = one(children(spans, hook), (span) => span.name === 'invoke_agent agent-hook');
    expect(
      children(spans, subagent)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['chat scripted', 'execute_tool StructuredOutput']);
    expect(one(spans, (span) => span.name === 'execute_tool StructuredOutput').attributes).toMatchObject({
      'hookloop.agent.id': subagent.attributes['gen_ai.agent.id'],
      'hookloop.tool.ran': true,
    });
  });
});
