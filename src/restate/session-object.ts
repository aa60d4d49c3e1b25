import * as fs from 'node:fs';
import * as restate from '@restatedev/restate-sdk';
import { defaultTranscriptPath } from '../run/create-run.js';
import { eventsPathFor } from '../transcript/events-writer.js';
import { startSession } from '../run/run-agent.js';
import { sendAndAwaitDecisions } from '../run/durable-send.js';
import type { RunOptions, RunResult } from '../run/run-options.js';
import { checkDecisions, type PendingCall, type PendingDecisions } from '../session/pending-calls.js';
import type { Message } from '../messages/messages.js';
import { PENDING_KEY, restateDurability, type PendingState } from './restate-durability.js';

/** The default name of the session virtual object (its URL path: `/hookloop-session/<session key>/<handler>`). */
export const SESSION_OBJECT = 'hookloop-session';

/** What a finished prompt reports (a RunResult without the conversation, which `transcript` reads). */
export type DurablePromptResult = Omit<RunResult, 'messages'>;

/**
 * What the `status` handler answers: the id of the session's latest `prompt` invocation (null
 * before the first), whether the session has ended, and, while that prompt waits for decisions,
 * the calls it waits on and the result a local run would have ended with at that point
 * (`terminalReason: 'tool_deferred'`); `waiting` is null otherwise.
 */
export interface DurableSessionStatus {
  readonly invocationId: string | null;
  readonly ended: boolean;
  readonly waiting: { readonly result: DurablePromptResult; readonly calls: readonly PendingCall[] } | null;
}

const INVOCATION_KEY = 'invocation';
const WAITING_RESULT_KEY = 'waiting-result';

/**
 * Builds the RunOptions of one session: the same options a local `runAgent` takes (model, tools,
 * hooks, permissions, MCP, agents). Called on whichever worker runs the session, on every attempt:
 * it must build the same setup each time (no random choices), or the replay diverges.
 */
