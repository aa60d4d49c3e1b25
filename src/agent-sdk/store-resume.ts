import fs from 'node:fs';
import { ConfigError } from '../errors.js';
import { latestTranscript, transcriptPathFor } from '../session/paths.js';
import { loadSession, type ResumedSession } from '../session/resume.js';
import type { SessionStore } from '../session/session-store.js';
import { projectKeyFor } from '../session/store-keys.js';
import { loadStoredSession } from '../session/stored-session.js';
import type { Options } from './sdk-options.js';

/** The SDK's default bound on each `load()` / `listSubkeys()` / `listSessions()` of a resume, in milliseconds. */
const DEFAULT_LOAD_TIMEOUT_MS = 60_000;

/**
 * Checks the store-related options before anything runs: a `sessionStore` has `append` and `load`
 * methods; it copies the local
 * transcript, so `persistSession: false` with one is refused (as the SDK refuses it);
 * `sessionStoreFlush` is `'batched'` or `'eager'`; `loadTimeoutMs` a positive number.
 * @throws ConfigError naming the option.
 */
export function checkStoreOptions(options: Options): void {
  const store = options.sessionStore as Partial<Record<keyof SessionStore, unknown>> | undefined;
  if (store !== undefined && (typeof store?.append !== 'function' || typeof store.load !== 'function'))
    throw new ConfigError(
      'query() options.sessionStore: expected a SessionStore (an object with append() and load() methods)',
      { field: 'sessionStore' },
    );
  if (options.sessionStore !== undefined && options.persistSession === false)
    throw new ConfigError(
      'query() options.sessionStore: cannot be used with persistSession: false (the store copies the local transcript); to keep no lasting local copy, set env.CLAUDE_CONFIG_DIR (or options.hookloop.configDir) to a new private folder and delete it when the query ends',
      { field: 'sessionStore' },
    );
  const flush = options.sessionStoreFlush;
  if (flush !== undefined && flush !== 'batched' && flush !== 'eager')
    throw new ConfigError(
      `query() options.sessionStoreFlush: expected "batched" or "eager", got ${JSON.stringify(flush)}`,
      { field: 'sessionStoreFlush' },
    );
  const timeout = options.loadTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0))
    throw new ConfigError(
      `query() options.loadTimeoutMs: expected a positive number of milliseconds, got ${JSON.stringify(timeout)}`,
      { field: 'loadTimeoutMs' },
    );
}

/**
 * The session `resume` (a session id) or `continue` (the latest session of `cwd`) names, or
 * undefined when neither is set. The local transcript is read when it is there; when it is not
 * and `sessionStore` is set, the session is read from the store under `projectKeyFor(cwd)` (its
 * lines written back to the local transcript first), as the SDK resumes from a store: `continue`
 * then takes the store's most recently changed session (`listSessions`). Each store call is bounded
 * by `loadTimeoutMs` (default 60 s).
 * @throws ConfigError when the session is neither local nor in the store, `continue` meets a store
 *   without `listSessions`, or a store call outlasts `loadTimeoutMs`; the store's own rejection.
 */
export async function findResumed(
  options: Options,
  configDir: string,
  cwd: string,
): Promise<ResumedSession | undefined> {
  const store = options.sessionStore;
  if (options.resume !== undefined) {
    const transcript = transcriptPathFor(configDir, cwd, options.resume);
    if (store === undefined || fs.existsSync(transcript)) return loadSession(transcript);
    return loadStoredSession(
      bounded(store, loadTimeout(options)),
      { projectKey: projectKeyFor(cwd), sessionId: options.resume },
      { configDir, transcriptPath: transcript },
    );
  }
  if (options.continue !== true) return undefined;
  const local = latestTranscript(configDir, cwd);
  if (local !== undefined || store === undefined) return local === undefined ? undefined : loadSession(local);
  if (store.listSessions === undefined)
    throw new ConfigError(
      'query() options.continue: with a sessionStore and no local session, the store needs listSessions() to find the latest one',
      { field: 'continue' },
    );
  const projectKey = projectKeyFor(cwd);
  const timeout = loadTimeout(options);
  const sessions = await within(store.listSessions(projectKey), timeout, 'SessionStore.listSessions()');
  const latest = [...sessions].sort((a, b) => b.mtime - a.mtime)[0];
  if (latest === undefined) return undefined;
  return loadStoredSession(
    bounded(store, timeout),
    { projectKey, sessionId: latest.sessionId },
    { configDir, transcriptPath: transcriptPathFor(configDir, cwd, latest.sessionId) },
  );
}

function loadTimeout(options: Options): number {
  return options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
}

/** `store` with its reads bounded: a `load` or `listSubkeys` that does not settle in `ms` rejects. */
function bounded(store: SessionStore, ms: number): SessionStore {
  const listSubkeys = store.listSubkeys?.bind(store);
  return {
    append: (key, entries) => store.append(key, entries),
    load: (key) => within(store.load(key), ms, `SessionStore.load() of session ${key.sessionId}`),
    ...(listSubkeys
      ? { listSubkeys: (key) => within(listSubkeys(key), ms, 'SessionStore.listSubkeys()') }
      : {}),
  };
}

/** `promise`, or a ConfigError naming `what` and `loadTimeoutMs` when it has not settled in `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConfigError(`query() options.loadTimeoutMs: ${what} did not settle within ${ms} ms`, {
            field: 'loadTimeoutMs',
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
