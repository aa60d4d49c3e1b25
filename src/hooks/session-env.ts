import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { safePathPart } from '../session/path-part.js';
import { makeDirectorySync } from '../files/make-directory.js';

/**
 * `CLAUDE_ENV_FILE`: each SessionStart command hook gets its own file
 * under `<config dir>/session-env/<session>/` (the config dir is `~/.claude`, or `$HOOKLOOP_HOME` /
 * `$CLAUDE_CONFIG_DIR` / the run's `configDir` when set, like the transcripts), where it may append `export NAME=value` lines; the
 * variables they set are then part of the environment of later Bash tool calls
 * (conformance session-start-outputs). Paths and names are Claude Code's.
 */

/** `<configDir>/session-env/<sessionId>`: where a session's env files live (`configDir` plays `~/.claude`, see session/paths.ts; the id made a safe name, see safePathPart). */
export function sessionEnvDir(configDir: string, sessionId: string): string {
  return path.join(configDir, 'session-env', safePathPart(sessionId));
}

/**
 * The env file of the `index`-th (0-based, settings order) command hook of `event`:
 * `<dir>/sessionstart-hook-0.sh`. Creates the folder so that `>> "$CLAUDE_ENV_FILE"` works;
 * the file itself is left for the hook to create.
 */
export function prepareSessionEnvFile(
  configDir: string,
  sessionId: string,
  event: string,
  index: number,
): string {
  const dir = sessionEnvDir(configDir, sessionId);
  makeDirectorySync(dir);
  return path.join(dir, `${event.toLowerCase()}-hook-${index}.sh`);
}

/**
 * The variables the session's SessionStart env files set or change, compared with `base`: the files
 * (in hook order) are sourced by `/bin/sh` started with `base`, and the resulting environment read
 * back. No files → `{}`. When sourcing fails, the failure is reported through `warn` and `{}` is
 * returned. Never throws.
 */
export async function readSessionEnv(
  configDir: string,
  sessionId: string,
  base: NodeJS.ProcessEnv,
  warn: (text: string) => void,
): Promise<Record<string, string>> {
  const dir = sessionEnvDir(configDir, sessionId);
  let files: string[];
  try {
    files = fs
      .readdirSync(dir)
      .map((name) => /^sessionstart-hook-(\d+)\.sh$/.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((match) => path.join(dir, match[0]));
  } catch {
    return {}; // no hook wrote an env file
  }
  if (files.length === 0) return {};
  // Source every file, then let node print the environment as JSON (portable, unlike `env -0`).
  const script = `for f in "$@"; do . "$f" || echo "hookloop: $f failed" >&2; done >/dev/null; exec "$HOOKLOOP_NODE" -e 'process.stdout.write(JSON.stringify(process.env))'`;
  const env = { ...base, HOOKLOOP_NODE: process.execPath };
  const after = await new Promise<Record<string, string> | undefined>((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', script, 'sh', ...files],
      { env, timeout: 10_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (stderr.trim()) warn(`CLAUDE_ENV_FILE: ${stderr.trim()}`);
        try {
          resolve(JSON.parse(stdout) as Record<string, string>);
        } catch {
          warn(
            `CLAUDE_ENV_FILE: could not read the environment the env files set${error ? ` (${error.message})` : ''}`,
          );
          resolve(undefined);
        }
      },
    );
  });
  const changed: Record<string, string> = {};
  for (const [key, value] of Object.entries(after ?? {})) {
    if (key !== 'HOOKLOOP_NODE' && key !== '_' && key !== 'SHLVL' && key !== 'PWD' && base[key] !== value)
      changed[key] = value;
  }
  return changed;
}
