import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CapturedOutput, SpawnFailure } from '../../process/captured-spawn.js';
import { directCommand, shellEnvironment } from '../../process/direct-command.js';
import { spawnCaptured } from '../../process/spawner.js';

/**
 * Runs one command hook process the way Claude Code does: the event JSON on stdin
 * then EOF, stdout/stderr as pipes, the process in its own process group, killed with that group
 * on timeout or abort. Interpreting the exit code and output is the caller's job.
 */

/**
 * What to run. Shell form (no `args`): `/bin/sh -c <command>`, exactly as Claude Code, so
 * `"$CLAUDE_PROJECT_DIR"/hook.sh arg` is expanded by the shell; `shell` picks another shell
 * (`bash` → `bash -c`, `pwsh`/`powershell` → `-NoProfile -Command`). Exec form (`args` given):
 * `command` is spawned directly with `args` as its argv, no shell, so `$HOME` in an arg stays as
 * written; only Claude Code's own variables (`EXEC_FORM_VARIABLES`) are substituted, in `command`
 * and in `args`.
 */
export interface CommandSpec {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly shell?: string;
}

/**
 * How to run it.
 * - `stdin`: written whole, then EOF. A hook that never reads it or closes it early is fine.
 * - `cwd`: the session's current directory; `env`: the complete environment (see `hookEnvironment`).
 * - `timeoutMs`: then the process group gets SIGTERM, and SIGKILL `killGraceMs` (default 1000) later.
 *   `Infinity` = no timeout.
 * - `signal`: aborting kills the group the same way (an already aborted signal spawns nothing).
 * - `maxOutputBytes`: cap of each captured stream (default 10 MiB); the rest is read and dropped.
 * - `drainMs`: how long to keep reading the pipes after the process exited (default 100), since a
 *   background grandchild may hold them open forever.
 */
export interface CommandProcessOptions {
  readonly stdin: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly maxOutputBytes?: number;
  readonly killGraceMs?: number;
  readonly drainMs?: number;
}

/**
 * How it went. `exitCode` is null when the process was ended by a signal (`signal`, e.g. `SIGTERM`)
 * or never started (`spawnError`, e.g. `ENOENT: spawn ./missing.sh ENOENT` in exec form; in shell
 * form a missing command is exit 127 from sh instead). `timedOut` / `aborted` say why we killed it.
 * `stdoutTruncated` / `stderrTruncated` say that `maxOutputBytes` cut the text. `pid` is also the
 * process group id (undefined when spawning failed). `durationMs` is wall time from spawn to result.
 */
export interface CommandProcessResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly spawnError?: string;
  readonly durationMs: number;
  readonly pid: number | undefined;
}

const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
const DEFAULT_KILL_GRACE_MS = 1000;
const DEFAULT_DRAIN_MS = 100;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The variables Claude Code substitutes in an exec-form hook's `command` and `args` (no shell runs
 * there to expand them): written `${NAME}` or `$NAME`. Every other `$…` stays as written (`$HOME`
 * reaches the program literally, as in Claude Code).
 */
export const EXEC_FORM_VARIABLES = [
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
] as const;
const EXEC_FORM_REFERENCE = new RegExp(
  `\\$\\{(${EXEC_FORM_VARIABLES.join('|')})\\}|\\$(${EXEC_FORM_VARIABLES.join('|')})(?![A-Za-z0-9_])`,
  'g',
);

/**
 * The program and argv for `spec` (see `CommandSpec`). In exec form, `${CLAUDE_PROJECT_DIR}`,
 * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` (and their `$NAME` forms) are replaced in
 * `command` and in every arg with their values from `env`; a value with spaces stays one argv
 * item (`"${CLAUDE_PROJECT_DIR}/my hooks/guard.sh"` is one path). A name absent from `env` is left
 * as written.
 */
export function commandArgv(
  spec: CommandSpec,
  env: Readonly<Record<string, string | undefined>>,
): { file: string; args: string[] } {
  const command = spec.command ?? '';
  if (spec.args !== undefined) {
    const expand = (text: string) =>
      text.replace(
        EXEC_FORM_REFERENCE,
        (whole, braced: string | undefined, bare: string | undefined) => env[braced ?? bare ?? ''] ?? whole,
      );
    return { file: expand(command), args: spec.args.map(expand) };
  }
  const shell = spec.shell ?? '/bin/sh';
  const isPowerShell = /^(pwsh|powershell)(\.exe)?$/i.test(path.basename(shell));
  return {
    file: shell,
    args: isPowerShell ? ['-NoProfile', '-NonInteractive', '-Command', command] : ['-c', command],
  };
}

