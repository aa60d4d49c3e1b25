import type { z } from 'zod';
import type { CommonMerge, MergeRule } from '../merge/rule.js';

/** What `hookloop hooks test` knows when it makes up an event's own fields (see `EventSpec.example`). */
export interface ExampleContext {
  /** `--tool`; always set for events with `acceptsIf` (the CLI requires it there). */
  readonly toolName: string | undefined;
  /** `--input`, normalized as the model's input would be; `{}` without it. */
  readonly toolInput: Record<string, unknown>;
  /** `--response` (parsed JSON), undefined without it. */
  readonly response: unknown;
  /** `--prompt`. */
  readonly prompt: string | undefined;
  readonly projectDir: string;
  /** A fresh `toolu_…` id and a fresh agent id, for the events that carry one. */
  readonly toolUseId: string;
  readonly agentId: string;
  /** The built-in tools' specs, for the model-call events' typical main-loop request; none when absent. */
  readonly tools?: readonly {
    readonly name: string;
    readonly description: string;
    readonly inputSchema: Record<string, unknown>;
  }[];
}

/** Timeouts that differ on one event (seconds): `command` replaces the command hooks' 600 s default; `clamp` bounds every handler's timeout, the default being `min`. */
export interface EventTimeouts {
  readonly command?: number;
  readonly clamp?: { readonly min: number; readonly max: number };
}

/**
 * Everything hookloop knows about one hook event, in one place (one table per event, so that nothing else restates a fact about it).
 * Every per-event list in the code — which events accept `if`, which fail closed, which cancel
 * siblings, which carry `permission_mode`, how answers merge, what `hooks test` prints — is derived
 * from these entries (see event-table.ts); adding an event is adding one entry.
 *
 * - `input` / `output`: the Zod schemas of the stdin payload and of what a hook may answer (strict:
 *   a typed callback's unknown field is a HookContractError; external hooks are read leniently).
 *   `permission_mode`, `effort` and a required `agent_type` in `input` decide which common fields
 *   the payload builder adds.
 * - `matchField`: the payload field a matcher is tested against; undefined = matchers are ignored.
 * - `acceptsIf`: the event is about one tool call, so `if` conditions (permission rules) apply; a
 *   handler with `if` never runs elsewhere, as in Claude Code.
 * - `gate`: the event decides whether what it is about happens (a call, a permission, a prompt): an
 *   in-process hook that throws or breaks its contract refuses (fails closed), and a refusal ends the
 *   chain of in-process hooks.
 * - `failClosed`: the event can block, so `onFailure: "block"` turns a failing handler into a block;
 *   elsewhere that setting has no effect (and is warned about).
 * - `cancelSiblings`: one external handler's refusal aborts its still-running siblings.
 * - `decidesStop`: the event asks whether the agent may stop; a refusal makes it take another turn.
 * - `outlivesAbort`: the event reports the end of a run, an abort included: the run's aborted signal does not cancel it.
 * - `plainTextIsContext`: a command hook's plain stdout is context for the model (and capped like `additionalContext`).
 * - `envFile`: command hooks get a `CLAUDE_ENV_FILE` whose exports reach later tool processes.
 * - `extension`: a hookloop extension Claude Code does not have (docs/hooks.md lists them); settings
 *   using it still load in Claude Code, which ignores the unknown event.
 * - `merge`: the rule combining several answers into the typed merged result `fire` returns.
 * - `rewrite`: how one in-process answer changes what the next in-process hook sees (PreToolUse
 *   `updatedInput`, PostToolUse `updatedToolOutput`); undefined = answers change nothing.
 * - `example`: the event's own fields as `hooks test` makes them up (the loop's field order).
 */
export interface EventSpec<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  M extends CommonMerge = CommonMerge,
> {
  readonly input: I;
  readonly output: O;
  readonly matchField: (keyof z.infer<I> & string) | undefined;
  readonly acceptsIf: boolean;
  readonly gate: boolean;
  readonly failClosed: boolean;
  readonly cancelSiblings: boolean;
  readonly decidesStop: boolean;
  readonly outlivesAbort: boolean;
  readonly plainTextIsContext: boolean;
  readonly envFile: boolean;
  readonly extension: boolean;
  readonly timeouts: EventTimeouts;
  readonly merge: MergeRule<z.infer<O>, M>;
  readonly rewrite:
    | ((
        input: Readonly<Record<string, unknown>>,
        output: z.infer<O>,
      ) => Readonly<Record<string, unknown>> | undefined)
    | undefined;
  readonly example: (context: ExampleContext) => Record<string, unknown>;
}

type Flag =
  | 'acceptsIf'
  | 'gate'
  | 'failClosed'
  | 'cancelSiblings'
  | 'decidesStop'
  | 'outlivesAbort'
  | 'plainTextIsContext'
  | 'envFile'
  | 'extension';

/** An entry as written: the flags default to false, `timeouts` to none, `rewrite` and `matchField` to undefined. */
export type EventInit<I extends z.ZodObject, O extends z.ZodType, M extends CommonMerge> = Pick<
  EventSpec<I, O, M>,
  'input' | 'output' | 'merge' | 'example'
> &
  Partial<Pick<EventSpec<I, O, M>, Flag | 'timeouts' | 'rewrite' | 'matchField'>>;

/**
 * One table entry, with defaults filled in. The merge rule's answer type must accept the event's
 * output type (a compile error otherwise), so a rule never reads a field the event cannot carry.
 * @throws Error (at module load) when `gate` is set without `failClosed`: a gate that cannot block is a contradiction.
 */
export function defineEvent<I extends z.ZodObject, O extends z.ZodType, M extends CommonMerge>(
  init: EventInit<I, O, M>,
): EventSpec<I, O, M> {
  const spec: EventSpec<I, O, M> = {
    matchField: undefined,
    acceptsIf: false,
    gate: false,
    failClosed: false,
    cancelSiblings: false,
    decidesStop: false,
    outlivesAbort: false,
    plainTextIsContext: false,
    envFile: false,
    extension: false,
    timeouts: {},
    rewrite: undefined,
    ...init,
  };
  if (spec.gate && !spec.failClosed) throw new Error('defineEvent: a gate event must fail closed');
  return Object.freeze(spec);
}
