import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safePathPart } from './path-part.js';

/**
 * Where sessions live, as Claude Code lays them out (transcript format notes §1): a config folder
 * (`~/.claude`) holding `projects/<slug of the launch directory>/<session id>.jsonl`.
 */

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The config folder that plays the part of Claude Code's `~/.claude`: `explicit` when given, else
 * `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR` (Claude Code's own override), else `<homeDir>/.claude`.
 */
export function resolveConfigDir(
  explicit?: string,
  env: Env = process.env,
  homeDir: string = os.homedir(),
): string {
  const chosen = explicit ?? (env['HOOKLOOP_HOME'] || undefined) ?? (env['CLAUDE_CONFIG_DIR'] || undefined);
  return path.resolve(chosen ?? path.join(homeDir, '.claude'));
}

const MAX_SLUG = 200;

/**
 * Claude Code's folder name for a project: the absolute path with every UTF-16 unit outside
 * `[A-Za-z0-9]` replaced by `-` (`/tmp/x/My Dir_v1.2` → `-tmp-x-My-Dir-v1-2`). Past 200 characters:
 * the first 200, `-`, and the base-36 absolute value of the Java-style 32-bit hash of the unsanitized path.
 */
export function projectSlug(projectDir: string): string {
  let slug = '';
  for (let index = 0; index < projectDir.length; index++) {
    const code = projectDir.charCodeAt(index);
    const alphanumeric =
      (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    slug += alphanumeric ? projectDir[index] : '-';
  }
  if (slug.length <= MAX_SLUG) return slug;
  let hash = 0;
  for (let index = 0; index < projectDir.length; index++)
    hash = (Math.imul(31, hash) + projectDir.charCodeAt(index)) | 0;
  return `${slug.slice(0, MAX_SLUG)}-${Math.abs(hash).toString(36)}`;
}

/** `<configDir>/projects/<slug>`: the folder of a project's transcripts. */
export function projectSessionsDir(configDir: string, projectDir: string): string {
  return path.join(configDir, 'projects', projectSlug(projectDir));
}

/**
 * `<configDir>/projects/<slug>/<sessionId>.jsonl`: a session's transcript. The id goes through
 * `safePathPart`, so even an id that skipped validation names a file inside the project folder.
 */
export function transcriptPathFor(configDir: string, projectDir: string, sessionId: string): string {
  return path.join(projectSessionsDir(configDir, projectDir), `${safePathPart(sessionId)}.jsonl`);
}

/** The transcript of the most recently written session of `projectDir`, or undefined when it has none. */
export function latestTranscript(configDir: string, projectDir: string): string | undefined {
  const dir = projectSessionsDir(configDir, projectDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return undefined; // no session was ever written for this project
  }
  let latest: { file: string; mtime: number } | undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    const mtime = fs.statSync(file).mtimeMs;
    if (latest === undefined || mtime > latest.mtime) latest = { file, mtime };
  }
  return latest?.file;
}

/**
 * The transcript of session `sessionId`: in `projectDir`'s folder when it is there, else in any
 * project folder (a session started elsewhere); undefined when no such file exists.
 */
export function findTranscript(configDir: string, projectDir: string, sessionId: string): string | undefined {
  const own = transcriptPathFor(configDir, projectDir, sessionId);
  if (fs.existsSync(own)) return own;
  const projects = path.join(configDir, 'projects');
  let folders: string[];
  try {
    folders = fs.readdirSync(projects);
  } catch {
    return undefined; // no projects folder: nothing was ever written
  }
  for (const folder of folders) {
    const candidate = path.join(projects, folder, `${safePathPart(sessionId)}.jsonl`);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Where Claude Code writes a subagent's transcript: `<transcript dir>/<session>/subagents/agent-<id>.jsonl`,
 * next to the session's own `<session>.jsonl`. The id is made safe as a path part.
 */
export function agentTranscriptPath(transcriptPath: string, agentId: string): string {
  return path.join(
    path.dirname(transcriptPath),
    path.basename(transcriptPath, '.jsonl'),
    'subagents',
    `agent-${safePathPart(agentId)}.jsonl`,
  );
}
