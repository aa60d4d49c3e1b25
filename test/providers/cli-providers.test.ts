/**
 * The CLI with real providers, against local servers only: the providers-tier conformance scenario
 * (an API error), a mock killed in the middle of a run, text streamed to stdout in -p,
 * --output-format stream-json, and the one-line error a user sees for a rejected key.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { differences } from '../conformance/check-scenario.js';
import { FIXTURES, readTrace, referenceTools } from '../conformance/reference-tools.js';
import { CLI, ensureBuilt } from './support/built-cli.js';
import { fixtureReply, startReplayServer, type ReplayServer } from './support/replay-server.js';

beforeAll(ensureBuilt, 180_000);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in `cwd` with only the given environment (plus PATH and a private HOME); `during` runs while it is alive. */
async function runCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  during?: (pid: number, alive: () => boolean) => Promise<void>,
): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: path.join(cwd, '.home'),
      LANG: 'C.UTF-8',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let running = true;
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  void closed.then(() => (running = false));
  await during?.(child.pid!, () => running);
  return { status: await closed, stdout, stderr };
}

function project(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-cli-provider-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text, { mode: 0o755 });
  }
  return dir;
}

const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$/m;

describe('the providers-tier scenario stop-failure-api-error through the Anthropic provider', () => {
  it('matches Claude Code except for its retries of the 400 (documented): StopFailure, api_error, exit 1, the server message named on stderr', async () => {
    const { runScenario } = await referenceTools.run();
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-stop-failure-'));
    await runScenario(
      path.join(FIXTURES, 'scenarios', 'stop-failure-api-error'),
      { name: 'hookloop', command: `node '${CLI}'`, shell: true },
      { outDir, agentLabel: 'hookloop' },
    );
    const ours = readTrace(outDir);
    expect(
      await differences(readTrace(path.join(FIXTURES, 'traces', 'stop-failure-api-error')), ours),
    ).toEqual(['[model] 6 scripted turn(s) in A, 1 in B']);
    expect(ours.hookCalls.map((call) => call.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'StopFailure',
      'SessionEnd',
    ]);
    expect(ours.stderr).toContain(
      'hookloop: model request failed: anthropic: HTTP 400 invalid_request_error: SCRIPTED-API-ERROR (not retried)',
    );
    expect(ours.stderr).not.toMatch(STACK_LINE);
  }, 60_000);
});

describe('a model server that dies in the middle of a run', () => {
  let mock: { port: number; requests: unknown[]; close(): Promise<void> } | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('ends with a clear error, a non-zero exit, every tool call paired and SessionEnd fired', async () => {
    const { startMock } = (await import(path.join(FIXTURES, 'tools/mock-anthropic.mjs'))) as {
      startMock(options: { model: unknown[] }): Promise<NonNullable<typeof mock>>;
    };
    mock = await startMock({
      model: [
        [
          { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo one' } },
          { type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'sleep 1; echo two' } },
        ],
        [{ type: 'text', text: 'never sent' }],
      ],
    });
    const mark = '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/$1.json"\n';
    const dir = project({ '.claude/hooks/mark.sh': mark });
    const hook = (name: string) => [
      { hooks: [{ type: 'command', command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/mark.sh ${name}` }] },
    ];
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)', 'Bash(sleep:*)'] },
        hooks: {
          PreToolUse: hook('pre-tool-use'),
          SessionEnd: hook('session-end'),
          StopFailure: hook('stop-failure'),
        },
      }),
    );
    const live = mock;
    const run = await runCli(
      ['-p', 'go', '--settings', 'settings.json', '--output-format', 'stream-json'],
      dir,
      {
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${live.port}`,
        ANTHROPIC_API_KEY: 'x',
        HOOKLOOP_MAX_RETRIES: '1',
      },
      async (_pid, alive) => {
        // The first answer asked for two tool calls; take the server down while they run.
        while (alive() && !fs.existsSync(path.join(dir, 'pre-tool-use.json')))
          await new Promise((resolve) => setTimeout(resolve, 20));
        await live.close();
      },
    );
    mock = undefined;

    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^hookloop: warning: anthropic: Connection error: .+; retry 1 in \d+\.\d s$/m);
    expect(run.stderr).toMatch(
      /^hookloop: model request failed: anthropic: Connection error: connection refused \(ECONNREFUSED\)$/m,
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const toolUses = lines
      .filter((line) => line['type'] === 'assistant')
      .flatMap((line) =>
        (line['message'] as { content: { type: string; id?: string }[] }).content
          .filter((block) => block.type === 'tool_use')
          .map((block) => block.id),
      );
    const results = lines
      .filter((line) => line['type'] === 'user')
      .flatMap((line) =>
        (line['message'] as { content: { type: string; tool_use_id?: string }[] }).content
          .filter((block) => block.type === 'tool_result')
          .map((block) => block.tool_use_id),
      );
    expect(toolUses).toEqual(['toolu_01', 'toolu_02']);
    expect(results).toEqual(['toolu_01', 'toolu_02']);
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      is_error: true,
      terminal_reason: 'api_error',
      result: expect.stringMatching(/^API Error: Connection error/),
    });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'session-end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'stop-failure.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'StopFailure',
      last_assistant_message: expect.stringMatching(/^API Error: Connection error/),
    });
  }, 60_000);
});

