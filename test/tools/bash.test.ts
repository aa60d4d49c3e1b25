import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ToolContext, ToolFailure, Workspace } from '../../src/index.js';
import {
  Bash,
  BashInterruptedFailure,
  backgroundOutputPath,
  formatDuration,
  isSilentCommand,
} from '../../src/tools/builtin/bash.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bash-test-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A ToolContext over `dir` whose cwd moves when the tool calls setCwd, recording each move. */
function session(options: { env?: Record<string, string>; signal?: AbortSignal } = {}) {
  const moves: string[] = [];
  let cwd = dir;
  const context: ToolContext = {
    get cwd() {
      return cwd;
    },
    projectDir: dir,
    workspace: new Workspace(dir),
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? {},
    setCwd(directory) {
      cwd = directory;
      moves.push(directory);
    },
  };
  return { context, moves };
}

/** Runs a Bash call the way the loop does: schema, handler, render. */
async function bash(input: Record<string, unknown>, context: ToolContext) {
  const parsed = Bash.inputSchema.parse(input);
  const output = await Bash.handler(parsed, context);
  return { output, text: Bash.render(output, parsed) };
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

describe('Bash', () => {
  it('returns Claude Code’s tool_response with one trailing newline stripped (trace lifecycle-basic)', async () => {
    const { context } = session();
    const { output, text } = await bash({ command: 'echo hello' }, context);
    expect(output).toStrictEqual({
      stdout: 'hello',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
    expect(Object.keys(output)).toEqual(['stdout', 'stderr', 'interrupted', 'isImage', 'noOutputExpected']);
    expect(text).toBe('hello');
  });

  it('keeps inner blank lines and strips only one trailing newline', async () => {
    const { context } = session();
    const { output } = await bash({ command: "printf 'a\\n\\nb\\n\\n'" }, context);
    expect(output.stdout).toBe('a\n\nb\n');
  });

  it('says (Bash completed with no output) when nothing was printed, and flags silent commands', async () => {
    const { context } = session();
    const touched = await bash({ command: 'touch touched.txt' }, context);
    expect(touched.text).toBe('(Bash completed with no output)');
    expect(touched.output.noOutputExpected).toBe(true);
    expect(fs.existsSync(path.join(dir, 'touched.txt'))).toBe(true);
    const redirected = await bash({ command: 'echo one > one.txt' }, context);
    expect(redirected.text).toBe('(Bash completed with no output)');
    expect(redirected.output.noOutputExpected).toBe(false);
  });

  it('merges stderr into stdout in the order written, as Claude Code 2.x does', async () => {
    const { context } = session();
    const { output, text } = await bash({ command: 'echo a; echo b >&2; echo c' }, context);
    expect(output.stdout).toBe('a\nb\nc');
    expect(output.stderr).toBe('');
    expect(text).toBe('a\nb\nc');
  });

  it('fails with "Exit code N\\n<stdout>\\n<stderr>" on a non-zero exit (trace post-tool-use-failure)', async () => {
    const { context } = session();
    const failure = await Bash.handler(
      { command: 'echo to-stdout; echo to-stderr >&2; exit 3' },
      context,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolFailure);
    expect((failure as ToolFailure).message).toBe('Exit code 3\nto-stdout\nto-stderr');
  });

  it('leaves out empty output parts in the failure text', async () => {
    const { context } = session();
    await expect(Bash.handler({ command: 'exit 1' }, context)).rejects.toThrow(/^Exit code 1$/);
  });

  it('runs in the session cwd with the extra environment', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const { context } = session({ env: { HOOKLOOP_TEST_VALUE: 'from-context' } });
    const { output } = await bash({ command: 'echo "$HOOKLOOP_TEST_VALUE"; pwd' }, context);
    expect(output.stdout).toBe(`from-context\n${dir}`);
  });

  it('follows cd across calls and reports the move once (trace hook-env-cwd-stdin)', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const { context, moves } = session();
    const first = await bash({ command: 'cd sub && pwd' }, context);
    expect(first.output.stdout).toBe(path.join(dir, 'sub'));
    expect(moves).toEqual([path.join(dir, 'sub')]);
    expect(context.cwd).toBe(path.join(dir, 'sub'));
    const second = await bash({ command: 'pwd' }, context);
    expect(second.output.stdout).toBe(path.join(dir, 'sub'));
    expect(moves).toEqual([path.join(dir, 'sub')]);
  });

  it('learns the directory even when the command exits explicitly, and keeps the exit status', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const { context } = session();
    await expect(Bash.handler({ command: 'cd sub; exit 7' }, context)).rejects.toThrow('Exit code 7');
    expect(context.cwd).toBe(path.join(dir, 'sub'));
  });

  it('refuses a cd outside the workspace: the cwd goes back to the project dir and stderr says so', async () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const { context } = session();
    await bash({ command: 'cd sub' }, context);
    const { output, text } = await bash({ command: 'cd / && echo moved' }, context);
    expect(output.stdout).toBe('moved');
    expect(output.stderr).toBe(`Shell cwd was reset to ${dir}`);
    expect(text).toBe(`moved\nShell cwd was reset to ${dir}`);
    expect(context.cwd).toBe(dir);
  });

  it('falls back to the project dir when the session cwd was deleted', async () => {
    fs.mkdirSync(path.join(dir, 'gone'));
    const { context } = session();
    await bash({ command: 'cd gone' }, context);
    fs.rmdirSync(path.join(dir, 'gone'));
    const { output } = await bash({ command: 'pwd' }, context);
    expect(output.stdout).toBe(dir);
    expect(context.cwd).toBe(dir);
  });

  it('kills the whole process group on timeout, quickly, and reports it as interrupted', async () => {
    const { context } = session();
    const started = Date.now();
    const failure = await Bash.handler(
      { command: 'echo $$ > pgid.txt; echo before; sleep 30', timeout: 300 },
      context,
    ).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(failure).toBeInstanceOf(BashInterruptedFailure);
    const interrupted = failure as BashInterruptedFailure;
    expect(interrupted.reason).toBe('timeout');
    expect(interrupted.interrupted).toBe(true);
    expect(interrupted.message).toBe('Command timed out after 0.3s\nbefore');
    const groupId = Number(fs.readFileSync(path.join(dir, 'pgid.txt'), 'utf8'));
    expect(groupId).toBeGreaterThan(1);
    expect(await until(() => !groupAlive(groupId), 2_000)).toBe(true);
  });

  it('kills the process group when the call is aborted', async () => {
    const controller = new AbortController();
    const { context } = session({ signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const failure = await Bash.handler({ command: 'echo $$ > pgid.txt; sleep 30' }, context).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(BashInterruptedFailure);
    expect((failure as BashInterruptedFailure).reason).toBe('abort');
    const groupId = Number(fs.readFileSync(path.join(dir, 'pgid.txt'), 'utf8'));
    expect(await until(() => !groupAlive(groupId), 2_000)).toBe(true);
  });

  it('does not wait for a background grandchild that keeps the output pipe open', async () => {
    const { context } = session();
    const started = Date.now();
    const { output } = await bash({ command: 'sleep 30 & echo $!' }, context);
    expect(Date.now() - started).toBeLessThan(3_000);
    const pid = Number(output.stdout);
    expect(pid).toBeGreaterThan(1);
    process.kill(pid, 'SIGKILL');
  });

  it('caps output at 30,000 characters and says how many lines were cut', async () => {
    const { context } = session();
    const { output } = await bash({ command: 'seq 1 20000' }, context);
    const full = Array.from({ length: 20_000 }, (_, index) => String(index + 1)).join('\n');
    const expected = `${full.slice(0, 30_000)}\n\n... [${full.slice(30_000).split('\n').length} lines truncated] ...`;
    expect(output.stdout).toBe(expected);
  });

  it('keeps memory bounded for huge output and still counts the cut lines', async () => {
    const { context } = session();
    const { output } = await bash({ command: 'yes line | head -n 200000' }, context);
    expect(output.stdout.startsWith('line\nline\n')).toBe(true);
    const match = /\n\n\.\.\. \[(\d+) lines truncated\] \.\.\.$/.exec(output.stdout);
    expect(match).not.toBeNull();
    // 30,000 characters hold 6,000 "line\n" lines; the rest (plus the trailing newline's empty line) are cut.
    expect(Number(match?.[1])).toBe(200_000 - 6_000 + 1);
  });

  it('starts run_in_background commands without waiting and names the output file', async () => {
    const { context } = session();
    const started = Date.now();
    const { output, text } = await bash(
      { command: 'echo bg-out; sleep 0.2; echo bg-done', run_in_background: true },
      context,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(output.backgroundTaskId).toMatch(/^b[0-9a-f]{10}$/);
    const file = backgroundOutputPath(output.backgroundTaskId ?? '');
    expect(text).toBe(
      `Command running in background with ID: ${output.backgroundTaskId}. Output is being written to: ${file}. To check interim output, use Read on that file path; TaskStop ends it.`,
    );
    expect(
      await until(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('bg-done'), 3_000),
    ).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('bg-out\nbg-done\n');
    fs.rmSync(file);
  });

  it('rejects unknown input keys (strict schema like Claude Code)', () => {
    expect(Bash.inputSchema.safeParse({ command: 'ls', bogus: 1 }).success).toBe(false);
    expect(
      Bash.inputSchema.safeParse({
        command: 'ls',
        description: 'List',
        timeout: 5000,
        run_in_background: false,
      }).success,
    ).toBe(true);
  });

  it('is a bash-kind, non-read-only tool', () => {
    expect(Bash.name).toBe('Bash');
    expect(Bash.kind).toBe('bash');
    expect(Bash.readOnly).toBe(false);
  });
});

describe('isSilentCommand', () => {
  it.each([
    ['touch a', true],
    ['mkdir -p x && touch x/y', true],
    ['FOO=1 rm -f a; mv b c', true],
    ['touch "a;echo"', true],
    ['touch a 2>&1', true],
    ['echo one > one.txt', false],
    ['touch a | cat', false],
    ['ls', false],
    ['', false],
  ])('%j → %s', (command, expected) => {
    expect(isSilentCommand(command)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it('prints seconds under a minute and minutes with seconds above', () => {
    expect(formatDuration(300)).toBe('0.3s');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(120_000)).toBe('2m 0s');
    expect(formatDuration(150_000)).toBe('2m 30s');
  });
});
