import { describeError } from '../../errors.js';
import type { Unregister } from '../../hooks/hook-engine.js';
import { buildPayload, type PayloadSession } from '../../hooks/payload.js';
import type { HookSetup, SetupHandler, WatchedSettingsFile } from '../../hooks/plugins/hook-setup.js';
import fs from 'node:fs';
import type { BoundaryInfo, PhaseBoundary } from '../../hooks/hook-engine.js';
import type { SessionHookEngine } from './session-engine.js';

/**
 * Hot reload of hooks during a session (a CLI service beside the loop): a settings file changes →
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
 * Changes made while a tool process ran are held (the model may not write the configuration it
 * runs under): the contents are compared right before and right after each tool call, and a change in
 * between — by the tool itself, or a process it started — is not applied: the run keeps its hooks and
 * says so once (`hookloop: warning: <file> changed while Bash (toolu_01) ran; not applied: …`). A
 * person applies it by starting a new session. (Interactive sessions hold it too; asking there is
 * left for later.)
 */

/**
 * - `engine`: the session's engine; its payloads give ConfigChange its session fields.
 * - `files`: the settings files to watch, with their ConfigChange `source`.
 * - `load`: reads settings and plugins again. @throws ConfigError for an invalid file.
 * - `register`: adds handlers to the engine, returning how to remove them (and warnings to show).
 * - `current`: removes the handlers registered at the start.
 * - `notify`: one line for the user (stderr).
 * - `verbose`: also report each successful reload.
 */
export interface HotReloadOptions {
  readonly engine: SessionHookEngine;
  readonly files: readonly WatchedSettingsFile[];
  readonly load: () => HookSetup;
  readonly register: (handlers: readonly SetupHandler[]) => { readonly unregister: Unregister; readonly warnings: readonly string[] };
  readonly current: { readonly unregister: Unregister; readonly warnings: readonly string[] };
  readonly notify: (line: string) => void;
  readonly verbose?: boolean;
}

/** A running hot reload. `close` detaches it from the boundaries, cancels a ConfigChange hook still running and waits for it. */
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
 * - ConfigChange waits for the session's first event (SessionStart), whose payload supplies
 *   `session_id`, `transcript_path`, `cwd` and `prompt_id`; later events keep them current.
 */
export function startHotReload(options: HotReloadOptions): HotReload {
  let session: PayloadSession | undefined;
  let sessionKnown: () => void = () => undefined;
  const firstEvent = new Promise<void>((resolve) => (sessionKnown = resolve));
  const untap = options.engine.tap((event, payload) => {
    if (event === 'ConfigChange') return;
    const fields = payload as { session_id?: unknown; transcript_path?: unknown; cwd?: unknown; prompt_id?: unknown };
    if (typeof fields.session_id !== 'string' || typeof fields.transcript_path !== 'string' || typeof fields.cwd !== 'string') return;
    session = { sessionId: fields.session_id, transcriptPath: fields.transcript_path, cwd: fields.cwd, ...(typeof fields.prompt_id === 'string' ? { promptId: fields.prompt_id } : {}) };
    sessionKnown();
  });

  let installed = options.current;
  let shownWarnings = new Set(installed.warnings);
  const stopped = new AbortController();
  let queue = Promise.resolve();

  const reload = async (changed: WatchedSettingsFile): Promise<void> => {
    let setup: HookSetup;
    try {
      setup = options.load();
    } catch (error) {
      options.notify(`hookloop: ${changed.file} changed but cannot be used; keeping the previous hooks: ${describeError(error)}`);
      return;
    }
    await Promise.race([firstEvent, aborted(stopped.signal)]);
    if (stopped.signal.aborted || session === undefined) return;
    // The loop's payload builder and the engine's one entry point, as for any event of the run.
    const payload = buildPayload('ConfigChange', session, { source: changed.source, file_path: changed.file });
    const services = options.engine.sessionServices();
    const merged = await options.engine.fire('ConfigChange', payload, { signal: stopped.signal, ...(services !== undefined ? { services } : {}) });
    const outcomes = merged.outcomes;
    merged.systemMessages.forEach((text) => options.notify(`[Hook message] ${text}`));
    for (const outcome of outcomes) {
      if (outcome.status === 'failed' || outcome.status === 'timeout') options.notify(`hookloop: ConfigChange hook [${outcome.origin.text}] ${outcome.status}: ${outcome.error ?? ''}`);
    }
    if (stopped.signal.aborted) return;
    const block = merged.blocks[0];
    if (block !== undefined && changed.source !== 'policy_settings') {
      options.notify(`hookloop: a ConfigChange hook blocked the change of ${changed.file}; keeping the previous hooks: ${block.reason}`);
      return;
    }
    // Add the new handlers, then remove the old ones, with no await in between: a dispatch starting
    // at any moment sees one complete set (the engine copies its lists on write).
    const next = options.register(setup.handlers);
    installed.unregister();
    installed = next;
    const warnings = [...setup.warnings, ...next.warnings];
    warnings.filter((line) => !shownWarnings.has(line)).forEach((line) => options.notify(`hookloop: warning: ${line}`));
    shownWarnings = new Set(warnings);
    if (options.verbose) options.notify(`[Config] ${changed.file} changed: hooks reloaded (${setup.handlers.length} handler(s))`);
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
      const tool = info.toolName === undefined ? 'a tool' : `${info.toolName}${info.toolUseId ? ` (${info.toolUseId})` : ''}`;
      for (const entry of changed) {
        options.notify(`hookloop: warning: ${entry.file} changed while ${tool} ran; not applied: a settings change made by a tool needs a person's approval (start a new session to use it)`);
      }
      return;
    }
    for (const entry of changed) {
      queue = queue.then(() => reload(entry)).catch((error: unknown) => options.notify(`hookloop: reloading hooks after a change of ${entry.file} failed: ${describeError(error)}`));
    }
    await queue;
  };
  const detach = options.engine.onBoundary(atBoundary);

  return {
    close: async () => {
      detach();
      untap();
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

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
