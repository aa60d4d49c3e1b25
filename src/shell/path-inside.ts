import path from 'node:path';

/**
 * True when absolute `file` is `directory` or below it, compared as text (both must already be
 * resolved the same way). The shell's own copy of the workspace's rule, so the reader needs
 * nothing of tools/.
 */
export function isSameOrInside(file: string, directory: string): boolean {
  if (file === directory) return true;
  return file.startsWith(directory.endsWith(path.sep) ? directory : directory + path.sep);
}
