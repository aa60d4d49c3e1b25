import fs from 'node:fs';
import path from 'node:path';
import { makeDirectorySync } from '../files/make-directory.js';
import { resolveConfigDir } from './paths.js';
import { checkSessionKey } from './store-keys.js';
import type { SessionKey, SessionStore, SessionStoreEntry } from './session-store.js';

/** Options of a FileSessionStore. */
export interface FileSessionStoreOptions {
  /**
   * The folder that plays Claude Code's `~/.claude`; transcripts go to its `projects/`. Default as
   * for a run: `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  readonly configDir?: string;
}

/**
 * hookloop's (and Claude Code's) on-disk layout behind the SessionStore interface:
 * `<configDir>/projects/<projectKey>/<sessionId>.jsonl` for a main transcript and
 * `<configDir>/projects/<projectKey>/<sessionId>/<subpath>.jsonl` for a subagent's, one compact
 * JSON entry per line (file 0600). Each name part is URI-encoded, so a `projectKey` such as
 * `acme/prod` stays one folder; slugs and UUIDs are unchanged, so a run's own transcripts are
 * what this store loads. Within one instance, appends to a file happen in call order and an entry
 * whose `uuid` the file already holds is skipped. `load` skips lines that are not JSON objects with
 * a string `type` (a line cut short by a crash). `listSessions` reports file modification times;
 * `delete` of a main key removes its file and its `<sessionId>/` folder.
 * Rejects with ConfigError for a key checkSessionKey refuses, or with the file system's error.
 */
export class FileSessionStore implements SessionStore {
  private readonly root: string;
  /** Per file: the uuids it holds (read on the first append of this instance). */
  private readonly uuids = new Map<string, Set<string>>();
  /** Per file: the append in flight, so appends land in call order. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(options: FileSessionStoreOptions = {}) {
    this.root = path.join(resolveConfigDir(options.configDir), 'projects');
  }

  /** The file that holds `key`'s transcript (it may not exist yet). @throws ConfigError for a refused key. */
  pathFor(key: SessionKey): string {
    checkSessionKey(key);
    const session = this.sessionDir(key);
    return key.subpath === undefined
      ? `${session}.jsonl`
      : `${path.join(session, ...key.subpath.split('/').map(encodeURIComponent))}.jsonl`;
  }

  append(key: SessionKey, entries: readonly SessionStoreEntry[]): Promise<void> {
    let file: string;
    try {
      file = this.pathFor(key);
    } catch (error) {
      return Promise.reject(error);
    }
    if (entries.length === 0) return Promise.resolve();
    const next = (this.queues.get(file) ?? Promise.resolve()).then(() => this.write(file, entries));
    const settled = next.catch(() => undefined);
    this.queues.set(file, settled);
    void settled.then(() => {
      if (this.queues.get(file) === settled) this.queues.delete(file);
    });
    return next;
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return readEntries(this.pathFor(key));
  }

  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    const folder = path.join(this.root, encodeURIComponent(projectKey));
    const names = await readNames(folder);
    const sessions: Array<{ sessionId: string; mtime: number }> = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const stat = await fs.promises.stat(path.join(folder, name)).catch(() => undefined);
      const sessionId = decodedName(name.slice(0, -6));
      if (stat?.isFile() && sessionId !== undefined)
        sessions.push({ sessionId, mtime: Math.floor(stat.mtimeMs) });
    }
    return sessions;
  }

  async delete(key: SessionKey): Promise<void> {
    const file = this.pathFor(key);
    await this.queues.get(file);
    await fs.promises.rm(file, { force: true });
    this.uuids.delete(file);
    if (key.subpath !== undefined) return;
    const folder = this.sessionDir(key);
    await fs.promises.rm(folder, { recursive: true, force: true });
    for (const cached of [...this.uuids.keys()])
      if (cached.startsWith(folder + path.sep)) this.uuids.delete(cached);
  }

  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    checkSessionKey(key);
    const found: string[] = [];
    const walk = async (folder: string, prefix: readonly string[]): Promise<void> => {
      const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const name = decodedName(entry.name);
        if (name === undefined) continue;
        if (entry.isDirectory()) await walk(path.join(folder, entry.name), [...prefix, name]);
        else if (entry.isFile() && name.endsWith('.jsonl'))
          found.push([...prefix, name.slice(0, -6)].join('/'));
      }
    };
    await walk(this.sessionDir(key), []);
    return found;
  }

  private sessionDir(key: { projectKey: string; sessionId: string }): string {
    return path.join(this.root, encodeURIComponent(key.projectKey), encodeURIComponent(key.sessionId));
  }

  private async write(file: string, entries: readonly SessionStoreEntry[]): Promise<void> {
    let seen = this.uuids.get(file);
    if (seen === undefined) {
      seen = new Set<string>();
      for (const entry of (await readEntries(file)) ?? [])
        if (typeof entry.uuid === 'string') seen.add(entry.uuid);
      this.uuids.set(file, seen);
    }
    const lines: string[] = [];
    const added: string[] = [];
    for (const entry of entries) {
      if (typeof entry.uuid === 'string') {
        if (seen.has(entry.uuid) || added.includes(entry.uuid)) continue;
        added.push(entry.uuid);
      }
      lines.push(JSON.stringify(entry));
    }
    if (lines.length === 0) return;
    makeDirectorySync(path.dirname(file), 0o755);
    await fs.promises.appendFile(file, `${lines.join('\n')}\n`, { encoding: 'utf8', mode: 0o600 });
    for (const uuid of added) seen.add(uuid);
  }
}

/** The entries of a JSONL file, or null when there is no such file. */
async function readEntries(file: string): Promise<SessionStoreEntry[] | null> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseLines(text);
}

/** The lines of a JSONL file that are entries (JSON objects with a string `type`), in order. */
function parseLines(text: string): SessionStoreEntry[] {
  const entries: SessionStoreEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { type?: unknown }).type === 'string'
      )
        entries.push(value as SessionStoreEntry);
    } catch {
      // A line cut short by a crash mid-write: the entries before it still load.
    }
  }
  return entries;
}

/** A file name this store wrote, decoded; undefined for one it cannot have written (a stray `%`). */
function decodedName(name: string): string | undefined {
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

async function readNames(folder: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
