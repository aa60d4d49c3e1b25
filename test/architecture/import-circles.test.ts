import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of src/ reads as docs/layout.md says: folders sit in layers, each may import
 * its own layer and those below it, never one above; and no file takes part in an import circle.
 * Type-only imports count (STYLE.md: "types that two files both need live in a third file"). Every
 * relative `import`, `import type`, `export … from` and `import()` of every src file is read with
 * the TypeScript compiler's own pre-processor; a circle is a strongly connected group of files
 * (Tarjan), reported with the files it runs through.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * The layers, lowest first: a folder of src/ (or a file at its top, by its name) per entry. A
 * folder missing here fails the test, so a new one must be placed.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'files', 'messages', 'markdown'],
  ['session', 'model', 'memory', 'prompt'],
  // Tools, the Bash reader and the policy are one layer while the tool kinds and the shell reader
  // are being separated: a tool's context names the sandbox type, the sandbox reads the rules.
  ['process', 'tools', 'shell', 'permissions', 'sandbox'],
  ['hooks'],
  ['mcp', 'skills'],
  ['loop'],
  ['telemetry', 'transcript'],
  ['agents'],
  ['run', 'timeline'],
  ['cli', 'restate', 'ai-sdk', 'stores', 'agent-sdk', 'index.ts', 'hook.ts', 'testing.ts', 'providers.ts'],
];

/** The layer of a src file (its index in LAYERS), or undefined for a folder no layer names. */
function layerOf(file: string): number | undefined {
  const top = path.relative(SRC, file).split(path.sep)[0]!;
  const index = LAYERS.findIndex((layer) => layer.includes(top));
  return index < 0 ? undefined : index;
}

/** The imports that point from a lower layer to a higher one, as `from → to` (src-relative). */
function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const name = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets)
      if ((layerOf(target) ?? -1) > (layerOf(file) ?? Infinity))
        found.push(`${name(file)} → ${name(target)}`);
  }
  return found.sort();
}

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
  const graph = importGraph(sourceFiles(SRC));

  it('places every file of src/ in a layer', () => {
    const unplaced = [...graph.keys()]
      .filter((file) => layerOf(file) === undefined)
      .map((file) => path.relative(SRC, file));
    expect(unplaced).toEqual([]);
  });

  it('has no import from a lower layer to a higher one, type-only imports included', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no import circle, type-only imports included', () => {
    expect(circles(graph).map((group) => group.join(' ↔ '))).toEqual([]);
  });

  it('sees an import that points up', () => {
    const loop = path.join(SRC, 'loop', 'a.ts');
    const cli = path.join(SRC, 'cli', 'b.ts');
    expect(
      upwardImports(
        new Map([
          [loop, [cli]],
          [cli, [loop]],
        ]),
      ),
    ).toEqual(['loop/a.ts → cli/b.ts']);
  });

  it('sees a circle when there is one', () => {
    const a = path.join(SRC, 'a.ts');
    const b = path.join(SRC, 'b.ts');
    const c = path.join(SRC, 'c.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a, c]],
          [c, []],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});
