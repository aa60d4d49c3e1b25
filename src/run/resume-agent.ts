import { ConfigError } from '../errors.js';
import { checkDecisions, type PendingDecisions } from '../session/pending-calls.js';
import { checkWaitingSubagents } from '../transcript/subagent-transcripts.js';
import { startSession, type RunOptions, type RunResult } from './run-agent.js';

/**
 * `runAgent` for a saved session whose last run left calls pending (`options.resume` from
 * `loadSession`, whose `pending` lists them): decides them with `decisions` and lets the model go
 * on, in this process (see AgentSession.resume). SessionStart (`resume`) and SessionEnd fire as for runAgent.
 * @throws ConfigError before the session starts when nothing is pending, a decision names a call
 *   that is not pending, or approves another input, or a subagent a call waits in has a transcript
 *   that does not list it; and as runAgent.
 */
export async function resumeAgent(decisions: PendingDecisions, options: RunOptions): Promise<RunResult> {
  const pending = options.resume?.pending ?? [];
  if (pending.length === 0) throw new ConfigError('nothing to decide: the session has no pending tool calls');
  checkDecisions(pending, decisions);
  checkWaitingSubagents(options.transcriptPath ?? options.resume!.transcriptPath, pending);
  const session = await startSession(options);
  try {
    return await session.resume(decisions);
  } finally {
    await session.end(options.signal?.aborted ? 'abort' : 'other');
  }
}
