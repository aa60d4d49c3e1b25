import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  defineTool,
  GENERAL_PURPOSE,
  HookEngine,
  registerSettingsHandlers,
  rewriteInput,
  runAgent,
} from '../../src/index.js';
import { z } from 'zod';
import { ScriptedModel } from '../../src/testing.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';
import { children, collector, one } from '../support/spans.js';

// The library's spans, collected by an in-memory exporter through `RunOptions.tracer`.

describe('spans of a run', () => {
  it('one trace per prompt: invoke_agent → chat, execute_tool → permission / run / hook spans, with GenAI and hookloop attributes', async () => {
    const { exporter, tracer } = collector();
    const hooks = new HookEngine();
    hooks.on('PreToolUse', { matcher: 'Bash', name: 'quiet-ls' }, ({ tool_input }) =>
      tool_input['command'] === 'ls -la' ? rewriteInput({ command: 'echo "$TRACEPARENT"' }) : undefined,
    );
    hooks.on('PostToolUse', { name: 'flaky-audit' }, () => {
      throw new Error('audit store is down');
    });
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'Bash', { command: 'rm -rf build' }), toolUse('t2', 'Bash', { command: 'ls -la' })],
        [text('done')],
      ],
      {
        hooks,
        tools: builtinTools(),
        tracer,
        permissions: { rules: { deny: ['Bash(rm:*)'], allow: ['Bash(echo:*)'] } },
      },
    );
    const spans = exporter.getFinishedSpans();

    const prompt = one(spans, (span) => span.name === 'invoke_agent hookloop');
    expect(prompt.parentSpanContext).toBeUndefined();
    expect(prompt.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': result.sessionId,
    });
    const session = one(spans, (span) => span.name === 'hookloop.session');
    expect(prompt.links.map((link) => link.context.spanId)).toEqual([session.spanContext().spanId]);

    const chats = children(spans, prompt).filter((span) => span.name.startsWith('chat'));
    expect(chats).toHaveLength(2);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted',
      'gen_ai.response.finish_reasons': ['tool_use'],
    });
    expect(typeof chats[0]!.attributes['gen_ai.usage.input_tokens']).toBe('number');

    const blocked = one(
      spans,
      (span) => span.name === 'execute_tool Bash' && span.attributes['gen_ai.tool.call.id'] === 't1',
    );
    expect(blocked.parentSpanContext?.spanId).toBe(prompt.spanContext().spanId);
    expect(blocked.status.code).toBe(2);
    const blockedPermission = one(children(spans, blocked), (span) => span.name === 'permission Bash');
    expect(blockedPermission.attributes).toMatchObject({
      'hookloop.permission.decision': 'deny',
      'hookloop.permission.decided_by': 'rule',
      'hookloop.permission.rule': 'Bash(rm:*)',
    });
    expect(children(spans, blocked).some((span) => span.name === 'run Bash')).toBe(false);

    const rewritten = one(
      spans,
      (span) => span.name === 'execute_tool Bash' && span.attributes['gen_ai.tool.call.id'] === 't2',
    );
    expect(rewritten.attributes).toMatchObject({
      'hookloop.rewritten_by.PreToolUse': true,
      'hookloop.permission.decision': 'allow',
      'hookloop.tool.ran': true,
    });
    const names = children(spans, rewritten)
      .map((span) => span.name)
      .sort();
    expect(names).toEqual(['hook PostToolUse', 'hook PreToolUse', 'permission Bash', 'run Bash']);
    const pre = one(children(spans, rewritten), (span) => span.name === 'hook PreToolUse');
    expect(pre.attributes).toMatchObject({
      'hookloop.hook.event': 'PreToolUse',
      'hookloop.hook.type': 'callback',
      'hookloop.hook.name': 'quiet-ls',
      'hookloop.hook.status': 'ok',
      'hookloop.hook.decision': 'rewrite',
      'hookloop.hook.timed_out': false,
      'hookloop.hook.failed_closed': false,
    });
    const failing = one(children(spans, rewritten), (span) => span.name === 'hook PostToolUse');
    expect(failing.attributes).toMatchObject({
      'hookloop.hook.name': 'flaky-audit',
      'hookloop.hook.status': 'failed',
      'hookloop.hook.failed_closed': false,
    });
    expect(failing.status).toMatchObject({
      code: 2,
      message: expect.stringContaining('audit store is down'),
    });

    // The Bash process got the traceparent of its own `run Bash` span.
    const run = one(children(spans, rewritten), (span) => span.name === 'run Bash');
    const printed =
      toolResults(result.messages).find((message) => message.toolCallId === 't2')?.content ?? '';
    expect(printed.trim()).toBe(`00-${run.spanContext().traceId}-${run.spanContext().spanId}-01`);
  });

  it('hands each command hook the traceparent of its own hook span', async () => {
    const { exporter, tracer } = collector();
    const hooks = new HookEngine();
    const projectDir = tempProject();
    registerSettingsHandlers(
      hooks,
      [
        {
          event: 'PreToolUse',
          matcher: 'Bash',
          config: { type: 'command', command: `echo "$TRACEPARENT" > ${projectDir}/tp.txt` },
          source: { file: 'settings.json' },
          groupIndex: 0,
          handlerIndex: 0,
        },
      ],
      projectDir,
    );
    await scriptedRun([[toolUse('t1', 'Bash', { command: 'echo hi' })], [text('done')]], {
      projectDir,
      hooks,
      tools: builtinTools(),
      tracer,
    });
    const hook = one(exporter.getFinishedSpans(), (span) => span.name === 'hook PreToolUse');
    expect(fs.readFileSync(`${projectDir}/tp.txt`, 'utf8').trim()).toBe(
      `00-${hook.spanContext().traceId}-${hook.spanContext().spanId}-01`,
    );
    expect(hook.attributes).toMatchObject({
      'hookloop.hook.matcher': 'Bash',
      'hookloop.hook.type': 'command',
      'hookloop.hook.source': 'settings.json',
      'hookloop.hook.exit_code': 0,
    });
  });

  it('sends an http hook the traceparent header of its own hook span', async () => {
    const { exporter, tracer } = collector();
    const seen: (string | undefined)[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers['traceparent'] as string | undefined);
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const hooks = new HookEngine();
      const projectDir = tempProject();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      registerSettingsHandlers(
        hooks,
        [
          {
            event: 'PreToolUse',
            matcher: 'Bash',
            config: { type: 'http', url },
            source: { file: 'settings.json' },
            groupIndex: 0,
            handlerIndex: 0,
          },
        ],
        projectDir,
      );
      await scriptedRun([[toolUse('t1', 'Bash', { command: 'echo hi' })], [text('done')]], {
        projectDir,
        hooks,
        tools: builtinTools(),
        tracer,
      });
      const hook = one(exporter.getFinishedSpans(), (span) => span.name === 'hook PreToolUse');
      expect(seen).toEqual([`00-${hook.spanContext().traceId}-${hook.spanContext().spanId}-01`]);
      expect(hook.attributes).toMatchObject({
        'hookloop.hook.type': 'http',
        'hookloop.hook.http.status': 200,
      });
    } finally {
      server.close();
    }
  });

  it("puts a subagent's hooks in the prompt's trace, marked with the subagent's id, and hands its command hooks their span's traceparent", async () => {
    const { exporter, tracer } = collector();
    const hooks = new HookEngine();
    const projectDir = tempProject();
    registerSettingsHandlers(
      hooks,
      [
        {
          event: 'PreToolUse',
          matcher: 'Probe',
          config: { type: 'command', command: `echo "$TRACEPARENT" > ${projectDir}/sub-tp.txt` },
          source: { file: 'settings.json' },
          groupIndex: 0,
          handlerIndex: 0,
        },
      ],
      projectDir,
    );
    const probe = defineTool({
      name: 'Probe',
      description: 'probes',
      inputSchema: z.object({ value: z.string() }),
      readOnly: true,
      handler: ({ value }) => `probed ${value}`,
    });
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
    const result = await runAgent('go', {
      model,
      projectDir,
      hooks,
      tools: [probe],
      agents: [GENERAL_PURPOSE],
      tracer,
      transcript: false,
    });
    expect(result.result).toBe('done');
    const spans = exporter.getFinishedSpans();
    const prompt = one(spans, (span) => span.name === 'invoke_agent hookloop');
    const agentCall = one(spans, (span) => span.name === 'execute_tool Agent');
    expect(agentCall.parentSpanContext?.spanId).toBe(prompt.spanContext().spanId);
    const inside = one(
      spans,
      (span) => span.name === 'hook PreToolUse' && typeof span.attributes['hookloop.agent.id'] === 'string',
    );
    expect(inside.spanContext().traceId).toBe(prompt.spanContext().traceId);
    expect(inside.attributes).toMatchObject({
      'hookloop.hook.matcher': 'Probe',
      'hookloop.hook.type': 'command',
      'hookloop.hook.status': 'ok',
      'hookloop.agent.id': expect.stringMatching(/^a[0-9a-f]{16}$/),
    });
    expect(fs.readFileSync(`${projectDir}/sub-tp.txt`, 'utf8').trim()).toBe(
      `00-${inside.spanContext().traceId}-${inside.spanContext().spanId}-01`,
    );
  });

  it('makes no spans and sets no TRACEPARENT when no tracer is given and no SDK is registered', async () => {
    const { result, events } = await scriptedRun(
      [[toolUse('t1', 'Bash', { command: 'echo "[$TRACEPARENT]"' })], [text('done')]],
      { tools: builtinTools(), permissions: { mode: 'bypassPermissions' } },
    );
    expect(toolResults(result.messages)[0]?.content.trim()).toBe('[]');
    expect(events.some((event) => event.type === 'tool_started')).toBe(true);
  });
});
