import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The Bash grammar is kept as the file a tree-sitter-bash release ships, not as the package: the
// package's install script builds a native addon nothing loads, and npm warns about it on every
// install of hookloop.
describe('the Bash grammar hookloop ships', () => {
  it('is the file grammars/README.md names, byte for byte', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'grammars/README.md'), 'utf8');
    const named = /sha256 `([0-9a-f]{64})`/.exec(readme)?.[1];
    const actual = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(ROOT, 'grammars/tree-sitter-bash.wasm')))
      .digest('hex');
    expect(actual).toBe(named);
  });

  it('no package a user installs with hookloop runs an install script', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !entry.dev && entry.hasInstallScript)
      .map(([name]) => name);
    expect(scripted).toEqual([]);
  });
});
