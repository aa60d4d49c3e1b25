import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../errors.js';

/**
 * Tool calls waiting for a decision that may come from another process: a run
 * that ends `tool_deferred` saves them in its transcript, and a later `--resume ID --approve ID
 * --deny ID=reason` (or `AgentSession.resume({ decisions })`) continues them.
 */

/**
 * Why a call waits: `defer` (a PreToolUse hook deferred it), `permission_request` (a
 * PermissionRequest hook answered `defer`), `approver` (the approver answered `later`), `batch` (an
 * earlier call of the same message waits, so this one never reached its permission check).
 */
export type PendingReason = 'defer' | 'permission_request' | 'approver' | 'batch';

/** One waiting call. `input` is frozen: the exact input an approval applies to (normalized, as the permission check saw or would see it). */
export interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly reason: PendingReason;
  /** The hook's reason or the permission question, when there was one. */
  readonly message?: string;
  /**
   * Set on a call that waits inside an Agent call's subagent: the subagent's `agent_id` and
   * `agent_type`, and `parentToolUseId`, the id of the Agent call in the parent's conversation
   * (which waits too, without being decidable itself: see agents/waiting-subagent.ts). hookloop's.
   */
  readonly agentId?: string;
  readonly agentType?: string;
  readonly parentToolUseId?: string;
}

/**
 * Thrown by a tool handler whose call waits for decisions on calls of its own (the Agent tool,
 * when calls inside its subagent wait): the loop leaves the call without a result and lists
 * `calls` (each with `agentId`) as pending; `deferred` is the call a hook deferred, as the run reports it.
 */
export class CallsWaiting extends Error {
  readonly calls: readonly PendingCall[];
  readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown } | undefined;
  constructor(
    calls: readonly PendingCall[],
    deferred?: { readonly id: string; readonly name: string; readonly input: unknown },
  ) {
    super(`${calls.length} tool call(s) wait for a decision`);
    this.name = 'CallsWaiting';
    this.calls = calls;
    this.deferred = deferred;
  }
}

/** The id of the call in the run's own conversation that `call` keeps waiting: its own, or its Agent call's. */
export function waitingCallId(call: PendingCall): string {
  return call.parentToolUseId ?? call.id;
}

/**
 * A decision on a pending call. `allow`: run it as if a person approved it now — PreToolUse runs
 * again first, a deny (hook or rule) still wins, and the approval only covers `input` (when given,
 * it must be the pending input). `deny`: the call does not run; `message` is its error result.
 */
export type PendingDecision =
  | { readonly behavior: 'allow'; readonly input?: unknown }
  | { readonly behavior: 'deny'; readonly message?: string };

/** Decisions by tool_use id. A pending call without one goes through the pipeline again (and may wait again). */
export type PendingDecisions = Readonly<Record<string, PendingDecision>>;

/** The error result of a call denied by a decision without a message. */
export const DENIED_WHILE_PENDING = 'The user denied this tool call while it was pending.';

/** The error result of a pending call the session went on without deciding (a new prompt was sent). */
export const UNDECIDED_PENDING =
  'The call did not run: it was waiting for a decision and the session went on without one.';

/** The error result of an approved call whose input changed before it ran (a PreToolUse rewrite on resume). */
export const APPROVAL_INPUT_CHANGED =
  'The call did not run: its input is no longer the input that was approved.';

/**
 * Checks `decisions` against the pending calls before anything runs.
 * @throws ConfigError naming the first decision for a call that is not pending (with the ids that
 *   are), or an approval whose `input` is not the pending input.
 */
export function checkDecisions(pending: readonly PendingCall[], decisions: PendingDecisions): void {
  for (const [id, decision] of Object.entries(decisions)) {
    const matching = pending.filter((candidate) => candidate.id === id);
    // Ids are unique per conversation, not across a session and its subagents: never guess which call is meant.
    if (matching.length > 1)
      throw new ConfigError(
        `decision for ${id}: more than one pending tool call has this id (${matching.map((candidate) => candidate.agentId ?? 'the main conversation').join(', ')}); it cannot be decided by id`,
        { field: id },
      );
    const call = matching[0];
    if (call === undefined) {
      const ids = pending.map((candidate) => candidate.id).join(', ');
      // An Agent call that waits is not decided itself: what waits is inside its subagent.
      if (pending.some((candidate) => candidate.parentToolUseId === id))
        throw new ConfigError(
          `decision for ${id}: the call waits for the calls inside its subagent, not for a decision of its own; decide those (pending: ${ids})`,
          { field: id },
        );
      throw new ConfigError(
        `decision for ${id}: no such pending tool call (${ids === '' ? 'the session has none' : `pending: ${ids}`})`,
        { field: id },
      );
    }
    if (
      decision.behavior === 'allow' &&
      decision.input !== undefined &&
      !isDeepStrictEqual(normalizeJson(decision.input), normalizeJson(call.input))
    ) {
      throw new ConfigError(
        `decision for ${id}: the approved input is not the pending input ${JSON.stringify(call.input)}`,
        { field: id },
      );
    }
  }
}

/** A JSON round trip: frozen objects and plain parsed ones compare alike. */
export function normalizeJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** The `attachment.type` of the transcript line that lists a run's pending calls. */
export const PENDING_CALLS_ATTACHMENT = 'hookloop_pending_tool_calls';

/** Reads a pending-calls attachment's `calls` back (lenient: malformed entries are left out). */
export function pendingCallsOf(value: unknown): PendingCall[] {
  if (!Array.isArray(value)) return [];
  const reasons: readonly string[] = ['defer', 'permission_request', 'approver', 'batch'];
  return value.flatMap((entry: Record<string, unknown>) =>
    entry !== null &&
    typeof entry === 'object' &&
    typeof entry['id'] === 'string' &&
    typeof entry['name'] === 'string' &&
    reasons.includes(String(entry['reason']))
      ? [
          {
            id: entry['id'],
            name: entry['name'],
            input: entry['input'] ?? {},
            reason: entry['reason'] as PendingReason,
            ...(typeof entry['message'] === 'string' ? { message: entry['message'] } : {}),
            ...agentFields(entry),
          },
        ]
      : [],
  );
}

/** A saved entry's subagent fields, all three or none. */
function agentFields(
  entry: Record<string, unknown>,
): Pick<PendingCall, 'agentId' | 'agentType' | 'parentToolUseId'> {
  const { agentId, agentType, parentToolUseId } = entry;
  return typeof agentId === 'string' && typeof agentType === 'string' && typeof parentToolUseId === 'string'
    ? { agentId, agentType, parentToolUseId }
    : {};
}
