import type { ObjectContext } from '@restatedev/restate-sdk';
import type { Durability } from '../loop/durability.js';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';

/** The state key under which a session object keeps the calls its run waits on (see `PendingState`). */
export const PENDING_KEY = 'pending';

/** What a session object's state holds while its run waits for decisions: the frozen calls and the awakeable the decisions resolve. */
export interface PendingState {
  readonly calls: readonly PendingCall[];
  readonly awakeable: string;
}

/**
 * The durability seam backed by one Restate invocation: each step is a `ctx.run` journal entry,
 * ids are `ctx.rand.uuidv4()` (seeded by the invocation, the same on a replay), time is
 * `ctx.date.now()`, and waiting for decisions is an awakeable whose id the object's state holds
 * (`PENDING_KEY`), so that the server suspends the run and no worker is held until someone decides.
 */
export function restateDurability(ctx: ObjectContext): Durability {
  return {
    step: <T>(name: string, fn: () => Promise<T>): Promise<T> => ctx.run(name, fn),
    uuid: () => ctx.rand.uuidv4(),
    now: () => ctx.date.now(),
    waitForDecision: async (calls) => {
      const { id, promise } = ctx.awakeable<PendingDecisions>();
      ctx.set<PendingState>(PENDING_KEY, { calls: structuredClone(calls), awakeable: id });
      const decisions = await promise;
      ctx.clear(PENDING_KEY);
      return decisions;
    },
  };
}
