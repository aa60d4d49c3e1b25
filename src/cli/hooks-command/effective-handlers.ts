import path from 'node:path';
import type { HookEngine } from '../../hooks/hook-engine.js';
import type { RegisteredHandler } from '../../hooks/handler.js';
import type { SetupHandler } from '../../hooks/plugins/hook-setup.js';
import { handlerIdentity } from '../../hooks/settings/load-settings.js';
import type { HandlerConfig } from '../../hooks/settings/settings-schema.js';
import { registerSettingsHandlers } from '../../hooks/transports/settings-handlers.js';

/**
 * Shared by `hooks list` and `hooks test`: which configured handlers the engine really runs, which
 * are duplicates of an earlier one, and how to name each in a message.
 */

/** One configured handler as the tooling reports it. `index` counts from 1 within its event, in settings order. */
export interface EffectiveHandler {
  readonly entry: SetupHandler;
  readonly index: number;
  /** What the engine registered for it; undefined when this build cannot run its type (see `skipped`). */
  readonly registered: RegisteredHandler | undefined;
  /** Why it is not registered (the registration's warning). */
  readonly skipped: string | undefined;
  /** `index` of the earlier handler of the same event with the same identity: the two run once when both match. */
  readonly duplicateOf: number | undefined;
}

/**
 * Registers `handlers` on `engine` with the CLI's own registration (`registerSettingsHandlers`) and
 * traces each registered handler back to its settings entry. Returns them grouped by event, in
 * settings order, and the registration's warnings other than the reasons handlers were skipped.
 */
export function registerEffective(
  engine: HookEngine,
  handlers: readonly SetupHandler[],
  projectDir: string,
): { byEvent: Map<string, EffectiveHandler[]>; warnings: string[] } {
  const byEvent = new Map<string, EffectiveHandler[]>();
  const warnings = new Set<string>();
  // All at once first, as a run does (SessionStart hooks are numbered across the list); when some
  // handler was skipped the order no longer tells which is which, so then one at a time.
  const before = engine.list().length;
  const together = registerSettingsHandlers(engine, handlers, projectDir);
  const added = engine.list().slice(before);
  const oneByOne = added.length !== handlers.length;
  if (oneByOne) together.unregister();
  else together.warnings.forEach((warning) => warnings.add(warning));
  for (const [position, entry] of handlers.entries()) {
    let registered = oneByOne ? undefined : added[position];
    let skipped: string | undefined;
    if (oneByOne) {
      const count = engine.list().length;
      const own = registerSettingsHandlers(engine, [entry], projectDir).warnings;
      registered = engine.list().slice(count)[0];
      // A skipped handler's first warning says why; it is shown with the handler, not again.
      if (registered === undefined) skipped = own[0] ?? 'not registered';
      own.filter((warning) => warning !== skipped).forEach((warning) => warnings.add(warning));
    }
    const list = byEvent.get(entry.event) ?? [];
    const identity = handlerIdentity(entry.config);
    const twin = list.find((other) => handlerIdentity(other.entry.config) === identity);
    list.push({
      entry,
      index: list.length + 1,
      registered,
      skipped,
      duplicateOf: twin === undefined ? undefined : (twin.duplicateOf ?? twin.index),
    });
    byEvent.set(entry.event, list);
  }
  return { byEvent, warnings: [...warnings] };
}

/** `hooks.PreToolUse[0].hooks[1]`: the handler's place in its file. */
export function locationOf(entry: SetupHandler): string {
  return `hooks.${entry.event}[${entry.groupIndex}].hooks[${entry.handlerIndex}]`;
}

/** The handler in one line: `command: "$CLAUDE_PROJECT_DIR"/guard.sh`, `http: https://…`, `prompt: "…"`. */
export function describeHandler(config: HandlerConfig): string {
  switch (config.type) {
    case 'command':
      return config.args === undefined
        ? `command: ${config.command}`
        : `command: ${JSON.stringify([config.command, ...config.args])}`;
    case 'http':
      return `http: ${config.url}`;
    case 'prompt':
    case 'agent':
      return `${config.type}: ${JSON.stringify(config.prompt.length > 80 ? `${config.prompt.slice(0, 77)}...` : config.prompt)}`;
    case 'mcp_tool':
      return `mcp_tool: ${config.server} ${config.tool}`;
  }
}

/** Where a handler came from, for text output: `.claude/settings.json (project)` or `plugin my-guard: <file>`. */
export function describeSource(entry: SetupHandler, cwd: string): string {
  const relative = path.relative(cwd, entry.source.file);
  const shown =
    entry.source.file === '--settings' || relative.startsWith('..') || path.isAbsolute(relative)
      ? entry.source.file
      : relative;
  return entry.source.scope === 'plugin'
    ? `plugin ${entry.source.plugin ?? '?'}: ${shown}`
    : `${shown} (${entry.source.scope})`;
}

/** How a matcher prints: `*` for "every value". */
export function showMatcher(matcher: string | undefined): string {
  return matcher === undefined || matcher === '' || matcher === '*' ? '*' : JSON.stringify(matcher);
}
