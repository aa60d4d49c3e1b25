import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { CapturedStream, SpawnRequest } from '../../process/captured-spawn.js';
import { spawnCaptured } from '../../process/spawner.js';
import { defineTool, ToolFailure, type ToolContext } from '../define-tool.js';
import { realpathLoose } from '../workspace.js';
import { trackProcessGroup, untrackProcessGroup } from './process-groups.js';
import { bashEnvironment } from './bash-environment.js';
import { isSilentCommand } from './bash-silent-commands.js';
import { isErrno } from './read.js';
import {
  backgroundShellExited,
  registerBackgroundShell,
  stopBackgroundShell,
  type BackgroundShell,
} from './background-shells.js';

/** `timeout` used when the model gives none (ms), as in Claude Code. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Largest `timeout` honoured (ms); larger values are capped, as in Claude Code. */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** How long to keep reading after the shell exits, for output still in flight (background grandchildren may hold the pipe forever). */
const DRAIN_MS = 150;
/** Claude Code's cap on each output stream (characters). */
export const BASH_MAX_OUTPUT_CHARS = 30_000;
/** Bytes kept per stream: enough for 30,000 characters of any UTF-8 text; the rest is only counted. */
const CAPTURE_BYTES = BASH_MAX_OUTPUT_CHARS * 4;
/** Grace between SIGTERM and SIGKILL when a command's process group is killed. */
const KILL_GRACE_MS = 500;

const bashInput = z.strictObject({
  command: z.string().describe('The command to execute'),
  description: z
    .string()
    .optional()
    .describe('Clear, concise description of what this command does in 5-10 words'),
  timeout: z.number().optional().describe(`Optional timeout in milliseconds (max ${BASH_MAX_TIMEOUT_MS})`),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Set to true to run this command in the background; its output goes to a file you can read later',
    ),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      'Set to true to run this command outside the sandbox (when sandboxing is on); it then needs approval like any unsandboxed command',
    ),
});

type BashInput = z.infer<typeof bashInput>;

export { isSilentCommand };

/**
 * Bash's `tool_response` (Claude Code shape): `{stdout, stderr, interrupted, isImage,
 * noOutputExpected}`, plus `backgroundTaskId` for `run_in_background`.
 */
export const bashOutputSchema = z.object({
  stdout: z.string(),
  stderr: z.string(),
  interrupted: z.boolean(),
  isImage: z.boolean(),
  noOutputExpected: z.boolean(),
  backgroundTaskId: z.string().optional(),
});

/** {@link bashOutputSchema} as a type. */
export type BashOutput = z.infer<typeof bashOutputSchema>;

/**
 * Thrown instead of a plain ToolFailure when the command did not finish: it hit its timeout
 * (`reason: "timeout"`) or the call's signal aborted it (`reason: "abort"`). `interrupted` is always
 * true; `stdout`/`stderr` hold what it printed before being killed. The message is the
 * model-visible text, e.g. `Command timed out after 1s\npartial output`.
 */
export class BashInterruptedFailure extends ToolFailure {
  readonly interrupted = true;
  constructor(
    message: string,
    readonly reason: 'timeout' | 'abort',
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'BashInterruptedFailure';
  }
}

/**
 * `Bash`: runs `command` with `/bin/bash -c` in the session cwd and returns its output.
 *
 * Contract:
 * - Environment: see bashEnvironment (provider credentials withheld, the session's `CLAUDE_*`
 *   variables added); stdin is `/dev/null`; the shell leads its own process group, which is killed
 *   (SIGTERM, then SIGKILL after 500 ms) on timeout or abort.
 * - Sandbox: with `context.sandbox`, a call it covers runs inside the OS sandbox (writes reach the
 *   workspace and the session's temp dir only); `dangerouslyDisableSandbox` asks to leave it.
 * - stderr is merged into stdout in the order written (`2>&1`), as Claude Code 2.x does: its
 *   `tool_response.stderr` is empty for ordinary commands. `stderr` carries hookloop's own notes
 *   (`Shell cwd was reset to …`). One trailing newline is stripped; each stream is capped at
 *   30,000 characters, the cut reported as `\n\n... [N lines truncated] ...`.
 * - The session cwd follows `cd`: an EXIT trap records `pwd -P` in a temp file and
 *   `context.setCwd` is called when it changed. A directory outside the workspace is refused:
 *   the cwd goes back to the project dir and stderr says `Shell cwd was reset to <projectDir>`.
 * - The call resolves when the shell exits plus a 150 ms drain; background processes it started
 *   keep running but are no longer read.
 * - Exit code N ≠ 0 → `ToolFailure("Exit code N\n<stdout>\n<stderr>")` (empty parts left out);
 *   timeout/abort → {@link BashInterruptedFailure}.
 * - `run_in_background`: starts the command detached with output to a temp file and returns at once
 *   with `backgroundTaskId`; the render names the file. TaskStop ends it; so do the session's end
 *   and an abort of the run.
 * - `timeout` is in ms, default 120,000, capped at 600,000; a value ≤ 0 means the default.
 */
