import type { HookPayload } from '../hooks/event-schemas.js';
import { systemMessage, userMessage, type Message } from '../messages/messages.js';
import { ConfigError } from '../errors.js';
import { emptyTally, type UsageTally } from '../model/usage.js';
import {
  checkDecisions,
  UNDECIDED_PENDING,
  type PendingCall,
  type PendingDecisions,
} from '../session/pending-calls.js';
import { checkWaitingSubagents, pairAbandonedSubagentCalls } from '../transcript/subagent-transcripts.js';
import { checkContinuable } from '../loop/continue-waiting.js';
import { runLoop } from '../loop/agent-loop.js';
import { durabilityOf } from '../loop/durability.js';
import { compactConversation, type CompactionOutcome } from '../loop/compaction.js';
import { stopBackgroundShells } from '../tools/builtin/background-shells.js';
import { createRun, startRunSandboxFor } from './create-run.js';
import {
  contextLabel,
  promptBlockedResult,
  promptStoppedResult,
  queuedPromptNotice,
  successLabel,
} from '../loop/hook-text.js';
import { abandonPending, decidePending, endOfDecidedBatch } from '../loop/deferred-approval.js';
import {
  DEFAULT_MAX_TURNS,
  DEFAULT_STOP_CONTINUATIONS,
  type LoopEnd,
  type LoopOptions,
} from '../loop/loop-types.js';
import { appendMessage, fireHook, phaseBoundary, type RunContext } from '../loop/run-context.js';
import type { RunOptions, RunResult } from './run-options.js';
import type { PermissionMode } from '../permissions/types.js';
import { sessionStart, type SessionStartOutcome } from '../loop/session-start.js';
import { SKILL_LISTING_START, skillListing } from '../skills/skill-tool.js';
import { memoryReminder } from '../memory/memory-text.js';
import { instructionsLoaded } from '../loop/instructions-loaded.js';
import { attachResourceMentions } from '../loop/mcp-resource-mentions.js';
import { expandPrompt } from '../loop/prompt-expansion.js';
import { mentionedFiles } from '../loop/prompt-attachments.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import { MCP_INSTRUCTIONS_START, mcpInstructionsSection } from '../mcp/server-instructions.js';

