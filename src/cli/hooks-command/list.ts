import { ConfigError } from '../../errors.js';
import { HOOK_EVENT_NAMES, isHookEventName } from '../../hooks/event-names.js';
import { HookEngine } from '../../hooks/hook-engine.js';
import { compileMatcher } from '../../hooks/matcher.js';
import { closestName } from '../../hooks/settings/closest-name.js';
import type { HookSetup } from '../../hooks/plugins/hook-setup.js';
import {
  describeHandler,
  describeSource,
  locationOf,
  registerEffective,
  showMatcher,
  type EffectiveHandler,
} from './effective-handlers.js';

/**
 * `hookloop hooks list`: every handler a run would have, per event in firing order, after the
 * settings files and plugins are merged, with the file and JSON path each came from, and which
 * ones the engine runs once because an earlier one is identical (Claude Code's dedupe by command).
 */

/** One handler in `--json` output. */
export interface ListedHandler {
  readonly index: number;
  readonly type: string;
  readonly matcher: string | undefined;
  readonly matcherKind: 'all' | 'names' | 'regex';
  readonly if: string | undefined;
  readonly handler: string;
  readonly timeout: number | undefined;
  readonly async: boolean;
  readonly source: { readonly file: string; readonly scope: string; readonly plugin?: string };
  readonly location: string;
  /** Set on a handler identical to an earlier one: the engine runs the pair once when both match. */
  readonly duplicateOf?: number;
  /** Set when this build does not run the handler's type. */
  readonly skipped?: string;
}

/** The whole `--json` answer. */
export interface HookList {
  readonly files: readonly string[];
  readonly plugins: readonly { name: string; root: string; dataDir: string; hookFiles: readonly string[] }[];
  readonly disableAllHooks: boolean;
  /** `--event`: the one event listed; undefined = all. */
  readonly event?: string;
  readonly events: Readonly<Record<string, readonly ListedHandler[]>>;
  readonly warnings: readonly string[];
}

/**
 * Lists `setup` (optionally one `event`).
 * @throws ConfigError for an event name hookloop does not fire.
 */
export function listHooks(setup: HookSetup, projectDir: string, event?: string): HookList {
  if (event !== undefined && !isHookEventName(event)) {
    const close = closestName(event, HOOK_EVENT_NAMES);
    throw new ConfigError(
      `hooks list --event: unknown event ${JSON.stringify(event)}${close === undefined ? '' : ` (did you mean ${close}?)`}; expected one of ${HOOK_EVENT_NAMES.join(', ')}`,
      { field: '--event' },
    );
  }
  const { byEvent: effective, warnings } = registerEffective(new HookEngine(), setup.handlers, projectDir);
  const events: Record<string, ListedHandler[]> = {};
  for (const name of HOOK_EVENT_NAMES) {
    if (event !== undefined && name !== event) continue;
    const handlers = effective.get(name);
    if (handlers !== undefined) events[name] = handlers.map(toListed);
  }
  return {
    files: setup.settings.files,
    plugins: setup.plugins.map((plugin) => ({
      name: plugin.name,
      root: plugin.root,
      dataDir: plugin.dataDir,
      hookFiles: plugin.hookFiles,
    })),
    disableAllHooks: setup.settings.disableAllHooks,
    ...(event !== undefined ? { event } : {}),
    events,
    warnings: [...setup.warnings, ...warnings],
  };
}

function toListed(effective: EffectiveHandler): ListedHandler {
  const { entry } = effective;
  const config = entry.config;
  return {
    index: effective.index,
    type: config.type,
    matcher: entry.matcher,
    matcherKind: compileMatcher(entry.matcher).kind,
    if: config.if,
    handler: describeHandler(config),
    timeout: config.timeout,
    async: config.type === 'command' && config.async === true,
    source: {
      file: entry.source.file,
      scope: entry.source.scope,
      ...(entry.source.plugin !== undefined ? { plugin: entry.source.plugin } : {}),
    },
    location: locationOf(entry),
    ...(effective.duplicateOf !== undefined ? { duplicateOf: effective.duplicateOf } : {}),
    ...(effective.skipped !== undefined ? { skipped: effective.skipped } : {}),
  };
}

/** The text form: one block per event, two lines per handler (what runs; where it is configured). */
export function formatHookList(list: HookList, setup: HookSetup, cwd: string): string {
  const lines: string[] = [];
  lines.push(`Settings read: ${list.files.length === 0 ? '(none)' : list.files.join(', ')}`);
  for (const plugin of list.plugins)
    lines.push(`Plugin ${plugin.name}: ${plugin.root} (CLAUDE_PLUGIN_DATA=${plugin.dataDir})`);
  if (list.disableAllHooks) lines.push('disableAllHooks is set: no hook runs.');
  for (const [event, handlers] of Object.entries(list.events)) {
    lines.push('', `${event} (${handlers.length} handler${handlers.length === 1 ? '' : 's'})`);
    for (const handler of handlers) {
      const notes = [
        handler.if !== undefined ? `if ${handler.if}` : undefined,
        handler.timeout !== undefined ? `timeout ${handler.timeout} s` : undefined,
        handler.async ? 'async' : undefined,
        handler.duplicateOf !== undefined
          ? `same as #${handler.duplicateOf}: runs once when both match`
          : undefined,
        handler.skipped !== undefined ? `not run: ${handler.skipped}` : undefined,
      ].filter((note) => note !== undefined);
      lines.push(
        `  #${handler.index} ${showMatcher(handler.matcher)}  ${handler.handler}${notes.length > 0 ? `  [${notes.join('; ')}]` : ''}`,
      );
      const entry = setup.handlers.find(
        (candidate) =>
          candidate.event === event &&
          locationOf(candidate) === handler.location &&
          candidate.source.file === handler.source.file,
      );
      lines.push(
        `      from ${entry === undefined ? handler.source.file : describeSource(entry, cwd)} ${handler.location}`,
      );
    }
  }
  if (Object.keys(list.events).length === 0 && !list.disableAllHooks)
    lines.push('', list.event === undefined ? 'No hooks configured.' : `No hooks for ${list.event}.`);
  for (const warning of list.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}
