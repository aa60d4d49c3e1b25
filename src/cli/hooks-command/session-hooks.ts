import type { HookEngine, Unregister } from '../../hooks/hook-engine.js';
import {
  loadHookSetup,
  watchedSettingsFiles,
  type HookSetup,
  type HookSetupOptions,
  type SetupHandler,
} from '../../hooks/plugins/hook-setup.js';
import { startHotReload, type HotReload } from '../../hooks/settings/hot-reload.js';

/**
 * What `hookloop -p` attaches to its engine besides the loop: the configured handlers (settings
 * and plugins), hot reload of the settings files, and the `hooks record` recorder.
 */

/** Services a caller of the run command may add (`hooks record` passes `record`). */
export interface SessionServices {
  /** Receives every payload the session dispatches, as the JSON line a command hook reads on stdin. */
  readonly record?: (line: string) => void;
}

/**
 * - `setup`: the configuration already loaded (the run needs its permissions too), read again on changes with `setupOptions`.
 * - `register`: how handlers join the engine (the CLI's `registerSettingsHandlers` call).
 * - `watch`: hot reload on (default true).
 * - `warn`: a warning line for the user; `notify`: any other line (both go to stderr).
 */
export interface SessionHooksOptions extends SessionServices {
  readonly engine: HookEngine;
  readonly setup: HookSetup;
  readonly setupOptions: HookSetupOptions;
  readonly register: (handlers: readonly SetupHandler[]) => {
    readonly unregister: Unregister;
    readonly warnings: readonly string[];
  };
  readonly warn: (text: string) => void;
  readonly notify: (line: string) => void;
  readonly watch?: boolean;
  readonly verbose?: boolean;
}

/** Attached services; `close` detaches them (after the session's last event) and waits for a reload in progress. */
export interface SessionHooks {
  close(): Promise<void>;
}

/**
 * Registers the setup's handlers, then starts hot reload and the recorder as asked. Warnings of
 * the setup and of the registration are shown once, now.
 */
export function startSessionHooks(options: SessionHooksOptions): SessionHooks {
  options.setup.warnings.forEach(options.warn);
  const current = options.register(options.setup.handlers);
  current.warnings.forEach(options.warn);
  const untap =
    options.record === undefined
      ? undefined
      : options.engine.onFire((_event, payload) => options.record?.(JSON.stringify(payload)));
  let reload: HotReload | undefined;
  if (options.watch !== false) {
    reload = startHotReload({
      engine: options.engine,
      files: watchedSettingsFiles(options.setupOptions),
      load: () => loadHookSetup(options.setupOptions),
      register: options.register,
      current: { unregister: current.unregister, warnings: [...options.setup.warnings, ...current.warnings] },
      notify: options.notify,
      ...(options.verbose !== undefined ? { verbose: options.verbose } : {}),
    });
  }
  return {
    close: async () => {
      await reload?.close();
      untap?.();
    },
  };
}
