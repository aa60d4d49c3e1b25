/**
 * `hookloop/stores/redis`: a SessionStore on Redis through ioredis, which this entry point alone
 * imports (an optional peer dependency: install it next to hookloop to use this).
 */
import type { Redis } from 'ioredis';
import { ConfigError, describeError } from '../errors.js';
import { checkSessionKey } from '../session/store-keys.js';
import type { SessionKey, SessionStore, SessionStoreEntry } from '../session/session-store.js';

/** Options of a RedisSessionStore. */
export interface RedisSessionStoreOptions {
  /** A connected ioredis client; the store never closes it. */
  readonly client: Redis;
  /** The first part of every key, so several stores (or tenants) can share one database. Default `hookloop`. */
  readonly prefix?: string;
}

// Appends one batch to one transcript atomically: an entry whose uuid the transcript's uuid set
// already holds is skipped, and a subagent's subpath is added to its session's set.
const APPEND = `
local added = 0
for i = 3, #ARGV, 2 do
  if ARGV[i] == '-' or redis.call('SADD', KEYS[2], ARGV[i]) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[i + 1])
    added = added + 1
  end
end
if ARGV[1] == 'sub' then redis.call('SADD', KEYS[3], ARGV[2]) end
return added
`;

/**
 * A SessionStore in Redis (one node; tested with Redis 7). Layout (each name part URI-encoded):
 * - `<prefix>:{<projectKey>:<sessionId>}:main` — the main transcript, a list of JSON entries;
 *   `…:sub:<subpath>` — a subagent's; each with a `…:uuids` set of the uuids it holds;
 * - `<prefix>:{<projectKey>:<sessionId>}:subkeys` — the set of the session's subpaths;
 * - `<prefix>:project:<projectKey>:sessions` — a sorted set of the project's main sessions,
 *   scored with the time of their last append (the client's clock, integer Unix ms).
 * `load` returns null for an empty or missing list (Redis keeps no empty lists). An append and its
 * dedupe are one script; the session index is updated right after it. No TTL is set: retention
 * is the operator's (EXPIRE, eviction policy).
 * Rejects with ConfigError for a key checkSessionKey refuses, or with ioredis's error.
 */
export class RedisSessionStore implements SessionStore {
  private readonly client: Redis;
  private readonly prefix: string;
  /** Whether `close` ends the client (`connect` made it). */
  private owned = false;

  constructor(options: RedisSessionStoreOptions) {
    this.client = options.client;
    this.prefix = options.prefix ?? 'hookloop';
  }

  /**
   * Connects to `url` (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) with a
   * client of its own, which `close()` ends.
   * @throws ConfigError when ioredis is not installed, or when the server cannot be reached (`cannot
   *   reach Redis at <url without its password>: <why>`).
   */
  static async connect(url: string, options: { readonly prefix?: string } = {}): Promise<RedisSessionStore> {
    let RedisClient: typeof Redis;
    try {
      ({ Redis: RedisClient } = await import('ioredis'));
    } catch (error) {
      throw new ConfigError('hookloop/stores/redis needs the ioredis package: npm install ioredis', {
        cause: error,
      });
    }
    const client = new RedisClient(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    // Connection errors also reject the commands they affect (a run reports those as a warning);
    // the listener keeps ioredis from printing each one as an unhandled event.
    let lastError: unknown;
    client.on('error', (error: unknown) => {
      lastError = error;
    });
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw new ConfigError(
        `cannot reach Redis at ${withoutPassword(url)}: ${describeError(lastError ?? error)}`,
        {
          field: 'url',
          cause: lastError ?? error,
        },
      );
    }
    const store = new RedisSessionStore({ client, ...options });
    store.owned = true;
    return store;
  }

  /** Ends the client `connect` made (a client passed in is the caller's to close: this does nothing then). */
  async close(): Promise<void> {
    if (this.owned) await this.client.quit();
  }

  async append(key: SessionKey, entries: readonly SessionStoreEntry[]): Promise<void> {
    checkSessionKey(key);
    if (entries.length === 0) return;
    const list = this.listKey(key);
    const args: string[] = [key.subpath === undefined ? 'main' : 'sub', key.subpath ?? ''];
    for (const entry of entries)
      args.push(typeof entry.uuid === 'string' ? `u:${entry.uuid}` : '-', JSON.stringify(entry));
    await this.client.eval(APPEND, 3, list, `${list}:uuids`, this.subkeysKey(key), ...args);
    if (key.subpath === undefined)
      await this.client.zadd(this.sessionsKey(key.projectKey), Date.now(), key.sessionId);
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    checkSessionKey(key);
    const lines = await this.client.lrange(this.listKey(key), 0, -1);
    return lines.length === 0 ? null : lines.map((line) => JSON.parse(line) as SessionStoreEntry);
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    const flat = await this.client.zrange(this.sessionsKey(projectKey), 0, -1, 'WITHSCORES');
    const sessions: Array<{ sessionId: string; mtime: number }> = [];
    for (let index = 0; index + 1 < flat.length; index += 2)
      sessions.push({ sessionId: flat[index]!, mtime: Math.floor(Number(flat[index + 1])) });
    return sessions;
  }

  async delete(key: SessionKey): Promise<void> {
    checkSessionKey(key);
    const subkeys = this.subkeysKey(key);
    if (key.subpath !== undefined) {
      const list = this.listKey(key);
      await this.client.multi().del(list, `${list}:uuids`).srem(subkeys, key.subpath).exec();
      return;
    }
    const lists = [key, ...(await this.client.smembers(subkeys)).map((subpath) => ({ ...key, subpath }))].map(
      (each) => this.listKey(each),
    );
    await this.client
      .multi()
      .del(...lists.flatMap((list) => [list, `${list}:uuids`]), subkeys)
      .zrem(this.sessionsKey(key.projectKey), key.sessionId)
      .exec();
  }

  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    checkSessionKey(key);
    return this.client.smembers(this.subkeysKey(key));
  }

  private sessionPrefix(key: { projectKey: string; sessionId: string }): string {
    return `${this.prefix}:{${encodeURIComponent(key.projectKey)}:${encodeURIComponent(key.sessionId)}}`;
  }

  private listKey(key: SessionKey): string {
    const session = this.sessionPrefix(key);
    return key.subpath === undefined
      ? `${session}:main`
      : `${session}:sub:${encodeURIComponent(key.subpath)}`;
  }

  private subkeysKey(key: { projectKey: string; sessionId: string }): string {
    return `${this.sessionPrefix(key)}:subkeys`;
  }

  private sessionsKey(projectKey: string): string {
    return `${this.prefix}:project:${encodeURIComponent(projectKey)}:sessions`;
  }
}

/** `url` with its password, if any, replaced by `***`, for messages. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
