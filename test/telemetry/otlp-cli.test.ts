import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// The CLI's OTLP/HTTP exporter, started by the standard OTEL_* variables, sending to a receiver
// this test runs on 127.0.0.1.

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly status?: { code?: number; message?: string };
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  return (value.arrayValue?.values ?? []).map(valueOf);
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** An OTLP/HTTP JSON receiver: every span posted to /v1/traces, and the service.name it came with. */
async function receiver(): Promise<{ url: string; spans: OtlpSpan[]; services: string[] }> {
  const spans: OtlpSpan[] = [];
  const services: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const parsed = JSON.parse(body) as {
          resourceSpans: {
            resource?: { attributes?: { key: string; value: OtlpValue }[] };
            scopeSpans: {
              spans: (Omit<OtlpSpan, 'attributes'> & { attributes?: { key: string; value: OtlpValue }[] })[];
            }[];
          }[];
        };
        for (const resource of parsed.resourceSpans) {
          const service = resource.resource?.attributes?.find((entry) => entry.key === 'service.name');
          if (service) services.push(String(valueOf(service.value)));
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                ...span,
                attributes: Object.fromEntries(
                  (span.attributes ?? []).map((entry) => [entry.key, valueOf(entry.value)]),
                ),
              });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, services };
}

/** Runs the CLI without blocking this process (the receiver must answer meanwhile). */
function runCliAsync(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const home = path.join(cwd, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function project(): string {
  const dir = tempProject();
  writeJson(
    dir,
    'rewrite.sh',
    `#!/bin/sh\necho "$TRACEPARENT" > ${dir}/hook-traceparent.txt\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten"}}}'\n`,
  );
  writeJson(dir, 'audit.sh', '#!/bin/sh\necho "audit log unavailable" >&2\nexit 1\n');
  for (const script of ['rewrite.sh', 'audit.sh']) fs.chmodSync(path.join(dir, script), 0o755);
  writeJson(dir, 'settings.json', {
    permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(echo:*)'] },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: `${dir}/rewrite.sh`, if: 'Bash(ls *)' }] },
      ],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${dir}/audit.sh` }] }],
    },
  });
  writeJson(dir, 'turns.json', [
    [toolUse('t1', 'Bash', { command: 'rm -rf build' }), toolUse('t2', 'Bash', { command: 'ls -la' })],
    [
      toolUse('t3', 'Agent', {
        description: 'clean up',
        prompt: 'SUB-TASK: clean the build',
        subagent_type: 'general-purpose',
      }),
    ],
    { match: 'SUB-TASK', content: [toolUse('s1', 'Bash', { command: 'rm -rf dist' })] },
    { match: 'SUB-TASK', content: [text('refused')] },
    [text('done')],
  ]);
  return dir;
}

describe('hookloop with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports the span tree of a run with a blocked call, a rewrite, a failing hook and a subagent', async () => {
    const otlp = await receiver();
    const dir = project();
    const run = await runCliAsync(
      ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'],
      dir,
      { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url },
    );
    expect(run.stderr).not.toMatch(/OpenTelemetry/);
    expect(run.status).toBe(0);
    const { spans } = otlp;
    expect(otlp.services).toContain('hookloop');
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentName = (span: OtlpSpan) =>
      span.parentSpanId ? byId.get(span.parentSpanId)?.name : undefined;
    const prompt = spans.find((span) => span.name === 'invoke_agent hookloop');
    expect(prompt?.parentSpanId || undefined).toBeUndefined();

    const blocked = spans.find(
      (span) => span.name === 'execute_tool Bash' && span.attributes['gen_ai.tool.call.id'] === 't1',
    )!;
    expect(parentName(blocked)).toBe('invoke_agent hookloop');
    expect(blocked.traceId).toBe(prompt?.traceId);
    const blockedPermission = spans.find(
      (span) => span.name === 'permission Bash' && span.parentSpanId === blocked.spanId,
    );
    expect(blockedPermission?.attributes).toMatchObject({
      'hookloop.permission.decision': 'deny',
      'hookloop.permission.decided_by': 'rule',
      'hookloop.permission.rule': 'Bash(rm:*)',
      'hookloop.permission.rule.file': path.join(dir, 'settings.json'),
    });

    const rewritten = spans.find(
      (span) => span.name === 'execute_tool Bash' && span.attributes['gen_ai.tool.call.id'] === 't2',
    )!;
    expect(rewritten.attributes).toMatchObject({
      'gen_ai.tool.name': 'Bash',
      'hookloop.rewritten_by.PreToolUse': true,
      'hookloop.permission.decision': 'allow',
    });
    const hooks = spans.filter(
      (span) => span.parentSpanId === rewritten.spanId && span.name.startsWith('hook '),
    );
    const pre = hooks.find((span) => span.name === 'hook PreToolUse')!;
    expect(pre.attributes).toMatchObject({
      'hookloop.hook.event': 'PreToolUse',
      'hookloop.hook.matcher': 'Bash',
      'hookloop.hook.type': 'command',
      'hookloop.hook.exit_code': 0,
      'hookloop.hook.decision': 'rewrite',
      'hookloop.hook.location': expect.stringContaining('hooks.PreToolUse[0].hooks[0]'),
    });
    const post = hooks.find((span) => span.name === 'hook PostToolUse')!;
    expect(post.attributes).toMatchObject({
      'hookloop.hook.status': 'failed',
      'hookloop.hook.exit_code': 1,
      'hookloop.hook.failed_closed': false,
      'hookloop.hook.timed_out': false,
    });
    expect(post.status?.code).toBe(2);
    expect(spans.some((span) => span.name === 'run Bash' && span.parentSpanId === rewritten.spanId)).toBe(
      true,
    );

    const chats = spans.filter(
      (span) => span.name === 'chat scripted' && span.parentSpanId === prompt?.spanId,
    );
    expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool_use'],
      ['tool_use'],
      ['end_turn'],
    ]);
    expect(chats.every((span) => typeof span.attributes['gen_ai.usage.output_tokens'] === 'number')).toBe(
      true,
    );

    // The subagent: execute_tool Agent → invoke_agent general-purpose → its own chat and execute_tool spans,
    // and its call the deny rule refused says so on its permission span.
    const agentCall = spans.find(
      (span) => span.name === 'execute_tool Agent' && span.attributes['gen_ai.tool.call.id'] === 't3',
    )!;
    expect(parentName(agentCall)).toBe('invoke_agent hookloop');
    const subagent = spans.find((span) => span.name === 'invoke_agent general-purpose')!;
    expect(subagent.parentSpanId).toBe(agentCall.spanId);
    expect(subagent.traceId).toBe(prompt?.traceId);
    expect(
      spans.filter((span) => span.name === 'chat scripted' && span.parentSpanId === subagent.spanId),
    ).toHaveLength(2);
    const subCall = spans.find(
      (span) => span.name === 'execute_tool Bash' && span.parentSpanId === subagent.spanId,
    )!;
    expect(subCall.attributes['gen_ai.tool.call.id']).toBe('s1');
    expect(
      spans.find((span) => span.name === 'permission Bash' && span.parentSpanId === subCall.spanId)
        ?.attributes,
    ).toMatchObject({ 'hookloop.permission.decision': 'deny', 'hookloop.permission.rule': 'Bash(rm:*)' });

    // The hook process got its own span's traceparent.
    expect(fs.readFileSync(path.join(dir, 'hook-traceparent.txt'), 'utf8').trim()).toBe(
      `00-${pre.traceId}-${pre.spanId}-01`,
    );
  });

  it('starts no SDK and sends nothing with OTEL_TRACES_EXPORTER=none, even with an endpoint set', async () => {
    const otlp = await receiver();
    const dir = project();
    const run = await runCliAsync(
      ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'],
      dir,
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url },
    );
    expect(run.status).toBe(0);
    expect(otlp.spans).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'hook-traceparent.txt'), 'utf8').trim()).toBe('');
  });
});
