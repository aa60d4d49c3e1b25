import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withoutProviderCredentials } from './provider-credentials.js';
import {
  spawnLocal,
  type CapturedOutput,
  type CapturedStream,
  type SpawnFailure,
  type SpawnListener,
  type SpawnRequest,
} from './captured-spawn.js';

/**
 * Where hook and Bash processes are forked. Node 20's libuv forks (no posix_spawn), and a fork's
 * cost grows with the parent's memory: from the agent process (SDKs, schemas, the Bash grammar;
 * 100–170 MB) `spawn` took 11–20 ms of the main thread per process on this machine, from a bare
 * Node process 5–9 ms. So the agent starts one small spawner process (spawner-child.ts) at its
 * first command (most runs start none, and a fork at start-up would cost every run) and hands it
 * every later command over a pipe; the fork then costs what it costs from a small process, and it
 * happens on the spawner's thread, not the agent's. The first command itself is spawned here,
 * while the spawner boots.
 *
 * Everything else stays where it was: the caller signals the process group by its pid (a real
 * pid), keeps its own timers, and reads exit status and output from the same listener calls as
 * with in-process spawning. Until the spawner is ready (and when it cannot run: the built
 * spawner-child.js is missing, as under a TypeScript test runner, `HOOKLOOP_SPAWNER=0`, or it died
 * three times), processes are spawned in this process, unchanged.
 */

const CHILD = fileURLToPath(new URL('./spawner-child.js', import.meta.url));
const MAX_DEATHS = 3;
const LOST: SpawnFailure = { message: "hookloop's spawner process exited before the command started" };
const EMPTY: CapturedStream = { bytes: Buffer.alloc(0), droppedBytes: 0, droppedNewlines: 0 };

interface Pending {
  readonly listener: SpawnListener;
  /** A background command (output to a file) must not keep the agent alive; the others do, as a child process would. */
  readonly holdsLoop: boolean;
  pid?: number;
  exited: boolean;
}

