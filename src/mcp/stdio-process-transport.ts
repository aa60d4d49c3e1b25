import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What a stdio server is started with: the command, its arguments, the whole environment, its directory. */
export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 2000;

/**
 * An MCP stdio transport whose server runs in its own process group, so that closing it ends the
 * server and everything it started (`npx` → node → a browser …): SIGTERM to the group, SIGKILL
 * after a grace period. The SDK's own StdioClientTransport signals only the direct child, which
 * leaves grandchildren orphaned. stderr is kept (its last 4 KiB) for error messages, never printed.
 *
 * Contract: `onclose` fires once, when the process exits or `close()` is called.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private closed = false;

  constructor(private readonly launch: StdioLaunch) {}

  /** The last lines the server wrote to stderr (for "failed to start" messages). */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  /** The server's pid (also its process group id) once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.launch.command, [...this.launch.args], {
        cwd: this.launch.cwd,
        env: { ...this.launch.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
      child.on('spawn', () => resolve());
      child.on('exit', () => {
        // The server died or quit: whatever it started goes with it (no orphans).
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        this.finish();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a server logging to stdout): reported, the stream goes on.
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) return reject(new Error('the server process is not running'));
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the server's whole process group: SIGTERM, then SIGKILL after 2 s if it is still there. */
  async close(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      signalGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
      await exited;
      clearTimeout(timer);
      // The leader is gone; anything it started that ignored SIGTERM goes now.
      signalGroup(child.pid, 'SIGKILL');
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
