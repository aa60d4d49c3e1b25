import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

describe('--record-requests FILE', () => {
  function project(): string {
    const dir = tempProject();
    writeJson(dir, 't.json', [[{ type: 'text', text: 'done' }]]);
    // A canary: the SessionStart hook leaves a file when the run started.
    writeJson(dir, 's.json', {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/started"' }] }],
      },
    });
    return dir;
  }

  it('a path whose directory does not exist is one line and exit 2, before the run starts', () => {
    const dir = project();
    const run = runCli(
      [
        '-p',
        'go',
        '--settings',
        's.json',
        '--model-script',
        't.json',
        '--record-requests',
        'no/such/dir/requests.jsonl',
      ],
      dir,
    );
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `hookloop: --record-requests: cannot write no/such/dir/requests.jsonl: no such directory: ${path.join(dir, 'no/such/dir')}\n`,
    );
    expect(fs.existsSync(path.join(dir, 'started'))).toBe(false);
  });

  it('a path that is a directory is refused the same way', () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'logs'));
    const run = runCli(
      ['-p', 'go', '--settings', 's.json', '--model-script', 't.json', '--record-requests', 'logs'],
      dir,
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('hookloop: --record-requests: cannot write logs: it is a directory\n');
    expect(fs.existsSync(path.join(dir, 'started'))).toBe(false);
  });

  it('appends, as its help says: two runs leave two lines', () => {
    const dir = project();
    for (const prompt of ['first', 'second']) {
      const run = runCli(
        ['-p', prompt, '--model-script', 't.json', '--record-requests', 'requests.jsonl'],
        dir,
      );
      expect(run.status, run.stderr).toBe(0);
    }
    const lines = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messages: { content: unknown }[] });
    expect(lines.map((request) => JSON.stringify(request.messages.at(-1)!.content))).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('second'),
    ]);
    expect(runCli(['--help'], dir).stdout).toMatch(/--record-requests <file>\s+append every model request/);
  });
});