export const Bash = defineTool({
  name: 'Bash',
  description: [
    'Executes a bash command and returns its output (stdout and stderr, merged).',
    '- The working directory persists between commands: a `cd` changes the directory of later calls. Shell variables and aliases do not persist.',
    `- Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 60_000} minutes, at most ${BASH_MAX_TIMEOUT_MS / 60_000} minutes (timeout in ms).`,
    '- Output over 30000 characters is truncated. A non-zero exit status is reported as an error with the output.',
    '- Quote paths containing spaces. Prefer Read, Edit, Write, Glob and Grep over cat, sed, echo >, find and grep.',
    '- run_in_background starts a long-running command without waiting; its output is written to a file.',
  ].join('\n'),
  inputSchema: bashInput,
  outputSchema: bashOutputSchema,
  kind: 'bash',
  readOnly: false,
  handler: async (input, context): Promise<BashOutput> =>
    input.run_in_background === true ? startInBackground(input, context) : runInForeground(input, context),
  render: renderBash,
});

/** Model-visible text: stdout, then stderr on its own line, or `(Bash completed with no output)`. */
function renderBash(output: BashOutput): string {
  if (output.backgroundTaskId !== undefined) {
    return `Command running in background with ID: ${output.backgroundTaskId}. Output is being written to: ${backgroundOutputPath(output.backgroundTaskId)}. To check interim output, use Read on that file path; TaskStop ends it.`;
  }
  const parts = [output.stdout, output.stderr].filter((part) => part !== '');
  if (output.interrupted) parts.push('<error>Command was aborted before completion</error>');
  return parts.length > 0 ? parts.join('\n') : '(Bash completed with no output)';
}

/** Where a background command's merged output goes: `<tmpdir>/hookloop-bash-<id>.output`. */
export function backgroundOutputPath(taskId: string): string {
  return path.join(os.tmpdir(), `hookloop-bash-${taskId}.output`);
}

async function runInForeground(input: BashInput, context: ToolContext): Promise<BashOutput> {
  const timeoutMs =
    input.timeout !== undefined && input.timeout > 0
      ? Math.min(input.timeout, BASH_MAX_TIMEOUT_MS)
      : BASH_DEFAULT_TIMEOUT_MS;
  const startDirectory = fs.existsSync(context.cwd) ? context.cwd : context.projectDir;
  const cwdFile = path.join(context.sandbox?.scratchDir ?? os.tmpdir(), `hookloop-cwd-${randomUUID()}`);
  const script = wrapCommand(input.command, cwdFile);
  const { outcome, stdout, stderr } = await runShell(
    {
      file: '/bin/bash',
      args: ['-c', (await sandboxed(script, input, context)) ?? script],
      cwd: startDirectory,
      env: bashEnvironment(process.env, context),
      captureBytes: CAPTURE_BYTES,
      drainMs: DRAIN_MS,
    },
    timeoutMs,
    context.signal,
  );
  const notes = followCd(cwdFile, startDirectory, context);
  const output: BashOutput = {
    stdout: cappedText(stdout),
    stderr: [cappedText(stderr), ...notes].filter((part) => part !== '').join('\n'),
    interrupted: outcome.reason !== 'exit',
    isImage: false,
    noOutputExpected: isSilentCommand(input.command),
  };
  if (outcome.reason === 'timeout') {
    throw interruptedFailure(`Command timed out after ${formatDuration(timeoutMs)}`, 'timeout', output);
  }
  if (outcome.reason === 'abort')
    throw interruptedFailure('Command was aborted before completion', 'abort', output);
  if (outcome.exitCode !== 0) {
    throw new ToolFailure(
      [`Exit code ${outcome.exitCode}`, output.stdout, output.stderr]
        .filter((part) => part !== '')
        .join('\n'),
    );
  }
  return output;
}

