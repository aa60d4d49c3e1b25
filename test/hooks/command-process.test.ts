import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hookEnvironment,
  runCommandProcess,
  type CommandProcessOptions,
  type CommandSpec,
} from '../../src/hooks/transports/command-process.js';

// Time bounds are deliberately loose: the suite must pass on a loaded 2-core machine. What is
// asserted is "well before the hook would have ended on its own", never a tight duration.
const PROMPTLY_MS = 10_000;

let projectDir: string;
const leftoverGroups: number[] = [];

beforeEach(() => {
  projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-cmd-')));
});

afterEach(() => {
  for (const pgid of leftoverGroups.splice(0)) groupSignal(pgid, 'SIGKILL');
  fs.rmSync(projectDir, { recursive: true, force: true });
});

function options(overrides: Partial<CommandProcessOptions> = {}): CommandProcessOptions {
  const env = hookEnvironment(process.env, {
    projectDir,
    sessionId: 'session-1',
    cwd: projectDir,
    effort: 'medium',
  });
  return { stdin: '{"hook_event_name":"PreToolUse"}', cwd: projectDir, env, timeoutMs: 20_000, ...overrides };
}

function run(spec: CommandSpec, overrides: Partial<CommandProcessOptions> = {}) {
  return runCommandProcess(spec, options(overrides));
}

function script(name: string, body: string): string {
  const file = path.join(projectDir, name);
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

/** True while any process of the group exists (zombies included, so this may lag behind the kill). */
function groupSignal(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ESRCH');
    return false;
  }
}

