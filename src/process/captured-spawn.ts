import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * One process started for a hook or a Bash call, its output captured: the part of spawning that
 * runs wherever the fork happens — in this process (`spawnLocal`) or in hookloop's small spawner
 * process (spawner-child.ts runs this same code there; see spawner.ts for why). Deciding what a
 * timeout or an abort does stays with the caller, which signals the process group by its pid.
 */

/**
 * What to start. The process always leads a process group of its own (`detached`), so the caller
 * can signal the whole group with `process.kill(-pid, …)`.
 * - `stdin`: written whole, then EOF; undefined = `/dev/null`.
 * - `outputFile`: stdout and stderr are both appended to this file and nothing is
 *   captured (background commands; such a process does not keep this process's event loop alive); otherwise both are pipes, each captured up to `captureBytes`
 *   (the rest is read and dropped, its bytes and newlines counted, so the writer never blocks).
 * - `drainMs`: after the process exited, how long to keep reading its pipes (a background
 *   grandchild may hold them open forever).
 */
export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  /** argv[0] of the process; default `file`. */
  readonly argv0?: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: string;
  readonly outputFile?: string;
  readonly captureBytes: number;
  readonly drainMs: number;
}

/** One captured stream: the first `captureBytes` bytes, and what was dropped after them. */
export interface CapturedStream {
  readonly bytes: Buffer;
  readonly droppedBytes: number;
  readonly droppedNewlines: number;
}

/** The end of a started process: its output, and whether its pipes closed within `drainMs` (false: someone in its group still holds them). */
export interface CapturedOutput {
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly closed: boolean;
}

/** Why a process could not be started: Node's error `code` (ENOENT, EACCES…) and message. */
export interface SpawnFailure {
  readonly code?: string;
  readonly message: string;
}

/**
 * What happens to a started process, in this order: `spawned` (its pid, which is also its process
 * group id) or `failed` (nothing ran; nothing follows); then `exited` (`code` null when a signal
 * ended it); then `finished`, once its pipes closed or `drainMs` passed.
 */
export interface SpawnListener {
  spawned(pid: number): void;
  failed(failure: SpawnFailure): void;
  exited(code: number | null, signal: NodeJS.Signals | null): void;
  finished(output: CapturedOutput): void;
}

/** Starts `request` in this process and reports to `listener` (never throws: a failure to start is `failed`). */
export function spawnLocal(request: SpawnRequest, listener: SpawnListener): void {
  let descriptor: number | undefined;
  let child;
  try {
    if (request.outputFile !== undefined) descriptor = fs.openSync(request.outputFile, 'a');
    const out = descriptor ?? 'pipe';
    child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      ...(request.argv0 !== undefined ? { argv0: request.argv0 } : {}),
      stdio: [request.stdin === undefined ? 'ignore' : 'pipe', out, out],
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    // Synchronous throws are argument errors (e.g. a NUL byte in the command) or a bad output file.
    listener.failed(failureOf(error));
    return;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
  const started = child;
  const stdout = new StreamCapture(started.stdout, request.captureBytes);
  const stderr = new StreamCapture(started.stderr, request.captureBytes);
  started.once('error', (error) => {
    // Emitted instead of 'exit' when the program could not be started (ENOENT, EACCES, bad cwd).
    if (started.pid === undefined) listener.failed(failureOf(error));
  });
  if (started.pid !== undefined) listener.spawned(started.pid);
  if (request.outputFile !== undefined) started.unref();
  // The process may exit or close stdin without reading it: EPIPE/ECONNRESET change nothing about
  // its result, so they are dropped on purpose.
  started.stdin?.on('error', () => undefined);
  started.stdin?.end(request.stdin);
  started.once('exit', (code, signal) => {
    listener.exited(code, signal);
    const drained = Promise.all([stdout.ended, stderr.ended]).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(false), request.drainMs)),
    );
    void Promise.race([drained, late]).then((closed) => {
      clearTimeout(timer);
      stdout.close();
      stderr.close();
      started.stdin?.destroy();
      listener.finished({ stdout: stdout.result(), stderr: stderr.result(), closed });
    });
  });
}

function failureOf(error: unknown): SpawnFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? { message } : { code, message };
}

/** Collects one output stream up to `limit` bytes, reading (and counting) the rest so the writer never blocks. */
class StreamCapture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private droppedBytes = 0;
  private droppedNewlines = 0;
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
    const room = Math.max(0, this.limit - this.size);
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length > 0) {
      this.chunks.push(kept);
      this.size += kept.length;
    }
    const rest = chunk.subarray(kept.length);
    this.droppedBytes += rest.length;
    for (let index = rest.indexOf(10); index !== -1; index = rest.indexOf(10, index + 1))
      this.droppedNewlines += 1;
  }

  close(): void {
    this.stream?.destroy();
  }

  result(): CapturedStream {
    return {
      bytes: Buffer.concat(this.chunks),
      droppedBytes: this.droppedBytes,
      droppedNewlines: this.droppedNewlines,
    };
  }
}