/**
 * Runs one command hook process to completion (see the option and result types).
 *
 * Contract: never rejects; spawn failures are `spawnError`. Resolves once the direct child has
 * exited and its pipes were drained (at most `drainMs` later): a grandchild left running in the
 * background (`sleep 30 &`) does not hold us. If such a grandchild still holds the hook's stdout or
 * stderr after `drainMs`, or we are killing the group (timeout/abort), every process of the group
 * is SIGKILLed before we resolve; a background process that redirected its output is left alone.
 */
export function runCommandProcess(
  spec: CommandSpec,
  options: CommandProcessOptions,
): Promise<CommandProcessResult> {
  const started = performance.now();
  const base = {
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    pid: undefined,
  };
  if (options.signal?.aborted) return Promise.resolve({ ...base, aborted: true, durationMs: 0 });
  if (spec.command === undefined || spec.command === '') {
    return Promise.resolve({ ...base, aborted: false, spawnError: 'no command to run', durationMs: 0 });
  }
  // A plain `prog arg…` line runs without the shell in between, exactly as the shell would run it.
  const direct =
    spec.args === undefined && spec.shell === undefined
      ? directCommand(spec.command, options.env)
      : undefined;
  if (direct !== undefined)
    return new Promise((resolve) =>
      new HookProcess(
        { ...options, env: shellEnvironment(options.env, options.cwd) },
        started,
        resolve,
      ).start(direct.file, direct.args, direct.argv0),
    );
  const { file, args } = commandArgv(spec, options.env);
  return new Promise((resolve) => new HookProcess(options, started, resolve).start(file, args));
}

/** One running process and the bookkeeping that ends it; lives until `resolve` is called. */
class HookProcess {
  private pid: number | undefined;
  private timedOut = false;
  private aborted = false;
  private killing = false;
  private exited = false;
  private settled = false;
  private exit: { exitCode: number | null; signal: string | null } = { exitCode: null, signal: null };
  private timeoutTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.killGroup('abort');

  constructor(
    private readonly options: CommandProcessOptions,
    private readonly started: number,
    private readonly resolve: (result: CommandProcessResult) => void,
  ) {}

  /** `argv0` set: `file` runs in place of `sh -c`, so a death by a signal we did not send is reported as the shell would, as exit code 128 + the signal's number. */
  start(file: string, args: string[], argv0?: string): void {
    const { options } = this;
    if (Number.isFinite(options.timeoutMs)) {
      this.timeoutTimer = setTimeout(
        () => this.killGroup('timeout'),
        Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS),
      );
    }
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    spawnCaptured(
      {
        file,
        args,
        ...(argv0 !== undefined ? { argv0 } : {}),
        cwd: options.cwd,
        env: options.env,
        stdin: options.stdin,
        captureBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        drainMs: options.drainMs ?? DEFAULT_DRAIN_MS,
      },
      {
        spawned: (pid) => {
          this.pid = pid;
          // A timeout or abort that came before the pid was known kills the group now.
          if (this.killing) signalGroup(pid, 'SIGTERM');
        },
        failed: (failure) => this.finish(undefined, describeSpawnError(failure, options.cwd)),
        exited: (exitCode, signal) => {
          this.exited = true;
          const number = signal === null ? undefined : os.constants.signals[signal];
          this.exit =
            argv0 !== undefined && number !== undefined && !this.killing
              ? { exitCode: 128 + number, signal: null }
              : { exitCode, signal };
          clearTimeout(this.timeoutTimer);
        },
        finished: (output) => {
          // Someone in the group still holds the hook's stdout or stderr: it can only write into
          // pipes nobody reads any more, so it goes with the group (a daemon that redirected its
          // output is not touched: its pipes are closed).
          if (!output.closed) this.killing = true;
          this.finish(output);
        },
      },
    );
  }

  /**
   * SIGTERM to the whole group now, SIGKILL after the grace period (a hook may trap SIGTERM).
   * The first reason wins; after the hook exited on its own, a late abort changes nothing.
   */
  private killGroup(reason: 'timeout' | 'abort'): void {
    if (this.killing || this.exited || this.settled) return;
    this.killing = true;
    if (reason === 'timeout') this.timedOut = true;
    else this.aborted = true;
    signalGroup(this.pid, 'SIGTERM');
    this.graceTimer = setTimeout(
      () => signalGroup(this.pid, 'SIGKILL'),
      this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    );
  }

  private finish(output: CapturedOutput | undefined, spawnError?: string): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.graceTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    // Leftovers of a group we were asked to kill go now; those of a hook that exited on its own
    // are its business (it may have started a daemon on purpose).
    if (this.killing) signalGroup(this.pid, 'SIGKILL');
    this.resolve({
      ...this.exit,
      stdout: output?.stdout.bytes.toString('utf8') ?? '',
      stderr: output?.stderr.bytes.toString('utf8') ?? '',
      stdoutTruncated: (output?.stdout.droppedBytes ?? 0) > 0,
      stderrTruncated: (output?.stderr.droppedBytes ?? 0) > 0,
      timedOut: this.timedOut,
      aborted: this.aborted,
      ...(spawnError !== undefined ? { spawnError } : {}),
      durationMs: Math.round(performance.now() - this.started),
      pid: this.pid,
    });
  }
}