export type { RunOptions, RunResult, TerminalReason } from './run-options.js';
export { defaultTranscriptPath } from './create-run.js';

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
  /** The names of the tools the model is offered now (built-in, Agent, Skill, `mcp__<server>__<tool>`). */
  readonly toolNames: readonly string[];
  /** Each MCP server of the session and its state now (`connected`, `failed`, `closed`, …), in configuration order. */
  readonly mcpServers: readonly { readonly name: string; readonly status: string }[];
  /**
   * Switches the permission mode for the calls that follow (the Agent SDK's `setPermissionMode`).
   * @throws ConfigError for a mode hookloop does not know.
   */
  setPermissionMode(mode: PermissionMode): void;
  /**
   * Runs `prompt` to the end of its turn. `signal` interrupts this prompt only: the run ends
   * `aborted`, every call paired, and the session can take the next prompt. Never throws for model, tool or hook failures.
   */
  send(prompt: string, options?: { readonly signal?: AbortSignal }): Promise<RunResult>;
  /**
   * Continues the calls the last run left pending (RunResult.pending, or a resumed session's
   * `pending`) with `decisions` by tool_use id, then the model turns as `send` does (no new prompt).
   * See decidePending for what an approval may do. A `send` instead pairs each pending call with an
   * error result saying it was not decided. hookloop's (Claude Code resumes a deferred call only by
   * running its PreToolUse hooks again).
   * @throws ConfigError (nothing runs) when nothing is pending, a decision names a call that is not
   *   pending (or an id more than one pending call has), or approves another input; or a call waits
   *   inside a subagent that cannot be continued (no such agent tool, its transcript disagrees).
   */
  resume(decisions: PendingDecisions, options?: { readonly signal?: AbortSignal }): Promise<RunResult>;
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
  let opening: SessionStartOutcome | undefined = await sessionStart(
    run,
    options.resume ? 'resume' : 'startup',
  );
  // `sessionTitle` is reported to UserPromptSubmit hooks.
  run.state.sessionTitle = opening.sessionTitle;
  // The memory files, each reported to InstructionsLoaded, go with the first prompt (a resumed conversation holds them).
  const memory = options.resume ? [] : (options.memory ?? []);
  await instructionsLoaded(run, memory);
  let memoryText = memoryReminder(memory);
  // The skills the model may invoke go with the first prompt, after the hooks' context, as Claude Code lists them.
  // Then what the session lists, in Claude Code's order: the servers' instructions, the skills.
  const instructions = mcpInstructionsSection(
    (run.mcp?.clients ?? []).filter((client) => client.state === 'connected'),
  );
  const listing = skillListing(options.skills ?? []);
  const listed = [instructions, listing].filter((text): text is string => text !== undefined);
  if (listed.length > 0) opening = { ...opening, context: [...opening.context, ...listed] };
  // Calls the last run left waiting (from this process, or saved in a resumed transcript): see deferred-approval.ts.
  let pending: readonly PendingCall[] = (options.resume?.pending ?? []).map(
    ({ assistantUuid: _uuid, ...call }) => call,
  );
  let queue: Promise<unknown> = Promise.resolve();
  let ended = false;
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };
  // Each prompt gets its own view of the run: its own interrupt signal and denial list, the same session.
  const view = (signal: AbortSignal | undefined): RunContext => ({
    ...run,
    signal: signal ? AbortSignal.any([run.signal, signal]) : run.signal,
    permissionDenials: [],
  });
  return {
    sessionId: run.state.sessionId,
    transcriptPath: run.state.transcriptPath,
    messages: run.messages,
    get toolNames() {
      return run.tools.list().map((tool) => tool.name);
    },
    get mcpServers() {
      return (run.mcp?.clients ?? []).map((client) => ({ name: client.name, status: client.state }));
    },
    setPermissionMode: (mode) => run.policy.setMode(mode),
    send: (prompt, sendOptions = {}) =>
      serial(async () => {
        const started = Date.now();
        const turnRun = view(sendOptions.signal);
        const totals = emptyTally();
        let turns = 0;
        abandonPending(turnRun, pending);
        pairAbandonedSubagentCalls(
          turnRun.state,
          pending,
          UNDECIDED_PENDING,
          (text) => turnRun.emit({ type: 'warning', text }),
          run.transcriptMirror,
        );
        pending = [];
        const opened = await submitFirstPrompt(turnRun, prompt, opening, memoryText, options.skills ?? []);
        opening = undefined;
        memoryText = undefined;
        const queued = opened.queued;
        const outcome: LoopEnd =
          opened.ended !== undefined
            ? { result: opened.ended, isError: false, terminalReason: 'prompt_blocked', stopReason: null }
            : await runLoop(
                turnRun,
                mainLoop(
                  options,
                  totals,
                  () => ++turns,
                  queued !== undefined
                    ? (midTurn) => deliverQueuedPrompt(turnRun, queued, midTurn)
                    : undefined,
                ),
              );
        pending = outcome.pending ?? [];
        run.emit({
          type: 'prompt_finished',
          promptId: run.state.promptId ?? '',
          terminalReason: outcome.terminalReason,
          isError: outcome.isError,
        });
        await settleTranscripts(run);
        const { sessionId } = run.state;
        return {
          ...outcome,
          numTurns: turns,
          sessionId,
          durationMs: Date.now() - started,
          usage: totals.total,
          modelUsage: totals.byModel,
          permissionDenials: turnRun.permissionDenials,
          messages: run.messages,
        };
      }),
    resume: (decisions, resumeOptions = {}) =>
      serial(async () => {
        const started = Date.now();
        if (pending.length === 0)
          throw new ConfigError('nothing to decide: the session has no pending tool calls');
        checkDecisions(pending, decisions);
        // Calls waiting inside a subagent: its tool must be here to continue it, its transcript must agree.
        checkContinuable(run, pending);
        checkWaitingSubagents(run.state.transcriptPath, pending);
        const turnRun = view(resumeOptions.signal);
        const totals = emptyTally();
        let turns = 0;
        run.state.promptId ??= durabilityOf(run).uuid();
        const batch = await decidePending(turnRun, pending, decisions);
        pending = [];
        // SessionStart's context of a resumed process reaches the model with the results.
        if (opening !== undefined && opening.context.length > 0)
          appendMessage(turnRun, systemMessage(opening.context.join('\n\n')));
        opening = undefined;
        const outcome: LoopEnd =
          batch.kind === 'continue'
            ? await runLoop(
                turnRun,
                mainLoop(options, totals, () => ++turns),
              )
            : endOfDecidedBatch(batch);
        pending = outcome.pending ?? [];
        await settleTranscripts(run);
        return {
          ...outcome,
          numTurns: turns,
          sessionId: run.state.sessionId,
          durationMs: Date.now() - started,
          usage: totals.total,
          modelUsage: totals.byModel,
          permissionDenials: turnRun.permissionDenials,
          messages: run.messages,
        };
      }),
    compact: (instructions, compactOptions = {}) =>
      serial(async () => {
        const outcome = await compactConversation(view(compactOptions.signal), options, {
          trigger: 'manual',
          ...(instructions ? { instructions } : {}),
        });
        await settleTranscripts(run);
        return outcome;
      }),
    end: (reason = 'other') =>
      serial(async () => {
        if (ended) return;
        ended = true;
        await fireHook(run, 'SessionEnd', { reason }).catch(() => []);
        run.emit({ type: 'session_ended', reason });
        // Background hooks still running are killed at exit, as the reference kills them (async-hook).
        await run.background.stop();
        // So are the commands Bash started with run_in_background (the reference waits for them in -p; see compatibility.md).
        stopBackgroundShells(run.state.sessionId);
        await run.sandbox?.close();
        await run.mcp?.close();
        await settleTranscripts(run);
      }),
  };
}