describe('output as the answer streams in', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('-p text mode prints the streamed text once', async () => {
    server = await startReplayServer([fixtureReply('anthropic', 'text.sse', { chunkBytes: 4 })]);
    const run = await runCli(['-p', 'hi'], project(), {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'x',
    });
    expect(run).toMatchObject({ status: 0, stdout: 'Hello, world! ✓\n' });
  });

  it('--output-format stream-json --include-partial-messages: init, stream events as Messages API events, the assistant message, the result with usage per model and its cost', async () => {
    server = await startReplayServer([
      fixtureReply('openai', 'cache-usage.sse'),
      fixtureReply('anthropic', 'cache-usage.sse'),
    ]);
    const runOpenAI = await runCli(['-p', 'hi', '--output-format', 'stream-json'], project(), {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_MODEL: 'gpt-5',
    });
    const runAnthropic = await runCli(
      [
        '-p',
        'hi',
        '--output-format',
        'stream-json',
        '--include-partial-messages',
        '--model',
        'claude-sonnet-5-5',
      ],
      project(),
      { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'x' },
    );
    const lines = runAnthropic.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      lines.map(
        (line) =>
          `${String(line['type'])}${line['subtype'] ? `:${String(line['subtype'])}` : ''}${line['event'] ? `:${String((line['event'] as { type: string }).type)}` : ''}`,
      ),
    ).toEqual([
      'system:init',
      'user',
      'stream_event:message_start',
      'stream_event:content_block_start',
      'stream_event:content_block_delta',
      'stream_event:content_block_stop',
      'stream_event:message_delta',
      'stream_event:message_stop',
      'assistant',
      'result:success',
    ]);
    const result = lines.at(-1)!;
    expect(result).toMatchObject({
      result: 'cached',
      usage: {
        input_tokens: 5,
        output_tokens: 3,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 200,
      },
      modelUsage: {
        'claude-sonnet-5-5': {
          inputTokens: 5,
          outputTokens: 3,
          cacheReadInputTokens: 1000,
          cacheCreationInputTokens: 200,
        },
      },
    });
    // 5 × $2 + 3 × $10 + 1000 × $0.20 + 200 × $2.50 per million tokens.
    expect(result['total_cost_usd']).toBeCloseTo(0.00074, 8);
    // The text arrives as Claude Code streams it: one text block, its delta, its stop.
    const deltas = lines
      .filter((line) => line['type'] === 'stream_event')
      .map((line) => line['event'] as Record<string, unknown>);
    expect(deltas[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(deltas[2]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'cached' },
    });
    expect(lines.find((line) => line['type'] === 'stream_event')).toMatchObject({
      parent_tool_use_id: null,
      uuid: expect.any(String),
      session_id: result['session_id'],
    });
    // Without the flag, no partial messages, as in Claude Code.
    expect(runOpenAI.stdout).not.toContain('"stream_event"');
    const openaiResult = JSON.parse(runOpenAI.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(openaiResult).toMatchObject({
      result: 'cached',
      total_cost_usd: null,
      modelUsage: { 'gpt-5': { inputTokens: 5, cacheReadInputTokens: 1000, costUSD: null } },
    });
  });

  it('a rejected key is one line naming the provider, the status and the server message; exit 1, no retry', async () => {
    server = await startReplayServer([fixtureReply('openai', 'error-401.json')]);
    const run = await runCli(['-p', 'hi', '--provider', 'openai', '--model', 'gpt-5'], project(), {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'bad',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('API Error: 401 invalid x-api-key\n');
    expect(run.stderr).toBe(
      'hookloop: model request failed: openai: HTTP 401 invalid_request_error: invalid x-api-key (not retried)\n',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('Ctrl-C aborts the in-flight request: the run ends at once with exit 130', async () => {
    server = await startReplayServer([{ kind: 'hang' }]);
    const live = server;
    const started = Date.now();
    const run = await runCli(
      ['-p', 'hi'],
      project(),
      { ANTHROPIC_BASE_URL: live.url, ANTHROPIC_API_KEY: 'x' },
      async (pid, alive) => {
        while (alive() && live.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
        process.kill(pid, 'SIGINT');
      },
    );
    expect(run.status).toBe(130);
    expect(run.stderr).toContain('hookloop: interrupted');
    expect(run.stderr).not.toContain('model request failed');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(live.requests).toHaveLength(1);
  });

  it('a provider without what it needs is a one-line configuration error (exit 2)', async () => {
    const run = await runCli(['-p', 'hi', '--provider', 'openai'], project(), { OPENAI_API_KEY: 'k' });
    expect(run).toMatchObject({ status: 2, stdout: '' });
    expect(run.stderr).toBe(
      'hookloop: the OpenAI-compatible provider needs a model: pass --model NAME or set OPENAI_MODEL\n',
    );
  });
});
