import { randomBytes } from 'node:crypto';
import { describeError } from '../errors.js';
import { systemMessage, userMessage, type Message } from '../messages/messages.js';
import type { ModelClient, Usage } from '../model/model-client.js';
import { tallyUsage, type UsageTally } from '../model/usage.js';
import { continuationMessage, extractSummary, summaryRequest } from '../session/compaction-prompt.js';
import { agentTranscriptPath } from '../session/paths.js';
import { modelResponse } from './model-call-hooks.js';
import { fireHook, type RunContext } from './run-context.js';
import { sessionStart } from './session-start.js';

/**
 * Compaction: the conversation is summarized by the session's own model and the summary replaces
 * it, with Claude Code's hooks around it: PreCompact → summary request → SessionStart
 * (`compact`) → PostCompact. Automatic compaction runs between turns when the context the model
 * last reported nears its window; `compactConversation` runs it on demand.
 */

/** When to compact. Token counts are the model's own: input, cache and output tokens of its last answer. */
export interface CompactionOptions {
  /** The model's context window (default 1,000,000: the reference's model). */
  readonly contextWindow?: number;
  /** Compact proactively from this size on (default window − 33,000; a PreCompact block then just skips it). */
  readonly autoCompactTokens?: number;
  /**
   * From this size on the conversation cannot go on uncompacted (default window − 23,000): when the
   * compaction is blocked or fails, the run ends with `blocking_limit` ("Prompt is too long").
   */
  readonly blockingTokens?: number;
}

/** What a compaction needs from the run's options (RunOptions fits). */
export interface CompactionSetup {
  readonly model: ModelClient;
  readonly system?: string;
  /** `false` turns automatic compaction off (on demand still works). */
  readonly compaction?: CompactionOptions | false;
}

/** How a compaction ended. */
export type CompactionOutcome =
  | { readonly kind: 'compacted'; readonly summary: string; readonly preTokens: number }
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'failed'; readonly error: string };

const DEFAULT_WINDOW = 1_000_000;
// Claude Code keeps room for an answer (20k) plus a buffer: it compacted at 970k and had to at 985k of 1M.
const AUTO_MARGIN = 33_000;
const BLOCKING_MARGIN = 23_000;

/** The result text of a run that a needed but blocked or failed compaction ended, as Claude Code words it. */
export const PROMPT_TOO_LONG = 'Prompt is too long';

/** The two thresholds in tokens: compact proactively from `auto` on; from `blocking` on a compaction is required. */
export function compactionThresholds(options: CompactionOptions = {}): { auto: number; blocking: number } {
  const window = options.contextWindow ?? DEFAULT_WINDOW;
  return {
    auto: options.autoCompactTokens ?? window - AUTO_MARGIN,
    blocking: options.blockingTokens ?? window - BLOCKING_MARGIN,
  };
}

/** The context size a model answer reports: input, cache and output tokens. */
export function contextTokensOf(usage: Usage): number {
  return (
    usage.inputTokens +
    (usage.cacheReadInputTokens ?? 0) +
    (usage.cacheCreationInputTokens ?? 0) +
    usage.outputTokens
  );
}

/**
 * The phase between turns: compacts when the context the model last reported reached the
 * automatic threshold. `blocking_limit` when it was past the blocking threshold and the compaction
 * was blocked by a PreCompact hook or failed (the run must end); `continue` otherwise, compacted or not.
 * Never throws.
 */
export async function compactBeforeTurn(
  run: RunContext,
  setup: CompactionSetup,
  totals: UsageTally,
): Promise<'continue' | 'blocking_limit'> {
  if (setup.compaction === false || run.messages.length === 0) return 'continue';
  const { auto, blocking } = compactionThresholds(setup.compaction);
  const tokens = run.state.contextTokens;
  if (tokens < auto) return 'continue';
  const outcome = await compactConversation(run, setup, { trigger: 'auto' }, totals);
  if (outcome.kind === 'failed')
    run.emit({ type: 'warning', text: `automatic compaction failed: ${outcome.error}` });
  // An interrupted compaction is left to the next step, which ends the run as aborted.
  return outcome.kind !== 'compacted' && tokens >= blocking && !run.signal.aborted
    ? 'blocking_limit'
    : 'continue';
}

