import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';

/**
 * Runs one command hook process the way Claude Code does (spec §8–§10): the event JSON on stdin
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
export const EXEC_FORM_VARIABLES = ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'] as const;
const EXEC_FORM_REFERENCE = new RegExp(`\\$\\{(${EXEC_FORM_VARIABLES.join('|')})\\}|\\$(${EXEC_FORM_VARIABLES.join('|')})(?![A-Za-z0-9_])`, 'g');

/**
 * The program and argv for `spec` (see `CommandSpec`). In exec form, `${CLAUDE_PROJECT_DIR}`,
 * `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` (and their `$NAME` forms) are replaced in
 * `command` and in every arg with their values from `env`; a value with spaces stays one argv
 * item (`"${CLAUDE_PROJECT_DIR}/my hooks/guard.sh"` is one path). A name absent from `env` is left
 * as written.
 */
export function commandArgv(spec: CommandSpec, env: Readonly<Record<string, string | undefined>>): { file: string; args: string[] } {
  const command = spec.command ?? '';
  if (spec.args !== undefined) {
    const expand = (text: string) =>
      text.replace(EXEC_FORM_REFERENCE, (whole, braced: string | undefined, bare: string | undefined) => env[braced ?? bare ?? ''] ?? whole);
    return { file: expand(command), args: spec.args.map(expand) };
  }
  const shell = spec.shell ?? '/bin/sh';
  const isPowerShell = /^(pwsh|powershell)(\.exe)?$/i.test(path.basename(shell));
  return { file: shell, args: isPowerShell ? ['-NoProfile', '-NonInteractive', '-Command', command] : ['-c', command] };
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
export function runCommandProcess(spec: CommandSpec, options: CommandProcessOptions): Promise<CommandProcessResult> {
  const started = performance.now();
  const base = { stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false, exitCode: null, signal: null, timedOut: false, pid: undefined };
  if (options.signal?.aborted) return Promise.resolve({ ...base, aborted: true, durationMs: 0 });
  if (spec.command === undefined || spec.command === '') {
    return Promise.resolve({ ...base, aborted: false, spawnError: 'no command to run', durationMs: 0 });
  }
  const { file, args } = commandArgv(spec, options.env);
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
  } catch (error) {
    // Synchronous throws are argument errors (e.g. a NUL byte in the command).
    return Promise.resolve({ ...base, aborted: false, spawnError: describeSpawnError(error, options.cwd), durationMs: 0 });
  }
  return new Promise((resolve) => new HookProcess(child, options, started, resolve).start());
}

/** One running process and the bookkeeping that ends it; lives until `resolve` is called. */
class HookProcess {
  private readonly stdout: OutputBuffer;
  private readonly stderr: OutputBuffer;
  private timedOut = false;
  private aborted = false;
  private killing = false;
  private exited = false;
  private settled = false;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => this.killGroup('abort');

  constructor(
    private readonly child: ChildProcess,
    private readonly options: CommandProcessOptions,
    private readonly started: number,
    private readonly resolve: (result: CommandProcessResult) => void,
  ) {
    const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.stdout = new OutputBuffer(child.stdout, limit);
    this.stderr = new OutputBuffer(child.stderr, limit);
  }

  start(): void {
    const { child, options } = this;
    child.once('error', (error) => {
      // Emitted instead of 'exit' when the program could not be started (ENOENT, EACCES, bad cwd).
      if (child.pid === undefined) this.finish({ exitCode: null, signal: null, spawnError: describeSpawnError(error, options.cwd) });
    });
    child.once('exit', (exitCode, signal) => this.afterExit(exitCode, signal));
    // The hook may exit or close stdin without reading it: EPIPE/ECONNRESET here change nothing
    // about its result, so they are dropped on purpose.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin);
    if (Number.isFinite(options.timeoutMs)) {
      this.timeoutTimer = setTimeout(() => this.killGroup('timeout'), Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS));
    }
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
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
    signalGroup(this.child.pid, 'SIGTERM');
    this.graceTimer = setTimeout(() => signalGroup(this.child.pid, 'SIGKILL'), this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  }

  private afterExit(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    clearTimeout(this.timeoutTimer);
    const drainMs = this.options.drainMs ?? DEFAULT_DRAIN_MS;
    // Neither promise rejects (OutputBuffer.ended resolves on error too).
    const drained = Promise.all([this.stdout.ended, this.stderr.ended]).then(() => true);
    void Promise.race([drained, delay(drainMs).then(() => false)]).then((closed) => {
      // Someone in the group still holds the hook's stdout or stderr: it can only write into pipes
      // nobody reads any more, so it goes with the group (a daemon that redirected its output is
      // not touched: its pipes are closed).
      if (!closed) this.killing = true;
      this.finish({ exitCode, signal });
    });
  }

  private finish(outcome: { exitCode: number | null; signal: string | null; spawnError?: string }): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.graceTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    // Leftovers of a group we were asked to kill go now; those of a hook that exited on its own
    // are its business (it may have started a daemon on purpose).
    if (this.killing) signalGroup(this.child.pid, 'SIGKILL');
    this.stdout.close();
    this.stderr.close();
    this.child.stdin?.destroy();
    this.resolve({
      ...outcome,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      stdoutTruncated: this.stdout.truncated,
      stderrTruncated: this.stderr.truncated,
      timedOut: this.timedOut,
      aborted: this.aborted,
      durationMs: Math.round(performance.now() - this.started),
      pid: this.child.pid,
    });
  }
}

/** Collects one output stream up to `limit` bytes, reading (and dropping) the rest so the writer never blocks. */
class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  readonly ended: Promise<void>;

  constructor(
    private readonly stream: Readable | null,
    private readonly limit: number,
  ) {
    this.ended = new Promise((resolve) => {
      if (!stream) return resolve();
      stream.on('data', (chunk: Buffer) => this.add(chunk));
      stream.once('end', () => resolve());
      stream.once('close', () => resolve());
      // A read error ends the capture; what was read so far is kept.
      stream.once('error', () => resolve());
    });
  }

  private add(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  close(): void {
    this.stream?.destroy();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
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

function describeSpawnError(error: unknown, cwd: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // Node reports a missing cwd as `spawn /bin/sh ENOENT`, which blames the wrong file.
  if (code === 'ENOENT' && !fs.existsSync(cwd)) return `ENOENT: working directory does not exist: ${cwd}`;
  return code === undefined ? message : `${code}: ${message}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Values for the `CLAUDE_*` variables of a hook's environment (spec §10).
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
