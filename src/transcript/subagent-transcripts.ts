import { isDeepStrictEqual } from 'node:util';
import { ConfigError, describeError } from '../errors.js';
import { toolResultMessage } from '../messages/messages.js';
import { agentTranscriptPath } from '../session/paths.js';
import { normalizeJson, type PendingCall } from '../session/pending-calls.js';
import { loadSession, type ResumedSession } from '../session/resume.js';
import { subagentSubpath } from '../session/store-keys.js';
import type { TranscriptMirror } from '../session/store-mirror.js';
import { TranscriptWriter, type TranscriptFacts } from './transcript-writer.js';

/*
 * The subagent side of approval that survives a restart: a subagent that stopped with calls
 * waiting saved them in its own transcript (`<session>/subagents/agent-<id>.jsonl`), and the
 * parent's transcript lists the same calls with `agentId` and `parentToolUseId`. The subagent's
 * file is what its conversation resumes from; the parent's list is what decisions are checked
 * against. The two must agree, or nothing is decided (a file changed or lost in between).
 */

/** The parent's pending calls grouped by the subagent they wait in (call order kept). */
export function bySubagent(pending: readonly PendingCall[]): Map<string, PendingCall[]> {
  const groups = new Map<string, PendingCall[]>();
  for (const call of pending)
    if (call.agentId !== undefined) groups.set(call.agentId, [...(groups.get(call.agentId) ?? []), call]);
  return groups;
}

/**
 * The conversation of the subagent `calls` wait in (all of one agent), read back from its file
 * next to `parentTranscriptPath`.
 * @throws ConfigError when the file cannot be read, or does not list exactly `calls` as pending
 *   (same ids, tools, frozen inputs and reasons, in order).
 */
export function loadWaitingSubagent(
  parentTranscriptPath: string,
  calls: readonly PendingCall[],
): ResumedSession {
  const agentId = calls[0]?.agentId ?? '';
  const file = agentTranscriptPath(parentTranscriptPath, agentId);
  const resumed = loadSession(file, { sidechain: true });
  const own = (call: PendingCall) =>
    normalizeJson({ id: call.id, name: call.name, input: call.input, reason: call.reason });
  if (!isDeepStrictEqual(resumed.pending.map(own), calls.map(own))) {
    throw new ConfigError(
      `cannot resume agent ${agentId}: its transcript does not list the calls the session says wait in it (${calls.map((call) => call.id).join(', ')})`,
      { file },
    );
  }
  return resumed;
}

/**
 * Checks every subagent the pending calls wait in before anything runs (see loadWaitingSubagent).
 * @throws ConfigError for the first that does not agree.
 */
export function checkWaitingSubagents(parentTranscriptPath: string, pending: readonly PendingCall[]): void {
  for (const calls of bySubagent(pending).values()) loadWaitingSubagent(parentTranscriptPath, calls);
}

/**
 * The session went on without deciding: each subagent call of `pending` gets `text` as its error
 * result in its subagent's transcript, so that file has every call paired too. A file that cannot
 * be read or written is reported through `warn` (the parent's Agent call is paired either way).
 * With `mirror` (the session store's copy), the new lines go to the store too.
 */
export function pairAbandonedSubagentCalls(
  state: TranscriptFacts & { readonly transcriptPath: string; readonly sessionId: string },
  pending: readonly PendingCall[],
  text: string,
  warn: (text: string) => void,
  mirror?: TranscriptMirror,
): void {
  for (const [agentId, calls] of bySubagent(pending)) {
    let resumed: ResumedSession;
    try {
      resumed = loadWaitingSubagent(state.transcriptPath, calls);
    } catch (error) {
      warn(
        `the waiting calls of agent ${agentId} could not be paired in its transcript: ${describeError(error)}`,
      );
      continue;
    }
    const writer = new TranscriptWriter(
      {
        path: agentTranscriptPath(state.transcriptPath, agentId),
        sessionId: state.sessionId,
        facts: state,
        sidechain: { agentId },
        resume: resumed,
        ...(mirror ? { mirror: (entries) => mirror.send(subagentSubpath(agentId), entries) } : {}),
      },
      (error) => warn(error.message),
    );
    for (const call of calls)
      writer.observer({ type: 'message', message: toolResultMessage(call.id, call.name, text, true) });
    writer.flush();
  }
}
