import type { HookEventName } from '../hooks/event-names.js';
import type { HookInput, HookPayload } from '../hooks/event-schemas.js';
import { buildPayload, type SubagentIdentity } from '../hooks/payload.js';
import type { PermissionMode } from '../permissions/types.js';

export type { SubagentIdentity } from '../hooks/payload.js';

/**
 * Whoever holds the permission mode: the run's policy (which decides by it and is the only one to
 * change it), or a fixed value. The state reads it and never keeps a copy to keep in step.
 */
export interface ModeOwner {
  readonly mode: PermissionMode;
}

/**
 * The mutable facts of one session that hook payloads report: ids, the current directory (it
 * follows the Bash tool's `cd`), the permission mode (read from its owner, the policy). Owned by
 * the loop; hooks get frozen snapshots.
 */
export class SessionState {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly projectDir: string;
  cwd: string;
  private readonly modeOwner: ModeOwner;
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

  /** `mode`: the policy whose mode payloads report, or a fixed mode (`hooks test`). */
  constructor(init: {
    sessionId: string;
    transcriptPath: string;
    projectDir: string;
    cwd: string;
    mode: PermissionMode | ModeOwner;
  }) {
    this.sessionId = init.sessionId;
    this.transcriptPath = init.transcriptPath;
    this.projectDir = init.projectDir;
    this.cwd = init.cwd;
    this.modeOwner = typeof init.mode === 'string' ? { mode: init.mode } : init.mode;
  }

  /** The current permission mode, as its owner (the run's policy) holds it. */
  get mode(): PermissionMode {
    return this.modeOwner.mode;
  }

  /**
   * A complete stdin payload for `event` (see `buildPayload`: the common fields in the reference's
   * order, then the event's own fields).
   */
  payload<E extends HookEventName>(event: E, fields: HookPayload<E>): HookInput<E> {
    return buildPayload(
      event,
      {
        sessionId: this.sessionId,
        transcriptPath: this.transcriptPath,
        cwd: this.cwd,
        promptId: this.promptId,
        mode: this.mode,
        effort: this.effort,
        agent: this.agent,
      },
      fields,
    );
  }
}
