/**
 * Where a session's transcript lives besides (or instead of) the local JSONL file: the Claude Agent
 * SDK's `SessionStore` shape, so an adapter written for the SDK (S3, Redis, PostgreSQL …) works
 * with hookloop unchanged, and hookloop's adapters work with SDK programs moved to hookloop.
 */

/**
 * Which transcript an entry batch belongs to.
 * - `projectKey`: the caller's scope (by default derived from the project folder; a multi-tenant
 *   service sets a tenant or project name).
 * - `sessionId`: the session's id, as reported in hook payloads' `session_id`.
 * - `subpath`: absent for the main transcript; set (never empty) for a subagent's transcript. Opaque
 *   to an adapter, which uses it only as a key suffix.
 */
export interface SessionKey {
  readonly projectKey: string;
  readonly sessionId: string;
  readonly subpath?: string;
}

/**
 * One transcript line, as an adapter sees it: a JSON object with a string `type`; most carry a
 * stable `uuid` (an adapter should treat it as an idempotency key, so a retried batch does not
 * duplicate lines) and an ISO `timestamp`. Everything else is opaque; the only invariant an adapter
 * must keep is that `JSON.parse(JSON.stringify(entry))` round-trips.
 */
export interface SessionStoreEntry {
  readonly type: string;
  readonly uuid?: string;
  readonly timestamp?: string;
  readonly [field: string]: unknown;
}

/**
 * A transcript store.
 * - `append(key, entries)`: persist a batch, in call order within one process; entries with a `uuid`
 *   already stored are skipped. Rejects on a storage failure.
 * - `load(key)`: every entry stored for the key, deep-equal to what was appended, in order; `null`
 *   for a key never written (an adapter that cannot tell "never written" from "emptied" may return
 *   `null` for both).
 * - `listSessions(projectKey)`: the main sessions of a scope with their last change as integer Unix
 *   epoch milliseconds; any order. Optional.
 * - `delete(key)`: remove the transcript (for a main key, its subagent transcripts too). Optional:
 *   an append-only backend leaves it out.
 * - `listSubkeys({ projectKey, sessionId })`: the `subpath`s stored under a session, so a resume can
 *   bring back subagent transcripts too. Optional.
 */
export interface SessionStore {
  append(key: SessionKey, entries: readonly SessionStoreEntry[]): Promise<void>;
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  listSessions?(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>>;
  delete?(key: SessionKey): Promise<void>;
  listSubkeys?(key: { projectKey: string; sessionId: string }): Promise<string[]>;
}