function interruptedFailure(
  headline: string,
  reason: 'timeout' | 'abort',
  output: BashOutput,
): BashInterruptedFailure {
  const message = [headline, output.stdout, output.stderr].filter((part) => part !== '').join('\n');
  return new BashInterruptedFailure(message, reason, output.stdout, output.stderr);
}

/**
 * The script bash runs: merge stderr into stdout, record the final directory on exit (the EXIT
 * trap also runs after an explicit `exit N` and keeps its status), then eval the command, quoted
 * so that it is parsed by bash exactly as written.
 */
function wrapCommand(command: string, cwdFile: string): string {
  const recordDirectory = `pwd -P > ${shellQuote(cwdFile)} 2>/dev/null`;
  return ['exec 2>&1', `trap ${shellQuote(recordDirectory)} EXIT`, `eval ${shellQuote(command)}`].join('\n');
}

/** Single-quotes `text` for bash: the result is one word whose value is exactly `text`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

interface ExitOutcome {
  reason: 'exit' | 'timeout' | 'abort';
  /** The shell's status; 128 + signal number when a signal ended it. */
  exitCode: number;
}

/**
 * Starts the shell (through the spawner: see src/process/spawner.ts) and waits for it to exit,
 * killing its group on timeout/abort, then for its pipes to close or {@link DRAIN_MS}.
 * @throws ToolFailure when /bin/bash could not be started.
 */
function runShell(
  request: SpawnRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ outcome: ExitOutcome; stdout: CapturedStream; stderr: CapturedStream }> {
  return new Promise((resolve, reject) => {
    let reason: ExitOutcome['reason'] = 'exit';
    let pid: number | undefined;
    let exitCode = 0;
    const interrupt = (why: 'timeout' | 'abort') => {
      if (reason !== 'exit') return;
      reason = why;
      if (pid !== undefined) killProcessGroup(pid);
    };
    const timer = setTimeout(() => interrupt('timeout'), timeoutMs);
    const onAbort = () => interrupt('abort');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    spawnCaptured(
      request,
      {
        spawned: (started) => {
          pid = started;
          trackProcessGroup(pid);
          // Interrupted before the pid was known: the group goes now.
          if (reason !== 'exit') killProcessGroup(pid);
        },
        failed: (failure) => {
          cleanUp();
          reject(new ToolFailure(`Failed to start /bin/bash: ${failure.message}`));
        },
        exited: (code, exitSignal) => {
          cleanUp();
          // A killed group stays tracked until its SIGKILL (a child may outlive the shell's SIGTERM).
          if (reason === 'exit') untrackProcessGroup(pid);
          exitCode = code ?? 128 + (exitSignal === null ? 0 : (os.constants.signals[exitSignal] ?? 0));
        },
        // A background grandchild holding the pipe would delay the end forever: the spawn gives up after DRAIN_MS.
        finished: (output) =>
          resolve({ outcome: { reason, exitCode }, stdout: output.stdout, stderr: output.stderr }),
      },
      { awayFromAgent: true },
    );
  });
}

/**
 * Reads the directory the shell ended in and moves the session there; returns notes for stderr.
 * Directories are compared physically (`pwd -P` against the realpath of the cwd), so a symlinked
 * cwd is not mistaken for a `cd`.
 */
function followCd(cwdFile: string, startDirectory: string, context: ToolContext): string[] {
  let finalDirectory = startDirectory;
  try {
    finalDirectory = fs.readFileSync(cwdFile, 'utf8').trim() || startDirectory;
  } catch {
    // No file: the shell was killed or exec-ed away before its EXIT trap; it ended where it started.
  } finally {
    fs.rmSync(cwdFile, { force: true });
  }
  if (realpathLoose(finalDirectory) === realpathLoose(context.cwd)) return [];
  if (context.workspace.contains(finalDirectory)) {
    context.setCwd(finalDirectory);
    return [];
  }
  if (context.cwd !== context.projectDir) context.setCwd(context.projectDir);
  return [`Shell cwd was reset to ${context.projectDir}`];
}

/**
 * Starts the command detached, output (stdout and stderr) to {@link backgroundOutputPath}, and returns
 * at once. The command is registered (background-shells.ts) for TaskStop and the session's end, and
 * ends with its process group when the run is aborted.
 */