/** Waits until the group is gone. Orphans are reaped by PID 1, which may take a moment in a container. */
async function expectGroupGone(pgid: number | undefined): Promise<void> {
  expect(pgid).toBeTypeOf('number');
  const deadline = Date.now() + 15_000;
  while (groupSignal(pgid as number, 0) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(() => process.kill(-(pgid as number), 0)).toThrow(
    expect.objectContaining({ code: 'ESRCH' }) as Error,
  );
}

describe('runCommandProcess: stdin, output, exit codes', () => {
  it('writes the event JSON to stdin and then EOF (cat returns and echoes it)', async () => {
    const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: { command: 'echo ü' } });
    const result = await run({ command: 'cat' }, { stdin });
    expect(result).toMatchObject({
      exitCode: 0,
      signal: null,
      stdout: stdin,
      stderr: '',
      timedOut: false,
      aborted: false,
    });
    expect(result.spawnError).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('copes with a hook that never reads stdin, even a large one', async () => {
    script('noread.sh', '#!/bin/sh\necho noread ran\nexit 0\n');
    const stdin = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) });
    const result = await run({ command: '"$CLAUDE_PROJECT_DIR"/noread.sh' }, { stdin });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'noread ran\n', stderr: '' });
  });

  it('copes with a hook that closes stdin early and keeps running', async () => {
    const result = await run(
      { command: 'exec 0<&-; sleep 0.2; echo done' },
      { stdin: 'y'.repeat(1024 * 1024) },
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' });
  });

  it.each([
    [0, 'ok'],
    [2, 'blocked'],
    [1, 'failed'],
    [3, 'other'],
  ])('reports exit code %i with stdout and stderr kept apart', async (code, word) => {
    const result = await run({ command: `echo out-${word}; echo err-${word} >&2; exit ${code}` });
    expect(result).toMatchObject({
      exitCode: code,
      signal: null,
      stdout: `out-${word}\n`,
      stderr: `err-${word}\n`,
    });
  });

  it('gives exit 127 from sh for a missing command in shell form (not a spawn error)', async () => {
    const result = await run({ command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/does-not-exist.sh' });
    expect(result.exitCode).toBe(127);
    expect(result.spawnError).toBeUndefined();
    expect(result.stderr).toMatch(/does-not-exist\.sh.*not found|No such file/);
  });

  it('runs shell form with /bin/sh by default and with the named shell when given', async () => {
    const probe = 'if [ -n "${BASH_VERSION:-}" ]; then echo bash; else echo sh; fi';
    expect((await run({ command: probe })).stdout).toBe(
      process.platform === 'linux' && fs.realpathSync('/bin/sh').endsWith('bash') ? 'bash\n' : 'sh\n',
    );
    expect((await run({ command: probe, shell: 'bash' })).stdout).toBe('bash\n');
  });

  it('caps captured output and says it was truncated, without blocking the writer', async () => {
    const result = await run(
      { command: "head -c 300000 /dev/zero | tr '\\0' a; echo tail >&2" },
      { maxOutputBytes: 1000 },
    );
    expect(result).toMatchObject({
      exitCode: 0,
      stdoutTruncated: true,
      stderrTruncated: false,
      stderr: 'tail\n',
    });
    expect(result.stdout).toBe('a'.repeat(1000));
  });

  it('runs in the given cwd with PWD set to it', async () => {
    const sub = path.join(projectDir, 'sub');
    fs.mkdirSync(sub);
    const env = hookEnvironment(process.env, { projectDir, sessionId: 's', cwd: sub });
    const result = await run({ command: 'pwd; printf "%s\\n" "$PWD"' }, { cwd: sub, env });
    expect(result.stdout).toBe(`${sub}\n${sub}\n`);
  });

  it('reports a missing cwd as a spawn error that names the directory', async () => {
    const missing = path.join(projectDir, 'gone');
    const result = await run({ command: 'true' }, { cwd: missing });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toContain(missing);
  });
});

describe('runCommandProcess: exec form', () => {
  it('passes args as argv without a shell and substitutes ${CLAUDE_PROJECT_DIR} in command', async () => {
    script('probe.sh', '#!/bin/sh\nfor arg in "$0" "$@"; do printf "%s\\n" "$arg"; done\n');
    const result = await run({
      command: '${CLAUDE_PROJECT_DIR}/probe.sh',
      args: ['exec', 'two words', '$HOME', '$(echo no)'],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${projectDir}/probe.sh\nexec\ntwo words\n$HOME\n$(echo no)\n`);
  });

  it('also substitutes the bare $CLAUDE_PROJECT_DIR form', async () => {
    script('probe.sh', '#!/bin/sh\nprintf "%s|%s\\n" "$0" "$1"\n');
    const result = await run({ command: '$CLAUDE_PROJECT_DIR/probe.sh', args: ['a'] });
    expect(result.stdout).toBe(`${projectDir}/probe.sh|a\n`);
  });

  it('makes the hook a session and process group leader', async () => {
    script('ids.sh', '#!/bin/sh\nps -o pid=,pgid=,sid= -p $$\n');
    const result = await run({ command: '${CLAUDE_PROJECT_DIR}/ids.sh', args: [] });
    const [pid, pgid, sid] = result.stdout.trim().split(/\s+/).map(Number);
    expect(pid).toBe(result.pid);
    expect(pgid).toBe(pid);
    expect(sid).toBe(pid);
  });

  it('reports a missing program as a spawn error (ENOENT), not an exit code', async () => {
    const result = await run({ command: '${CLAUDE_PROJECT_DIR}/missing.sh', args: ['x'] });
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toMatch(/^ENOENT/);
    expect(result.pid).toBeUndefined();
  });
});

describe('runCommandProcess: environment', () => {
  it('sets the Claude Code variables and HOOKLOOP, inherits the rest', async () => {
    const env = hookEnvironment(
      { ...process.env, INHERITED_X: 'kept', OTEL_EXPORTER: 'dropped' },
      {
        projectDir,
        sessionId: 'session-42',
        cwd: projectDir,
        effort: 'medium',
        envFile: path.join(projectDir, 'env.sh'),
      },
    );
    const names = [
      'CLAUDE_PROJECT_DIR',
      'CLAUDECODE',
      'CLAUDE_CODE_ENTRYPOINT',
      'CLAUDE_CODE_SESSION_ID',
      'CLAUDE_PID',
      'CLAUDE_EFFORT',
      'CLAUDE_ENV_FILE',
      'HOOKLOOP',
      'INHERITED_X',
      'OTEL_EXPORTER',
    ];
    const result = await run(
      { command: names.map((name) => `printf '%s=%s\\n' ${name} "\${${name}-unset}"`).join('; ') },
      { env },
    );
    expect(result.stdout.trim().split('\n')).toEqual([
      `CLAUDE_PROJECT_DIR=${projectDir}`,
      'CLAUDECODE=1',
      'CLAUDE_CODE_ENTRYPOINT=sdk-cli',
      'CLAUDE_CODE_SESSION_ID=session-42',
      `CLAUDE_PID=${process.pid}`,
      'CLAUDE_EFFORT=medium',
      `CLAUDE_ENV_FILE=${projectDir}/env.sh`,
      'HOOKLOOP=1',
      'INHERITED_X=kept',
      'OTEL_EXPORTER=unset',
    ]);
  });

  it('leaves CLAUDE_EFFORT and CLAUDE_ENV_FILE unset unless given, even when inherited', () => {
    const env = hookEnvironment(
      { CLAUDE_EFFORT: 'high', CLAUDE_ENV_FILE: '/outer/env.sh', PATH: '/bin', UNSET: undefined },
      { projectDir: '/p', sessionId: 's', cwd: '/p/sub', pid: 7 },
    );
    expect(env).toEqual({
      PATH: '/bin',
      CLAUDE_PROJECT_DIR: '/p',
      CLAUDECODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
      CLAUDE_CODE_SESSION_ID: 's',
      CLAUDE_PID: '7',
      PWD: '/p/sub',
      HOOKLOOP: '1',
    });
  });
});

describe('runCommandProcess: timeouts, aborts and process groups', () => {
  it('kills a hook past its timeout, with its whole process group', async () => {
    const result = await run({ command: 'sleep 30 & sleep 30' }, { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.aborted).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toMatch(/^SIG(TERM|KILL)$/);
    expect(result.durationMs).toBeLessThan(PROMPTLY_MS);
    await expectGroupGone(result.pid);
  });

  it('SIGKILLs leftovers of the group that ignore SIGTERM after the hook itself died', async () => {
    const result = await run({ command: "(trap '' TERM; sleep 30) & sleep 30" }, { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(PROMPTLY_MS);
    await expectGroupGone(result.pid);
  });

  it('keeps what the hook printed before the timeout', async () => {
    const result = await run({ command: 'echo partial; sleep 30' }, { timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, stdout: 'partial\n' });
  });

  it('SIGKILLs a hook that traps and ignores SIGTERM', async () => {
    const started = Date.now();
    const result = await run(
      { command: "trap '' TERM; sleep 30; echo survived" },
      { timeoutMs: 300, killGraceMs: 500 },
    );
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    await expectGroupGone(result.pid);
  });

  it('resolves promptly when a background grandchild holds stdout open, and kills it with the group', async () => {
    const started = Date.now();
    const result = await run({ command: 'sleep 30 & echo started' });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    // Issue 5: a hostile hook leaves no process behind; the grandchild could only write into a dead pipe.
    await expectGroupGone(result.pid);
  });

  it('leaves a background process alone when it redirected its output (a daemon started on purpose)', async () => {
    const result = await run({ command: 'sleep 30 >/dev/null 2>&1 & echo started' });
    if (result.pid !== undefined) leftoverGroups.push(result.pid);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    expect(groupSignal(result.pid as number, 0)).toBe(true);
  });

  it('kills the group when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = run({ command: 'sleep 30 & sleep 30' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const result = await pending;
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(result.durationMs).toBeLessThan(PROMPTLY_MS);
    await expectGroupGone(result.pid);
  });

  it('spawns nothing when the signal is already aborted', async () => {
    const marker = path.join(projectDir, 'ran');
    const result = await run({ command: `touch ${marker}` }, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ aborted: true, exitCode: null, pid: undefined });
    expect(fs.existsSync(marker)).toBe(false);
  });
});
