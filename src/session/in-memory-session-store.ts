import { checkSessionKey } from './store-keys.js';
import type { SessionKey, SessionStore, SessionStoreEntry } from './session-store.js';

/** The transcript of one key: its entries (as JSON text, so nothing a caller holds can change them) and the uuids seen. */
interface StoredTranscript {
  readonly lines: string[];
  readonly uuids: Set<string>;
}

/**
 * A SessionStore in the process's memory, for tests and short-lived services: everything is lost
 * when the process exits. Implements every optional method. Entries are copied in and out through
 * JSON (what a real backend keeps), an entry whose `uuid` the key already holds is skipped, and
 * `listSessions` reports the time of each main transcript's last append (integer Unix ms).
 * @throws ConfigError (as a rejected promise) for a key checkSessionKey refuses.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly transcripts = new Map<string, StoredTranscript>();
  /** projectKey → sessionId → mtime of the main transcript. */
  private readonly sessions = new Map<string, Map<string, number>>();
  /** `[projectKey, sessionId]` → the subpaths written. */
  private readonly subkeys = new Map<string, Set<string>>();

  async append(key: SessionKey, entries: readonly SessionStoreEntry[]): Promise<void> {
    checkSessionKey(key);
    if (entries.length === 0) return;
    const id = transcriptId(key);
    const transcript = this.transcripts.get(id) ?? { lines: [], uuids: new Set<string>() };
    for (const entry of entries) {
      if (typeof entry.uuid === 'string') {
        if (transcript.uuids.has(entry.uuid)) continue;
        transcript.uuids.add(entry.uuid);
      }
      transcript.lines.push(JSON.stringify(entry));
    }
    this.transcripts.set(id, transcript);
    if (key.subpath === undefined) {
      const project = this.sessions.get(key.projectKey) ?? new Map<string, number>();
      project.set(key.sessionId, Date.now());
      this.sessions.set(key.projectKey, project);
    } else {
      const session = sessionId(key);
      this.subkeys.set(session, (this.subkeys.get(session) ?? new Set<string>()).add(key.subpath));
    }
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    checkSessionKey(key);
    const transcript = this.transcripts.get(transcriptId(key));
    return transcript ? transcript.lines.map((line) => JSON.parse(line) as SessionStoreEntry) : null;
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return [...(this.sessions.get(projectKey) ?? new Map<string, number>())].map(([id, mtime]) => ({
      sessionId: id,
      mtime,
    }));
  }

  async delete(key: SessionKey): Promise<void> {
    checkSessionKey(key);
    const session = sessionId(key);
    if (key.subpath !== undefined) {
      this.transcripts.delete(transcriptId(key));
      this.subkeys.get(session)?.delete(key.subpath);
      return;
    }
    for (const subpath of this.subkeys.get(session) ?? [])
      this.transcripts.delete(transcriptId({ ...key, subpath }));
    this.subkeys.delete(session);
    this.transcripts.delete(transcriptId(key));
    this.sessions.get(key.projectKey)?.delete(key.sessionId);
  }

  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return [...(this.subkeys.get(sessionId(key)) ?? [])];
  }
}

function transcriptId(key: SessionKey): string {
  return JSON.stringify([key.projectKey, key.sessionId, key.subpath ?? null]);
}

function sessionId(key: { projectKey: string; sessionId: string }): string {
  return JSON.stringify([key.projectKey, key.sessionId]);
}
