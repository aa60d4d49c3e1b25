import type { ModelCaller } from '../hooks/events/model-events.js';
import type { SyntheticResponse } from '../hooks/merge/model-calls.js';
import { systemMessage, type Message } from '../messages/messages.js';
import type {
  ModelClient,
  ModelRequest,
  ModelResponse,
  ToolChoice,
  ToolSpec,
} from '../model/model-client.js';
import type { ModelStreamListener } from '../model/stream-events.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { contextLabel } from './hook-text.js';
import { afterResponse, syntheticAnswer } from './model-response-hooks.js';
import {
  editedMessages,
  messagesToWire,
  toolsToWire,
  type WireMessage,
} from '../model/model-request-wire.js';
import { fireHook, type RunContext } from './run-context.js';

/**
 * hookloop's model-call events around every model request of a session (docs/hooks.md
 * "Model-call events"): PreModelRequest → PreToolSelection → the request → PostModelResponse.
 * Every model request goes through `requestModel`, each with its `caller`: the main loop and
 * subagents (agent-loop.ts), compactions (compaction.ts), prompt hooks (`hookModelClient`).
 */

/** One request as the caller builds it. */
export interface ModelCall {
  readonly caller: ModelCaller;
  /** The caller's turn number (its own count for a subagent; the main loop's current turn for a compaction or a hook's request). */
  readonly turn?: number;
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  readonly signal?: AbortSignal;
  readonly onStream?: ModelStreamListener;
}

/** What came back: the (possibly rewritten) answer, or a stop a PreModelRequest hook asked for (`continue: false`; no request made). */
export type ModelCallAnswer =
  | {
      readonly kind: 'answered';
      readonly response: ModelResponse;
      /** A PreModelRequest hook answered (`syntheticResponse`): no request was made and the usage is zero. */
      readonly synthetic: boolean;
      /** Set when a PreToolSelection hook narrowed the tools: the run whose registry holds only the tools offered, for this answer's calls. */
      readonly toolRun?: RunContext;
    }
  | { readonly kind: 'stopped' };

/** The main loop's current turn per session, which compaction and hook requests report as theirs. */
const mainTurns = new WeakMap<object, number>();

type MutableRequest = { -readonly [K in keyof ModelRequest]: ModelRequest[K] };

/**
 * Sends one request through the model-call hooks (`model` defaults to the session's client).
 * With no such hooks registered it is exactly `model.complete(request)`. Hooks are fired with the
 * session's raw model client as their `services.model`, so a prompt hook on these events does not
 * fire them again.
 * @throws what `model.complete` throws (ProviderError, AbortError).
 */
