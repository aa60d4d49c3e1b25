import { z } from 'zod';
import { blockingRule } from '../merge/blocking.js';
import { defineEvent } from './define-event.js';
import { blockDecision, commonInput, commonOutput, contextOnly, specific, withMode } from './fields.js';

/**
 * A prompt that is a slash command (`/name args`) is about to be replaced by the command's text.
 * Fired after UserPromptSubmit, as Claude Code 2.1.328 does (user-prompt-expansion); matchers test
 * `command_name`. `additionalContext` reaches the model with the prompt; a block keeps the prompt
 * from being sent.
 * - `expansion_type`: `slash_command`, or `mcp_prompt` for an MCP server's prompt
 *   (`/mcp__<server>__<prompt>`).
 * - `command_source`: `projectSettings` (`.claude/commands`, `.claude/skills`), `userSettings`
 *   (`~/.claude/…`), `plugin`, or `mcp` for an MCP prompt.
 */
export const UserPromptExpansion = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    hook_event_name: z.literal('UserPromptExpansion'),
    expansion_type: z.enum(['slash_command', 'mcp_prompt']),
    command_name: z.string(),
    command_args: z.string(),
    command_source: z.string(),
    prompt: z.string(),
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('UserPromptExpansion', { ...contextOnly }),
  }),
  matchField: 'command_name',
  gate: true,
  failClosed: true,
  cancelSiblings: true,
  merge: blockingRule,
  example: (context) => ({
    expansion_type: 'slash_command',
    command_name: 'review',
    command_args: context.prompt ?? '',
    command_source: 'projectSettings',
    prompt: `/review ${context.prompt ?? ''}`.trim(),
  }),
});