/**
 * Compacts the conversation now: PreCompact (`trigger`, `custom_instructions`; exit 2 or
 * `decision: "block"` → `blocked`; plain stdout → extra summarizer instructions), one request to
 * the session's model with the conversation and the summary request (same system prompt and tools,
 * text only), SubagentStop for that summarizer (see summarizerStop), SessionStart (`source: "compact"`, `model`; its context becomes a system message after
 * the summary), PostCompact (`compact_summary` = the raw answer). Then the history is replaced by
 * the summary as a user message, and a `compaction` RunEvent records it (the transcript writes its
 * boundary). The summary request's usage is added to `totals` when given. Never throws: a failed
 * request (or an empty answer) is `failed` and leaves the conversation as it was.
 */
export async function compactConversation(
  run: RunContext,
  setup: CompactionSetup,
  request: { readonly trigger: 'auto' | 'manual'; readonly instructions?: string },
  totals?: UsageTally,
): Promise<CompactionOutcome> {
  const started = Date.now();
  const { trigger } = request;
  if (run.messages.length === 0) return { kind: 'failed', error: 'there is no conversation to compact yet' };
  const pre = await fireHook(run, 'PreCompact', {
    trigger,
    custom_instructions: request.instructions ?? null,
  });
  if (pre.blocks.length > 0)
    return { kind: 'blocked', reason: pre.blocks.map((block) => block.reason).join('\n') };

  let answer: string;
  try {
    // Through the model-call hooks, as `caller: "compaction"`.
    const messages = [
      ...run.messages,
      userMessage(
        summaryRequest([...(request.instructions ? [request.instructions] : []), ...pre.plainTexts]),
      ),
    ];
    const response = await modelResponse(
      run,
      {
        caller: 'compaction',
        system: setup.system ?? '',
        messages,
        tools: run.tools.specs(),
        signal: run.signal,
      },
      setup.model,
    );
    if (totals) tallyUsage(totals, response.model ?? setup.model.name, response.usage);
    answer = response.message.text;
  } catch (error) {
    return { kind: 'failed', error: describeError(error) };
  }
  if (extractSummary(answer) === '')
    return { kind: 'failed', error: 'the model answered the summary request without a summary' };
  await summarizerStop(run, answer);

  const { context } = await sessionStart(run, 'compact', run.state.model ?? setup.model.name);
  await fireHook(run, 'PostCompact', { trigger, compact_summary: answer });

  const history: Message[] = [
    userMessage(continuationMessage(extractSummary(answer), trigger)),
    ...(context.length > 0 ? [systemMessage(context.join('\n\n'))] : []),
  ];
  const preTokens = run.state.contextTokens;
  run.messages.splice(0, run.messages.length, ...history);
  run.state.contextTokens = 0;
  run.emit({
    type: 'compaction',
    trigger,
    preTokens,
    summary: answer,
    messages: history,
    durationMs: Date.now() - started,
  });
  return { kind: 'compacted', summary: answer, preTokens };
}

/**
 * Claude Code runs its summarizer as a subagent, and SubagentStop hooks hear it end: `agent_type`
 * "", no SubagentStart, an `agent_transcript_path` that is never written (compaction-auto). hookloop
 * fires the same event for its summary request; what the hooks answer does not change the compaction.
 */
async function summarizerStop(run: RunContext, answer: string): Promise<void> {
  const agentId = `a${randomBytes(8).toString('hex')}`;
  const fields = {
    agent_id: agentId,
    agent_type: '',
    stop_hook_active: false,
    agent_transcript_path: agentTranscriptPath(run.state.transcriptPath, agentId),
    last_assistant_message: answer,
    background_tasks: [],
    session_crons: [],
  };
  await fireHook(run, 'SubagentStop', fields);
}
