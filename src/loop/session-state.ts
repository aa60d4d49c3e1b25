import type { HookEventName } from '../hooks/event-names.js';
import type { HookInput, HookPayload } from '../hooks/event-schemas.js';
import type { PermissionMode } from '../permissions/types.js';

/** Events whose payload carries `permission_mode` (spec §2). */
const WITH_MODE: ReadonlySet<HookEventName> = new Set(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PermissionDecision', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop']);
/** Events whose payload carries `effort` (spec §2). */
const WITH_EFFORT: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SubagentStop', 'StopFailure']);

/**
 * Who a subagent's state belongs to. `id` goes on every event of the subagent (`agent_id`); `type`
 * on SubagentStart/SubagentStop, and on its other events only when `typeOnEveryEvent` (the reference
 * reports no `agent_type` on the tool events of an agent hook's subagent).
 */
export interface SubagentIdentity {
  readonly id: string;
  readonly type: string;
  readonly typeOnEveryEvent: boolean;
}

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
   * A complete stdin payload for `event`: the common fields in the reference's order
   * (session_id, transcript_path, cwd, prompt_id, permission_mode, agent_id, agent_type, effort,
   * hook_event_name), then the event's own fields.
   */
  payload<E extends HookEventName>(event: E, fields: HookPayload<E>): HookInput<E> {
    return {
      session_id: this.sessionId,
      transcript_path: this.transcriptPath,
      cwd: this.cwd,
      ...(this.promptId !== undefined ? { prompt_id: this.promptId } : {}),
      ...(WITH_MODE.has(event) ? { permission_mode: this.mode } : {}),
      ...(this.agent !== undefined ? agentFields(event, this.agent) : {}),
      ...(WITH_EFFORT.has(event) ? { effort: { level: this.effort } } : {}),
      hook_event_name: event,
      ...fields,
    } as unknown as HookInput<E>;
  }
}

function agentFields(event: HookEventName, agent: SubagentIdentity): { agent_id: string; agent_type?: string } {
  const withType = agent.typeOnEveryEvent || event === 'SubagentStart' || event === 'SubagentStop';
  return withType ? { agent_id: agent.id, agent_type: agent.type } : { agent_id: agent.id };
}
