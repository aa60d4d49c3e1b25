import { randomUUID } from 'node:crypto';
import { describeError, ProviderError } from '../errors.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import type { HookPayload } from '../hooks/event-schemas.js';
import { mergeBlocking, mergeCommon, mergeSessionStart } from '../hooks/merge.js';
import { readSessionEnv } from '../hooks/session-env.js';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/mcp-client.js';
import type { McpServersOption } from '../mcp/mcp-servers.js';
import { systemMessage, userMessage, type AssistantMessage, type Message } from '../messages/messages.js';
import type { ModelClient, Usage } from '../model/model-client.js';
import { emptyTally, tallyUsage, type UsageTally } from '../model/usage.js';
import type { Tracer } from '@opentelemetry/api';
import type { Approver, PermissionMode, PermissionRules } from '../permissions/types.js';
import { compactBeforeTurn, compactConversation, contextTokensOf, PROMPT_TOO_LONG, type CompactionOptions, type CompactionOutcome } from '../session/compaction.js';
import type { SandboxOptions } from '../sandbox/run-sandbox.js';
import type { ResumedSession } from '../session/resume.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { deliverBackground, wokenByBackground } from './background-delivery.js';
import { createRun, startRunSandboxFor } from './create-run.js';
import { distinctCallIds, type DistinctCalls } from './distinct-call-ids.js';
import { contextLabel, promptBlockedResult, queuedPromptNotice, stopBlockingError, stopContext, stopFeedback, successLabel } from './hook-text.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';
import type { RunObserver } from './run-events.js';
import { runToolBatch } from './tool-batch.js';

export { defaultTranscriptPath } from './create-run.js';

/** Options of one agent run. Only `model` and `projectDir` are required. */
export interface RunOptions {
  readonly model: ModelClient;
  /** The project directory: workspace root, `CLAUDE_PROJECT_DIR`, and the starting cwd. */
  readonly projectDir: string;
  /** Tools offered to the model; default: none. Pass `builtinTools()` for Bash, Read, Write, Edit, Glob, Grep. */
  readonly tools?: ToolRegistry | readonly AnyTool[];
  readonly hooks?: HookEngine;
  /**
   * The permission policy. `autoMode`: hookloop's stand-in for Claude Code's `auto` mode (whose
   * classifier approves or refuses what would need approval): run with `mode: "dontAsk"` and the
   * refusals of that mode are the classifier's — they fire PermissionDenied, which fires nowhere
   * else, as in Claude Code. `ruleSources`: the file each rule came from, index for index with
   * `rules` (reported by the PermissionDecision event).
   */
  readonly permissions?: { readonly rules?: Partial<PermissionRules>; readonly mode?: PermissionMode; readonly additionalDirectories?: readonly string[]; readonly autoMode?: boolean; readonly ruleSources?: Partial<PermissionRules> };
  /**
   * Files and directories the run's configuration was read from — settings files (`--settings`
   * ones included), plugin directories, MCP configs: no rule, mode or hook lets the model write
   * them, only a person. Always protected besides: the project's `.claude/` and `.mcp.json`,
   * `~/.claude/`, `~/.claude.json`, the config folder (`configDir`, `$HOOKLOOP_HOME`,
   * `$CLAUDE_CONFIG_DIR`), and git's files (`.git/`, `.gitattributes`, …). Compared by real path.
   */
  readonly configurationFiles?: readonly string[];
  /** Decides calls the policy asks about; default: the headless approver, which denies. */
  readonly approver?: Approver;
  readonly system?: string;
  /** Maximum model requests in the run (default 100). */
  readonly maxTurns?: number;
  /** How many extra turns Stop hooks may force (default 8, as Claude Code). */
  readonly maxStopContinuations?: number;
  /** The session id, a UUID (default: a new random one). @throws ConfigError (from runAgent/startSession) when it is not a UUID. */
  readonly sessionId?: string;
  /**
   * The folder that plays Claude Code's `~/.claude` (transcripts go to its `projects/`); default
   * `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  readonly configDir?: string;
  /** Where the transcript is written, reported as `transcript_path`; default `<configDir>/projects/<slug of projectDir>/<session>.jsonl`. */
  readonly transcriptPath?: string;
  /** Write the JSONL transcript (default true). */
  readonly transcript?: boolean;
  /** Continue a saved session (`loadSession`): its id, transcript and conversation; SessionStart fires with `source: "resume"`. */
  readonly resume?: ResumedSession;
  /** When to compact automatically (see CompactionOptions); `false`: never on its own. */
  readonly compaction?: CompactionOptions | false;
  readonly signal?: AbortSignal;
  readonly observers?: readonly RunObserver[];
  /** Where the run's spans go (telemetry/run-tracer.ts); default: the global tracer if an SDK is registered, else none. */
  readonly tracer?: Tracer;
  /** Append the events `hookloop timeline` shows to `<session>.events.ndjson` next to the transcript (the CLI does). Default false. */
  readonly timelineEvents?: boolean;
  /** Extra environment for tool processes (kept even for provider credentials, which Bash does not inherit from `process.env`). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Claude Code's OS sandbox for Bash: the `sandbox` settings (`enabled`, `autoAllowBashIfSandboxed`,
   * `filesystem`, `network`, …) plus `protectedPaths` (see SandboxOptions). Off by default.
   */
  readonly sandbox?: SandboxOptions;
  /**
   * MCP servers (Claude Code's `mcpServers` shape, `{ name: { command, args } | { type: "http", url } }`,
   * or entries from `loadMcpConfig`): connected before SessionStart, their tools offered as
   * `mcp__<server>__<tool>`, ended with the session (see docs/mcp.md).
   */
  readonly mcpServers?: McpServersOption;
  /**
   * Asks a person an MCP elicitation no Elicitation hook answered (the CLI's interactive mode asks
   * at the terminal); default: nobody is asked and it is cancelled, as in Claude Code's `-p`.
   */
  readonly elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
}

