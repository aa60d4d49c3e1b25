import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';

/**
 * The seam between the loop and a durable-execution engine. The loop never imports an engine: it
 * hands every model request, every hook firing's merged result and every tool handler to `step`,
 * and takes its ids and timestamps from `uuid` and `now`, so that an engine that journals them can
 * replay a crashed run on another worker without running anything that already completed, and the
 * replay takes the same branches.
 *
 * Contract:
 * - `step(name, fn)` runs `fn` at most once per completed step: when the step was journaled before
 *   (a replay), its recorded result comes back and `fn` does not run. A crash *during* `fn` runs it
 *   again (at least once inside a step, exactly once across completed steps), which is why a tool
 *   handler gets its call's `tool_use_id` (`ToolContext.toolUseId`) as an idempotency key.
 *   `fn`'s result must survive `JSON.stringify`/`JSON.parse` (no classes, no functions, no
 *   `undefined` that matters); a throw from `fn` propagates (an engine may retry it). `name`
 *   is stable for the same step of the same run: an engine may use it to detect a replay that
 *   diverges from its journal.
 * - `uuid()` and `now()` (resolves to milliseconds since the epoch) return the journaled value on a replay.
 * - `waitForDecision(pending)` waits for the decisions on calls a run left waiting (a `defer`, an
 *   approver's `later`); `undefined` means "do not wait": the run ends `tool_deferred` as it does
 *   in-process, and a later `resume` decides. An engine may suspend the run while it waits.
 */
export interface Durability {
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  uuid(): string;
  now(): Promise<number>;
  waitForDecision(pending: readonly PendingCall[]): Promise<PendingDecisions | undefined>;
}

/**
 * Today's behaviour, the default: steps run directly (nothing is journaled), ids are random,
 * time is the clock's, and a waiting call ends the run (`waitForDecision` resolves undefined).
 */
export const inProcessDurability: Durability = {
  step: (_name, fn) => fn(),
  uuid: () => randomUUID(),
  now: () => Promise.resolve(Date.now()),
  waitForDecision: () => Promise.resolve(undefined),
};

/** The run's durability: its own when one was given (`RunOptions.durability`), else the in-process one. */
export function durabilityOf(run: { readonly durability?: Durability }): Durability {
  return run.durability ?? inProcessDurability;
}

/** A failure recorded in a step's journal entry: enough to rebuild an error the loop's callers read (name, message, status fields). */
interface FailureRecord {
  readonly name: string;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

/**
 * Runs `fn` as one step of the run's durability. In-process it is `fn()` itself (errors keep
 * their class). With an engine, a throw is journaled as data and thrown again, rebuilt as an
 * Error with the same name, message and own JSON fields (a provider's `status`, `retryable`), so
 * that a failed model request is not retried by the engine but ends the turn as it does locally.
 */
export async function journaled<T>(
  run: { readonly durability?: Durability },
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  const durability = durabilityOf(run);
  // A step inside a step (an Agent call's subagent inside its tool step, an agent hook's subagent
  // inside its hook step) is part of the outer one: engines journal one level only.
  if (durability === inProcessDurability || insideStep.getStore() === true) return fn();
  const entry = await durability.step(occurrence(durability, name), () =>
    insideStep.run(
      true,
      async (): Promise<{ ok: true; value: T } | { ok: false; failure: FailureRecord }> => {
        try {
          return { ok: true, value: await fn() };
        } catch (error) {
          return { ok: false, failure: failureRecord(error) };
        }
      },
    ),
  );
  if (entry.ok) return entry.value;
  throw Object.assign(new Error(entry.failure.message), entry.failure.fields, { name: entry.failure.name });
}

/** Set while a step's function runs. */
const insideStep = new AsyncLocalStorage<boolean>();

/** Per durability (one per run attempt), how often each step name was used: a name used again (a hook fired again on resume) gets `#2`, `#3`. */
const seen = new WeakMap<Durability, Map<string, number>>();

function occurrence(durability: Durability, name: string): string {
  let counts = seen.get(durability);
  if (counts === undefined) seen.set(durability, (counts = new Map()));
  const count = (counts.get(name) ?? 0) + 1;
  counts.set(name, count);
  return count === 1 ? name : `${name}#${count}`;
}

function failureRecord(error: unknown): FailureRecord {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { name: error.name, message: error.message, fields };
}
