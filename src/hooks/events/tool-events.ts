import { z } from 'zod';
import { detached } from '../detach.js';
import { blockingRule, postToolUseFailureRule, postToolUseRule } from '../merge/blocking.js';
import { permissionDeniedRule, permissionRequestRule, preToolUseRule } from '../merge/decisions.js';
import { defineEvent, type ExampleContext } from './define-event.js';
import {
  blockDecision,
  commonInput,
  commonOutput,
  contextOnly,
  mcpServerField,
  specific,
  toolInput,
  withEffort,
  withMode,
} from './fields.js';

/** The events of one tool call (PreToolUse … PostToolUseFailure) and of a batch of them (PostToolBatch). */

/** The permission decisions a PreToolUse hook can make, strongest first when merged: deny > defer > ask > allow. */
export const permissionDecisionSchema = z.enum(['allow', 'deny', 'ask', 'defer']);

const callFields = {
  ...commonInput,
  ...withMode,
  ...withEffort,
  tool_name: z.string(),
  tool_input: toolInput,
};
const tool = (context: ExampleContext) => ({ tool_name: context.toolName, tool_input: context.toolInput });

export const PreToolUse = defineEvent({
  input: z.object({
    ...callFields,
    hook_event_name: z.literal('PreToolUse'),
    tool_use_id: z.string(),
    ...mcpServerField,
  }),
  output: z.strictObject({
    ...commonOutput,
    // Deprecated top-level form that Claude Code still honours: approve = allow, block = deny.
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: specific('PreToolUse', {
      permissionDecision: permissionDecisionSchema.optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: toolInput.optional(),
      ...contextOnly,
    }),
  }),
  matchField: 'tool_name',
  acceptsIf: true,
  gate: true,
  failClosed: true,
  merge: preToolUseRule,
  // Each `updatedInput` replaces the whole input (Claude Code); the next callback sees it, frozen.
  rewrite: (input, output) =>
    output.hookSpecificOutput?.updatedInput === undefined
      ? undefined
      : { ...input, tool_input: detached(output.hookSpecificOutput.updatedInput) },
  example: (context) => ({ ...tool(context), tool_use_id: context.toolUseId }),
});

const permissionRequestDecision = z.discriminatedUnion('behavior', [
  z.strictObject({
    behavior: z.literal('allow'),
    updatedInput: toolInput.optional(),
    updatedPermissions: z.array(z.unknown()).optional(),
  }),
  z.strictObject({
    behavior: z.literal('deny'),
    message: z.string().optional(),
    interrupt: z.boolean().optional(),
  }),
  // hookloop extension: decide later; the run ends tool_deferred with the call pending (docs/hooks.md).
  z.strictObject({ behavior: z.literal('defer'), message: z.string().optional() }),
]);

export const PermissionRequest = defineEvent({
  input: z.object({
    ...callFields,
    hook_event_name: z.literal('PermissionRequest'),
    permission_suggestions: z.array(z.unknown()).optional(),
    ...mcpServerField,
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('PermissionRequest', { decision: permissionRequestDecision.optional() }),
  }),
  matchField: 'tool_name',
  acceptsIf: true,
  gate: true,
  failClosed: true,
  merge: permissionRequestRule,
  example: tool,
});

/** A call the permission policy or the approver refused; `reason` is the text the model gets as the error result. `retry: true` tells the model it may try again. */
export const PermissionDenied = defineEvent({
  input: z.object({
    ...callFields,
    hook_event_name: z.literal('PermissionDenied'),
    tool_use_id: z.string(),
    reason: z.string(),
    ...mcpServerField,
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('PermissionDenied', { retry: z.boolean().optional() }),
  }),
  matchField: 'tool_name',
  acceptsIf: true,
  merge: permissionDeniedRule,
  example: (context) => ({
    ...tool(context),
    tool_use_id: context.toolUseId,
    reason: `Permission to use ${context.toolName ?? 'the tool'} has been denied.`,
  }),
});

export const PostToolUse = defineEvent({
  input: z.object({
    ...callFields,
    hook_event_name: z.literal('PostToolUse'),
    tool_response: z.unknown(),
    tool_use_id: z.string(),
    duration_ms: z.number(),
    ...mcpServerField,
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    // `updatedMCPToolOutput`: Claude Code's field for an MCP tool's output (`updatedToolOutput` works there too).
    hookSpecificOutput: specific('PostToolUse', {
      ...contextOnly,
      updatedToolOutput: z.unknown().optional(),
      updatedMCPToolOutput: z.unknown().optional(),
    }),
  }),
  matchField: 'tool_name',
  acceptsIf: true,
  failClosed: true,
  merge: postToolUseRule,
  rewrite: (input, output) => {
    const specificOutput = output.hookSpecificOutput;
    const isMcp = typeof input['tool_name'] === 'string' && input['tool_name'].startsWith('mcp__');
    const replaced = isMcp
      ? (specificOutput?.updatedMCPToolOutput ?? specificOutput?.updatedToolOutput)
      : specificOutput?.updatedToolOutput;
    return replaced === undefined ? undefined : { ...input, tool_response: detached(replaced) };
  },
  example: (context) => ({
    ...tool(context),
    tool_response: context.response ?? {},
    tool_use_id: context.toolUseId,
    duration_ms: 0,
  }),
});

export const PostToolUseFailure = defineEvent({
  input: z.object({
    ...callFields,
    hook_event_name: z.literal('PostToolUseFailure'),
    tool_use_id: z.string(),
    error: z.string(),
    is_interrupt: z.boolean(),
    duration_ms: z.number(),
    ...mcpServerField,
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('PostToolUseFailure', contextOnly),
  }),
  matchField: 'tool_name',
  acceptsIf: true,
  merge: postToolUseFailureRule,
  example: (context) => ({
    ...tool(context),
    tool_use_id: context.toolUseId,
    error: typeof context.response === 'string' ? context.response : 'Exit code 1',
    is_interrupt: false,
    duration_ms: 0,
  }),
});

export const PostToolBatch = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    ...withEffort,
    hook_event_name: z.literal('PostToolBatch'),
    tool_calls: z.array(
      z.object({
        tool_name: z.string(),
        tool_input: z.unknown(),
        tool_use_id: z.string(),
        tool_response: z.unknown(),
      }),
    ),
  }),
  output: z.strictObject({
    ...commonOutput,
    ...blockDecision,
    hookSpecificOutput: specific('PostToolBatch', contextOnly),
  }),
  failClosed: true,
  merge: blockingRule,
  example: (context) => ({
    tool_calls:
      context.toolName === undefined
        ? []
        : [{ ...tool(context), tool_use_id: context.toolUseId, tool_response: context.response ?? '' }],
  }),
});