/** How a run ended, in Claude Code's `terminal_reason` vocabulary where it has one. */
export type TerminalReason = 'completed' | 'hook_stopped' | 'tool_deferred' | 'max_turns' | 'aborted' | 'aborted_tools' | 'api_error' | 'prompt_blocked' | 'blocking_limit';

/** The outcome of a run; the CLI's `--output-format json` prints it in Claude Code's field names. */
export interface RunResult {
  /** The final assistant text ("" when a hook ended the run). */
  readonly result: string;
  readonly isError: boolean;
  readonly terminalReason: TerminalReason;
  /** The last model stop reason, or `tool_deferred`; null when the model was never called. */
  readonly stopReason: string | null;
  readonly numTurns: number;
  readonly sessionId: string;
  readonly durationMs: number;
  /** Tokens summed over every model request of the run (cache counts when the provider reported them). */
  readonly usage: Usage;
  /** The same sums per model id (as the provider reported it, else the client's name). */
  readonly modelUsage?: Readonly<Record<string, Usage>>;
  readonly permissionDenials: readonly { tool_name: string; tool_use_id: string; tool_input: unknown }[];
  readonly deferredToolUse?: { readonly id: string; readonly name: string; readonly input: unknown };
  readonly apiErrorStatus?: number | null;
  /** The whole conversation, every tool call paired. */
  readonly messages: readonly Message[];
}

const DEFAULT_MAX_TURNS = 100;
const DEFAULT_STOP_CONTINUATIONS = 8;

/**
 * Runs one prompt to completion through a fixed pipeline:
 * SessionStart → UserPromptSubmit → (model → tool batch → PostToolBatch)* → Stop → SessionEnd.
 * Never throws for model, tool or hook failures: they end the run with a `terminalReason`
 * (`api_error`, `aborted`, …) and every tool call paired; SessionEnd always fires.
 * @throws ConfigError for invalid permission rules in `options.permissions`, or a `sessionId` that is not a UUID.
 */
export async function runAgent(prompt: string, options: RunOptions): Promise<RunResult> {
  const session = await startSession(options);
  try {
    return await session.send(prompt);
  } finally {
    await session.end(options.signal?.aborted ? 'abort' : 'other');
  }
}

/** Why a session ended, as SessionEnd reports it (`prompt_input_exit`: the user left an interactive session). */
export type SessionEndReason = HookPayload<'SessionEnd'>['reason'];

/**
 * A session that takes one prompt after another (interactive mode, embedders). Contract: SessionStart
 * fired once when it was started; each `send` is UserPromptSubmit → turns → Stop; `end` fires SessionEnd.
 * Prompts and compactions run one at a time, in call order. The conversation, the transcript and the
 * environment carry over from prompt to prompt.
 */
