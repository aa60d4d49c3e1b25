import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { commandArgv, type CommandProcessResult, type CommandSpec } from './command-process.js';

/**
 * One process of a persistent command hook (a hookloop extension: `"persistent": true`; see
 * persistent-command.ts and docs/hooks.md): started once, it reads one event JSON a line on stdin
 * and writes one answer a line on stdout, one event at a time.
 *
 * An answer line is either the envelope `{"exitCode":N,"stdout":"…","stderr":"…"}` (stdout and
 * stderr optional), meaning exactly what a one-shot run with that exit code and output means, or
 * any other JSON object, meaning that object printed on stdout with exit 0. Anything else is a
 * broken protocol: the invocation fails and the process is ended, as after a timeout, an abort or
 * an answer never given because the process exited (which reads as that exit code with the stderr
 * it wrote meanwhile, e.g. exit 2 blocks). A new process starts with the next event.
 */

/** An invocation's end: what a one-shot run would have produced, or a protocol error (no usable answer line). */
export type PersistentAnswer =
  { result: CommandProcessResult } | { protocolError: string; durationMs: number };

const MAX_LINE_BYTES = 10 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;
const KILL_GRACE_MS = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiting {
  answer(line: string): void;
  exited(code: number | null, signal: NodeJS.Signals | null): void;
}

/** Every persistent hook process still alive in this process, killed (SIGKILL to its group) if the agent exits without closing them. */
const alive = new Set<PersistentProcess>();
process.once('exit', () => {
  for (const hook of alive) hook.kill('SIGKILL');
});

export class PersistentProcess {
  private readonly child: ChildProcess;
  private stdout = '';
  private stderr = '';
  private waiting: Waiting | undefined;
  private startError: string | undefined;
  /** Set once the process exited or was told to go: it takes no more events. */
  done = false;
  /** Resolves once the process exited and its pipes closed (it was reaped). */
  readonly exitedPromise: Promise<void>;
  private readonly stdoutEnded: Promise<void>;

  /** Starts the process (shell or exec form, as `runCommandProcess`), in its own process group. */
  constructor(
    spec: CommandSpec,
    cwd: string,
    env: Readonly<Record<string, string>>,
    readonly key: string,
  ) {
    const { file, args } = commandArgv(spec, env);
    this.child = spawn(file, args, {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    alive.add(this);
    this.exitedPromise = new Promise((resolve) => this.child.once('close', () => resolve()));
    this.stdoutEnded = new Promise((resolve) => {
      this.child.stdout?.once('end', () => resolve());
      this.child.stdout?.once('close', () => resolve());
    });
    this.child.once('error', (error) => {
      this.startError = `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${error.message}`;
      this.markExited(null, null);
    });
    this.child.once('exit', (code, signal) => this.markExited(code, signal));
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      // Only the stderr written during an event is that event's; older text is dropped.
      if (this.waiting !== undefined && this.stderr.length < MAX_STDERR_BYTES) this.stderr += chunk;
    });
    this.hold(false);
  }

