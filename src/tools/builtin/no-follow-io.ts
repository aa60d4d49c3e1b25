import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolFailure, type ToolContext } from '../define-tool.js';
import { realpathLoose } from '../workspace.js';
import { makeDirectory } from '../../files/make-directory.js';

// How Write and Edit touch the disk so that what they change is what the permission was decided
// for. The policy judged the file's real path; between that moment and the write, a process the
// model started (a background Bash job) could swap a symlink into the path. So the tools resolve
// the real path again, refuse if it moved, and then never follow a link on the final component:
// reads open with O_NOFOLLOW, writes go to a new temporary file (O_EXCL | O_NOFOLLOW) that is
// renamed over the destination (rename replaces a link, it does not follow it).
// Residual race: Node has no openat/renameat, so a parent directory swapped for a link after the
// last check and before rename(2) — a window of one system call — is not caught. The OS sandbox
// (when on) makes the protected files read-only for every process the model starts, which closes it.

/**
 * The real path `absolutePath` leads to now, which must be one `context.approvedPaths` lists (the
 * real paths when the permission was decided); without that list (a handler run outside the loop)
 * any. @throws ToolFailure naming both paths when the path moved.
 */
export function approvedDestination(
  absolutePath: string,
  context: Pick<ToolContext, 'approvedPaths'>,
): string {
  const destination = realpathLoose(absolutePath);
  const approved = context.approvedPaths;
  if (approved !== undefined && !approved.includes(destination)) {
    throw new ToolFailure(
      `${absolutePath} now leads to ${destination}, not to the file this call was allowed to use (${approved.join(', ') || 'none'}); nothing was done.`,
    );
  }
  return destination;
}

/**
 * Reads a whole file as UTF-8 without following a symlink on the final component (a link there
 * fails with ELOOP), and only a regular file: anything else is an error with code `EINVAL`, raised
 * without waiting (a FIFO never blocks it). Errors are the filesystem's (ENOENT, EISDIR, ELOOP, …).
 */
export async function readNoFollow(file: string): Promise<string> {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; fstat then refuses it.
  const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile())
      throw Object.assign(new Error(`${file} is not a regular file`), { code: 'EINVAL' });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` (UTF-8) to `targetPath` so that a crash never leaves a half-written file and a
 * link swapped in never redirects it: the bytes go to a new temporary file in the destination's
 * directory (`.<name>.<pid>.<random>.tmp`, created with O_EXCL | O_NOFOLLOW), are fsynced, the
 * directory is checked to still be where it was, and the file is renamed over the destination.
 *
 * - `targetPath` is resolved to its real path first (a symlink, dangling or not, is followed: the
 *   file it points to is written, the link stays a link); the file tools pass the path
 *   {@link approvedDestination} checked.
 * - If the destination's directory resolves elsewhere by the time of the rename, nothing is written
 *   (an error with code `ESTALE`).
 * - Missing parent directories are created.
 * - An existing file's permission bits are kept (the temp file is chmod-ed before the rename).
 * - A destination that exists and is not a regular file (a device, FIFO, socket, directory) is never
 *   replaced: an error with code `EINVAL`.
 * - On failure the temp file is removed and the original error (`EACCES`, `ENOSPC`, …) rethrown.
 */
export async function writeFileAtomic(targetPath: string, content: string): Promise<void> {
  const destination = realpathLoose(targetPath);
  const directory = path.dirname(destination);
  await makeDirectory(directory);
  const existing = await fs.lstat(destination).catch(() => undefined);
  // A rename would replace a device, FIFO or socket with a file (as root, /dev/null itself): refuse.
  if (existing && !existing.isFile())
    throw Object.assign(new Error(`${destination} is not a regular file; nothing was written`), {
      code: 'EINVAL',
    });
  const existingMode = existing ? existing.mode & 0o7777 : undefined;
  const temporary = path.join(
    directory,
    `.${path.basename(destination)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const handle = await fs.open(temporary, flags, existingMode ?? 0o666);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open()'s mode is filtered by the umask; an existing file's exact bits are restored explicitly.
    if (existingMode !== undefined) await fs.chmod(temporary, existingMode);
    const now = await fs.realpath(directory);
    if (now !== directory)
      throw Object.assign(
        new Error(`${directory} changed while it was written (it now leads to ${now}); nothing was written`),
        { code: 'ESTALE' },
      );
    await fs.rename(temporary, destination);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
