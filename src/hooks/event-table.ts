import type { z } from 'zod';
import type { CommonMerge } from './merge/rule.js';
import type { HandlerOutcome } from './outcome.js';
import type { EventSpec } from './events/define-event.js';
import { PostCompact, PreCompact } from './events/compact-events.js';
import { Elicitation, ElicitationResult } from './events/mcp-events.js';
import { InstructionsLoaded } from './events/instructions-events.js';
import { UserPromptExpansion } from './events/expansion-events.js';
import { PermissionDecision } from './events/permission-decision-event.js';
import { PostModelResponse, PreModelRequest, PreToolSelection } from './events/model-events.js';
import {
  ConfigChange,
  Notification,
  SessionEnd,
  SessionStart,
  UserPromptSubmit,
} from './events/session-events.js';
import { Stop, StopFailure, SubagentStart, SubagentStop } from './events/stop-events.js';
import {
  PermissionDenied,
  PermissionRequest,
  PostToolBatch,
  PostToolUse,
  PostToolUseFailure,
  PreToolUse,
} from './events/tool-events.js';

/**
 * The event table: every event hookloop fires, each with its one entry (see `EventSpec` for what an
 * entry says). The names, the types (`HookInput<E>`, `HookOutput<E>`, the merged result of `fire`)
 * and every per-event list are derived from it. Adding an event, a hookloop extension included
 * (`extension: true`), is one `defineEvent` entry in src/hooks/events/ and one line here; the
 * order here is the order `hooks list` and error messages name the events in.
 */
export const EVENT_TABLE = {
  SessionStart,
  InstructionsLoaded,
  UserPromptSubmit,
  UserPromptExpansion,
  PreToolUse,
  PermissionRequest,
  PermissionDenied,
  PermissionDecision,
  Notification,
  PostToolUse,
  PostToolUseFailure,
  PostToolBatch,
  SubagentStart,
  SubagentStop,
  Stop,
  StopFailure,
  SessionEnd,
  ConfigChange,
  PreCompact,
  PostCompact,
  Elicitation,
  ElicitationResult,
  // hookloop extensions (docs/hooks.md "Model-call events"):
  PreModelRequest,
  PreToolSelection,
  PostModelResponse,
} as const;

/** The table's type: each event name with its entry. */
export type EventTable = typeof EVENT_TABLE;

/** One of the events hookloop fires, spelled as in Claude Code's hook protocol (or, for an extension, in its style). */
export type HookEventName = keyof EventTable;

/** Every event hookloop fires, in table order. */
export const HOOK_EVENT_NAMES: readonly HookEventName[] = Object.freeze(
  Object.keys(EVENT_TABLE) as HookEventName[],
);

/** An entry seen without its event's types, for code that handles every event alike. */
export type AnyEventSpec = EventSpec<z.ZodObject, z.ZodType, CommonMerge>;

/** The entry of `event`. */
export function eventSpec(event: HookEventName): AnyEventSpec {
  // The one widening: code that serves every event reads the entry without the event's types.
  return EVENT_TABLE[event] as unknown as AnyEventSpec;
}

/** The events whose entry has `flag` set, in table order. */
function eventsWith(
  flag:
    | 'acceptsIf'
    | 'gate'
    | 'failClosed'
    | 'cancelSiblings'
    | 'decidesStop'
    | 'outlivesAbort'
    | 'plainTextIsContext'
    | 'envFile'
    | 'extension',
): ReadonlySet<string> {
  return new Set(HOOK_EVENT_NAMES.filter((event) => eventSpec(event)[flag]));
}

/** Events about one tool call: matchers test `tool_name` and `if` conditions apply (`acceptsIf`). */
export const TOOL_EVENTS: ReadonlySet<string> = eventsWith('acceptsIf');
/** Events that decide whether what they are about happens (`gate`): in-process hooks fail closed there. */
export const GATE_EVENTS: ReadonlySet<string> = eventsWith('gate');
/** Events that can block, where `onFailure: "block"` has an effect (`failClosed`). */
export const FAIL_CLOSED_EVENTS: ReadonlySet<string> = eventsWith('failClosed');
/** Events whose refusal means "do not stop yet" (`decidesStop`). */
export const STOP_EVENTS: ReadonlySet<string> = eventsWith('decidesStop');
/** Events a run's abort does not cancel (`outlivesAbort`). */
export const ENDING_EVENTS: ReadonlySet<string> = eventsWith('outlivesAbort');
/** Events whose plain stdout is context for the model (`plainTextIsContext`). */
export const PLAIN_CONTEXT_EVENTS: ReadonlySet<string> = eventsWith('plainTextIsContext');
/** hookloop's own events, which Claude Code does not fire (`extension`). */
export const EXTENSION_EVENTS: ReadonlySet<string> = eventsWith('extension');

/** The merged result of event `E`'s answers: its merge rule's result type (`PreToolUseMerge`, `BlockingMerge`, …). */
export type MergedResult<E extends HookEventName> = ReturnType<EventTable[E]['merge']['merge']>;

/**
 * What firing event `E` returns: the merged result, plus every handler's outcome in merge order and
 * whether an in-process refusal ended the chain early (`shortCircuited`).
 */
export type HookResult<E extends HookEventName> = MergedResult<E> & {
  readonly outcomes: readonly HandlerOutcome[];
  readonly shortCircuited: boolean;
};

/** Events whose `hookSpecificOutput` carries `additionalContext` (read from the output schemas). */
export type ContextEvent = {
  [E in HookEventName]: TakesContext<z.infer<EventTable[E]['output']>> extends true ? E : never;
}[HookEventName];
type TakesContext<Output> = Output extends { hookSpecificOutput?: unknown }
  ? 'hookSpecificOutput' extends keyof Output
    ? 'additionalContext' extends keyof NonNullable<Output['hookSpecificOutput']>
      ? true
      : false
    : false
  : false;

/**
 * Combines `outcomes` (in merge order) with `event`'s merge rule. The outcomes must come from
 * handlers of `event` (the transports validated each output against its schema). Never throws.
 */
export function mergeOutcomes<E extends HookEventName>(
  event: E,
  outcomes: readonly HandlerOutcome[],
): MergedResult<E> {
  const merge = eventSpec(event).merge.merge as (answers: readonly HandlerOutcome[]) => MergedResult<E>;
  return merge(outcomes);
}

/** The value `event`'s matchers test: the payload's `matchField` when it is a string; undefined = every handler matches. */
export function matchValueOf(
  event: HookEventName,
  input: Readonly<Record<string, unknown>>,
): string | undefined {
  const field = eventSpec(event).matchField;
  const value = field === undefined ? undefined : input[field];
  return typeof value === 'string' ? value : undefined;
}

/** True when this one answer refuses what `event` is about (a blocking exit, a deny, a block); see `MergeRule.refuses`. */
export function refuses(event: HookEventName, outcome: HandlerOutcome): boolean {
  return outcome.status === 'blocked' || eventSpec(event).merge.refuses(outcome.output);
}
