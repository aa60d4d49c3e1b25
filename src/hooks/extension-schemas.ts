import { z } from 'zod';

/**
 * The schemas of hookloop's model-call events (extensions; docs/hooks.md "Model-call events"),
 * built from event-schemas.ts's shared parts so that they read like Claude Code's events: snake_case
 * inputs, camelCase outputs under `hookSpecificOutput`. A request is shown provider-neutral:
 * messages as `system`/`user` text, `assistant` text with `tool_calls`, `tool` results by
 * `tool_use_id`. `caller` says whose request it is (also the matcher value).
 */

/** Whose model request it is, in the `caller` field. */
export const MODEL_CALLERS = ['main', 'subagent', 'compaction', 'hook'] as const;
/** Whose model request it is: the main loop, an agent hook's subagent, a compaction, or a prompt hook. */
export type ModelCaller = (typeof MODEL_CALLERS)[number];
const modelCaller = z.enum(MODEL_CALLERS);
const wireToolCall = z.object({ id: z.string(), name: z.string(), input: z.unknown() });
/** One conversation message as model-call hooks read and write it. */
export const wireMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), text: z.string(), tool_calls: z.array(wireToolCall) }),
  z.object({ role: z.literal('tool'), tool_use_id: z.string(), tool_name: z.string(), content: z.string(), is_error: z.boolean() }),
]);
const modelCallFields = { caller: modelCaller, turn: z.number(), model: z.string() };
function specific<E extends string, S extends z.ZodRawShape>(event: E, shape: S) {
  return z.strictObject({ hookEventName: z.literal(event), ...shape }).optional();
}
const toolInput = z.record(z.string(), z.unknown());
/** A PreToolSelection `toolChoice`, as the Anthropic API names it: let the model choose, make it call some tool, none, or this one. */
export const toolChoiceSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto') }),
  z.strictObject({ type: z.literal('any') }),
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('tool'), name: z.string() }),
]);
/** A PreModelRequest `syntheticResponse`: the answer, given instead of a request. Its calls get fresh ids and run through the whole pipeline. */
const syntheticResponse = z.strictObject({
  text: z.string().optional(),
  tool_calls: z.array(z.strictObject({ name: z.string(), input: toolInput })).optional(),
  stop_reason: z.string().optional(),
});

/**
 * Input and output schema of PreModelRequest, PreToolSelection and PostModelResponse, for
 * `hookEventSchemas`, given event-schemas.ts's fields every event has.
 */
export function modelCallEventSchemas<CI extends z.ZodRawShape, CO extends z.ZodRawShape>(commonInput: CI, commonOutput: CO) {
  const contextOnly = { additionalContext: z.string().optional() };
  const preModelRequestInput = z.object({
    ...commonInput,
    hook_event_name: z.literal('PreModelRequest'),
    ...modelCallFields,
    max_tokens: z.number().optional(),
    system: z.string(),
    messages: z.array(wireMessageSchema),
    tools: z.array(z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) })),
  });
  const preToolSelectionInput = z.object({
    ...commonInput,
    hook_event_name: z.literal('PreToolSelection'),
    ...modelCallFields,
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
  });
  const postModelResponseInput = z.object({
    ...commonInput,
    hook_event_name: z.literal('PostModelResponse'),
    ...modelCallFields,
    /** True when a PreModelRequest hook answered (`syntheticResponse`) and no request was made. */
    synthetic: z.boolean(),
    response: z.object({ text: z.string(), tool_calls: z.array(wireToolCall), stop_reason: z.string() }),
    usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cache_read_input_tokens: z.number().optional(), cache_creation_input_tokens: z.number().optional() }),
  });
  return {
    /**
     * hookloop extension, before each model request: add context, edit the system text or the
     * messages (never a tool call or result: see model-call-hooks.ts), switch the model, or answer
     * with `syntheticResponse` so that no request is made. Rewrites: the last in merge order wins.
     */
    PreModelRequest: {
      input: preModelRequestInput,
      output: z.strictObject({
        ...commonOutput,
        hookSpecificOutput: specific('PreModelRequest', {
          ...contextOnly,
          updatedSystem: z.string().optional(),
          updatedMessages: z.array(wireMessageSchema).optional(),
          updatedModel: z.string().min(1).optional(),
          updatedMaxTokens: z.number().int().positive().optional(),
          syntheticResponse: syntheticResponse.optional(),
        }),
      }),
    },
    /** hookloop extension, before a request that offers tools: `allowedTools` narrows them (every hook's list counts), `toolChoice` forces one (the last wins). */
    PreToolSelection: {
      input: preToolSelectionInput,
      output: z.strictObject({
        ...commonOutput,
        hookSpecificOutput: specific('PreToolSelection', { allowedTools: z.array(z.string()).optional(), toolChoice: toolChoiceSchema.optional() }),
      }),
    },
    /** hookloop extension, after each answer: `updatedText` replaces its text (the last wins), `dropToolCalls` removes calls by id before anything runs (every hook's list counts). */
    PostModelResponse: {
      input: postModelResponseInput,
      output: z.strictObject({
        ...commonOutput,
        hookSpecificOutput: specific('PostModelResponse', { updatedText: z.string().optional(), dropToolCalls: z.array(z.string()).optional() }),
      }),
    },
  } as const;
}
