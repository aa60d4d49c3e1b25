import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The Bash reader (src/shell/) knows nothing of the policy: its files import only each other, node
 * builtins and npm packages (and the shared error and message modules, if ever needed). The rest of
 * src/ reaches the reader only through its face, src/shell/index.ts, so the reader's inside can
 * change without touching the policy.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');
const SHELL = path.join(SRC, 'shell');
const ALLOWED_OUTSIDE = [path.join(SRC, 'errors.ts'), path.join(SRC, 'messages')];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every relative import of `file` (type-only and dynamic ones included), as absolute .ts paths. */
function relativeImports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.resolve(path.dirname(file), name.replace(/\.js$/, '.ts')));
}

const inside = (file: string, directory: string): boolean =>
  file === directory || file.startsWith(directory + path.sep);
const shown = (file: string): string => path.relative(SRC, file).split(path.sep).join('/');

/** `file → target` for each import of a src/shell/ file that leaves the reader. */
function readerEscapes(file: string, text?: string): string[] {
  return relativeImports(file, text)
    .filter((target) => !inside(target, SHELL) && !ALLOWED_OUTSIDE.some((allowed) => inside(target, allowed)))
    .map((target) => `${shown(file)} → ${shown(target)}`);
}

/** `file → target` for each import from outside src/shell/ of a reader file other than its face. */
function faceBypasses(file: string, text?: string): string[] {
  return relativeImports(file, text)
    .filter((target) => inside(target, SHELL) && target !== path.join(SHELL, 'index.ts'))
    .map((target) => `${shown(file)} → ${shown(target)}`);
}

describe('the Bash reader in src/shell/', () => {
  const files = sourceFiles(SRC);

  it('imports nothing of the policy, the hooks, the loop or the tools', () => {
    expect(files.filter((file) => inside(file, SHELL)).flatMap((file) => readerEscapes(file))).toEqual([]);
  });

  it('is reached from the rest of src/ only through src/shell/index.ts', () => {
    expect(files.filter((file) => !inside(file, SHELL)).flatMap((file) => faceBypasses(file))).toEqual([]);
  });

  it('sees a reader file that imports the policy, and a policy file that skips the face', () => {
    const reader = path.join(SHELL, 'bash-example.ts');
    expect(
      readerEscapes(
        reader,
        "import type { Workspace } from '../tools/workspace.js';\nimport { z } from 'zod';\nimport path from 'node:path';",
      ),
    ).toEqual(['shell/bash-example.ts → tools/workspace.ts']);
    expect(
      readerEscapes(
        reader,
        "import { ConfigError } from '../errors.js';\nimport { parseBashCommand } from './bash-command.js';",
      ),
    ).toEqual([]);
    const policy = path.join(SRC, 'permissions', 'example.ts');
    expect(faceBypasses(policy, "const parsed = await import('../shell/bash-command.js');")).toEqual([
      'permissions/example.ts → shell/bash-command.ts',
    ]);
    expect(faceBypasses(policy, "import type { BashWrite } from '../shell/index.js';")).toEqual([]);
  });
});
