import type { HookEventName } from '../../hooks/event-names.js';
import type { HookInput } from '../../hooks/event-schemas.js';
import { HookEngine, type DispatchOptions, type DispatchResult, type Unregister } from '../../hooks/hook-engine.js';
import type { HookServices } from '../../hooks/hook-services.js';

/** Receives each payload a session dispatches. Must not throw (one that throws is detached). */
export type PayloadListener = (event: HookEventName, payload: Readonly<Record<string, unknown>>) => void;

/**
 * The CLI's hook engine: a HookEngine whose dispatched payloads can be observed, for the services
 * that live beside the loop (the `hooks record` recorder, hot reload's ConfigChange payload). The
 * loop does not know about it; it sees a plain HookEngine.
 *
 * Contract: while a listener is attached, `has()` is true for every event, so the loop builds and
 * dispatches every payload, handlers or not (an event without handlers still runs none). Listeners
 * see the payload before any handler runs, exactly as command hooks receive it on stdin
 * (`JSON.stringify(payload)`), since the CLI registers no in-process callbacks that could rewrite it.
 */
export class SessionHookEngine extends HookEngine {
  private readonly listeners = new Set<PayloadListener>();
  private services: HookServices | undefined;

  /**
   * The services (the session's model, its subagent runner) the loop passed with its latest
   * dispatch, not counting an agent hook's own sub-run: what an event fired from beside the loop
   * (ConfigChange) needs for prompt and agent hooks. Undefined before the first dispatch.
   */
  sessionServices(): HookServices | undefined {
    return this.services;
  }

  /** Attaches `listener` (see the class contract); returns a function that detaches it. */
  tap(listener: PayloadListener): Unregister {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  override has(event: HookEventName): boolean {
    return this.listeners.size > 0 || super.has(event);
  }

  override dispatch<E extends HookEventName>(event: E, input: HookInput<E>, options?: DispatchOptions): Promise<DispatchResult> {
    if (options?.services !== undefined && options.services.nested !== true) this.services = options.services;
    for (const listener of [...this.listeners]) {
      try {
        listener(event, input as Readonly<Record<string, unknown>>);
      } catch {
        // A broken observer must not change the session; it is detached so that it cannot fail twice.
        this.listeners.delete(listener);
      }
    }
    return super.dispatch(event, input, options);
  }
}