/** Sends `signal` to process group `pgid`; false when the group is already gone (or no pid). */
function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pgid === undefined) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: every process of the group has exited, which is what we wanted. Anything else (EPERM:
    // the id now belongs to someone else's group) must not crash the agent from a timer either.
    return false;
  }
}

function describeSpawnError({ code, message }: SpawnFailure, cwd: string): string {
  // Node reports a missing cwd as `spawn /bin/sh ENOENT`, which blames the wrong file.
  if (code === 'ENOENT' && !fs.existsSync(cwd)) return `ENOENT: working directory does not exist: ${cwd}`;
  return code === undefined ? message : `${code}: ${message}`;
}

/**
 * Values for the `CLAUDE_*` variables of a hook's environment.
 * - `projectDir` → `CLAUDE_PROJECT_DIR`: the project dir; unchanged by `cd`.
 * - `sessionId` → `CLAUDE_CODE_SESSION_ID`.
 * - `cwd` → `PWD`: the hook's working directory (the session's current directory).
 * - `effort` → `CLAUDE_EFFORT` (e.g. `medium`): Claude Code sets it for tool events, Stop, SubagentStop, StopFailure.
 * - `envFile` → `CLAUDE_ENV_FILE`: SessionStart (and CwdChanged) hooks append `export` lines there.
 * - `pid` → `CLAUDE_PID`: the agent's pid; defaults to this process.
 */
export interface HookEnvironmentVars {
  readonly projectDir: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly effort?: string;
  readonly envFile?: string;
  readonly pid?: number;
  /** → `TRACEPARENT`: the W3C traceparent of the hook's span, so the script's own spans join the trace. */
  readonly traceparent?: string;
}

/**
 * The environment of a command hook: `base` (normally `process.env`) inherited, then
 * - `CLAUDE_PROJECT_DIR`, `CLAUDE_CODE_SESSION_ID`, `PWD`, `CLAUDE_PID` from `vars`;
 * - `CLAUDECODE=1` and `CLAUDE_CODE_ENTRYPOINT=sdk-cli`, the values Claude Code sets in `-p` runs,
 *   so scripts that check them behave the same under hookloop;
 * - `CLAUDE_EFFORT` / `CLAUDE_ENV_FILE` only when given (an inherited value, e.g. from a Claude Code
 *   session that started hookloop, is removed: it would point at the wrong session);
 * - `HOOKLOOP=1`, so a script can tell which harness runs it;
 * - every `OTEL_*` variable removed, as Claude Code does;
 * - `TRACEPARENT` when `vars.traceparent` is given (tracing on: the hook's own span).
 * Undefined values of `base` are dropped. Never throws.
 */
export function hookEnvironment(base: NodeJS.ProcessEnv, vars: HookEnvironmentVars): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !key.startsWith('OTEL_')) env[key] = value;
  }
  delete env['CLAUDE_EFFORT'];
  delete env['CLAUDE_ENV_FILE'];
  env['CLAUDE_PROJECT_DIR'] = vars.projectDir;
  env['CLAUDECODE'] = '1';
  env['CLAUDE_CODE_ENTRYPOINT'] = 'sdk-cli';
  env['CLAUDE_CODE_SESSION_ID'] = vars.sessionId;
  env['CLAUDE_PID'] = String(vars.pid ?? process.pid);
  if (vars.effort !== undefined) env['CLAUDE_EFFORT'] = vars.effort;
  if (vars.envFile !== undefined) env['CLAUDE_ENV_FILE'] = vars.envFile;
  env['PWD'] = vars.cwd;
  env['HOOKLOOP'] = '1';
  if (vars.traceparent !== undefined) env['TRACEPARENT'] = vars.traceparent;
  return env;
}
