import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { CLI, trustWorkspace, type CliRun } from '../support/cli.js';

/**
 * Whether the Linux sandbox can run here: bubblewrap, socat and ripgrep on PATH (CI installs
 * them, see .ci/run). Tests that need it are skipped, with this reason, when they are missing.
 */
export const SANDBOX_MISSING = ['bwrap', 'socat', 'rg'].filter(
  (program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0,
);
export const SANDBOX_SKIP_REASON = `sandbox tests skipped: ${SANDBOX_MISSING.join(', ')} not found (install the bubblewrap, socat and ripgrep packages)`;
if (process.platform !== 'linux' || SANDBOX_MISSING.length > 0) console.warn(SANDBOX_SKIP_REASON);
export const canSandbox = process.platform === 'linux' && SANDBOX_MISSING.length === 0;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh real directory (symlinks resolved), removed after the test. */
export function tempDir(prefix = 'hookloop-sandbox-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A project with `.claude/settings.json` = `settings`, a private HOME beside it and an `outside` dir. */
export function sandboxProject(settings: unknown): {
  root: string;
  project: string;
  home: string;
  outside: string;
} {
  const root = tempDir();
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  for (const dir of [path.join(project, '.claude'), home, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
  // The person running these trusted the project, so its checked-in allow rules count.
  trustWorkspace(project, home);
  return { root, project, home, outside };
}

/** One model turn that calls Bash with `input` (id `id`). */
export function bashTurn(id: string, input: Record<string, unknown>) {
  return [{ type: 'tool_use', id, name: 'Bash', input }];
}

/** The CLI run of a script of Bash calls ending with `done`, plus each call's tool result text by id. */
export interface ScriptedCliRun extends CliRun {
  readonly results: Record<string, string>;
  readonly json: { session_id: string; permission_denials: { tool_use_id: string }[] } | undefined;
}

/**
 * Runs `hookloop -p go --model-script … --output-format json` in `project` with `HOME=home`
 * (asynchronously, so a server of the test can answer the sandboxed commands).
 */
export async function runScripted(
  where: { project: string; home: string; root: string },
  turns: unknown[][],
  options: { args?: readonly string[]; env?: Record<string, string> } = {},
): Promise<ScriptedCliRun> {
  const script = path.join(where.root, `script-${made.length}-${Date.now()}.json`);
  const requests = path.join(where.root, `requests-${Date.now()}.jsonl`);
  fs.writeFileSync(script, JSON.stringify([...turns, [{ type: 'text', text: 'done' }]]));
  const args = [
    CLI,
    '-p',
    'go',
    '--model-script',
    script,
    '--output-format',
    'json',
    '--record-requests',
    requests,
    ...(options.args ?? []),
  ];
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: where.home,
    LANG: 'C.UTF-8',
    ...options.env,
  };
  const child = spawn(process.execPath, args, { cwd: where.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr, results: toolResults(requests), json: parseJson(stdout) };
}

function parseJson(stdout: string): ScriptedCliRun['json'] {
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ScriptedCliRun['json'];
  } catch {
    return undefined;
  }
}

/** Tool result texts by tool-use id, from the last recorded model request. */
function toolResults(requestsFile: string): Record<string, string> {
  if (!fs.existsSync(requestsFile)) return {};
  const last = fs.readFileSync(requestsFile, 'utf8').trim().split('\n').at(-1);
  if (last === undefined || last === '') return {};
  const request = JSON.parse(last) as { messages: { content: unknown }[] };
  const results: Record<string, string> = {};
  for (const message of request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; tool_use_id?: string; content?: unknown }[]) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      results[block.tool_use_id] =
        typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
    }
  }
  return results;
}
