import { z } from 'zod';

/**
 * Zod schemas of every hook event's stdin payload and allowed output, written once: the TypeScript
 * types (`HookInput<E>`, `HookOutput<E>`), the validation of hook answers and the JSON Schema
 * export all derive from them. Field names are Claude Code's wire names (snake_case inputs,
 * camelCase outputs), as its command hooks read and print them (spec §2–§4).
 */

const permissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']);
const toolInput = z.record(z.string(), z.unknown());

/** Fields every event carries. `prompt_id` appears once a prompt exists; absent fields are absent, not null. */
const commonInput = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  prompt_id: z.string().optional(),
  /** Inside a subagent (an agent hook's sub-run): its id on every event, its type where the reference reports it. */
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
};
const withMode = { permission_mode: permissionMode };
const withEffort = { effort: z.object({ level: z.string() }).optional() };

const sessionStartInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('SessionStart'),
  source: z.enum(['startup', 'resume', 'clear', 'compact']),
  model: z.string().optional(),
});
const userPromptSubmitInput = z.object({
  ...commonInput,
  ...withMode,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string(),
  session_title: z.string().optional(),
});
/** The server of an MCP tool (`mcp__server__tool`), on its tool events as Claude Code sends it (mcp-tools-and-matchers). */
const mcpServerField = { mcp_server: z.object({ name: z.string(), source: z.string() }).optional() };
const preToolUseInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string(),
  tool_input: toolInput,
  tool_use_id: z.string(),
  ...mcpServerField,
});
const permissionRequestInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PermissionRequest'),
  tool_name: z.string(),
  tool_input: toolInput,
  permission_suggestions: z.array(z.unknown()).optional(),
});
const postToolUseInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string(),
  tool_input: toolInput,
  tool_response: z.unknown(),
  tool_use_id: z.string(),
  duration_ms: z.number(),
  ...mcpServerField,
});
const postToolUseFailureInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PostToolUseFailure'),
  tool_name: z.string(),
  tool_input: toolInput,
  tool_use_id: z.string(),
  error: z.string(),
  is_interrupt: z.boolean(),
  duration_ms: z.number(),
  ...mcpServerField,
});
const postToolBatchInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PostToolBatch'),
  tool_calls: z.array(
    z.object({ tool_name: z.string(), tool_input: z.unknown(), tool_use_id: z.string(), tool_response: z.unknown() }),
  ),
});
const stopInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('Stop'),
  stop_hook_active: z.boolean(),
  last_assistant_message: z.string(),
  background_tasks: z.array(z.unknown()),
  session_crons: z.array(z.unknown()),
});
const stopFailureInput = z.object({
  ...commonInput,
  ...withEffort,
  hook_event_name: z.literal('StopFailure'),
  error: z.string(),
  last_assistant_message: z.string(),
});
const sessionEndInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('SessionEnd'),
  reason: z.enum(['clear', 'logout', 'prompt_input_exit', 'other', 'abort', 'error']),
});
/** hookloop fires `permission_prompt` when a person is about to be asked to approve a call (see docs/hooks.md). */
const notificationInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('Notification'),
  message: z.string(),
  notification_type: z.string(),
});
/** An MCP server's `elicitation/create` (mcp-elicitation): the hook may answer for the user. */
const elicitationInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('Elicitation'),
  mcp_server_name: z.string(),
  message: z.string(),
  mode: z.enum(['form', 'url']),
  requested_schema: z.record(z.string(), z.unknown()).optional(),
  url: z.string().optional(),
});
const elicitationAction = z.enum(['accept', 'decline', 'cancel']);
/** The answer an elicitation got when no Elicitation hook gave one (the user, or the headless auto-cancel). */
const elicitationResultInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('ElicitationResult'),
  mcp_server_name: z.string(),
  mode: z.enum(['form', 'url']),
  action: elicitationAction,
  content: z.record(z.string(), z.unknown()).optional(),
});
/** A call the permission policy or the approver refused; `reason` is the text the model gets as the error result. */
const permissionDeniedInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('PermissionDenied'),
  tool_name: z.string(),
  tool_input: toolInput,
  tool_use_id: z.string(),
  reason: z.string(),
});
/**
 * hookloop extension (observer-only): how a tool call was settled and by whom, after the policy,
 * PermissionRequest hooks and the approver (see PermissionDecisionRecord in loop/permission-decision.ts).
 */
