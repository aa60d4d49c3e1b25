import fs from 'node:fs';
import path from 'node:path';

// Node's `mkdir(…, { recursive: true })` climbs to the parent on ENOENT and retries the child; on a
// filesystem that answers ENOENT for a child of a directory that exists (procfs: `mkdir
// /proc/.claude`) it never stops, and the sync form blocks the event loop so that not even SIGTERM
// gets through. These walk down from the deepest existing ancestor once, one `mkdir` per missing
// component, so every filesystem gives an answer or an error.

/** The components of `directory` to create, outermost first, and the deepest one that exists. */
function missingComponents(directory: string): string[] {
  const missing: string[] = [];
  let current = path.resolve(directory);
  for (;;) {
    if (fs.existsSync(current)) return missing.reverse();
    missing.push(current);
    const parent = path.dirname(current);
    if (parent === current) return missing.reverse();
    current = parent;
  }
}

/**
 * Creates `directory` and its missing ancestors, like `mkdirSync(directory, { recursive: true, mode })`
 * but bounded: each missing component gets exactly one `mkdir`. `mode` (default 0o777, before the
 * umask) applies to each created component. Throws the first `mkdir` error other than EEXIST (a
 * component that a concurrent process made), with Node's `code` and `path`; throws ENOTDIR when
 * `directory` exists and is not a directory.
 */
export function makeDirectorySync(directory: string, mode?: number): void {
  for (const component of missingComponents(directory)) {
    try {
      fs.mkdirSync(component, mode === undefined ? undefined : { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!fs.statSync(directory).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${directory}'`), {
      code: 'ENOTDIR',
      path: directory,
    });
  }
}

/** The promise form of {@link makeDirectorySync}: same components, same errors, as a rejection. */
export async function makeDirectory(directory: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  let current = path.resolve(directory);
  for (;;) {
    const exists = await fs.promises.stat(current).then(
      () => true,
      () => false,
    );
    if (exists) break;
    missing.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const component of missing.reverse()) {
    try {
      await fs.promises.mkdir(component, mode === undefined ? undefined : { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!(await fs.promises.stat(directory)).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${directory}'`), {
      code: 'ENOTDIR',
      path: directory,
    });
  }
}
