import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shipped CLI, the esbuild bundle `npm run build` writes (`npm test` builds before running vitest). */
export const CLI = fileURLToPath(new URL('../../dist/bundle/cli/bin.js', import.meta.url));

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `hookloop ARGS` in `cwd` with a private HOME, stdin closed. */
export function runCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): CliRun {
  const home = path.join(cwd, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Writes `value` as JSON to `dir/name` and returns the path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

/**
 * Marks `dir` as a trusted workspace in the private HOME `runCli` uses (`.test-home/.claude.json`,
 * kept merged with what is already there), as Claude Code's trust dialog does: only then do the
 * project's `.claude/settings.json` allow rules and additionalDirectories count.
 */
export function trustWorkspace(dir: string, home = path.join(dir, '.test-home')): void {
  const file = path.join(home, '.claude.json');
  const existing = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { projects?: Record<string, object> })
    : {};
  const projects = existing.projects ?? {};
  writeJson(home, '.claude.json', {
    ...existing,
    projects: { ...projects, [dir]: { ...projects[dir], hasTrustDialogAccepted: true } },
  });
}
