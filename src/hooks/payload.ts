import type { HookInput, HookPayload } from './event-schemas.js';
import { HOOK_EVENT_NAMES, eventSpec, type HookEventName } from './event-table.js';

/**
 * The one payload builder: the loop (`SessionState.payload`), `hookloop hooks test` and hot
 * reload's ConfigChange all build an event's stdin payload here, so a hook sees the same fields
 * and field order whoever fired it.
 */

/**
 * Who a subagent's state belongs to. `id` goes on every event of the subagent (`agent_id`); `type`
 * on the events whose schema requires `agent_type` (SubagentStart/SubagentStop), and on its other
 * events only when `typeOnEveryEvent` (the reference reports no `agent_type` on the tool events of
 * an agent hook's subagent).
 */
export interface SubagentIdentity {
  readonly id: string;
  readonly type: string;
  readonly typeOnEveryEvent: boolean;
}

/**
 * The session facts a payload reports. `mode` and `effort` go only on the events whose input
 * schema has `permission_mode` / `effort`; `promptId` once a prompt exists; `agent` inside a subagent.
 */
export interface PayloadSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly promptId?: string | undefined;
  readonly mode?: string | undefined;
  /** Reasoning effort level (`medium`). */
  readonly effort?: string | undefined;
  readonly agent?: SubagentIdentity | undefined;
}

/** Which common fields each event's schema carries, read once from the table. */
const COMMON_FIELDS = new Map(
  HOOK_EVENT_NAMES.map((event) => {
    const shape = eventSpec(event).input.shape as Record<
      string,
      { safeParse(value: unknown): { success: boolean } } | undefined
    >;
    return [
      event,
      {
        mode: shape['permission_mode'] !== undefined,
        effort: shape['effort'] !== undefined,
        agentType: shape['agent_type']?.safeParse(undefined).success === false,
      },
    ];
  }),
);

/**
 * A complete stdin payload for `event`: the common fields in the reference's order (session_id,
 * transcript_path, cwd, prompt_id, permission_mode, agent_id, agent_type, effort, hook_event_name),
 * then the event's own `fields`. Never throws.
 */
export function buildPayload<E extends HookEventName>(
  event: E,
  session: PayloadSession,
  fields: HookPayload<E>,
): HookInput<E> {
  const carries = COMMON_FIELDS.get(event);
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    ...(session.promptId !== undefined ? { prompt_id: session.promptId } : {}),
    ...(carries?.mode && session.mode !== undefined ? { permission_mode: session.mode } : {}),
    ...(session.agent !== undefined ? agentFields(session.agent, carries?.agentType === true) : {}),
    ...(carries?.effort && session.effort !== undefined ? { effort: { level: session.effort } } : {}),
    hook_event_name: event,
    ...fields,
  } as unknown as HookInput<E>;
}

function agentFields(
  agent: SubagentIdentity,
  typeRequired: boolean,
): { agent_id: string; agent_type?: string } {
  return agent.typeOnEveryEvent || typeRequired
    ? { agent_id: agent.id, agent_type: agent.type }
    : { agent_id: agent.id };
}
