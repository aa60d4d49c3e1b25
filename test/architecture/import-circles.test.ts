import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import circles in src/, type-only ones included (STYLE.md: "types that two files both need
 * live in a third file"). Every relative `import`, `import type`, `export … from` and `import()` of
 * every src file is read with the TypeScript compiler's own pre-processor; a circle is a strongly
 * connected group of files (Tarjan), reported with the files it runs through.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * Circles known when this check was added, each waiting on a branch that rewrites its files (so
 * fixing it here would collide): remove the entry when the circle is gone — the test fails on an
 * entry that no longer matches, so the list cannot outlive its circles.
 */
const PENDING: readonly (readonly string[])[] = [
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.resolve(path.dirname(file), name.replace(/\.js$/, '.ts')))
      .filter((target) => fs.existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (or a file importing itself). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.map((group) => group.map((file) => path.relative(SRC, file).split(path.sep).join('/')).sort());
}

describe('the import graph of src/', () => {
  const found = circles(importGraph(sourceFiles(SRC)));
  const key = (group: readonly string[]) => [...group].sort().join(' ↔ ');

  it('has no import circle, type-only imports included', () => {
    const pending = new Set(PENDING.map(key));
    expect(found.map(key).filter((circle) => !pending.has(circle))).toEqual([]);
  });

  it('still has every circle listed as pending (drop the entry once it is fixed)', () => {
    const present = new Set(found.map(key));
    expect(PENDING.map(key).filter((circle) => !present.has(circle))).toEqual([]);
  });

  it('sees a circle when there is one', () => {
    const a = path.join(SRC, 'a.ts');
    const b = path.join(SRC, 'b.ts');
    const c = path.join(SRC, 'c.ts');
    expect(circles(new Map([[a, [b]], [b, [a, c]], [c, []]]))).toEqual([['a.ts', 'b.ts']]);
  });
});
