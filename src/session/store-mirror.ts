import { describeError } from '../errors.js';
import type { SessionStore, SessionStoreEntry } from './session-store.js';

/**
 * The copy of a session's transcript lines that goes to a SessionStore: the transcript writers
 * hand it each batch of lines once they are in the local file, and the session waits for it
 * before a prompt's result is returned.
 */
export interface TranscriptMirror {
  /**
   * Queues `entries` for the main transcript (`subpath` undefined) or a subagent's. Returns at
   * once; the appends run one at a time, in queue order (batches of one key queued back to back go
   * as one `append`). Never throws.
   */
  send(subpath: string | undefined, entries: readonly SessionStoreEntry[]): void;
  /** Resolves when every entry queued so far was appended or failed. Never rejects. */
  settle(): Promise<void>;
}

/**
 * A mirror of session `sessionId` into `store` under `projectKey`. The first `append` that rejects
 * is reported through `warn` as one sentence (later failures are not reported again); the entries
 * of a failed batch are dropped from the store, not retried, and the run goes on — the local
 * transcript has them all. `warn` must not throw.
 */
export function storeMirror(
  store: SessionStore,
  session: { readonly projectKey: string; readonly sessionId: string },
  warn: (text: string) => void,
): TranscriptMirror {
  const queue: { subpath: string | undefined; entries: SessionStoreEntry[] }[] = [];
  let running: Promise<void> | undefined;
  let warned = false;
  const pump = async (): Promise<void> => {
    while (queue.length > 0) {
      const first = queue.shift()!;
      const entries = [...first.entries];
      while (queue.length > 0 && queue[0]!.subpath === first.subpath) entries.push(...queue.shift()!.entries);
      const key = {
        projectKey: session.projectKey,
        sessionId: session.sessionId,
        ...(first.subpath !== undefined ? { subpath: first.subpath } : {}),
      };
      try {
        await store.append(key, entries);
      } catch (error) {
        if (warned) continue;
        warned = true;
        const which = first.subpath === undefined ? '' : ` (${first.subpath})`;
        warn(
          `the session store did not take ${entries.length} transcript entries of session ${session.sessionId}${which}, so its copy is incomplete (the local transcript has them): ${describeError(error)}`,
        );
      }
    }
  };
  const start = (): void => {
    running = pump().finally(() => {
      running = undefined;
      // A batch queued while the last append was settling has no pump yet.
      if (queue.length > 0) start();
    });
  };
  return {
    send(subpath, entries) {
      if (entries.length === 0) return;
      queue.push({ subpath, entries: [...entries] });
      if (running === undefined) start();
    },
    settle: async () => {
      while (running !== undefined) await running;
    },
  };
}
