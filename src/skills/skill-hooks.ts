import { isHookEventName } from '../hooks/event-names.js';
import type { RegisteredHandler } from '../hooks/handler.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import { readSettingsLeniently } from '../hooks/settings/lenient-settings.js';
import {
  registerSettingsHandlers,
  type ExternalHandlerEntry,
} from '../hooks/transports/settings-handlers.js';

/**
 * Hooks declared in a skill's or a command file's front matter (`hooks:`, in the settings
 * format). Claude Code 2.1.328 (measured) turns them on when the skill is loaded — by the Skill
 * tool or as a `/name` command — and keeps them for the rest of the session; before that they
 * do nothing. A handler with `once: true` runs for the first matching event only, then is removed.
 */

/**
 * The handlers of a front-matter `hooks` value, read as a settings file is read by a run: an
 * unreadable event, group or handler is left out with one warning line naming `file` and the field.
 */
export function frontMatterHooks(
  hooks: unknown,
  file: string,
): { entries: ExternalHandlerEntry[]; warnings: string[] } {
  if (hooks === undefined) return { entries: [], warnings: [] };
  let read;
  try {
    read = readSettingsLeniently({ hooks }, file);
  } catch (error) {
    return { entries: [], warnings: [(error as Error).message] };
  }
  const entries: ExternalHandlerEntry[] = [];
  for (const [event, groups] of Object.entries(read.settings?.hooks ?? {})) {
    if (!isHookEventName(event)) continue;
    groups.forEach((group, groupIndex) =>
      group.hooks.forEach((config, kept) => {
        const handlerIndex = read.handlerIndexes[event]?.[groupIndex]?.[kept] ?? kept;
        entries.push({ event, matcher: group.matcher, config, source: { file }, groupIndex, handlerIndex });
      }),
    );
  }
  return { entries, warnings: [...read.warnings] };
}

// The skills whose hooks each session's engine already has: loading a skill again adds nothing.
const activated = new WeakMap<HookEngine, Set<string>>();

/**
 * Turns on `skill`'s front-matter hooks on `engine` (the session's) unless they already are.
 * Returns the registration's warnings.
 */
export function activateSkillHooks(
  engine: HookEngine,
  skill: { readonly file: string; readonly hooks: readonly ExternalHandlerEntry[] },
  projectDir: string,
  configDir: string,
): string[] {
  if (skill.hooks.length === 0) return [];
  const done = activated.get(engine) ?? new Set<string>();
  activated.set(engine, done);
  if (done.has(skill.file)) return [];
  done.add(skill.file);
  return activateHooks(engine, skill.hooks, projectDir, configDir);
}

/**
 * Registers `entries` on `engine` for the rest of the session (see the file comment for `once`).
 * Returns the warnings of the registration (settings that cannot work where they are).
 */
export function activateHooks(
  engine: HookEngine,
  entries: readonly ExternalHandlerEntry[],
  projectDir: string,
  configDir: string,
): string[] {
  const warnings: string[] = [];
  for (const entry of entries) {
    const before = new Set(engine.list());
    const registered = registerSettingsHandlers(engine, [entry], projectDir, { configDir });
    warnings.push(...registered.warnings);
    if (entry.config.once !== true) continue;
    const added = engine.list().filter((handler) => !before.has(handler));
    registered.unregister();
    for (const handler of added) {
      let remove = (): void => undefined;
      const once: RegisteredHandler = {
        ...handler,
        run: (input, signal, services, timed) => {
          remove();
          return handler.run(input, signal, services, timed);
        },
      };
      remove = engine.add(once);
    }
  }
  return warnings;
}