async function startInBackground(input: BashInput, context: ToolContext): Promise<BashOutput> {
  const taskId = `b${randomBytes(5).toString('hex')}`;
  const outputPath = backgroundOutputPath(taskId);
  const script = (await sandboxed(input.command, input, context)) ?? input.command;
  // Created here, so that it exists (or the call fails) before the call returns; the spawn appends to it.
  fs.closeSync(fs.openSync(outputPath, 'w'));
  const shell: BackgroundShell = {
    taskId,
    command: input.command,
    outputPath,
    sessionId: context.sessionId,
    agentId: context.agentId,
    groupId: undefined,
    status: 'running',
    exitCode: undefined,
    kill: () => {
      if (shell.groupId !== undefined) killProcessGroup(shell.groupId);
    },
  };
  registerBackgroundShell(shell);
  const onAbort = () => stopBackgroundShell(shell);
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener('abort', onAbort, { once: true });
  spawnCaptured(
    {
      file: '/bin/bash',
      args: ['-c', script],
      cwd: fs.existsSync(context.cwd) ? context.cwd : context.projectDir,
      env: bashEnvironment(process.env, context),
      outputFile: outputPath,
      captureBytes: 0,
      drainMs: 0,
    },
    {
      spawned: (started) => {
        shell.groupId = started;
        trackProcessGroup(started);
        // Stopped before the pid was known: the group goes now.
        if (shell.status === 'killed') killProcessGroup(started);
      },
      failed: (failure) => {
        backgroundShellExited(taskId, 127);
        try {
          fs.appendFileSync(outputPath, `hookloop: failed to start /bin/bash: ${failure.message}\n`);
        } catch {
          // The output file went away: nobody will read the note either.
        }
      },
      exited: (code, exitSignal) => {
        context.signal.removeEventListener('abort', onAbort);
        if (shell.status !== 'killed') untrackProcessGroup(shell.groupId);
        backgroundShellExited(
          taskId,
          code ?? 128 + (exitSignal === null ? 0 : (os.constants.signals[exitSignal] ?? 0)),
        );
      },
      finished: () => undefined,
    },
  );
  return {
    stdout: '',
    stderr: '',
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
    backgroundTaskId: taskId,
  };
}

/** The sandbox's wrapping of `script` when the call runs sandboxed; a wrap that fails fails the call, unrun. */
async function sandboxed(
  script: string,
  input: BashInput,
  context: ToolContext,
): Promise<string | undefined> {
  if (context.sandbox === undefined) return undefined;
  try {
    return await context.sandbox.wrap(script, input);
  } catch (error) {
    throw new ToolFailure(error instanceof Error ? error.message : String(error));
  }
}

/**
 * One output stream as the model sees it: one trailing newline stripped, cut at 30,000 characters
 * like Claude Code's `formatOutput`, the cut counted in lines (the spawn keeps the first
 * {@link CAPTURE_BYTES} bytes and counts the newlines of the rest, so a command printing gigabytes
 * costs bounded memory).
 */
function cappedText(stream: CapturedStream): string {
  const dropped = stream.droppedBytes > 0;
  let text = stream.bytes.toString('utf8');
  if (!dropped && text.endsWith('\n')) text = text.slice(0, -1);
  if (!dropped && text.length <= BASH_MAX_OUTPUT_CHARS) return text;
  const truncatedLines = text.slice(BASH_MAX_OUTPUT_CHARS).split('\n').length + stream.droppedNewlines;
  return `${text.slice(0, BASH_MAX_OUTPUT_CHARS)}\n\n... [${truncatedLines} lines truncated] ...`;
}

/** SIGTERM to the whole group now, SIGKILL to whatever is left after {@link KILL_GRACE_MS}. */
function killProcessGroup(groupId: number): void {
  signalProcessGroup(groupId, 'SIGTERM');
  setTimeout(() => {
    signalProcessGroup(groupId, 'SIGKILL');
    untrackProcessGroup(groupId);
  }, KILL_GRACE_MS).unref();
}

function signalProcessGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch (error) {
    // ESRCH: the group is already gone, which is the goal. Anything else (EPERM) cannot be helped
    // from here, and throwing from a timer would crash the host process.
    if (!isErrno(error, 'ESRCH'))
      process.emitWarning(`hookloop Bash: could not ${signal} process group ${groupId}: ${String(error)}`);
  }
}

/** Durations as Claude Code prints them in timeout messages: `45s`, `1.5s`, `2m 0s`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 60_000) return `${Number((milliseconds / 1000).toFixed(1))}s`;
  const minutes = Math.floor(milliseconds / 60_000);
  const seconds = Math.round((milliseconds % 60_000) / 1000);
  return `${minutes}m ${seconds}s`;
}