export interface AgentSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  /** The conversation so far (a live view; every tool call paired between prompts). */
  readonly messages: readonly Message[];
  /**
   * Runs `prompt` to the end of its turn. `signal` interrupts this prompt only: the run ends
   * `aborted`, every call paired, and the session can take the next prompt. Never throws for model, tool or hook failures.
   */
  send(prompt: string, options?: { readonly signal?: AbortSignal }): Promise<RunResult>;
  /** Compacts the conversation now (`trigger: "manual"`, `instructions` as `custom_instructions`); see compactConversation. */
  compact(instructions?: string, options?: { readonly signal?: AbortSignal }): Promise<CompactionOutcome>;
  /** Fires SessionEnd with `reason` (default `other`); later calls do nothing. */
  end(reason?: SessionEndReason): Promise<void>;
}

/**
 * Starts a session: SessionStart (`startup`, or `resume` with `options.resume`), its env files and
 * outputs; their context goes to the model with the first prompt. With `options.sandbox.enabled`
 * the OS sandbox starts first (a warning when it cannot, unless `failIfUnavailable`).
 * @throws ConfigError for invalid permission rules in `options.permissions`, a `sessionId` that
 *   is not a UUID, or a sandbox that cannot start with `failIfUnavailable`.
 */
export async function startSession(options: RunOptions): Promise<AgentSession> {
  const sandbox = await startRunSandboxFor(options);
  let run: RunContext;
  try {
    run = createRun(options, sandbox.sandbox);
  } catch (error) {
    await sandbox.sandbox?.close();
    throw error;
  }
  if (sandbox.warning !== undefined) run.emit({ type: 'warning', text: sandbox.warning });
  for (const text of options.resume?.warnings ?? []) run.emit({ type: 'warning', text: `resume: ${text}` });
  await run.mcp?.start();
  let opening: SessionOpening | undefined = await beginSession(run, options.resume ? 'resume' : 'startup');
  let queue: Promise<unknown> = Promise.resolve();
  let ended = false;
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };
  // Each prompt gets its own view of the run: its own interrupt signal and denial list, the same session.
  const view = (signal: AbortSignal | undefined): RunContext => ({ ...run, signal: signal ? AbortSignal.any([run.signal, signal]) : run.signal, permissionDenials: [] });
  return {
    sessionId: run.state.sessionId,
    transcriptPath: run.state.transcriptPath,
    messages: run.messages,
    send: (prompt, sendOptions = {}) =>
      serial(async () => {
        const started = Date.now();
        const turnRun = view(sendOptions.signal);
        const totals = emptyTally();
        let turns = 0;
        const opened = await submitFirstPrompt(turnRun, prompt, opening);
        opening = undefined;
        const outcome: LoopEnd =
          opened.blocked !== undefined
            ? { result: promptBlockedResult(opened.blocked.reason, opened.blocked.prompt), isError: false, terminalReason: 'prompt_blocked', stopReason: null }
            : await converse(turnRun, options, totals, () => ++turns, opened.queued);
        run.emit({ type: 'prompt_finished', promptId: run.state.promptId ?? '', terminalReason: outcome.terminalReason, isError: outcome.isError });
        const { sessionId } = run.state;
        return { ...outcome, numTurns: turns, sessionId, durationMs: Date.now() - started, usage: totals.total, modelUsage: totals.byModel, permissionDenials: turnRun.permissionDenials, messages: run.messages };
      }),
    compact: (instructions, compactOptions = {}) => serial(() => compactConversation(view(compactOptions.signal), options, { trigger: 'manual', ...(instructions ? { instructions } : {}) })),
    end: (reason = 'other') =>
      serial(async () => {
        if (ended) return;
        ended = true;
        await fireHook(run, 'SessionEnd', { reason }).catch(() => []);
        run.emit({ type: 'session_ended', reason });
        // Background hooks still running are killed at exit, as the reference kills them (async-hook).
        await run.background.stop();
        await run.sandbox?.close();
        await run.mcp?.close();
      }),
  };
}

/** What SessionStart left for the first prompt: labelled context, and an `initialUserMessage` to send before it. */
interface SessionOpening {
  readonly context: readonly string[];
  readonly initialUserMessage?: string;
}

/**
 * SessionStart (`source` startup or resume). What its hooks export through `CLAUDE_ENV_FILE` joins
 * the environment of tool processes; `sessionTitle` is reported to UserPromptSubmit hooks.
 */
async function beginSession(run: RunContext, source: 'startup' | 'resume'): Promise<SessionOpening> {
  const start = mergeSessionStart(await fireHook(run, 'SessionStart', { source }, source));
  const warn = (text: string) => run.emit({ type: 'warning', text });
  Object.assign(run.env, await readSessionEnv(run.configDir, run.state.sessionId, { ...process.env, ...run.env }, warn));
  run.state.sessionTitle = start.sessionTitle;
  return {
    context: [...start.plainTexts.map((text) => successLabel('SessionStart', source, text)), ...start.contexts.map((text) => contextLabel('SessionStart', undefined, text))],
    ...(start.initialUserMessage !== undefined ? { initialUserMessage: start.initialUserMessage } : {}),
  };
}

