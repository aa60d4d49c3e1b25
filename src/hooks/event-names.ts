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
  // hookloop extensions (no Claude Code counterpart; see EXTENSION_EVENTS):
  'PreModelRequest',
  'PreToolSelection',
  'PostModelResponse',
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
 * Events hookloop fires that Claude Code 2.1.328 does not have: hooks around every model request
 * (docs/hooks.md "Model-call events"). Named in Claude Code's style; `hooks validate` says they are
 * extensions, since a settings file using them does nothing under Claude Code.
 */
export const EXTENSION_EVENTS: ReadonlySet<HookEventName> = new Set(['PreModelRequest', 'PreToolSelection', 'PostModelResponse']);

/** Events whose matcher is tested against the tool name, and which accept `if` conditions. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure']);

/** True when `name` is an event hookloop fires. */
export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENT_NAMES as readonly string[]).includes(name);
}