export type SessionOptionsFactory = (sessionKey: string) => RunOptions | Promise<RunOptions>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A Restate virtual object for hookloop sessions, keyed by session id (one writer per session):
 * - `prompt` (exclusive), input `{ prompt }`: runs the prompt to its end — SessionStart, the turns,
 *   SessionEnd — every model request, hook result and tool handler a journaled step, so a crashed
 *   worker's run finishes on another without repeating them. A call left waiting (`defer`, an
 *   approver's `later`) waits on an awakeable: the server suspends the run until `decide`.
 *   Returns the RunResult without `messages`.
 * - `pending` (shared): the calls waiting for a decision (`[]` when none), each with its frozen input.
 * - `status` (shared): a DurableSessionStatus (the latest prompt's invocation id, and what it waits on).
 * - `transcript` (shared): the conversation as of the last finished prompt.
 * - `decide` (shared), input PendingDecisions (`{ [tool_use_id]: { behavior: 'allow', input } | { behavior: 'deny', message? } }`):
 *   refused (a terminal error naming the call) unless every decision names a pending call and every
 *   `allow` repeats the frozen input it was asked for; then the waiting run goes on with them.
 * - `end` (exclusive): forgets the session's state; a later `prompt` is refused.
 * A session key that is a UUID is the session id; any other key gets a journaled one.
 */
export function sessionObject(options: SessionOptionsFactory, name = SESSION_OBJECT) {
  return restate.object({
    name,
    handlers: {
      prompt: async (
        ctx: restate.ObjectContext,
        request: { prompt: string },
      ): Promise<DurablePromptResult> => {
        if ((await ctx.get<boolean>('ended')) === true)
          throw new restate.TerminalError(`session ${ctx.key} has ended`);
        if (typeof request?.prompt !== 'string')
          throw new restate.TerminalError('prompt: expected { "prompt": string }');
        ctx.set(INVOCATION_KEY, ctx.request().id);
        const durability = restateDurability(ctx);
        const base = await options(ctx.key);
        const sessionId = UUID.test(ctx.key) ? ctx.key : durability.uuid();
        const transcriptFile =
          base.transcript === false
            ? undefined
            : (base.transcriptPath ?? defaultTranscriptPath(base.projectDir, sessionId, base.configDir));
        await rewindFile(ctx, 'transcript:size', transcriptFile);
        // The timeline's events file too, so that a replayed step shows once in `hookloop timeline`.
        if (base.timelineEvents === true && transcriptFile !== undefined)
          await rewindFile(ctx, 'events:size', eventsPathFor(transcriptFile));
        const session = await startSession({ ...base, durability, sessionId });
        let result: RunResult;
        try {
          result = await sendAndAwaitDecisions(session, request.prompt, durability, async (waiting) => {
            // A journaled step: the result has wall-clock fields (durationMs), and a replay must set the same state.
            const report = await ctx.run('waiting:result', () => Promise.resolve(reportOf(waiting)));
            ctx.set(WAITING_RESULT_KEY, report);
          });
        } finally {
          await session.end(base.signal?.aborted ? 'abort' : 'other');
        }
        ctx.clear(WAITING_RESULT_KEY);
        ctx.set<readonly Message[]>('transcript', result.messages);
        return reportOf(result);
      },
      pending: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext) => (await ctx.get<PendingState>(PENDING_KEY))?.calls ?? [],
      ),
      status: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => {
        const calls = (await ctx.get<PendingState>(PENDING_KEY))?.calls;
        const result = await ctx.get<DurablePromptResult>(WAITING_RESULT_KEY);
        const status: DurableSessionStatus = {
          invocationId: (await ctx.get<string>(INVOCATION_KEY)) ?? null,
          ended: (await ctx.get<boolean>('ended')) === true,
          waiting:
            calls !== undefined && calls.length > 0 && result !== null && result !== undefined
              ? { result, calls }
              : null,
        };
        return status;
      }),
      transcript: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext) => (await ctx.get<readonly Message[]>('transcript')) ?? [],
      ),
      decide: restate.handlers.object.shared(
        async (
          ctx: restate.ObjectSharedContext,
          decisions: PendingDecisions,
        ): Promise<{ decided: string[] }> => {
          const waiting = await ctx.get<PendingState>(PENDING_KEY);
          if (waiting === null || waiting === undefined)
            throw new restate.TerminalError(`session ${ctx.key}: no tool call is waiting for a decision`);
          refuseUnnamedInputs(decisions);
          try {
            checkDecisions(waiting.calls, decisions);
          } catch (error) {
            throw new restate.TerminalError((error as Error).message);
          }
          ctx.resolveAwakeable(waiting.awakeable, decisions);
          return { decided: Object.keys(decisions) };
        },
      ),
      end: async (ctx: restate.ObjectContext): Promise<void> => {
        ctx.clearAll();
        ctx.set('ended', true);
      },
    },
  });
}

/** A RunResult as the journal and the callers carry it: JSON, without the conversation. */
function reportOf(result: RunResult): DurablePromptResult {
  const { messages: _messages, ...reported } = result;
  return JSON.parse(JSON.stringify(reported)) as DurablePromptResult;
}

/**
 * The JSONL transcript stays the user-visible record: a replay of this prompt (a retry after a
 * crash, on this machine) writes its lines again, so the file is first cut back to the size it had
 * when the prompt's first attempt began (a journaled step), and hook scripts that read
 * `transcript_path` see each line once.
 */
async function rewindFile(ctx: restate.ObjectContext, step: string, file: string | undefined): Promise<void> {
  if (file === undefined) return;
  const size = await ctx.run(step, () => Promise.resolve(fs.existsSync(file) ? fs.statSync(file).size : 0));
  if (fs.existsSync(file) && fs.statSync(file).size > size) fs.truncateSync(file, size);
}

/** A durable approval must say what it approves: an `allow` without `input` could approve an input nobody saw. */
function refuseUnnamedInputs(decisions: PendingDecisions): void {
  if (decisions === null || typeof decisions !== 'object')
    throw new restate.TerminalError(
      'decide: expected { "<tool_use_id>": { "behavior": "allow", "input": … } | { "behavior": "deny" } }',
    );
  for (const [id, decision] of Object.entries(decisions)) {
    if (decision?.behavior !== 'allow' && decision?.behavior !== 'deny')
      throw new restate.TerminalError(`decision for ${id}: behavior must be "allow" or "deny"`);
    if (decision.behavior === 'allow' && decision.input === undefined)
      throw new restate.TerminalError(
        `decision for ${id}: an approval must name the input it approves (the pending call's frozen input)`,
      );
  }
}
