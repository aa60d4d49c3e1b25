/**
 * Hook event names hookloop fires, spelled as in Claude Code's hook protocol.
 * An event hookloop cannot fire is not listed here (see `REFERENCE_ONLY_EVENTS`).
 */
export const HOOK_EVENT_NAMES = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'Notification',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'StopFailure',
  'SessionEnd',
  'ConfigChange',
  'PreCompact',
  'PostCompact',
  'Elicitation',
  'ElicitationResult',
  'PermissionDecision',
] as const;

/** One of the events hookloop fires. */
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/**
 * Events Claude Code 2.1.328 knows but hookloop does not fire (yet). Settings that configure them
 * load with a warning instead of an error, so an existing Claude Code setup still runs.
 */
export const REFERENCE_ONLY_EVENTS = [
  'Setup',
  'InstructionsLoaded',
  'UserPromptExpansion',
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

/**
 * Events hookloop adds to Claude Code's set (named in its style, documented as extensions in
 * docs/hooks.md): `PermissionDecision` reports who settled a tool call and why (observer-only).
 */
export const EXTENSION_EVENTS: ReadonlySet<HookEventName> = new Set(['PermissionDecision']);

/** Events whose matcher is tested against the tool name, and which accept `if` conditions. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PermissionDecision']);

/** True when `name` is an event hookloop fires. */
export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENT_NAMES as readonly string[]).includes(name);
}