const permissionDecisionInput = z.object({
  ...commonInput,
  ...withMode,
  hook_event_name: z.literal('PermissionDecision'),
  tool_name: z.string(),
  tool_input: toolInput,
  tool_use_id: z.string(),
  decision: z.enum(['allow', 'deny']),
  decided_by: z.enum(['rule', 'mode', 'boundary', 'read_only', 'sandbox', 'hook', 'approver', 'validation']),
  reason: z.string().optional(),
  rule: z.object({ list: z.enum(['allow', 'ask', 'deny']), text: z.string(), file: z.string().optional() }).optional(),
  boundary: z.enum(['workspace', 'protected_removal', 'configuration']).optional(),
  hook: z.object({ event: z.string(), type: z.string(), name: z.string(), source: z.string(), location: z.string().optional() }).optional(),
  policy_source: z.string().optional(),
});
const subagentStartInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('SubagentStart'),
  agent_id: z.string(),
  agent_type: z.string(),
});
const subagentStopInput = z.object({
  ...commonInput,
  ...withMode,
  ...withEffort,
  hook_event_name: z.literal('SubagentStop'),
  agent_id: z.string(),
  agent_type: z.string(),
  stop_hook_active: z.boolean(),
  agent_transcript_path: z.string(),
  last_assistant_message: z.string(),
  background_tasks: z.array(z.unknown()),
  session_crons: z.array(z.unknown()),
});

/**
 * Where a changed settings file sits (Claude Code's `source` values; `flag_settings`, the file of
 * `--settings`, is hookloop's: Claude Code does not document whether it watches that file).
 */
export const CONFIG_CHANGE_SOURCES = ['user_settings', 'project_settings', 'local_settings', 'policy_settings', 'skills', 'flag_settings'] as const;
const configChangeInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('ConfigChange'),
  source: z.enum(CONFIG_CHANGE_SOURCES),
  file_path: z.string(),
});

/** What started a compaction: the context neared the window (`auto`) or someone asked for it (`manual`: `/compact`, the API). */
const compactTrigger = z.enum(['auto', 'manual']);
const preCompactInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('PreCompact'),
  trigger: compactTrigger,
  /** The instructions given with a manual compaction (`/compact focus on tests`); null for `auto`. */
  custom_instructions: z.string().nullable(),
});
const postCompactInput = z.object({
  ...commonInput,
  hook_event_name: z.literal('PostCompact'),
  trigger: compactTrigger,
  /** The summarizer's whole answer, `<analysis>` included. */
  compact_summary: z.string(),
});

/** Output fields every event accepts (spec §4). */
const commonOutput = {
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
};
const blockDecision = { decision: z.literal('block').optional(), reason: z.string().optional() };

function specific<E extends string, S extends z.ZodRawShape>(event: E, shape: S) {
  return z.strictObject({ hookEventName: z.literal(event), ...shape }).optional();
}

const contextOnly = { additionalContext: z.string().optional() };

/** The permission decisions a PreToolUse hook can make, strongest first when merged: deny > defer > ask > allow. */
export const permissionDecisionSchema = z.enum(['allow', 'deny', 'ask', 'defer']);

const permissionRequestDecision = z.discriminatedUnion('behavior', [
  z.strictObject({
    behavior: z.literal('allow'),
    updatedInput: toolInput.optional(),
    updatedPermissions: z.array(z.unknown()).optional(),
  }),
  z.strictObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
]);

