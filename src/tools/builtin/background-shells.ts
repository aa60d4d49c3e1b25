/**
 * The commands Bash started with `run_in_background`, by task id, so that TaskStop can end one and
 * the session's end (or an abort) can end them all. Process-wide like the process groups: a task id
 * is random, and each entry names the session (and subagent) that started it, which alone may stop it.
 */

/** Where a background command stands; `killed`: TaskStop, the session's end or an abort ended it. */
export type BackgroundStatus = 'running' | 'completed' | 'failed' | 'killed';

/** One background command. `groupId` is its shell's pid, which leads its process group. */
export interface BackgroundShell {
  readonly taskId: string;
  readonly command: string;
  readonly outputPath: string;
  readonly sessionId: string | undefined;
  readonly agentId: string | undefined;
  groupId: number | undefined;
  status: BackgroundStatus;
  exitCode: number | undefined;
  /** Ends the command's whole process group (SIGTERM, then SIGKILL); set by the Bash tool. */
  kill: () => void;
}

const shells = new Map<string, BackgroundShell>();

/** Remembers a background command just started. */
export function registerBackgroundShell(shell: BackgroundShell): void {
  shells.set(shell.taskId, shell);
}

/** The background command `taskId` of `sessionId`, or undefined (unknown id, or another session's). */
export function findBackgroundShell(
  taskId: string,
  sessionId: string | undefined,
): BackgroundShell | undefined {
  const shell = shells.get(taskId);
  return shell !== undefined && shell.sessionId === sessionId ? shell : undefined;
}

/** Records how a background command ended; a command already marked `killed` stays so. */
export function backgroundShellExited(taskId: string, exitCode: number): void {
  const shell = shells.get(taskId);
  if (shell === undefined || shell.status !== 'running') return;
  shell.status = exitCode === 0 ? 'completed' : 'failed';
  shell.exitCode = exitCode;
}

/** Ends one running background command (its whole process group). False when it was not running. */
export function stopBackgroundShell(shell: BackgroundShell): boolean {
  if (shell.status !== 'running') return false;
  shell.status = 'killed';
  shell.kill();
  return true;
}

/**
 * Ends every background command `sessionId` still runs, its subagents' too, and forgets the
 * session's entries. Called when the session ends; must not throw. Returns how many were running.
 */
export function stopBackgroundShells(sessionId: string | undefined): number {
  let stopped = 0;
  for (const [taskId, shell] of shells) {
    if (shell.sessionId !== sessionId) continue;
    if (stopBackgroundShell(shell)) stopped++;
    shells.delete(taskId);
  }
  return stopped;
}
