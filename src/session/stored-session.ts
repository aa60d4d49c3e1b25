import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, describeError } from '../errors.js';
import { makeDirectorySync } from '../files/make-directory.js';
import { FileSessionStore } from './file-session-store.js';
import { loadSession, type ResumedSession } from './resume.js';
import { requireSessionId } from './session-id.js';
import { checkSessionKey } from './store-keys.js';
import type { SessionStore, SessionStoreEntry } from './session-store.js';

/** Options of loadStoredSession. */
export interface LoadStoredSessionOptions {
  /** The folder that plays Claude Code's `~/.claude`, for the local copy (default as for a run). */
  readonly configDir?: string;
  /**
   * Where the local copy of the transcript is written; default
   * `<configDir>/projects/<projectKey>/<sessionId>.jsonl`, which is the run's own transcript path
   * when `projectKey` is the project's default key (projectKeyFor).
   */
  readonly transcriptPath?: string;
}

/**
 * A session read back from a SessionStore, ready for `RunOptions.resume` — for when its local
 * files are gone (another machine, a fresh container). The store's main transcript, and every
 * subagent transcript `listSubkeys` names, are written to local files first (replacing what is
 * there), as the Agent SDK materializes a stored session before it resumes: the run goes on
 * writing the same files, and hooks that read `transcript_path` see the whole conversation. Then it
 * is read as `loadSession` reads a file. Pass the same store as `RunOptions.sessionStore` to keep
 * mirroring; the entries already stored are not sent again.
 * @throws ConfigError when `key.sessionId` is not a UUID, the store holds nothing for the key, or a
 *   loaded transcript holds no conversation; the store's own rejection when `load` fails.
 */
export async function loadStoredSession(
  store: SessionStore,
  key: { readonly projectKey: string; readonly sessionId: string },
  options: LoadStoredSessionOptions = {},
): Promise<ResumedSession> {
  checkSessionKey(key);
  requireSessionId(key.sessionId, 'sessionId');
  const entries = await store.load({ projectKey: key.projectKey, sessionId: key.sessionId });
  if (entries === null || entries.length === 0)
    throw new ConfigError(
      `cannot resume: the session store holds no transcript for session ${key.sessionId} (projectKey ${JSON.stringify(key.projectKey)})`,
      { field: 'sessionId' },
    );
  const transcriptPath =
    options.transcriptPath ??
    new FileSessionStore(options.configDir !== undefined ? { configDir: options.configDir } : {}).pathFor(
      key,
    );
  writeReplacing(transcriptPath, entries);
  const warnings: string[] = [];
  const sessionFolder = path.join(path.dirname(transcriptPath), path.basename(transcriptPath, '.jsonl'));
  for (const subpath of (await store.listSubkeys?.(key)) ?? []) {
    try {
      checkSessionKey({ ...key, subpath });
      const sub = await store.load({ ...key, subpath });
      if (sub !== null)
        writeReplacing(
          `${path.join(sessionFolder, ...subpath.split('/').map(encodeURIComponent))}.jsonl`,
          sub,
        );
    } catch (error) {
      warnings.push(
        `the stored transcript ${JSON.stringify(subpath)} was not restored: ${describeError(error)}`,
      );
    }
  }
  const resumed = loadSession(transcriptPath);
  return { ...resumed, sessionId: key.sessionId, warnings: [...warnings, ...resumed.warnings] };
}

/** Writes `entries` as a JSONL file (0600) in place of `file`, whole or not at all. */
function writeReplacing(file: string, entries: readonly SessionStoreEntry[]): void {
  makeDirectorySync(path.dirname(file), 0o755);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: 0o600 });
  fs.renameSync(temporary, file);
}
