/**
 * Hook event names. The events hookloop fires come from the event table (event-table.ts); this
 * file adds the names Claude Code knows that hookloop does not fire.
 */
import { HOOK_EVENT_NAMES, type HookEventName } from './event-table.js';

export { EXTENSION_EVENTS, HOOK_EVENT_NAMES, TOOL_EVENTS, type HookEventName } from './event-table.js';

/**
 * Events Claude Code 2.1.328 knows but hookloop does not fire (yet). Settings that configure them
 * load with a warning instead of an error, so an existing Claude Code setup still runs.
 */
export const REFERENCE_ONLY_EVENTS = [
  'Setup',
  'UserPromptExpansion',
  'InstructionsLoaded',
  'PreModelSwitch',
  'PostModelSwitch',
  'MessageDisplay',
  'CwdChanged',
  'FileChanged',
  'TaskCreated',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
  'DirectoryAdded',
  'TeammateIdle',
] as const;

const FIRED: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);

/** True when `name` is an event hookloop fires. */
export function isHookEventName(name: string): name is HookEventName {
  return FIRED.has(name);
}