/** Writes the transcript lines still collected and waits until the session store (if any) took every line so far. */
async function settleTranscripts(run: RunContext): Promise<void> {
  run.flushTranscript?.();
  await run.transcriptMirror?.settle();
}

/** The main session's loop: the session's model, system prompt and limits, Stop, compaction, background hooks and a queued prompt. */
function mainLoop(
  options: RunOptions,
  totals: UsageTally,
  countTurn: () => number,
  queuedPrompt?: (midTurn: boolean) => Promise<void>,
): LoopOptions {
  return {
    model: options.model,
    system: options.system ?? '',
    maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
    maxStopContinuations: options.maxStopContinuations ?? DEFAULT_STOP_CONTINUATIONS,
    role: { kind: 'main', compaction: options, ...(queuedPrompt ? { queuedPrompt } : {}) },
    totals,
    countTurn,
  };
}

/**
 * UserPromptSubmit for a prompt; with the SessionStart context (first prompt) its context becomes
 * one system message after the prompt; the memory reminder (when given) is user text just before it. A SessionStart `initialUserMessage` becomes the first user
 * turn and the prompt is `queued`, as in the reference (session-start-outputs). A prompt calling
 * one of `commands` (`/name args`) is expanded in its place (prompt-expansion.ts); a prompt's
 * `@server:uri` resource mentions are attached after it (mcp-resource-mentions.ts).
 */
