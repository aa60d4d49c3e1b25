import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// `--input-format stream-json` as the Agent SDK drives Claude Code: user messages as JSON lines on
// stdin, each starting a turn of one session, a result line after each, EOF ending the session.
// The line shapes are those Claude Code 2.1.328 reads and writes (measured with the reference).

function feed(dir: string, lines: readonly string[], extra: readonly string[] = []) {
  const run = spawnSync(
    process.execPath,
    [
      CLI,
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--settings',
      'settings.json',
      '--model-script',
      'turns.json',
      ...extra,
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: path.join(dir, '.test-home'),
        LANG: 'C.UTF-8',
      },
      input: lines.map((line) => `${line}\n`).join(''),
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const out = run.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: run.status, stderr: run.stderr, out };
}

function project(): string {
  const dir = tempProject();
  const log = path.join(dir, 'events.jsonl');
  const record = { type: 'command', command: `cat >> ${log}; echo >> ${log}` };
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash(echo:*)'] },
    hooks: {
      UserPromptSubmit: [{ hooks: [record] }],
      SessionEnd: [{ hooks: [record] }],
      SessionStart: [{ hooks: [record] }],
    },
  });
  writeJson(dir, 'turns.json', [
    [text('first answer')],
    [toolUse('toolu_9', 'Bash', { command: 'echo hi' })],
    [text('second answer')],
  ]);
  return dir;
}

const events = (dir: string) =>
  fs
    .readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { hook_event_name: string; prompt?: string; session_id: string });

describe('--input-format stream-json', () => {
  it('runs one turn per user message in one session, a result line after each, and ends the session at EOF', () => {
    const dir = project();
    const run = feed(dir, [
      JSON.stringify({ type: 'control_request', request_id: 'req_1', request: { subtype: 'initialize' } }),
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } }),
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: 'run echo' }] },
      }),
    ]);
    expect(run.status, run.stderr).toBe(0);
    const kinds = run.out.map(
      (line) => `${String(line['type'])}${line['subtype'] ? `:${String(line['subtype'])}` : ''}`,
    );
    expect(kinds.filter((kind) => kind === 'system:init')).toHaveLength(2);
    expect(run.out.filter((line) => line['type'] === 'result').map((line) => line['result'])).toEqual([
      'first answer',
      'second answer',
    ]);
    expect(run.out.find((line) => line['type'] === 'control_response')).toEqual({
      type: 'control_response',
      response: { request_id: 'req_1', subtype: 'success', response: {} },
    });
    expect(
      run.out.some(
        (line) => line['type'] === 'user' && JSON.stringify(line).includes('"tool_use_id":"toolu_9"'),
      ),
    ).toBe(true);
    // One session: one SessionStart, both prompts, one SessionEnd after the last turn.
    const seen = events(dir);
    expect(seen.map((event) => event.hook_event_name)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'UserPromptSubmit',
      'SessionEnd',
    ]);
    expect(seen.filter((event) => event.prompt !== undefined).map((event) => event.prompt)).toEqual([
      'hello',
      'run echo',
    ]);
    expect(new Set(seen.map((event) => event.session_id)).size).toBe(1);
    // Without --include-partial-messages there are no stream_event lines.
    expect(kinds).not.toContain('stream_event');
  });

  it('stops at a line that is not JSON with one line on stderr, after the turns before it', () => {
    const dir = project();
    const run = feed(dir, [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } }),
      'not json',
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'never' } }),
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^hookloop: stream-json input line 2: not JSON \(.*\); the session ends\n$/);
    expect(run.out.filter((line) => line['type'] === 'result')).toHaveLength(1);
    expect(events(dir).map((event) => event.hook_event_name)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'SessionEnd',
    ]);
  });

  it("refuses --input-format stream-json without stream-json output, in Claude Code's words", () => {
    const dir = project();
    const run = spawnSync(process.execPath, [CLI, '-p', '--input-format', 'stream-json'], {
      cwd: dir,
      encoding: 'utf8',
      input: '',
      env: { PATH: process.env['PATH'] ?? '', HOME: dir },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('hookloop: --input-format=stream-json requires output-format=stream-json.\n');
  });
});
