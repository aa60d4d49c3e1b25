import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir } from '../../src/session/paths.js';
import { loadSession } from '../../src/index.js';
import { CLI, writeJson } from '../support/cli.js';
import { pairingViolations, tempProject } from '../support/scripted-run.js';

// Interactive mode on a real pseudo-terminal (util-linux `script` allocates it): keystrokes go in,
// Ctrl-C is the terminal's own interrupt character.

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('interactive mode on a terminal', () => {
  it('answers prompts, Ctrl-C interrupts a running tool with its call paired, /exit ends with prompt_input_exit', async () => {
    const dir = tempProject();
    const home = path.join(dir, '.test-home');
    fs.mkdirSync(home);
    writeJson(dir, 'turns.json', [
      [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'sleep 20' } },
      ],
      [{ type: 'text', text: 'ANSWER-TWO' }],
    ]);
    writeJson(dir, 'settings.json', {
      hooks: {
        SessionEnd: [
          { hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR"/session-end.json' }] },
        ],
      },
    });
    const command = `exec '${process.execPath}' '${CLI}' --model-script turns.json --settings settings.json --allowedTools Bash`;
    const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
    const waitFor = async (needle: string, from = 0) => {
      for (let waited = 0; !screen.includes(needle, from); waited += 20) {
        if (waited > 15_000)
          throw new Error(`timed out waiting for ${JSON.stringify(needle)}; screen:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return screen.indexOf(needle, from) + needle.length;
    };
    try {
      await waitFor('> ');
      terminal.stdin.write('hello there\r');
      await waitFor('● Bash(sleep 20)');
      terminal.stdin.write('\x03');
      const interrupted = await waitFor('(interrupted)');
      await waitFor('> ', interrupted);
      terminal.stdin.write('next one\r');
      const answered = await waitFor('ANSWER-TWO');
      await waitFor('> ', answered);
      terminal.stdin.write('/exit\r');
      expect(await exited).toBe(0);
    } finally {
      terminal.kill('SIGKILL');
    }
    expect(screen).toContain('Let me look.');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'session-end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
    });
    // The transcript, not the timeline's events file next to it.
    const [file] = fs
      .readdirSync(projectSessionsDir(path.join(home, '.claude'), dir))
      .filter((name) => name.endsWith('.jsonl'));
    const session = loadSession(path.join(projectSessionsDir(path.join(home, '.claude'), dir), file!));
    expect(pairingViolations(session.messages)).toEqual([]);
    expect(session.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
  }, 60_000);

  it('asks on the terminal before a call the policy wants approved, and runs it after "y"', async () => {
    const dir = tempProject();
    const home = path.join(dir, '.test-home');
    fs.mkdirSync(home);
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'touch approved.txt' } }],
      [{ type: 'text', text: 'CREATED' }],
    ]);
    const terminal = spawn(
      'script',
      ['-qfec', `exec '${process.execPath}' '${CLI}' --model-script turns.json`, '/dev/null'],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
    const waitFor = async (needle: string, from = 0) => {
      for (let waited = 0; !screen.includes(needle, from); waited += 20) {
        if (waited > 15_000)
          throw new Error(`timed out waiting for ${JSON.stringify(needle)}; screen:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return screen.indexOf(needle, from) + needle.length;
    };
    try {
      await waitFor('> ');
      terminal.stdin.write('make a file\r');
      await waitFor('Allow? [y]es / [n]o / [a]lways');
      terminal.stdin.write('y\r');
      await waitFor('> ', await waitFor('CREATED'));
      terminal.stdin.write('\x04');
      expect(await exited).toBe(0);
    } finally {
      terminal.kill('SIGKILL');
    }
    expect(fs.existsSync(path.join(dir, 'approved.txt'))).toBe(true);
    // The call is shown once, as the session prints it, with the reason for asking under it.
    expect(screen).not.toContain('Bash: touch approved.txt');
    expect(screen.split('● Bash(touch approved.txt)').length - 1).toBe(1);
    expect(screen).toMatch(/● Bash\(touch approved\.txt\)\r?\n\s+⎿ /);
  }, 60_000);
  it('Ctrl-C at the approval prompt interrupts the turn, the refusal starts on a new line, and [a]lways names the rule it adds', async () => {
    const dir = tempProject();
    const home = path.join(dir, '.test-home');
    fs.mkdirSync(home);
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'touch one.txt' } }],
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'touch two.txt' } }],
      [{ type: 'text', text: 'SECOND-DONE' }],
    ]);
    const terminal = spawn(
      'script',
      ['-qfec', `exec '${process.execPath}' '${CLI}' --model-script turns.json`, '/dev/null'],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
    const waitFor = async (needle: string, from = 0) => {
      for (let waited = 0; !screen.includes(needle, from); waited += 20) {
        if (waited > 15_000)
          throw new Error(`timed out waiting for ${JSON.stringify(needle)}; screen:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return screen.indexOf(needle, from) + needle.length;
    };
    try {
      await waitFor('> ');
      terminal.stdin.write('first\r');
      await waitFor('Allow? [y]es / [n]o / [a]lways (adds Bash(touch one.txt) for this session)');
      terminal.stdin.write('\x03');
      const interrupted = await waitFor('(interrupted)');
      await waitFor('> ', interrupted);
      terminal.stdin.write('second\r');
      await waitFor('[a]lways (adds Bash(touch two.txt) for this session)', interrupted);
      terminal.stdin.write('a\r');
      await waitFor('> ', await waitFor('SECOND-DONE'));
      terminal.stdin.write('\x04');
      expect(await exited).toBe(0);
    } finally {
      terminal.kill('SIGKILL');
    }
    expect(fs.existsSync(path.join(dir, 'one.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'two.txt'))).toBe(true);
    // Nothing is written after the question on its own line.
    const questionLines = screen.split(/\r?\n/).filter((line) => line.includes('Allow?'));
    expect(questionLines.filter((line) => /\(interrupted\)|⎿|denied/.test(line))).toEqual([]);
    // The transcript, not the timeline's events file next to it.
    const [file] = fs
      .readdirSync(projectSessionsDir(path.join(home, '.claude'), dir))
      .filter((name) => name.endsWith('.jsonl'));
    const session = loadSession(path.join(projectSessionsDir(path.join(home, '.claude'), dir), file!));
    expect(pairingViolations(session.messages)).toEqual([]);
  }, 60_000);
});
