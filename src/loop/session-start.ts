import { readSessionEnv } from '../hooks/session-env.js';
import { contextLabel, successLabel } from './hook-text.js';
import { fireHook, type RunContext } from './run-context.js';

/** What a SessionStart left: its labelled context paragraphs, and the fields only a session's start uses. */
export interface SessionStartOutcome {
  /** `SessionStart:<source> hook success: <stdout>` paragraphs, then `SessionStart hook additional context: <text>` ones. */
  readonly context: readonly string[];
  readonly initialUserMessage?: string;
  readonly sessionTitle?: string;
}

/**
 * The one SessionStart phase (`startup`, `resume`, and `compact` after a compaction): fires the
 * event, adds what its hooks exported through `CLAUDE_ENV_FILE` to the environment of tool
 * processes, and labels its context as Claude Code does. `model` goes with `compact` only.
 * Never throws.
 */
export async function sessionStart(
  run: RunContext,
  source: 'startup' | 'resume' | 'compact',
  model?: string,
): Promise<SessionStartOutcome> {
  const start = await fireHook(run, 'SessionStart', { source, ...(model !== undefined ? { model } : {}) });
  // A compaction without SessionStart hooks has nothing new to read; a session's start always reads (a resumed session's files).
  if (source !== 'compact' || start.outcomes.length > 0) {
    Object.assign(
      run.env,
      await readSessionEnv(run.configDir, run.state.sessionId, { ...process.env, ...run.env }, (text) =>
        run.emit({ type: 'warning', text }),
      ),
    );
  }
  return {
    context: [
      ...start.plainTexts.map((text) => successLabel('SessionStart', source, text)),
      ...start.contexts.map((text) => contextLabel('SessionStart', undefined, text)),
    ],
    ...(start.initialUserMessage !== undefined ? { initialUserMessage: start.initialUserMessage } : {}),
    ...(start.sessionTitle !== undefined ? { sessionTitle: start.sessionTitle } : {}),
  };
}
