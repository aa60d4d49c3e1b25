import type { Attributes } from '@opentelemetry/api';
import type { HandlerOrigin, HandlerOutcome } from '../hooks/handler.js';
import type { PermissionDecisionRecord } from '../loop/permission-decision/record.js';

/**
 * Span attributes of one hook handler, in the `hookloop.hook.` namespace (the GenAI conventions
 * have nothing for hooks): event, matcher, handler type, its command or name (`.name`), its
 * settings file (`.source`) and place in it (`.location`).
 */
export function hookStartAttributes(
  event: string,
  matcher: string | undefined,
  origin: HandlerOrigin,
  background: boolean,
): Attributes {
  return {
    'hookloop.hook.event': event,
    ...(matcher !== undefined ? { 'hookloop.hook.matcher': matcher } : {}),
    'hookloop.hook.type': origin.transport,
    'hookloop.hook.name': origin.text,
    'hookloop.hook.source': origin.source,
    ...(origin.location !== undefined ? { 'hookloop.hook.location': origin.location } : {}),
    ...(background ? { 'hookloop.hook.async': true } : {}),
  };
}

/**
 * What a handler answered: `.status` (ok, blocked, failed, timeout), `.exit_code` of a command,
 * `.http.status` of an http hook, `.decision` (deny, allow, ask, block, …), `.timed_out`,
 * `.failed_closed`, `.duration_ms` and the error text of a failure.
 */
export function hookOutcomeAttributes(outcome: HandlerOutcome): Attributes {
  const decision = hookDecision(outcome);
  const exitCode = outcome.raw?.exitCode;
  return {
    'hookloop.hook.status': outcome.status,
    ...(typeof exitCode === 'number' ? { 'hookloop.hook.exit_code': exitCode } : {}),
    ...(outcome.raw?.status !== undefined ? { 'hookloop.hook.http.status': outcome.raw.status } : {}),
    ...(decision !== undefined ? { 'hookloop.hook.decision': decision } : {}),
    'hookloop.hook.timed_out': outcome.status === 'timeout',
    'hookloop.hook.failed_closed': outcome.failClosed,
    'hookloop.hook.duration_ms': Math.round(outcome.durationMs),
    ...(outcome.error !== undefined
      ? { 'error.type': outcome.status === 'timeout' ? 'timeout' : 'hook_failed' }
      : {}),
  };
}

/** The handler's own decision, read from its validated output: `block` for exit 2, else what its JSON says. */
export function hookDecision(outcome: HandlerOutcome): string | undefined {
  if (outcome.status === 'blocked') return 'block';
  if (outcome.failClosed) return 'deny';
  const output = outcome.output as {
    decision?: unknown;
    continue?: unknown;
    hookSpecificOutput?: {
      permissionDecision?: unknown;
      decision?: { behavior?: unknown };
      updatedInput?: unknown;
    };
  };
  const specific = output.hookSpecificOutput;
  const value = specific?.permissionDecision ?? specific?.decision?.behavior ?? output.decision;
  if (typeof value === 'string') return value;
  if (specific?.updatedInput !== undefined) return 'rewrite';
  if (output.continue === false) return 'stop';
  return undefined;
}

/** The `hookloop.permission.` attributes of a settled call (the PermissionDecision record). */
export function decisionAttributes(record: PermissionDecisionRecord): Attributes {
  return {
    'hookloop.permission.decision': record.decision,
    'hookloop.permission.decided_by': record.decidedBy,
    'hookloop.permission.mode': record.mode,
    ...(record.reason !== undefined ? { 'hookloop.permission.reason': record.reason } : {}),
    ...(record.rule
      ? { 'hookloop.permission.rule': record.rule.text, 'hookloop.permission.rule.list': record.rule.list }
      : {}),
    ...(record.rule?.file !== undefined ? { 'hookloop.permission.rule.file': record.rule.file } : {}),
    ...(record.boundary ? { 'hookloop.permission.boundary': record.boundary } : {}),
    ...(record.hook
      ? {
          'hookloop.permission.hook': record.hook.name,
          'hookloop.permission.hook.event': record.hook.event,
          'hookloop.permission.hook.source': record.hook.location ?? record.hook.source,
        }
      : {}),
  };
}
