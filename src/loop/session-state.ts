import type { HookEventName } from '../hooks/event-names.js';
import type { HookInput, HookPayload } from '../hooks/event-schemas.js';
import { buildPayload, type SubagentIdentity } from '../hooks/payload.js';
import type { PermissionMode } from '../permissions/types.js';

export type { SubagentIdentity } from '../hooks/payload.js';

/**
 * The mutable facts of one session that hook payloads report: ids, the current directory (it
 * follows the Bash tool's `cd`), the permission mode. Owned by the loop; hooks get frozen snapshots.
 */
export class SessionState {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly projectDir: string;
  cwd: string;
  mode: PermissionMode;
  promptId: string | undefined;
  /** Set by a SessionStart hook's `sessionTitle`; reported as `session_title` to UserPromptSubmit hooks. */
  sessionTitle: string | undefined;
  /** Claude Code reports a reasoning effort level; hookloop has none and reports `medium` like the reference's default. */
  readonly effort = 'medium';
  /** The model id of the last answer; reported as `model` by SessionStart(compact) and in transcripts. */
  model: string | undefined;
  /** The context size the model last reported (input, cache and output tokens of its last answer); auto-compaction compares it with its thresholds. */
  contextTokens = 0;
  /** Set in the state of a subagent (see SubagentIdentity); undefined in the main session. */
  agent: SubagentIdentity | undefined;

  constructor(init: { sessionId: string; transcriptPath: string; projectDir: string; cwd: string; mode: PermissionMode }) {
    this.sessionId = init.sessionId;
    this.transcriptPath = init.transcriptPath;
    this.projectDir = init.projectDir;
    this.cwd = init.cwd;
    this.mode = init.mode;
  }

  /**
   * A complete stdin payload for `event` (see `buildPayload`: the common fields in the reference's
   * order, then the event's own fields).
   */
  payload<E extends HookEventName>(event: E, fields: HookPayload<E>): HookInput<E> {
    return buildPayload(event, { sessionId: this.sessionId, transcriptPath: this.transcriptPath, cwd: this.cwd, promptId: this.promptId, mode: this.mode, effort: this.effort, agent: this.agent }, fields);
  }
}
