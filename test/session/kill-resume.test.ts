import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir } from '../../src/session/paths.js';
import { loadSession, RESUMED_WITHOUT_RESULT } from '../../src/index.js';
import { CLI, runCli, writeJson } from '../support/cli.js';
import { pairingViolations, tempProject } from '../support/scripted-run.js';

// A run killed with SIGKILL in the middle of a tool call leaves a transcript
// that --resume continues from, with every tool call paired.

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Request = { messages: { role: string; content: string | Record<string, unknown>[] }[] };

describe('SIGKILL mid-tool, then --resume', () => {
  it('every complete line parses; the resumed run pairs the interrupted call and goes on in the same transcript', async () => {
    const dir = tempProject();
    const home = path.join(dir, '.test-home');
    const sessionId = randomUUID();
    writeJson(dir, 'first.json', [
      [
        { type: 'text', text: 'Listing first.' },
        { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo listed' } },
      ],
      [
        {
          type: 'tool_use',
          id: 'toolu_02',
          name: 'Bash',
          input: { command: 'echo $$ > tool.pid; touch started; exec sleep 30' },
        },
      ],
    ]);
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: 'command',
                command:
                  'cat >> "$CLAUDE_PROJECT_DIR"/session-start.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/session-start.jsonl',
              },
            ],
          },
        ],
      },
    });
    fs.mkdirSync(home, { recursive: true });
    const child = spawn(
      process.execPath,
      [
        CLI,
        '-p',
        'work',
        '--settings',
        'settings.json',
        '--model-script',
        'first.json',
        '--session-id',
        sessionId,
      ],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    try {
      await waitFor(() => fs.existsSync(path.join(dir, 'started')), 'the second tool call to start');
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      child.kill('SIGKILL');
      // The sleep outlives hookloop (SIGKILL does not reach its children); end it here.
      const pidFile = path.join(dir, 'tool.pid');
      const toolPid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
      if (toolPid > 0) process.kill(toolPid, 'SIGKILL');
    }

    const transcript = path.join(projectSessionsDir(path.join(home, '.claude'), dir), `${sessionId}.jsonl`);
    const raw = fs.readFileSync(transcript, 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    for (const line of raw.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(raw).toContain('"id":"toolu_02"');
    expect(raw).not.toContain('"tool_use_id":"toolu_02"');

    writeJson(dir, 'second.json', [
      [{ type: 'text', text: 'Resumed: the sleep was interrupted, moving on.' }],
    ]);
    const resumed = runCli(
      [
        '--resume',
        sessionId,
        '-p',
        'go on',
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
    );
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      session_id: sessionId,
      result: 'Resumed: the sleep was interrupted, moving on.',
    });
    expect(resumed.stderr).toContain('toolu_02');

    const request = JSON.parse(fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim()) as Request;
    const blocks = request.messages.flatMap((message) =>
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
    );
    expect(blocks.filter((block) => block['type'] === 'tool_use').map((block) => block['id'])).toEqual([
      'toolu_01',
      'toolu_02',
    ]);
    expect(
      blocks
        .filter((block) => block['type'] === 'tool_result')
        .map((block) => [block['tool_use_id'], block['is_error'] === true, block['content']]),
    ).toEqual([
      ['toolu_01', false, 'listed'],
      ['toolu_02', true, RESUMED_WITHOUT_RESULT],
    ]);
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'go on' }] });

    // SessionStart said resume; the same file holds both runs and reads back fully paired.
    const starts = fs
      .readFileSync(path.join(dir, 'session-start.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { source: string; session_id: string; transcript_path: string });
    expect(starts.map((start) => [start.source, start.session_id, start.transcript_path])).toEqual([
      ['startup', sessionId, transcript],
      ['resume', sessionId, transcript],
    ]);
    const session = loadSession(transcript);
    expect(session.repairs).toEqual([]);
    expect(pairingViolations(session.messages)).toEqual([]);
    expect(session.messages.at(-1)).toMatchObject({
      role: 'assistant',
      text: 'Resumed: the sleep was interrupted, moving on.',
    });
  });

  it('--continue picks the latest session of the directory; without one it says so', () => {
    const dir = tempProject();
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'first' }]]);
    const none = runCli(['--continue', '-p', 'again', '--model-script', 'turns.json'], dir);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--continue: no session to continue in /);
    const first = runCli(['-p', 'hello', '--model-script', 'turns.json', '--output-format', 'json'], dir);
    writeJson(dir, 'turns2.json', [[{ type: 'text', text: 'second' }]]);
    const again = runCli(
      [
        '--continue',
        '-p',
        'again',
        '--model-script',
        'turns2.json',
        '--output-format',
        'json',
        '--record-requests',
        'requests.jsonl',
      ],
      dir,
    );
    expect(again.status, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { session_id: string }).session_id).toBe(
      (JSON.parse(first.stdout) as { session_id: string }).session_id,
    );
    const request = JSON.parse(fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim()) as Request;
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(runCli(['--resume', '../etc', '-p', 'x', '--model-script', 'turns.json'], dir).stderr).toMatch(
      /is not a session id/,
    );
  });
});
