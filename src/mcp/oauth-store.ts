import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { resolveConfigDir } from '../session/paths.js';
import { makeDirectorySync } from '../files/make-directory.js';

/** What is kept for one server between runs: the registered client and the tokens (with when they were saved, ms). */
export interface StoredOAuth {
  readonly clientInformation?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  readonly savedAt?: number;
}

/**
 * OAuth state of remote MCP servers, one file per server name and URL in
 * `<config dir>/mcp-oauth/` (the folder 0700, each file 0600: only the user can read the tokens).
 *
 * Contract: reading never throws (a missing or unreadable file is "nothing stored"); writing
 * replaces the file whole (a temporary file renamed over it), so a crash never leaves half a file.
 */
export class OAuthStore {
  constructor(readonly dir: string) {}

  /** The file of one server: named by a hash of its name and URL, so a server moved to another URL starts afresh. */
  fileFor(serverName: string, url: string): string {
    const key = createHash('sha256').update(`${serverName}\0${url}`).digest('hex').slice(0, 32);
    return path.join(this.dir, `${key}.json`);
  }

  /** What is stored for the server, or `{}`. */
  read(serverName: string, url: string): StoredOAuth {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.fileFor(serverName, url), 'utf8')) as unknown;
      return parsed !== null && typeof parsed === 'object' ? (parsed as StoredOAuth) : {};
    } catch {
      return {};
    }
  }

  /**
   * Merges `update` into what is stored (a key set to undefined is removed).
   * @throws Error when the folder or file cannot be written.
   */
  write(serverName: string, url: string, update: Partial<Record<keyof StoredOAuth, unknown>>): void {
    const next: Record<string, unknown> = { ...this.read(serverName, url) };
    for (const [key, value] of Object.entries(update)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    makeDirectorySync(this.dir, 0o700);
    const file = this.fileFor(serverName, url);
    const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, file);
  }

  /** Forgets the server (logout). */
  remove(serverName: string, url: string): void {
    fs.rmSync(this.fileFor(serverName, url), { force: true });
  }
}

/** The user's store: `<config dir>/mcp-oauth` (`$HOOKLOOP_HOME`, `$CLAUDE_CONFIG_DIR` or `~/.claude`, as for transcripts). */
export function oauthStore(env: Readonly<Record<string, string | undefined>>, homeDir: string): OAuthStore {
  return new OAuthStore(path.join(resolveConfigDir(undefined, env, homeDir), 'mcp-oauth'));
}
