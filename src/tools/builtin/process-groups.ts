/**
 * The process groups of the Bash tool's commands that may still be alive, so that a CLI ended by a
 * signal (SIGTERM, SIGHUP, a second Ctrl-C) can kill them before it exits: every command runs in a
 * group of its own (`detached`), so nothing else would reach a background shell, or a child that
 * outlived its shell's SIGTERM while the 500 ms SIGKILL grace timer was still pending.
 *
 * Process-wide on purpose: the exit path of the process, not one run, owns the cleanup.
 */

const live = new Set<number>();

/** Remembers the group `groupId` (the pid of a detached shell) as possibly alive. */
export function trackProcessGroup(groupId: number | undefined): void {
  if (groupId !== undefined) live.add(groupId);
}

/** Forgets `groupId`: it ended and was reaped, or it was killed with SIGKILL. */
export function untrackProcessGroup(groupId: number | undefined): void {
  if (groupId !== undefined) live.delete(groupId);
}

/**
 * Sends SIGKILL to every remembered group and forgets them. Synchronous, so it can run in a
 * signal handler right before `process.exit`. A group already gone (ESRCH) is the goal; any other
 * error is ignored too, as nothing more can be done at exit. Returns how many groups were signalled.
 */
export function killTrackedProcessGroups(): number {
  let signalled = 0;
  for (const groupId of live) {
    try {
      process.kill(-groupId, 'SIGKILL');
      signalled++;
    } catch {
      // ESRCH (already gone) or EPERM: nothing left to do at exit.
    }
  }
  live.clear();
  return signalled;
}