async function submitFirstPrompt(
  run: RunContext,
  prompt: string,
  opening: SessionStartOutcome | undefined,
  memory: string | undefined,
  commands: readonly SkillDefinition[],
): Promise<{ ended?: string; queued?: string }> {
  const first = opening?.initialUserMessage ?? prompt;
  run.state.promptId = durabilityOf(run).uuid();
  run.emit({ type: 'prompt_started', promptId: run.state.promptId, prompt: first });
  const submit = await submitPrompt(run, first);
  if (submit.blocked !== undefined || submit.stopped !== undefined)
    return {
      ended:
        submit.stopped ??
        promptBlockedResult(submit.blocked ?? '', submit.suppressOriginalPrompt ? undefined : first),
    };
  // Before the prompt (or its expansion), in the same user turn, as Claude Code sends CLAUDE.md.
  if (memory !== undefined) appendMessage(run, userMessage(memory));
  // A slash command's text takes the prompt's place (after UserPromptSubmit, as in Claude Code).
  const expansion = await expandPrompt(run, submit.sent, commands);
  if (expansion.kind === 'blocked') return { ended: promptBlockedResult(expansion.reason, first) };
  if (expansion.kind === 'ended') return { ended: expansion.result };
  // Hook context first, then what the session lists (skills), as in Claude Code's first system text.
  const [hookContext, listed] = splitListing(opening?.context ?? []);
  const context = [
    ...hookContext,
    ...submit.context,
    ...(expansion.kind === 'expanded' ? expansion.context : []),
    ...listed,
  ];
  if (expansion.kind === 'none') {
    // `@path` mentions of a plain prompt travel ahead of it, as for a command's body.
    for (const text of await mentionedFiles(run, submit.sent)) appendMessage(run, userMessage(text));
    appendPrompt(run, first, submit.sent);
    // `@server:uri` mentions bring the resource's content right after the prompt, as in Claude Code.
    if (run.mcp) await attachResourceMentions(run, submit.sent, run.mcp.clients);
  }
  if (context.length > 0) appendMessage(run, systemMessage(context.join('\n\n')));
  return opening?.initialUserMessage !== undefined ? { queued: prompt } : {};
}

/**
 * UserPromptSubmit for `prompt`: the block reason (a block wins over any rewrite), or the prompt to
 * send (`updatedPrompt`, hookloop's extension: see PromptSubmitMerge) and the labelled context
 * paragraphs (additionalContext, then plain stdout).
 */
async function submitPrompt(
  run: RunContext,
  prompt: string,
): Promise<{
  blocked?: string;
  suppressOriginalPrompt?: boolean;
  stopped?: string;
  sent: string;
  context: string[];
}> {
  const title = run.state.sessionTitle;
  await phaseBoundary(run, 'before-prompt');
  const submit = await fireHook(run, 'UserPromptSubmit', {
    prompt,
    ...(title !== undefined ? { session_title: title } : {}),
  });
  if (submit.blocks.length > 0)
    return {
      blocked: submit.blocks.map((block) => block.reason).join('\n'),
      suppressOriginalPrompt: submit.suppressOriginalPrompt,
      sent: prompt,
      context: [],
    };
  if (submit.stop !== undefined)
    return { stopped: promptStoppedResult(submit.stop.reason), sent: prompt, context: [] };
  return {
    sent: submit.updatedPrompt ?? prompt,
    context: [
      ...submit.contexts.map((text) => contextLabel('UserPromptSubmit', undefined, text)),
      ...submit.plainTexts.map((text) => successLabel('UserPromptSubmit', undefined, text)),
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
  const refused = submit.blocked ?? submit.stopped;
  if (refused !== undefined) {
    run.emit({ type: 'warning', text: `UserPromptSubmit blocked the queued prompt: ${refused}` });
    return;
  }
  if (midTurn)
    appendMessage(run, systemMessage([queuedPromptNotice(submit.sent), ...submit.context].join('\n\n')));
  else {
    appendPrompt(run, prompt, submit.sent);
    if (submit.context.length > 0) appendMessage(run, systemMessage(submit.context.join('\n\n')));
  }
}

/** The user turn of a prompt: what was sent, after a `prompt_rewritten` event naming what was typed when a hook rewrote it (the transcript keeps both). */
function appendPrompt(run: RunContext, typed: string, sent: string): void {
  if (sent !== typed) run.emit({ type: 'prompt_rewritten', typed, sent });
  appendMessage(run, userMessage(sent));
}

/** The opening's paragraphs split into the hooks' context and the session's skill listing (always last). */
function splitListing(context: readonly string[]): [string[], string[]] {
  const isListing = (text: string) =>
    text.startsWith(SKILL_LISTING_START) || text.startsWith(MCP_INSTRUCTIONS_START);
  let start = context.length;
  while (start > 0 && isListing(context[start - 1]!)) start--;
  return [context.slice(0, start), context.slice(start)];
}
