import type { ContextEvent } from './event-table.js';
import type { HookOutput } from './event-schemas.js';

export type { ContextEvent } from './event-table.js';

/**
 * Typed builders for callback hooks, so a handler reads like its intent. Each returns an output
 * object valid for the events named in its type; `undefined` from a handler means "no opinion".
 */

/** PreToolUse: refuse the call; `reason` becomes the error tool result `PreToolUse:<Tool> hook error: <reason>`. */
export function deny(reason: string): HookOutput<'PreToolUse'> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

/** PreToolUse: recommend running the call without a prompt. Never beats a deny or ask rule, plan mode or the workspace boundary. */
export function allow(reason?: string): HookOutput<'PreToolUse'> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: reason,
    },
  };
}

/** PreToolUse: ask a human; headless runs refuse the call with `reason` as the tool result. */
export function ask(reason: string): HookOutput<'PreToolUse'> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: reason,
    },
  };
}

/**
 * PreToolUse: replace the tool input (Claude Code `updatedInput` replaces the whole input). The new
 * input is re-validated against the tool's schema and frozen before permission checks see it.
 */
export function rewriteInput(input: Record<string, unknown>): HookOutput<'PreToolUse'> {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: input } };
}

/**
 * Adds context text for the model on any event that takes it. The loop builds the message
 * (`<Event>[:<Tool>] hook additional context: <text>`); a hook never writes messages itself.
 */
export function addContext<E extends ContextEvent>(event: E, text: string): HookOutput<E> {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } } as HookOutput<E>;
}

/**
 * Blocks with feedback: on UserPromptSubmit the prompt is rejected; on PostToolUse the reason is
 * shown to the model next to the (unchanged) result; on PostToolBatch the run ends; on Stop the
 * model takes another turn with `Stop hook feedback:\n<reason>`.
 */
export function block(reason: string): { decision: 'block'; reason: string } {
  return { decision: 'block', reason };
}

/** PostToolUse: replace the tool's output (checked against the tool's output shape when it has one). */
export function replaceOutput(output: unknown): HookOutput<'PostToolUse'> {
  return { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: output } };
}

/** Any event: end the run cleanly after the current step (`continue: false`). */
export function stopRun(stopReason: string): { continue: false; stopReason: string } {
  return { continue: false, stopReason };
}

/**
 * UserPromptSubmit: send `text` to the model instead of the typed prompt (hookloop extension
 * `updatedPrompt`). Later hooks see the rewrite as `prompt`; the transcript keeps both texts; a block
 * from any hook still wins.
 */
export function rewritePrompt(text: string): HookOutput<'UserPromptSubmit'> {
  return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', updatedPrompt: text } };
}
