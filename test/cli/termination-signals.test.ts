import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir } from '../../src/session/paths.js';
import { loadSession } from '../../src/index.js';
import { CLI, writeJson } from '../support/cli.js';
import { pairingViolations, tempProject } from '../support/scripted-run.js';

// Issue 14 item 12: SIGTERM (and SIGHUP) to the CLI left the Bash tool's process group running.
// They now end a run as Ctrl-C does: tool process groups killed, every call paired, SessionEnd
// fired, exit 128 + the signal's number.

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Live (not zombie) processes of process group `groupId`, as `ps` lists them. */
function groupMembers(groupId: number): string[] {
  const listing = execFileSync('ps', ['-eo', 'pgid=,stat=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pgid, stat]) => Number(pgid) === groupId && stat !== undefined && !stat.startsWith('Z'))
    .map((fields) => fields.slice(2).join(' '));
}

function readPid(file: string): number {
  return Number(fs.readFileSync(file, 'utf8').trim());
}

interface SignalledRun {
  readonly dir: string;
  readonly code: number | null;
  readonly stderr: string;
  readonly transcript: string;
}

/** Starts the CLI on `turns` (Bash allowed, a SessionEnd hook that saves its input), waits for `ready`, sends `signal`. */
async function runAndSignal(turns: unknown, ready: string, signal: NodeJS.Signals): Promise<SignalledRun> {
  const dir = tempProject();
  const home = path.join(dir, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  const sessionId = randomUUID();
  writeJson(dir, 'turns.json', turns);
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash'] },
    hooks: {
      SessionEnd: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/session-end.json"' }] }],
    },
  });
  const child = spawn(
    process.execPath,
    [
      CLI,
      '-p',
      'work',
      '--settings',
      'settings.json',
      '--model-script',
      'turns.json',
      '--session-id',
      sessionId,
    ],
    {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitFor(() => fs.existsSync(path.join(dir, ready)), ready);
    child.kill(signal);
    const code = await exited;
    return {
      dir,
      code,
      stderr,
      transcript: path.join(projectSessionsDir(path.join(home, '.claude'), dir), `${sessionId}.jsonl`),
    };
  } finally {
    child.kill('SIGKILL');
  }
}

/** The run's transcript reads back complete: every call paired by a result the run itself wrote. */
function expectConsistentTranscript(transcript: string): void {
  const session = loadSession(transcript);
  expect(session.repairs).toEqual([]);
  expect(session.warnings).toEqual([]);
  expect(pairingViolations(session.messages)).toEqual([]);
}

describe('a termination signal ends the run like Ctrl-C', () => {
  for (const [signal, exitCode] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: the Bash command's process group is killed, SessionEnd fires, the call is paired, exit ${exitCode}`, async () => {
      const marker = `hookloop-signal-test-${randomUUID()}`;
      const turns = [
        [
          {
            type: 'tool_use',
            id: 'toolu_01',
            name: 'Bash',
            input: { command: `echo $$ > tool.pid; : ${marker}; sleep 30; touch CANARY` },
          },
        ],
        [{ type: 'text', text: 'not reached' }],
      ];
      const run = await runAndSignal(turns, 'tool.pid', signal);
      const toolGroup = readPid(path.join(run.dir, 'tool.pid'));
      try {
        expect(run.code, run.stderr).toBe(exitCode);
        expect(run.stderr).toContain(`received ${signal}`);
        await waitFor(() => groupMembers(toolGroup).length === 0, 'the tool process group to end');
        expect(execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })).not.toContain(marker);
        expect(fs.existsSync(path.join(run.dir, 'CANARY'))).toBe(false);
        const sessionEnd = JSON.parse(fs.readFileSync(path.join(run.dir, 'session-end.json'), 'utf8')) as {
          hook_event_name: string;
          reason: string;
        };
        expect(sessionEnd).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'abort' });
        expectConsistentTranscript(run.transcript);
        expect(loadSession(run.transcript).messages.find((message) => message.role === 'tool')).toMatchObject(
          { toolCallId: 'toolu_01', isError: true },
        );
      } finally {
        if (groupMembers(toolGroup).length > 0) process.kill(-toolGroup, 'SIGKILL');
      }
    });
  }

  it('SIGTERM also kills background shells and children that ignore SIGTERM', async () => {
    const turns = [
      [
        {
          type: 'tool_use',
          id: 'toolu_bg',
          name: 'Bash',
          input: { command: 'echo $$ > bg.pid; sleep 60; touch BG-CANARY', run_in_background: true },
        },
      ],
      [
        {
          type: 'tool_use',
          id: 'toolu_fg',
          name: 'Bash',
          input: { command: "(trap '' TERM; sleep 30; touch TRAP-CANARY) & echo $$ > tool.pid; wait" },
        },
      ],
      [{ type: 'text', text: 'not reached' }],
    ];
    const run = await runAndSignal(turns, 'tool.pid', 'SIGTERM');
    const groups = [readPid(path.join(run.dir, 'bg.pid')), readPid(path.join(run.dir, 'tool.pid'))];
    try {
      expect(run.code, run.stderr).toBe(143);
      await waitFor(
        () => groups.every((group) => groupMembers(group).length === 0),
        'the tool process groups to end',
      );
      expect(fs.existsSync(path.join(run.dir, 'BG-CANARY'))).toBe(false);
      expect(fs.existsSync(path.join(run.dir, 'TRAP-CANARY'))).toBe(false);
      expect(fs.existsSync(path.join(run.dir, 'session-end.json'))).toBe(true);
      expectConsistentTranscript(run.transcript);
    } finally {
      for (const group of groups) if (groupMembers(group).length > 0) process.kill(-group, 'SIGKILL');
    }
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('a termination signal in an interactive session (on a pseudo-terminal)', () => {
  /** Starts interactive hookloop under `script`; returns the screen, a waiter, and the exit. */
  function startInteractive(dir: string, turns: unknown) {
    const home = path.join(dir, '.test-home');
    fs.mkdirSync(home, { recursive: true });
    writeJson(dir, 'turns.json', turns);
    writeJson(dir, 'settings.json', {
      hooks: {
        SessionEnd: [
          { hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/session-end.json"' }] },
        ],
      },
    });
    const command = `echo $$ > hookloop.pid; exec '${process.execPath}' '${CLI}' --model-script turns.json --settings settings.json --allowedTools Bash`;
    const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
    return {
      terminal,
      exited,
      screen: () => screen,
      waitForScreen: (needle: string) => waitFor(() => screen.includes(needle), JSON.stringify(needle)),
    };
  }

  it('SIGTERM during a turn kills the tool, ends the session with SessionEnd reason abort, exit 143', async () => {
    const dir = tempProject();
    const session = startInteractive(dir, [
      [
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'Bash',
          input: { command: 'echo $$ > tool.pid; sleep 30; touch CANARY' },
        },
      ],
      [{ type: 'text', text: 'not reached' }],
    ]);
    try {
      await session.waitForScreen('> ');
      session.terminal.stdin.write('run it\r');
      await waitFor(() => fs.existsSync(path.join(dir, 'tool.pid')), 'the tool to start');
      process.kill(readPid(path.join(dir, 'hookloop.pid')), 'SIGTERM');
      expect(await session.exited, session.screen()).toBe(143);
    } finally {
      session.terminal.kill('SIGKILL');
    }
    const toolGroup = readPid(path.join(dir, 'tool.pid'));
    await waitFor(() => groupMembers(toolGroup).length === 0, 'the tool process group to end');
    expect(fs.existsSync(path.join(dir, 'CANARY'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'session-end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'abort',
    });
    // The transcript, not the timeline's events file next to it.
    const [file] = fs
      .readdirSync(projectSessionsDir(path.join(dir, '.test-home', '.claude'), dir))
      .filter((name) => name.endsWith('.jsonl'));
    expectConsistentTranscript(
      path.join(projectSessionsDir(path.join(dir, '.test-home', '.claude'), dir), file!),
    );
  });

  it('SIGHUP at the prompt ends the session (SessionEnd fires), exit 129', async () => {
    const dir = tempProject();
    const session = startInteractive(dir, [[{ type: 'text', text: 'never asked' }]]);
    try {
      await session.waitForScreen('> ');
      process.kill(readPid(path.join(dir, 'hookloop.pid')), 'SIGHUP');
      expect(await session.exited, session.screen()).toBe(129);
    } finally {
      session.terminal.kill('SIGKILL');
    }
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'session-end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'abort',
    });
  });
});
