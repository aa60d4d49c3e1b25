import fs from 'node:fs';
import { describeError } from '../../errors.js';
import type { BoundaryInfo, HookEngine, PhaseBoundary, PhaseFire, Unregister } from '../hook-engine.js';
import type { HookSetup, SetupHandler, WatchedSettingsFile } from '../plugins/hook-setup.js';

/**
 * Hot reload of hooks during a session: a settings file changes →
 * the whole hook configuration is read again and validated → ConfigChange fires (with the hooks in
 * force before the change) → unless a hook blocked it, the engine's settings and plugin handlers are
 * replaced by the new ones in one synchronous step, so every event sees either the old set or the
 * new one, never a mix.
 *
 * One order: changes are looked for only at the run's phase boundaries
 * (`HookEngine.boundary`: before a prompt, before a tool runs, before Stop), by comparing each
 * file's content with the last one seen — never by a file watcher racing the loop. A change made by
 * a hook (say PostToolUse) is applied before the next tool runs, whatever the machine's load.
 *
 * ConfigChange is fired through the run's own hook phase (`BoundaryInfo.fire`), so its payload has
 * the session's fields and it reaches observers, the timeline, transcript flushes and
 * `TRACEPARENT` like every other event.
 *
 * Changes made while a tool process ran are held, because the model must not be able to change
 * the configuration that guards it: the contents are compared right before and right after each tool call, and a change in
 * between — by the tool itself, or a process it started — is not applied: the run keeps its hooks and
 * says so once (`hookloop: warning: <file> changed while Bash (toolu_01) ran; not applied: …`). A
 * person applies it by starting a new session. (Interactive sessions hold it too; asking there is
 * left for later.)
 */

/**
 * - `engine`: the session's engine, whose phase boundaries are watched.
 * - `files`: the settings files to watch, with their ConfigChange `source`.
 * - `load`: reads settings and plugins again. @throws ConfigError for an invalid file.
 * - `register`: adds handlers to the engine, returning how to remove them (and warnings to show).
 * - `current`: removes the handlers registered at the start.
 * - `notify`: one line for the user (stderr).
 * - `verbose`: also report each successful reload.
 */
export interface HotReloadOptions {
  readonly engine: HookEngine;
  readonly files: readonly WatchedSettingsFile[];
  readonly load: () => HookSetup;
  readonly register: (handlers: readonly SetupHandler[]) => {
    readonly unregister: Unregister;
    readonly warnings: readonly string[];
  };
  readonly current: { readonly unregister: Unregister; readonly warnings: readonly string[] };
  readonly notify: (line: string) => void;
  readonly verbose?: boolean;
}

/** A running hot reload. `close` detaches it from the boundaries and waits for a reload in progress. */
export interface HotReload {
  close(): Promise<void>;
}

/**
 * Starts looking for changes at the boundaries (see the file comment). Changes are handled one at a
 * time, in the order of `files`. Contract:
 * - an invalid file keeps the previous hooks and says why: `hookloop: <file> changed but cannot be
 *   used; keeping the previous hooks: <error>`; no ConfigChange fires for it;
 * - ConfigChange hooks that block (`decision: "block"` or exit 2) keep the previous hooks, except
 *   for `policy_settings`, which Claude Code never lets a hook block;
 * - a boundary reached without `fire` (driven by hand, not by a loop) applies the change without
 *   ConfigChange.
 */
export function startHotReload(options: HotReloadOptions): HotReload {
  let installed = options.current;
  let shownWarnings = new Set(installed.warnings);
  const stopped = new AbortController();
  let queue = Promise.resolve();

  const reload = async (changed: WatchedSettingsFile, fire: PhaseFire | undefined): Promise<void> => {
    let setup: HookSetup;
    try {
      setup = options.load();
    } catch (error) {
      options.notify(
        `hookloop: ${changed.file} changed but cannot be used; keeping the previous hooks: ${describeError(error)}`,
      );
      return;
    }
    if (stopped.signal.aborted) return;
    if (fire !== undefined && !(await allowedByHooks(changed, fire))) return;
    if (stopped.signal.aborted) return;
    // Add the new handlers, then remove the old ones, with no await in between: a dispatch starting
    // at any moment sees one complete set (the engine copies its lists on write).
    const next = options.register(setup.handlers);
    installed.unregister();
    installed = next;
    const warnings = [...setup.warnings, ...next.warnings];
    warnings
      .filter((line) => !shownWarnings.has(line))
      .forEach((line) => options.notify(`hookloop: warning: ${line}`));
    shownWarnings = new Set(warnings);
    if (options.verbose)
      options.notify(
        `[Config] ${changed.file} changed: hooks reloaded (${setup.handlers.length} handler(s))`,
      );
  };

  /**
   * ConfigChange with the hooks in force before the change: false when a hook blocked it (never
   * for `policy_settings`, which Claude Code never lets a hook block).
   */
  const allowedByHooks = async (changed: WatchedSettingsFile, fire: PhaseFire): Promise<boolean> => {
    const merged = await fire('ConfigChange', { source: changed.source, file_path: changed.file });
    for (const outcome of merged.outcomes) {
      if (outcome.status === 'failed' || outcome.status === 'timeout')
        options.notify(
          `hookloop: ConfigChange hook [${outcome.origin.text}] ${outcome.status}: ${outcome.error ?? ''}`,
        );
    }
    const block = merged.blocks[0];
    if (block === undefined || changed.source === 'policy_settings') return true;
    options.notify(
      `hookloop: a ConfigChange hook blocked the change of ${changed.file}; keeping the previous hooks: ${block.reason}`,
    );
    return false;
  };

  // The content each file had when last looked at (applied, refused or held): the next boundary
  // compares with it.
  const known = new Map(options.files.map((entry) => [entry.file, readText(entry.file)]));
  const changedFiles = (): WatchedSettingsFile[] =>
    options.files.filter((entry) => {
      const text = readText(entry.file);
      if (text === known.get(entry.file)) return false;
      known.set(entry.file, text);
      return true;
    });

  const atBoundary = async (phase: PhaseBoundary, info: BoundaryInfo): Promise<void> => {
    if (stopped.signal.aborted) return;
    const changed = changedFiles();
    if (changed.length === 0) return;
    if (phase === 'after-tool') {
      const tool =
        info.toolName === undefined
          ? 'a tool'
          : `${info.toolName}${info.toolUseId ? ` (${info.toolUseId})` : ''}`;
      for (const entry of changed) {
        options.notify(
          `hookloop: warning: ${entry.file} changed while ${tool} ran; not applied: a settings change made by a tool needs a person's approval (start a new session to use it)`,
        );
      }
      return;
    }
    for (const entry of changed) {
      queue = queue
        .then(() => reload(entry, info.fire))
        .catch((error: unknown) =>
          options.notify(
            `hookloop: reloading hooks after a change of ${entry.file} failed: ${describeError(error)}`,
          ),
        );
    }
    await queue;
  };
  const detach = options.engine.onBoundary(atBoundary);

  return {
    close: async () => {
      detach();
      stopped.abort();
      await queue;
    },
  };
}

/** The file's text; undefined when it cannot be read (missing, a directory, no permission). */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
