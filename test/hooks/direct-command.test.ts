import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hookEnvironment,
  runCommandProcess,
  type CommandSpec,
} from '../../src/hooks/transports/command-process.js';

// A hook line with no shell syntax runs without /bin/sh; it must see and answer exactly what it
// would have under `sh -c`. `shell: '/bin/sh'` forces the shell, for the side-by-side comparison.
let projectDir: string;

beforeEach(() => {
  projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-direct-')));
});
afterEach(() => fs.rmSync(projectDir, { recursive: true, force: true }));

function run(spec: CommandSpec, env: Record<string, string> = {}) {
  const base = hookEnvironment(
    { ...process.env, ...env },
    { projectDir, sessionId: 'session-1', cwd: projectDir, effort: 'medium' },
  );
  return runCommandProcess(spec, {
    stdin: '{"hook_event_name":"PreToolUse"}',
    cwd: projectDir,
    env: base,
    timeoutMs: 20_000,
  });
}

function script(name: string, body: string): string {
  const file = path.join(projectDir, name);
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

// What the hook saw, and who started it (sh, or not).
const REPORT =
  '#!/bin/sh\nprintf "%s|" "$0" "$@" "$PWD" "$(cat)"\nprintf "parent=%s" "$(cat /proc/$PPID/comm)" >&2\nexit 3\n';

describe('hook commands without shell syntax', () => {
  it('run without /bin/sh, with the argv, PWD, stdin and exit code the shell would have given', async () => {
    const guard = script('guard.sh', REPORT);
    const line = `${guard}  one two=2 ./three`;
    const direct = await run({ command: line });
    const shell = await run({ command: line, shell: '/bin/sh' });
    expect(direct.stdout).toBe(`${guard}|one|two=2|./three|${projectDir}|{"hook_event_name":"PreToolUse"}|`);
    expect(direct.stdout).toBe(shell.stdout);
    expect([direct.exitCode, direct.signal]).toEqual([shell.exitCode, shell.signal]);
    expect(direct.exitCode).toBe(3);
    expect(shell.stderr).toBe('parent=sh');
    expect(direct.stderr).not.toBe('parent=sh');
  });

  it('look the program up in the hook environment PATH, as the shell does', async () => {
    const bin = path.join(projectDir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'my-guard'), REPORT, { mode: 0o755 });
    const direct = await run({ command: 'my-guard go' }, { PATH: `${bin}:/usr/bin:/bin` });
    const shell = await run({ command: 'my-guard go', shell: '/bin/sh' }, { PATH: `${bin}:/usr/bin:/bin` });
    // A script's $0 is the path the kernel ran, the PATH match.
    expect(direct.stdout).toBe(`${bin}/my-guard|go|${projectDir}|{"hook_event_name":"PreToolUse"}|`);
    expect(direct.stdout).toBe(shell.stdout);
    expect(direct.stderr).not.toBe('parent=sh');
  });

  it('a program killed by a signal reports 128 + the signal number, as under sh', async () => {
    const crash = script('crash.sh', '#!/bin/sh\nkill -SEGV $$\n');
    const [direct, shell] = await Promise.all([
      run({ command: crash }),
      run({ command: crash, shell: '/bin/sh' }),
    ]);
    expect([direct.exitCode, direct.signal]).toEqual([139, null]);
    expect([shell.exitCode, shell.signal]).toEqual([139, null]);
  });

  it('shell syntax, builtins, assignments and unknown programs still go through sh', async () => {
    expect((await run({ command: 'echo "$CLAUDE_PROJECT_DIR" | cat' })).stdout).toBe(`${projectDir}\n`);
    expect((await run({ command: 'exit 2' })).exitCode).toBe(2);
    expect((await run({ command: 'echo -e x' })).stdout).toBe('-e x\n'); // dash's echo, not /bin/echo
    expect((await run({ command: 'GREETING=hi env' })).stdout).toContain('GREETING=hi');
    const missing = await run({ command: 'no-such-program-hookloop arg' });
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('not found');
  });
});
