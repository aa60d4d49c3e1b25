import path from 'node:path';
import { z } from 'zod';
import { sessionStartRule } from '../merge/answers.js';
import { blockingRule } from '../merge/blocking.js';
import { promptSubmitRule } from '../merge/prompt-submit.js';
import { observerRule } from '../merge/rule.js';
import { defineEvent } from './define-event.js';
import { blockDecision, commonInput, commonOutput, contextOnly, specific, withMode } from './fields.js';

/** The events of a session's life: its start and end, each prompt, notices, and a settings change. */

/** Context for the first prompt, an opening user message, a title, paths to watch. */
export const SessionStart = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('SessionStart'),
    source: z.enum(['startup', 'resume', 'clear', 'compact']),
    model: z.string().optional(),
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('SessionStart', {
      ...contextOnly,
      initialUserMessage: z.string().optional(),
      sessionTitle: z.string().optional(),
      watchPaths: z.array(z.string()).optional(),
    }),
  }),
  matchField: 'source',
  plainTextIsContext: true,
  envFile: true,
  merge: sessionStartRule,
  example: () => ({ source: 'startup' }),
});

/**
 * A block rejects the prompt; a block from one external hook aborts its siblings (ups-block-json).
 * `updatedPrompt` (hookloop extension) rewrites the prompt: the model receives it, the next
 * in-process hook sees it as `prompt`, the transcript keeps what was typed as `typedPrompt`.
 */
export const UserPromptSubmit = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    hook_event_name: z.literal('UserPromptSubmit'),
    prompt: z.string(),
    session_title: z.string().optional(),
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('UserPromptSubmit', {
      ...contextOnly,
      sessionTitle: z.string().optional(),
      // Claude Code's: with a block, the block message leaves out `Original prompt: …`.
      suppressOriginalPrompt: z.boolean().optional(),
      // hookloop extension (docs/hooks.md): the prompt the model receives instead of the typed one.
      updatedPrompt: z.string().optional(),
    }),
  }),
  gate: true,
  failClosed: true,
  cancelSiblings: true,
  plainTextIsContext: true,
  timeouts: { command: 30 },
  merge: promptSubmitRule,
  // Each `updatedPrompt` replaces the prompt the next in-process hook sees.
  rewrite: (input, output) =>
    output.hookSpecificOutput?.updatedPrompt === undefined
      ? undefined
      : { ...input, prompt: output.hookSpecificOutput.updatedPrompt },
  example: (context) => ({ prompt: context.prompt ?? '' }),
});

/**
 * For observers (desktop notifications, chat pings): nothing it answers changes the run. hookloop
 * fires `permission_prompt` when a person is about to be asked to approve a call (see docs/hooks.md).
 */
export const Notification = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('Notification'),
    message: z.string(),
    notification_type: z.string(),
  }),
  output: z.strictObject(commonOutput),
  matchField: 'notification_type',
  merge: observerRule,
  example: (context) => ({
    message: `Claude needs your permission to use ${context.toolName ?? 'Bash'}`,
    notification_type: 'permission_prompt',
  }),
});

/** The session ended; its hooks share a 1.5 s budget unless one asks for more (at most 60 s), and an abort does not cancel them. */
export const SessionEnd = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('SessionEnd'),
    reason: z.enum(['clear', 'logout', 'prompt_input_exit', 'other', 'abort', 'error']),
  }),
  output: z.strictObject(commonOutput),
  outlivesAbort: true,
  timeouts: { clamp: { min: 1.5, max: 60 } },
  merge: observerRule,
  example: () => ({ reason: 'other' }),
});

/**
 * Where a changed settings file sits (Claude Code's `source` values; `flag_settings`, the file of
 * `--settings`, is hookloop's: Claude Code does not document whether it watches that file).
 */
export const CONFIG_CHANGE_SOURCES = [
  'user_settings',
  'project_settings',
  'local_settings',
  'policy_settings',
  'skills',
  'flag_settings',
] as const;

/** A settings file changed mid-session: `decision: "block"` (or exit 2) keeps the previous hooks, except for policy settings. */
export const ConfigChange = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('ConfigChange'),
    source: z.enum(CONFIG_CHANGE_SOURCES),
    file_path: z.string(),
  }),
  output: z.strictObject({ ...commonOutput, ...blockDecision }),
  matchField: 'source',
  failClosed: true,
  merge: blockingRule,
  example: (context) => ({
    source: 'local_settings',
    file_path: path.join(context.projectDir, '.claude', 'settings.local.json'),
  }),
});