export async function requestModel(
  run: RunContext,
  call: ModelCall,
  model: ModelClient = run.model,
): Promise<ModelCallAnswer> {
  if (call.caller === 'main' && call.turn !== undefined) mainTurns.set(run.state, call.turn);
  const turn = call.turn ?? mainTurns.get(run.state) ?? 0;
  const hooks = run.hooks;
  const base: MutableRequest = {
    system: call.system,
    messages: call.messages,
    tools: call.tools,
    ...(call.signal ? { signal: call.signal } : {}),
  };
  if (!hooks.has('PreModelRequest') && !hooks.has('PreToolSelection') && !hooks.has('PostModelResponse')) {
    return {
      kind: 'answered',
      response: await model.complete({ ...base, ...(call.onStream ? { onStream: call.onStream } : {}) }),
      synthetic: false,
    };
  }
  const view: RunContext = { ...run, services: { ...run.services, model: run.model } };
  const modelName = modelIdOf(model, run);
  const request = base;

  let synthetic: SyntheticResponse | undefined;
  if (hooks.has('PreModelRequest')) {
    const pre = await fireHook(view, 'PreModelRequest', {
      caller: call.caller,
      turn,
      model: modelName,
      system: call.system,
      messages: messagesToWire(call.messages) as never,
      tools: toolsToWire(call.tools) as never,
    });
    if (pre.stop) return { kind: 'stopped' };
    if (pre.updatedSystem !== undefined) request.system = pre.updatedSystem;
    if (pre.updatedMessages !== undefined) {
      const edited = editedMessages(call.messages, pre.updatedMessages as WireMessage[]);
      if (edited.ok) request.messages = edited.messages;
      else run.emit({ type: 'warning', text: `PreModelRequest: updatedMessages ignored: ${edited.error}` });
    }
    if (pre.contexts.length > 0)
      request.messages = [
        ...request.messages,
        systemMessage(
          pre.contexts.map((text) => contextLabel('PreModelRequest', undefined, text)).join('\n\n'),
        ),
      ];
    if (pre.updatedModel !== undefined) request.model = pre.updatedModel;
    if (pre.updatedMaxTokens !== undefined) request.maxTokens = pre.updatedMaxTokens;
    synthetic = pre.syntheticResponse;
  }
  let changed =
    request.system !== call.system ||
    request.messages !== call.messages ||
    request.model !== undefined ||
    request.maxTokens !== undefined;

  let toolRun: RunContext | undefined;
  if (synthetic === undefined && request.tools.length > 0 && hooks.has('PreToolSelection')) {
    const selection = await fireHook(view, 'PreToolSelection', {
      caller: call.caller,
      turn,
      model: request.model ?? modelName,
      tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    });
    if (selection.allowedTools !== undefined) {
      const allowed = new Set(selection.allowedTools);
      request.tools = request.tools.filter((tool) => allowed.has(tool.name));
      toolRun = restrictedRun(run, new Set(request.tools.map((tool) => tool.name)));
      changed = true;
    }
    const choice = selection.toolChoice;
    if (choice?.type === 'tool' && !request.tools.some((tool) => tool.name === choice.name)) {
      run.emit({
        type: 'warning',
        text: `PreToolSelection: toolChoice ignored: ${choice.name} is not among the tools offered`,
      });
    } else if (choice !== undefined) {
      request.toolChoice = choice as ToolChoice;
      changed = true;
    }
  }

  let response: ModelResponse;
  if (synthetic !== undefined) {
    response = syntheticAnswer(synthetic, request.model ?? modelName);
    run.emit({ type: 'model_request_sent', caller: call.caller, turn, synthetic: true, request });
  } else {
    if (changed)
      run.emit({ type: 'model_request_sent', caller: call.caller, turn, synthetic: false, request });
    // With PostModelResponse handlers the answer may still be redacted: nothing of it streams out before they ran.
    // (Their list, not `has`: an engine may report every event as wanted, e.g. to record payloads.)
    if (call.onStream && !hooks.list().some((handler) => handler.event === 'PostModelResponse'))
      request.onStream = call.onStream;
    response = await model.complete(request);
  }
  if (hooks.has('PostModelResponse'))
    response = await afterResponse(
      view,
      { caller: call.caller, turn, synthetic: synthetic !== undefined, model: request.model ?? modelName },
      response,
    );
  return { kind: 'answered', response, synthetic: synthetic !== undefined, ...(toolRun ? { toolRun } : {}) };
}

/**
 * `requestModel` for callers that cannot end the run (compaction, prompt hooks): a
 * `continue: false` from a PreModelRequest hook fails the request.
 * @throws what `model.complete` throws, or an Error for the stop.
 */
export async function modelResponse(
  run: RunContext,
  call: ModelCall,
  model?: ModelClient,
): Promise<ModelResponse> {
  const answer = await requestModel(run, call, model);
  if (answer.kind === 'stopped')
    throw new Error('a PreModelRequest hook stopped the request (continue: false)');
  return answer.response;
}

/**
 * The client prompt hooks use (`RunContext.services.model`): `model` behind the model-call hooks,
 * `caller: "hook"`. `run` is read at call time (the run is built after its services).
 */
export function hookModelClient(run: () => RunContext, model: ModelClient): ModelClient {
  return {
    name: model.name,
    complete: (request) =>
      modelResponse(
        run(),
        {
          caller: 'hook',
          system: request.system,
          messages: request.messages,
          tools: request.tools,
          ...(request.signal ? { signal: request.signal } : {}),
        },
        model,
      ),
  };
}

/** The id the client asks for (providers expose `model`), else the last one that answered, else the client's name. */
function modelIdOf(model: ModelClient, run: RunContext): string {
  const own = (model as { model?: unknown }).model;
  return typeof own === 'string' ? own : (run.state.model ?? model.name);
}

/** The run as its tool batch sees it when a PreToolSelection hook narrowed the tools: a call to another tool is "No such tool available". */
function restrictedRun(run: RunContext, offered: ReadonlySet<string>): RunContext {
  const tools = new ToolRegistry(run.tools.list().filter((tool) => offered.has(tool.name)));
  tools.missingToolHint = (name) =>
    run.tools.get(name)
      ? 'a PreToolSelection hook did not offer it for this request'
      : run.tools.missingToolHint?.(name);
  return { ...run, tools };
}
