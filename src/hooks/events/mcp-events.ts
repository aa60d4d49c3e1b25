import { z } from 'zod';
import { elicitationRule } from '../merge/answers.js';
import { defineEvent } from './define-event.js';
import { commonInput, commonOutput, specific } from './fields.js';

/** An MCP server asks the user something (`elicitation/create`, mcp-elicitation); the server name is the matcher value. */

const elicitationAction = z.enum(['accept', 'decline', 'cancel']);
const mode = z.enum(['form', 'url']);
const answerOutput = {
  action: elicitationAction.optional(),
  content: z.record(z.string(), z.unknown()).optional(),
};

/** `action` (+ `content` for accept) answers the server for the user; exit 2 declines. */
export const Elicitation = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('Elicitation'),
    mcp_server_name: z.string(),
    message: z.string(),
    mode,
    requested_schema: z.record(z.string(), z.unknown()).optional(),
    url: z.string().optional(),
  }),
  output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('Elicitation', answerOutput) }),
  matchField: 'mcp_server_name',
  merge: elicitationRule,
  example: () => ({
    mcp_server_name: 'server',
    message: 'Please provide a value',
    mode: 'form',
    requested_schema: { type: 'object', properties: {} },
  }),
});

/** The answer an elicitation got when no Elicitation hook gave one (the user, or the headless auto-cancel); `action` (+ `content`) replaces it, exit 2 declines. */
export const ElicitationResult = defineEvent({
  input: z.object({
    ...commonInput,
    hook_event_name: z.literal('ElicitationResult'),
    mcp_server_name: z.string(),
    mode,
    action: elicitationAction,
    content: z.record(z.string(), z.unknown()).optional(),
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('ElicitationResult', answerOutput),
  }),
  matchField: 'mcp_server_name',
  merge: elicitationRule,
  example: () => ({ mcp_server_name: 'server', mode: 'form', action: 'cancel' }),
});
