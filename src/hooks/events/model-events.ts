import { z } from 'zod';
import { detached } from '../detach.js';
import { postModelResponseRule, preModelRequestRule, preToolSelectionRule } from '../merge/model-calls.js';
import { defineEvent, type ExampleContext } from './define-event.js';
import { commonInput, commonOutput, contextOnly, specific } from './fields.js';

/**
 * hookloop's model-call events (extensions Claude Code's settings hooks do not have; docs/hooks.md
 * "Model-call events"), around every model request of a session: PreModelRequest → PreToolSelection
 * → the request → PostModelResponse. Named and shaped like Claude Code's events: snake_case inputs,
 * camelCase outputs under `hookSpecificOutput`. A request is shown provider-neutral: messages as
 * `system`/`user` text, `assistant` text with `tool_calls`, `tool` results by `tool_use_id`.
 * `caller` says whose request it is, and is the matcher value.
 */

/** Whose model request it is, in the `caller` field. */
export const MODEL_CALLERS = ['main', 'subagent', 'compaction', 'hook'] as const;
/** Whose model request it is: the main loop, a subagent (the Agent tool's or an agent hook's), a compaction, or a prompt hook. */
export type ModelCaller = (typeof MODEL_CALLERS)[number];

const wireToolCall = z.object({ id: z.string(), name: z.string(), input: z.unknown() });
/** One conversation message as model-call hooks read and write it. */
export const wireMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), text: z.string(), tool_calls: z.array(wireToolCall) }),
  z.object({
    role: z.literal('tool'),
    tool_use_id: z.string(),
    tool_name: z.string(),
    content: z.string(),
    is_error: z.boolean(),
  }),
]);
/** A PreToolSelection `toolChoice`, as the Anthropic API names it: let the model choose, make it call some tool, none, or this one. */
export const toolChoiceSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto') }),
  z.strictObject({ type: z.literal('any') }),
  z.strictObject({ type: z.literal('none') }),
  z.strictObject({ type: z.literal('tool'), name: z.string() }),
]);
/**
 * A PreModelRequest `syntheticResponse`: the answer, given instead of a request. Text only: a hook
 * never puts a tool call in the model's mouth (no forged protocol), so a
 * synthetic answer ends the turn as a plain answer.
 */
const syntheticResponse = z.strictObject({
  text: z.string().optional(),
  stop_reason: z.string().optional(),
});

const modelCallFields = {
  ...commonInput,
  caller: z.enum(MODEL_CALLERS),
  turn: z.number(),
  model: z.string(),
};
// What `hooks test` makes up: a main-loop request of the first turn.
const exampleCall = () => ({ caller: 'main', turn: 1, model: 'claude-sonnet-5-5' });

/**
 * Before each model request: add context, edit the system text or the messages (never a tool call
 * or result: see model-request-wire.ts), switch the model or `max_tokens`, or answer with
 * `syntheticResponse` so that no request is made. `continue: false` stops the run before the request.
 */
export const PreModelRequest = defineEvent({
  input: z.object({
    ...modelCallFields,
    hook_event_name: z.literal('PreModelRequest'),
    max_tokens: z.number().optional(),
    system: z.string(),
    messages: z.array(wireMessageSchema),
    tools: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        input_schema: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
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
  matchField: 'caller',
  extension: true,
  merge: preModelRequestRule,
  // The next in-process hook sees the request as the previous one left it.
  rewrite: (input, output) => {
    const specificOutput = output.hookSpecificOutput;
    if (specificOutput === undefined) return undefined;
    const next: Record<string, unknown> = { ...input };
    if (specificOutput.updatedSystem !== undefined) next['system'] = specificOutput.updatedSystem;
    if (specificOutput.updatedMessages !== undefined)
      next['messages'] = detached(specificOutput.updatedMessages);
    if (specificOutput.updatedModel !== undefined) next['model'] = specificOutput.updatedModel;
    if (specificOutput.updatedMaxTokens !== undefined) next['max_tokens'] = specificOutput.updatedMaxTokens;
    return Object.keys(next).some((key) => next[key] !== input[key]) ? next : undefined;
  },
  example: (context: ExampleContext) => ({
    ...exampleCall(),
    system: '',
    messages: [{ role: 'user', content: context.prompt ?? '' }],
    tools: (context.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
  }),
});

/** Before a request that offers tools: `allowedTools` narrows them (every hook's list counts), `toolChoice` forces one (the last wins). */
export const PreToolSelection = defineEvent({
  input: z.object({
    ...modelCallFields,
    hook_event_name: z.literal('PreToolSelection'),
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('PreToolSelection', {
      allowedTools: z.array(z.string()).optional(),
      toolChoice: toolChoiceSchema.optional(),
    }),
  }),
  matchField: 'caller',
  extension: true,
  merge: preToolSelectionRule,
  // Narrowing composes: the next in-process hook sees only the tools still offered.
  rewrite: (input, output) => {
    const allowed = output.hookSpecificOutput?.allowedTools;
    if (allowed === undefined) return undefined;
    return {
      ...input,
      tools: detached(
        (input['tools'] as readonly { name: string }[]).filter((tool) => allowed.includes(tool.name)),
      ),
    };
  },
  example: (context: ExampleContext) => ({
    ...exampleCall(),
    tools: (context.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description })),
  }),
});

/**
 * After each answer (a synthetic one included): `updatedText` replaces its text (the last wins),
 * `dropToolCalls` removes calls by id before anything sees them (every hook's list counts).
 */
export const PostModelResponse = defineEvent({
  input: z.object({
    ...modelCallFields,
    hook_event_name: z.literal('PostModelResponse'),
    /** True when a PreModelRequest hook answered (`syntheticResponse`) and no request was made. */
    synthetic: z.boolean(),
    response: z.object({ text: z.string(), tool_calls: z.array(wireToolCall), stop_reason: z.string() }),
    usage: z.object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      cache_read_input_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
    }),
  }),
  output: z.strictObject({
    ...commonOutput,
    hookSpecificOutput: specific('PostModelResponse', {
      updatedText: z.string().optional(),
      dropToolCalls: z.array(z.string()).optional(),
    }),
  }),
  matchField: 'caller',
  extension: true,
  merge: postModelResponseRule,
  rewrite: (input, output) => {
    const specificOutput = output.hookSpecificOutput;
    const response = input['response'] as {
      text: string;
      tool_calls: readonly { id: string }[];
      stop_reason: string;
    };
    const drop = specificOutput?.dropToolCalls ?? [];
    const text = specificOutput?.updatedText ?? response.text;
    if (drop.length === 0 && text === response.text) return undefined;
    return {
      ...input,
      response: detached({
        ...response,
        text,
        tool_calls: response.tool_calls.filter((call) => !drop.includes(call.id)),
      }),
    };
  },
  example: (context: ExampleContext) => ({
    ...exampleCall(),
    synthetic: false,
    response: {
      text: typeof context.response === 'string' ? context.response : '',
      tool_calls: [],
      stop_reason: 'end_turn',
    },
    usage: { input_tokens: 0, output_tokens: 0 },
  }),
});