  /**
   * Sends one event and waits for its answer, at most `timeoutMs` (then the group gets SIGTERM,
   * SIGKILL a second later, and the result is `timedOut`); `signal` aborts the same way. The
   * caller sends one event at a time. Never rejects.
   */
  invoke(stdinLine: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<PersistentAnswer> {
    const started = performance.now();
    const base = { stdoutTruncated: false, stderrTruncated: false, pid: this.child.pid };
    const duration = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const end = (answer: PersistentAnswer) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting = undefined;
        this.stderr = '';
        this.hold(false);
        resolve(answer);
      };
      const interrupt = (why: 'timedOut' | 'aborted') => {
        this.stop();
        end({
          result: {
            ...base,
            exitCode: null,
            signal: null,
            stdout: '',
            stderr: '',
            timedOut: why === 'timedOut',
            aborted: why === 'aborted',
            durationMs: duration(),
          },
        });
      };
      const onAbort = () => interrupt('aborted');
      if (this.done) {
        end({
          result: {
            ...base,
            exitCode: null,
            signal: null,
            stdout: '',
            stderr: '',
            timedOut: false,
            aborted: false,
            spawnError: this.startError ?? 'the process has exited',
            durationMs: 0,
          },
        });
        return;
      }
      this.waiting = {
        answer: (line) => {
          const answer = readAnswer(line);
          if ('protocolError' in answer) {
            this.stop();
            end({ protocolError: answer.protocolError, durationMs: duration() });
            return;
          }
          end({
            result: {
              ...base,
              signal: null,
              ...answer,
              timedOut: false,
              aborted: false,
              durationMs: duration(),
            },
          });
        },
        exited: (code, exitSignal) => {
          const spawnError = this.startError;
          end({
            result: {
              ...base,
              exitCode: code,
              signal: exitSignal,
              stdout: '',
              stderr: this.stderr,
              timedOut: false,
              aborted: false,
              ...(spawnError !== undefined ? { spawnError } : {}),
              durationMs: duration(),
            },
          });
        },
      };
      this.hold(true);
      if (Number.isFinite(timeoutMs))
        timer = setTimeout(() => interrupt('timedOut'), Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.child.stdin?.write(`${stdinLine}\n`);
    });
  }

  /**
   * Ends the process: EOF on its stdin (a `defineHook` script exits then), SIGTERM to its group
   * after `graceMs` if it is still there, SIGKILL a second later. Resolves once it is gone.
   */
  async close(graceMs: number): Promise<void> {
    this.done = true;
    // Closing is awaited: the process keeps the event loop alive until it is gone.
    this.hold(true);
    this.child.stdin?.end();
    const gone = await Promise.race([this.exitedPromise.then(() => true), delay(graceMs).then(() => false)]);
    if (!gone) {
      this.kill('SIGTERM');
      const killed = await Promise.race([
        this.exitedPromise.then(() => true),
        delay(KILL_GRACE_MS).then(() => false),
      ]);
      if (!killed) this.kill('SIGKILL');
    }
    // Whatever the hook left in its group (a child it started) goes with it.
    this.kill('SIGKILL');
    alive.delete(this);
  }

  /** Signals the whole process group; a group already gone is what we wanted. */
  kill(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // ESRCH: gone. EPERM: no longer ours.
    }
  }

  /** Out of protocol (timeout, abort, garbage): the process is not asked again; SIGTERM now, SIGKILL after the grace. */
  private stop(): void {
    this.done = true;
    this.kill('SIGTERM');
    setTimeout(() => this.kill('SIGKILL'), KILL_GRACE_MS).unref();
    void this.exitedPromise.then(() => {
      this.kill('SIGKILL');
      alive.delete(this);
    });
  }

  private onStdout(chunk: string): void {
    this.stdout += chunk;
    for (let end = this.stdout.indexOf('\n'); end !== -1; end = this.stdout.indexOf('\n')) {
      const line = this.stdout.slice(0, end);
      this.stdout = this.stdout.slice(end + 1);
      if (line.trim() === '') continue;
      // A line nobody asked for (printed between events) breaks the one-answer-per-event pairing.
      if (this.waiting === undefined) {
        this.stop();
        return;
      }
      this.waiting.answer(line);
    }
    if (this.stdout.length > MAX_LINE_BYTES) {
      this.stdout = '';
      this.waiting?.answer('(an answer line over 10 MiB)');
    }
  }

  private markExited(code: number | null, signal: NodeJS.Signals | null): void {
    this.done = true;
    if (this.child.pid === undefined) {
      alive.delete(this);
      this.waiting?.exited(code, signal);
      return;
    }
    void this.exitedPromise.then(() => alive.delete(this));
    // An answer written just before exiting is still in the pipe: it counts, so read it first
    // (at most 100 ms: a child the hook left behind may hold stdout open).
    void Promise.race([this.stdoutEnded, delay(100)]).then(() => this.waiting?.exited(code, signal));
  }

  /** Only while an event is out does the process keep the agent's event loop alive. */
  private hold(busy: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as ({
      ref?: () => void;
      unref?: () => void;
    } | null)[]) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}

/** Reads one answer line (see the module comment). */
function readAnswer(
  line: string,
): { exitCode: number; stdout: string; stderr: string } | { protocolError: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { protocolError: `answered with a line that is not JSON: ${preview(line)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { protocolError: `answered with JSON that is not an object: ${preview(line)}` };
  const envelope = value as { exitCode?: unknown; stdout?: unknown; stderr?: unknown };
  if (envelope.exitCode === undefined) return { exitCode: 0, stdout: line, stderr: '' };
  if (
    !Number.isInteger(envelope.exitCode) ||
    (envelope.stdout !== undefined && typeof envelope.stdout !== 'string') ||
    (envelope.stderr !== undefined && typeof envelope.stderr !== 'string')
  ) {
    return {
      protocolError: `answered with a malformed envelope (exitCode: an integer; stdout, stderr: strings): ${preview(line)}`,
    };
  }
  return {
    exitCode: envelope.exitCode as number,
    stdout: (envelope.stdout as string | undefined) ?? '',
    stderr: (envelope.stderr as string | undefined) ?? '',
  };
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