/**
 * UserPromptSubmit for a prompt; with the SessionStart context (first prompt) its context becomes
 * one system message after the prompt. A SessionStart `initialUserMessage` becomes the first user
 * turn and the prompt is `queued`, as in the reference (session-start-outputs).
 */
async function submitFirstPrompt(run: RunContext, prompt: string, opening: SessionOpening | undefined): Promise<{ blocked?: { reason: string; prompt: string }; queued?: string }> {
  const first = opening?.initialUserMessage ?? prompt;
  run.state.promptId = randomUUID();
  run.emit({ type: 'prompt_started', promptId: run.state.promptId, prompt: first });
  const submit = await submitPrompt(run, first);
  if (submit.blocked !== undefined) return { blocked: { reason: submit.blocked, prompt: first } };
  const context = [...(opening?.context ?? []), ...submit.context];
  appendMessage(run, userMessage(first));
  if (context.length > 0) appendMessage(run, systemMessage(context.join('\n\n')));
  return opening?.initialUserMessage !== undefined ? { queued: prompt } : {};
}

/** UserPromptSubmit for `prompt`: the block reason, or the labelled context paragraphs (additionalContext, then plain stdout). */
async function submitPrompt(run: RunContext, prompt: string): Promise<{ blocked?: string; context: string[] }> {
  const title = run.state.sessionTitle;
  await run.hooks.boundary('before-prompt');
  const submitted = await fireHook(run, 'UserPromptSubmit', { prompt, ...(title !== undefined ? { session_title: title } : {}) });
  const submit = mergeBlocking(submitted, 'UserPromptSubmit');
  if (submit.blocks.length > 0) return { blocked: submit.blocks.map((block) => block.reason).join('\n'), context: [] };
  return {
    context: [
      ...submit.contexts.map((text) => contextLabel('UserPromptSubmit', undefined, text)),
      ...mergeCommon(submitted).plainTexts.map((text) => successLabel('UserPromptSubmit', undefined, text)),
    ],
  };
}

/**
 * Delivers the queued prompt: after a tool batch as system text next to the results (the model is
 * mid-turn, as the reference does it), or as the next user turn when the model had stopped. A
 * UserPromptSubmit block drops it (reported as a warning).
 */
async function deliverQueuedPrompt(run: RunContext, prompt: string, midTurn: boolean): Promise<void> {
  const submit = await submitPrompt(run, prompt);
  if (submit.blocked !== undefined) {
    run.emit({ type: 'warning', text: `UserPromptSubmit blocked the queued prompt: ${submit.blocked}` });
    return;
  }
  if (midTurn) appendMessage(run, systemMessage([queuedPromptNotice(prompt), ...submit.context].join('\n\n')));
  else {
    appendMessage(run, userMessage(prompt));
    if (submit.context.length > 0) appendMessage(run, systemMessage(submit.context.join('\n\n')));
  }
}

type LoopEnd = Omit<RunResult, 'sessionId' | 'durationMs' | 'usage' | 'modelUsage' | 'permissionDenials' | 'messages' | 'numTurns'>;

