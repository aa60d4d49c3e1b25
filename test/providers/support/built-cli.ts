import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The shipped CLI (the bundle of `npm run build`) these tests run. */
export const CLI = path.join(ROOT, 'dist/bundle/cli/bin.js');

/** Builds dist/ when it is missing or older than a source file (the CLI tests run the built command). @throws when no CLI could be built. */
export function ensureBuilt(): void {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...fs.readdirSync(dir, { withFileTypes: true }).map((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory()
          ? newest(full)
          : entry.name.endsWith('.ts')
            ? fs.statSync(full).mtimeMs
            : 0;
      }),
    );
  if (fs.existsSync(CLI) && fs.statSync(CLI).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    if (!fs.existsSync(path.join(ROOT, 'dist/src/cli/bin.js'))) throw error;
  }
  try {
    execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc still writes its output when it finds type errors; those are the typecheck step's to
    // report. Only a build that produced no CLI at all stops these tests.
    if (!fs.existsSync(CLI)) throw error;
  }
}
