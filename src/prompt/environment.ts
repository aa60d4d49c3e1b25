import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** What the environment section of a system prompt is made of. */
export interface EnvironmentInput {
  /** The working directory (absolute). */
  readonly cwd: string;
  /** Further directories the file tools may use (`--add-dir`, settings). */
  readonly additionalDirectories?: readonly string[];
  /** The model id, when known. */
  readonly model?: string;
  /** The date the session starts; default now. The local calendar date is shown (YYYY-MM-DD). */
  readonly now?: Date;
  /** The environment for `git` and the shell's name; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether to run `git` for the repository lines (default true; a subagent's prompt leaves them out). */
  readonly git?: boolean;
}

/** Most `git status` entries the prompt lists; the rest are counted. */
const MAX_STATUS_LINES = 20;
/** How long one `git` call may take before the prompt says the status is unknown (ms). */
const GIT_TIMEOUT_MS = 3000;

/**
 * The environment section's lines: working directory, extra directories, whether it is a git
 * repository (branch, short status, recent commits), platform and shell, date and model. Runs
 * `git` at most twice (bounded by a timeout, with optional locks off so it never writes the
 * index); a missing git or a directory outside a repository reads "Git repository: no". Never throws.
 */
export function environmentLines(input: EnvironmentInput): string[] {
  const env = input.env ?? process.env;
  const lines = [`Working directory: ${input.cwd}`];
  if (input.additionalDirectories && input.additionalDirectories.length > 0)
    lines.push(`Additional working directories: ${input.additionalDirectories.join(', ')}`);
  if (input.git !== false) lines.push(...gitLines(input.cwd, env));
  const shell = env['SHELL'] ? env['SHELL'].split('/').pop() : undefined;
  lines.push(
    `Platform: ${process.platform} (${os.type()} ${os.release()})${shell ? `, shell: ${shell}` : ''}`,
  );
  lines.push(`Today's date: ${localDate(input.now ?? new Date())}`);
  if (input.model) lines.push(`Model: ${input.model}`);
  return lines;
}

/** `YYYY-MM-DD` of `date` in local time. */
function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function gitLines(cwd: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const status = git(['status', '--porcelain', '--branch'], cwd, env);
  if (status === undefined) return ['Git repository: no'];
  const [head = '', ...entries] = status.split('\n').filter((line) => line !== '');
  const branch = /^## (?:No commits yet on )?([^.\s]+)/.exec(head)?.[1];
  const lines = [`Git repository: yes${branch ? ` (branch ${branch})` : ''}`];
  const shown = entries.slice(0, MAX_STATUS_LINES).join(', ');
  const more = entries.length > MAX_STATUS_LINES ? ` and ${entries.length - MAX_STATUS_LINES} more` : '';
  lines.push(`Git status at the start of the session: ${entries.length === 0 ? 'clean' : `${shown}${more}`}`);
  const log = git(['log', '--oneline', '-n', '5'], cwd, env);
  if (log) lines.push(`Recent commits: ${log.split('\n').filter(Boolean).join('; ')}`);
  return lines;
}

/** `git ARGS` in `cwd`: its stdout, or undefined when git is missing, fails or runs past the timeout. */
function git(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  try {
    return execFileSync('git', [...args], {
      cwd,
      env: { ...env, GIT_OPTIONAL_LOCKS: '0' },
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trimEnd();
  } catch {
    return undefined; // not a repository, or no git: the prompt says so
  }
}