class Spawner {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffered = '';
  ready = false;
  dead = false;
  /** Called once, when the spawner is ready or dead, whichever comes first. */
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly onDeath: () => void) {
    // Every process it starts gets its environment in the request; its own stays without the
    // provider keys, since a Bash command can read its parent's (`/proc/$PPID/environ`).
    const env = withoutProviderCredentials(process.env);
    // The agent's NODE_OPTIONS (a loader, a profiler) are not the spawner's business.
    delete env['NODE_OPTIONS'];
    this.child = spawn(process.execPath, ['--max-semi-space-size=1', CHILD], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env,
      windowsHide: true,
    });
    this.child.unref();
    this.child.stdin?.on('error', () => this.die());
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => this.receive(chunk));
    this.child.once('error', () => this.die());
    this.child.once('exit', () => this.die());
    this.idle();
  }

  run(request: SpawnRequest, listener: SpawnListener): void {
    const id = this.nextId++;
    const holdsLoop = request.outputFile === undefined;
    this.pending.set(id, { listener, holdsLoop, exited: false });
    // Only while a command is out does the pipe keep the agent's event loop alive.
    if (holdsLoop) (this.child.stdout as unknown as { ref?: () => void }).ref?.();
    this.child.stdin?.write(`${JSON.stringify({ id, request })}\n`);
  }

  /** Calls `then` once the spawner is ready or dead (at once if it is already either). */
  whenSettled(then: () => void): void {
    if (this.ready || this.dead) then();
    else this.waiting.push(then);
  }

  private settle(): void {
    for (const then of this.waiting.splice(0)) then();
  }

  /** EOF to the spawner, then waits (at most `graceMs`) until it exited and was reaped. */
  stop(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.dead || this.child.exitCode !== null) return resolve();
      const timer = setTimeout(resolve, graceMs);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.stdin?.end();
    });
  }

  private idle(): void {
    if (![...this.pending.values()].some((entry) => entry.holdsLoop))
      (this.child.stdout as unknown as { unref?: () => void }).unref?.();
    (this.child.stdin as unknown as { unref?: () => void }).unref?.();
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let end = this.buffered.indexOf('\n'); end !== -1; end = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      this.dispatch(JSON.parse(line) as Message);
    }
  }

  private dispatch(message: Message): void {
    if ('ready' in message) {
      this.ready = true;
      this.settle();
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if ('spawned' in message) {
      entry.pid = message.spawned;
      entry.listener.spawned(message.spawned);
    } else if ('failed' in message) {
      this.pending.delete(message.id);
      entry.listener.failed(message.failed);
    } else if ('exited' in message) {
      entry.exited = true;
      entry.listener.exited(message.exited[0], message.exited[1]);
    } else {
      this.pending.delete(message.id);
      const { stdout, stderr, closed } = message.finished;
      entry.listener.finished({ stdout: decode(stdout), stderr: decode(stderr), closed });
    }
    this.idle();
  }

  /**
   * The spawner is gone: nobody reads the output of the foreground commands it started, so those
   * groups go too, and every caller hears of it; background commands are left running.
   */
  private die(): void {
    if (this.dead) return;
    this.dead = true;
    this.child.stdout?.destroy();
    this.child.stdin?.destroy();
    const lost = [...this.pending.values()];
    this.pending.clear();
    this.onDeath();
    this.settle();
    for (const entry of lost) {
      if (entry.pid === undefined) {
        entry.listener.failed(LOST);
        continue;
      }
      // A background command (output to its file) lives on, as it does after the agent exits.
      if (!entry.holdsLoop) continue;
      if (!entry.exited) {
        try {
          process.kill(-entry.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        entry.listener.exited(null, 'SIGKILL');
      }
      entry.listener.finished({ stdout: EMPTY, stderr: EMPTY, closed: true } satisfies CapturedOutput);
    }
  }
}

type WireStream = { bytes: string; droppedBytes: number; droppedNewlines: number };
type Message =
  | { ready: true }
  | { id: number; spawned: number }
  | { id: number; failed: SpawnFailure }
  | { id: number; exited: [number | null, NodeJS.Signals | null] }
  | { id: number; finished: { stdout: WireStream; stderr: WireStream; closed: boolean } };

function decode(stream: WireStream): CapturedStream {
  return {
    bytes: Buffer.from(stream.bytes, 'base64'),
    droppedBytes: stream.droppedBytes,
    droppedNewlines: stream.droppedNewlines,
  };
}

let current: Spawner | undefined;
let deaths = 0;
let available: boolean | undefined;

function spawnerAvailable(): boolean {
  available ??= process.env['HOOKLOOP_SPAWNER'] !== '0' && fs.existsSync(CHILD);
  return available && deaths < MAX_DEATHS;
}

/**
 * Starts the spawner process now, if it can run and is not running, so that it is ready by the
 * next command. Never throws.
 */
export function prestartSpawner(): void {
  if (current !== undefined || !spawnerAvailable()) return;
  try {
    const started: Spawner = new Spawner(() => {
      deaths++;
      if (current === started) current = undefined;
    });
    current = started;
  } catch {
    deaths++;
  }
}

/**
 * Starts `request` (see `SpawnRequest`) and reports to `listener` (see `SpawnListener`): through
 * the spawner process when it is ready, else in this process (and the spawner is started for the
 * next command). With `awayFromAgent` (Bash commands), a spawner that is still starting is waited
 * for, so the command's parent is the spawner, whose environment holds no provider credentials,
 * and not this process; only when no spawner can run is it started here. Never throws.
 */
export function spawnCaptured(
  request: SpawnRequest,
  listener: SpawnListener,
  options: { readonly awayFromAgent?: boolean } = {},
): void {
  if (current?.ready === true && !current.dead) {
    current.run(request, listener);
    return;
  }
  prestartSpawner();
  const starting = current;
  if (options.awayFromAgent === true && starting !== undefined && !starting.dead) {
    starting.whenSettled(() =>
      starting.ready && !starting.dead ? starting.run(request, listener) : spawnLocal(request, listener),
    );
    return;
  }
  spawnLocal(request, listener);
}

/**
 * Ends the spawner process (EOF on its pipe) and waits until it exited, at most `graceMs`. The CLI
 * does not: its own exit closes the pipe, and the spawner then ends by itself. For embedders that
 * want it reaped before they go on. Never rejects.
 */
export async function stopSpawner(graceMs = 500): Promise<void> {
  const running = current;
  current = undefined;
  await running?.stop(graceMs);
}