/** Input and output schema per event: the single map everything else derives from. */
export const hookEventSchemas = {
  SessionStart: {
    input: sessionStartInput,
    output: z.strictObject({
      ...commonOutput,
      hookSpecificOutput: specific('SessionStart', {
        ...contextOnly,
        initialUserMessage: z.string().optional(),
        sessionTitle: z.string().optional(),
        watchPaths: z.array(z.string()).optional(),
      }),
    }),
  },
  UserPromptSubmit: {
    input: userPromptSubmitInput,
    output: z.strictObject({
      ...commonOutput,
      ...blockDecision,
      hookSpecificOutput: specific('UserPromptSubmit', { ...contextOnly, sessionTitle: z.string().optional() }),
    }),
  },
  PreToolUse: {
    input: preToolUseInput,
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
  },
  PermissionRequest: {
    input: permissionRequestInput,
    output: z.strictObject({
      ...commonOutput,
      hookSpecificOutput: specific('PermissionRequest', { decision: permissionRequestDecision.optional() }),
    }),
  },
  PostToolUse: {
    input: postToolUseInput,
    output: z.strictObject({
      ...commonOutput,
      ...blockDecision,
      // `updatedMCPToolOutput`: Claude Code's field for an MCP tool's output (`updatedToolOutput` works there too).
      hookSpecificOutput: specific('PostToolUse', { ...contextOnly, updatedToolOutput: z.unknown().optional(), updatedMCPToolOutput: z.unknown().optional() }),
    }),
  },
  PostToolUseFailure: {
    input: postToolUseFailureInput,
    output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('PostToolUseFailure', contextOnly) }),
  },
  PostToolBatch: {
    input: postToolBatchInput,
    output: z.strictObject({ ...commonOutput, ...blockDecision, hookSpecificOutput: specific('PostToolBatch', contextOnly) }),
  },
  Stop: {
    input: stopInput,
    output: z.strictObject({ ...commonOutput, ...blockDecision, hookSpecificOutput: specific('Stop', contextOnly) }),
  },
  StopFailure: {
    input: stopFailureInput,
    output: z.strictObject(commonOutput),
  },
  SessionEnd: {
    input: sessionEndInput,
    output: z.strictObject(commonOutput),
  },
  /** For observers (desktop notifications, chat pings): nothing it answers changes the run. */
  Notification: {
    input: notificationInput,
    output: z.strictObject(commonOutput),
  },
  /** `retry: true` tells the model it may try the call again (user text after the error result). */
  PermissionDenied: {
    input: permissionDeniedInput,
    output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('PermissionDenied', { retry: z.boolean().optional() }) }),
  },
  /** hookloop extension, for observers (audit logs, dashboards): nothing it answers changes the call. */
  PermissionDecision: {
    input: permissionDecisionInput,
    output: z.strictObject(commonOutput),
  },
  /** `additionalContext` opens the subagent's first system message. */
  SubagentStart: {
    input: subagentStartInput,
    output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('SubagentStart', contextOnly) }),
  },
  /** Like Stop, for a subagent: a block makes the subagent take another turn. */
  SubagentStop: {
    input: subagentStopInput,
    output: z.strictObject({ ...commonOutput, ...blockDecision, hookSpecificOutput: specific('SubagentStop', contextOnly) }),
  },
  /** A settings file changed mid-session: `decision: "block"` (or exit 2) keeps the previous hooks, except for policy settings. */
  ConfigChange: {
    input: configChangeInput,
    output: z.strictObject({ ...commonOutput, ...blockDecision }),
  },
  /**
   * Before a compaction: exit 2 or `decision: "block"` skips it (a compaction the context needs then
   * ends the run); plain stdout is added to the summarizer's instructions (spec §3 PreCompact).
   */
  PreCompact: {
    input: preCompactInput,
    output: z.strictObject({ ...commonOutput, ...blockDecision }),
  },
  /** After a compaction, for observers: nothing it answers changes the run. */
  PostCompact: {
    input: postCompactInput,
    output: z.strictObject(commonOutput),
  },
  /** `action` (+ `content` for accept) answers the server for the user; exit 2 declines. */
  Elicitation: {
    input: elicitationInput,
    output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('Elicitation', { action: elicitationAction.optional(), content: z.record(z.string(), z.unknown()).optional() }) }),
  },
  /** `action` (+ `content`) replaces the answer before the server gets it; exit 2 declines. */
  ElicitationResult: {
    input: elicitationResultInput,
    output: z.strictObject({ ...commonOutput, hookSpecificOutput: specific('ElicitationResult', { action: elicitationAction.optional(), content: z.record(z.string(), z.unknown()).optional() }) }),
  },
} as const;

type Schemas = typeof hookEventSchemas;

/**
 * The event map: each event name with its stdin payload type and its allowed output type.
 * `on<E>()`, the dispatcher and the merge table are all typed from it.
 */
export type HookEvents = { [E in keyof Schemas]: { input: z.infer<Schemas[E]['input']>; output: z.infer<Schemas[E]['output']> } };

/** The stdin payload of event `E` (what a command hook reads, what a callback receives). */
export type HookInput<E extends keyof HookEvents> = HookEvents[E]['input'];

/** What a hook of event `E` may answer; `undefined` (or `{}`) means no opinion. */
export type HookOutput<E extends keyof HookEvents> = HookEvents[E]['output'];

/** A payload without the fields the engine fills in itself (session_id, transcript_path, cwd, hook_event_name, …). */
export type HookPayload<E extends keyof HookEvents> = Omit<
  HookInput<E>,
  'session_id' | 'transcript_path' | 'cwd' | 'hook_event_name' | 'prompt_id' | 'permission_mode' | 'effort' | 'agent_id' | 'agent_type'
>;
