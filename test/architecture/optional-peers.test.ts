import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The optional peer dependencies (ioredis, the Restate SDK) are loaded only by the entry point
 * that needs them: a program that imports `hookloop` or its other faces runs without them
 * installed. Read from the sources with the TypeScript parser: every import that survives
 * compilation (not `import type`, not an all-`type` specifier list), static or `import()`,
 * followed from each entry point through relative imports.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const PEERS = ['ioredis', '@restatedev/restate-sdk'];

/** The module names `file` loads at run time. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every package (bare) module that `entry` loads, directly or through relative imports. */
function packagesLoadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const name of runtimeImports(file)) {
      if (name.startsWith('.')) {
        const target = path.resolve(path.dirname(file), name.replace(/\.js$/, '.ts'));
        if (fs.existsSync(target)) queue.push(target);
      } else packages.add(name);
    }
  }
  return packages;
}

describe('optional peer dependencies', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { default: string }>;
    peerDependenciesMeta: Record<string, { optional: boolean }>;
  };

  it('are declared optional', () => {
    for (const peer of PEERS) expect(manifest.peerDependenciesMeta[peer]?.optional).toBe(true);
  });

  it.each(Object.keys(manifest.exports))('the entry point %s loads only the peers it is for', (entry) => {
    const source = path.join(
      ROOT,
      manifest.exports[entry]!.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'),
    );
    const loaded = [...packagesLoadedBy(source)].filter((name) =>
      PEERS.some((peer) => name === peer || name.startsWith(`${peer}/`)),
    );
    const expected = { './stores/redis': ['ioredis'], './restate': ['@restatedev/restate-sdk'] }[entry] ?? [];
    expect(
      loaded.map((name) => PEERS.find((peer) => name === peer || name.startsWith(`${peer}/`))).sort(),
    ).toEqual([...new Set(expected)].sort());
  });
});