/** Model turns until the model stops and Stop hooks agree, a hook ends the run, or a limit is hit. */
async function converse(run: RunContext, options: RunOptions, totals: UsageTally, countTurn: () => number, queued?: string): Promise<LoopEnd> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  let pending = queued;
  let continuations = 0;
  let lastStopReason: string | null = null;
  let lastText = '';
  for (;;) {
    if (run.signal.aborted) return { result: lastText, isError: true, terminalReason: 'aborted', stopReason: lastStopReason };
    const turn = countTurn();
    if (turn > maxTurns) return { result: `Reached the maximum number of turns (${maxTurns})`, isError: true, terminalReason: 'max_turns', stopReason: lastStopReason };
    // Claude Code ends such a run with a synthetic message whose stop_reason is stop_sequence (compaction-precompact-block-at-limit).
    if ((await compactBeforeTurn(run, options, totals)) === 'blocking_limit') return { result: PROMPT_TOO_LONG, isError: true, terminalReason: 'blocking_limit', stopReason: 'stop_sequence' };
    deliverBackground(run);
    let assistant: AssistantMessage;
    let repeated: DistinctCalls['repeated'];
    try {
      run.emit({ type: 'model_request', turn, model: options.model.name });
      const response = await options.model.complete({
        system: options.system ?? '',
        messages: run.messages,
        tools: run.tools.specs(),
        signal: run.signal,
        onStream: (event) => run.emit({ type: 'model_stream', turn, event }),
      });
      ({ message: assistant, repeated } = distinctCallIds(response.message));
      tallyUsage(totals, response.model ?? options.model.name, response.usage);
      run.state.model = response.model ?? options.model.name;
      run.state.contextTokens = contextTokensOf(response.usage);
      lastStopReason = response.stopReason;
      run.emit({ type: 'model_response', turn, text: assistant.text, toolCalls: assistant.toolCalls.length, usage: response.usage, model: run.state.model, stopReason: response.stopReason });
    } catch (error) {
      return failTurn(run, error, lastText);
    }
    appendMessage(run, assistant);
    lastText = assistant.text;

    if (assistant.toolCalls.length > 0) {
      const batch = await runToolBatch(run, assistant, undefined, repeated);
      if (batch.kind === 'continue') {
        if (pending !== undefined) await deliverQueuedPrompt(run, pending, true);
        pending = undefined;
        continue;
      }
      if (batch.kind === 'tool_deferred') return { result: '', isError: false, terminalReason: 'tool_deferred', stopReason: 'tool_deferred', deferredToolUse: batch.deferred };
      return { result: '', isError: batch.kind !== 'hook_stopped', terminalReason: batch.kind, stopReason: lastStopReason };
    }

    if (pending !== undefined) {
      await deliverQueuedPrompt(run, pending, false);
      pending = undefined;
      continue;
    }

    await run.hooks.boundary('before-stop');
    const stop = mergeBlocking(
      await fireHook(run, 'Stop', { stop_hook_active: continuations > 0, last_assistant_message: assistant.text, background_tasks: [], session_crons: [] }),
      'Stop',
    );
    const wantsMore = stop.blocks.length > 0 || stop.contexts.length > 0;
    // The cap bounds hook-forced turns: past it the hooks still run, but their block is overridden.
    if (!wantsMore || stop.stop || continuations >= (options.maxStopContinuations ?? DEFAULT_STOP_CONTINUATIONS)) {
      if (wantsMore && !stop.stop) {
        run.emit({ type: 'warning', text: `Stop hooks asked for more than ${continuations} continuations; the limit ends the run` });
        // Claude Code reports an empty `result` when its cap overrides a Stop block (stop-block-forever).
        return { result: '', isError: false, terminalReason: 'completed', stopReason: lastStopReason };
      } else if (!stop.stop && continuations < (options.maxStopContinuations ?? DEFAULT_STOP_CONTINUATIONS) && (await wokenByBackground(run))) {
        continuations++;
        continue;
      }
      return { result: assistant.text, isError: false, terminalReason: 'completed', stopReason: lastStopReason };
    }
    continuations++;
    if (stop.blocks.length > 0) {
      appendMessage(run, userMessage(stop.blocks.map((block) => stopFeedback(block.reason)).join('\n\n')));
      const labelled = stop.blocks.filter((block) => block.labelled !== undefined).map((block) => stopBlockingError(block.labelled!));
      if (labelled.length > 0) appendMessage(run, systemMessage(labelled.join('\n\n')));
    }
    if (stop.contexts.length > 0) appendMessage(run, userMessage(stop.contexts.map(stopContext).join('\n\n')));
  }
}

/** A failed model request ends the run through StopFailure (observers only, not awaited for a decision). */
async function failTurn(run: RunContext, error: unknown, lastText: string): Promise<LoopEnd> {
  const aborted = run.signal.aborted;
  const message = describeError(error);
  const status = error instanceof ProviderError ? (error.status ?? null) : null;
  if (!aborted) {
    await fireHook(run, 'StopFailure', { error: errorCategory(status), last_assistant_message: message }, errorCategory(status));
  }
  return aborted
    ? { result: lastText, isError: true, terminalReason: 'aborted', stopReason: null }
    : // Claude Code ends such a run with a synthetic assistant message whose stop_reason is
      // stop_sequence, and reports it (conformance stop-failure-api-error).
      { result: message, isError: true, terminalReason: 'api_error', stopReason: 'stop_sequence', apiErrorStatus: status };
}

/** StopFailure's `error` matcher value. The reference reported `unknown` for an HTTP 400. */
function errorCategory(status: number | null): string {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status !== null && status >= 500) return 'server_error';
  return 'unknown';
}
