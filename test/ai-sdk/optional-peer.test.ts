import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The AI SDK packages are optional peer dependencies: hookloop must load, hookloop/ai-sdk included,
// where none of them is installed. So src/ may name them in type-only imports and nowhere else.

const SRC = path.resolve(import.meta.dirname, '../../src');
const AI_SDK_PACKAGE = /^(ai|@ai-sdk\/[^/]+)(\/.*)?$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** `file: specifier` for every import or re-export of an AI SDK package that is not type-only. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: string | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifier = node.moduleSpecifier.text;
      typeOnly = node.isTypeOnly;
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifier = node.arguments[0].text;
    }
    if (specifier !== undefined && AI_SDK_PACKAGE.test(specifier) && !typeOnly)
      found.push(`${path.relative(SRC, file)}: ${specifier}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the AI SDK stays an optional peer', () => {
  it('src/ imports AI SDK packages for their types only', () => {
    const files = sourceFiles(SRC);
    expect(files.some((file) => fs.readFileSync(file, 'utf8').includes("from '@ai-sdk/provider'"))).toBe(
      true,
    );
    expect(files.flatMap(runtimeImports)).toEqual([]);
  });

  it('package.json lists @ai-sdk/provider as an optional peer and hookloop/ai-sdk as an entry point', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(SRC, '..', 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      dependencies: Record<string, string>;
      exports: Record<string, unknown>;
    };
    expect(manifest.peerDependencies['@ai-sdk/provider']).toBeDefined();
    expect(manifest.peerDependenciesMeta['@ai-sdk/provider']).toEqual({ optional: true });
    expect(Object.keys(manifest.dependencies).filter((name) => AI_SDK_PACKAGE.test(name))).toEqual([]);
    expect(manifest.exports['./ai-sdk']).toEqual({
      types: './dist/src/ai-sdk/index.d.ts',
      default: './dist/src/ai-sdk/index.js',
    });
  });
});
