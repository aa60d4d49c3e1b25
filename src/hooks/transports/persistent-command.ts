import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { CommandHandlerConfig } from '../settings/settings-schema.js';
import { hookEnvironment, type CommandSpec } from './command-process.js';
import { interpretCommandResult } from './command.js';
import { PersistentProcess } from './persistent-process.js';

/**
 * Persistent command hooks (a hookloop extension: `"persistent": true` on a command hook): the
 * hook's process starts at its first event and stays for the session, reading one event JSON a
 * line and answering one line each (the protocol: persistent-process.ts; `hookloop/hook`'s
 * `defineHook` speaks it). Everything else is a command hook's: the same matcher, `if`, timeout,
 * `onFailure`, dedupe, and the same reading of the answer (exit 2 blocks with stderr, JSON on
 * stdout decides…). One process per command per session serves every event it is configured on,
 * one event at a time, in order.
 *
 * Its environment is a command hook's (`hookEnvironment`) as of its first event, plus
 * `HOOKLOOP_PERSISTENT_HOOK=1`; its cwd is that event's `cwd` (later events carry their own).
 * Per-event variables (`CLAUDE_ENV_FILE`, `CLAUDE_EFFORT`) are not given. A process that crashed,
 * timed out, was aborted or answered garbage is replaced at the next event; an event for another
 * session id gets a new process. `close` (the session is over) ends them all.
 */

/** The variable a persistent hook process finds set to `1` (how `defineHook` knows its mode). */
export const PERSISTENT_HOOK_ENV = 'HOOKLOOP_PERSISTENT_HOOK';

/** How long a closing hook process gets to exit on its own after EOF, before SIGTERM. */
const CLOSE_GRACE_MS = 500;

const pools = new Set<PersistentHookPool>();

/**
 * Closes every persistent hook process of this process (the CLI calls it once the session ended,
 * after SessionEnd). Resolves when they are gone.
 */
export async function closePersistentHooks(): Promise<void> {
  await Promise.all([...pools].map((pool) => pool.close()));
}

/**
 * One persistent hook as registered: its event, origin and settings, the key its process is
 * shared under (`handlerIdentity`: the same command on several events is one process), its
 * timeout in ms, and extra environment (a plugin's `CLAUDE_PLUGIN_ROOT`…).
 */
export interface PersistentHook {
  readonly event: HookEventName;
  readonly origin: HandlerOrigin;
  readonly config: CommandHandlerConfig & CommandSpec;
  readonly identity: string;
  readonly timeoutMs: number;
  readonly env?: Readonly<Record<string, string>>;
}

/** The persistent hook processes of one registration (one session's settings). */
export class PersistentHookPool {
  private readonly processes = new Map<string, PersistentProcess>();
  /** Every process started and not yet reaped, replaced ones included: close waits for all of them. */
  private readonly started = new Set<PersistentProcess>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private closed = false;

  /** `projectDir`: `CLAUDE_PROJECT_DIR` of the processes. */
  constructor(private readonly projectDir: string) {
    pools.add(this);
  }

  /**
   * Runs one event through the command's process (started if needed), after the events already
   * queued for it. Never rejects: failures are outcomes, read as a one-shot run's.
   */
  invoke(
    hook: PersistentHook,
    input: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<HandlerOutcome> {
    const { identity } = hook;
    const previous = this.queues.get(identity) ?? Promise.resolve();
    const next = previous.then(() => this.invokeNow(hook, input, signal));
    const settled = next.catch(() => undefined);
    this.queues.set(identity, settled);
    void settled.then(() => {
      if (this.queues.get(identity) === settled) this.queues.delete(identity);
    });
    return next;
  }

  private async invokeNow(
    { event, origin, config, identity, timeoutMs, env: extraEnv }: PersistentHook,
    input: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<HandlerOutcome> {
    const failClosed = config.onFailure === 'block';
    if (this.closed)
      return {
        origin,
        durationMs: 0,
        status: 'failed',
        output: {},
        error: 'the session is over: persistent hooks are closed',
        failClosed,
      };
    if (signal.aborted)
      return { origin, durationMs: 0, status: 'failed', output: {}, error: 'aborted', failClosed: false };
    const payload = input as { cwd: string; session_id: string };
    const key = `${payload.session_id}\n${identity}`;
    let running = this.processes.get(identity);
    if (running !== undefined && (running.done || running.key !== key)) {
      void running.close(CLOSE_GRACE_MS);
      running = undefined;
    }
    if (running === undefined) {
      const env = {
        ...hookEnvironment(extraEnv === undefined ? process.env : { ...process.env, ...extraEnv }, {
          projectDir: this.projectDir,
          sessionId: payload.session_id,
          cwd: payload.cwd,
        }),
        [PERSISTENT_HOOK_ENV]: '1',
      };
      const created = new PersistentProcess(config, payload.cwd, env, key);
      this.started.add(created);
      void created.exitedPromise.then(() => this.started.delete(created));
      this.processes.set(identity, created);
      running = created;
    }
    const answer = await running.invoke(JSON.stringify(input), timeoutMs, signal);
    if ('protocolError' in answer) {
      return {
        origin,
        durationMs: answer.durationMs,
        status: 'failed',
        output: {},
        error: `persistent hook ${answer.protocolError}`,
        failClosed,
      };
    }
    return interpretCommandResult(event, origin, answer.result, config.onFailure);
  }

  /** Ends every process of this pool (EOF, then SIGTERM, then SIGKILL to its group) and takes no more events. */
  async close(): Promise<void> {
    this.closed = true;
    pools.delete(this);
    this.processes.clear();
    await Promise.all([...this.started].map((hook) => hook.close(CLOSE_GRACE_MS)));
  }
}
