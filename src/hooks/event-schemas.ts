import type { z } from 'zod';
import { EVENT_TABLE, HOOK_EVENT_NAMES, type EventTable } from './event-table.js';

/**
 * The input and output schema of every event, and the types derived from them. The schemas are
 * written once, in the event table's entries (src/hooks/events/); the TypeScript types
 * (`HookInput<E>`, `HookOutput<E>`), the validation of hook answers and the JSON Schema export all
 * derive from them.
 */

export { permissionDecisionSchema } from './events/tool-events.js';
export { CONFIG_CHANGE_SOURCES } from './events/session-events.js';

/** Input and output schema per event, read from the event table. */
export const hookEventSchemas = Object.freeze(
  Object.fromEntries(
    HOOK_EVENT_NAMES.map((event) => [
      event,
      { input: EVENT_TABLE[event].input, output: EVENT_TABLE[event].output },
    ]),
  ),
) as {
  readonly [E in keyof EventTable]: {
    readonly input: EventTable[E]['input'];
    readonly output: EventTable[E]['output'];
  };
};

/**
 * The event map: each event name with its stdin payload type and its allowed output type.
 * `on<E>()`, the dispatcher and the merge table are all typed from it.
 */
export type HookEvents = {
  [E in keyof EventTable]: {
    input: z.infer<EventTable[E]['input']>;
    output: z.infer<EventTable[E]['output']>;
  };
};

/** The stdin payload of event `E` (what a command hook reads, what a callback receives). */
export type HookInput<E extends keyof HookEvents> = HookEvents[E]['input'];

/** What a hook of event `E` may answer; `undefined` (or `{}`) means no opinion. */
export type HookOutput<E extends keyof HookEvents> = HookEvents[E]['output'];

/** The fields the payload builder fills in itself (see payload.ts). */
export type CommonPayloadField =
  | 'session_id'
  | 'transcript_path'
  | 'cwd'
  | 'hook_event_name'
  | 'prompt_id'
  | 'permission_mode'
  | 'effort'
  | 'agent_id'
  | 'agent_type';

/** A payload without the fields the engine fills in itself (session_id, transcript_path, cwd, hook_event_name, …). */
export type HookPayload<E extends keyof HookEvents> = Omit<HookInput<E>, CommonPayloadField>;
