// Builds the shipped `hookloop` command: one minified ESM bundle of the CLI, split into chunks so
// that what src/ imports lazily (the Bash grammar, the SDKs, MCP, telemetry, …) still loads only
// when a run needs it. Start-up then opens a handful of files instead of ~700 modules.
//
// The layout mirrors dist/src/cli/ one level down (dist/bundle/cli/), so that every path src/
// builds from `import.meta.url` (package.json, examples/demo, the spawner child) lands on the same
// file from the bundle as from the tsc build. The library exports stay the tsc build of dist/src.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(root, 'dist/bundle/cli');

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    bin: 'src/cli/bin.ts',
    // Started as its own process by spawner.ts, found beside it by name.
    'spawner-child': 'src/process/spawner-child.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
  // The sandbox runtime finds its helper binaries beside its own files: it stays a package. The
  // OpenTelemetry SDK (loaded only when OTEL_* asks for traces) is CommonJS whose dynamic import a
  // bundle turns into a namespace without its named exports: it stays a package too.
  // The Restate SDK (`hookloop serve` only) is an optional peer dependency: the user installs it.
  external: [
    '@restatedev/restate-sdk',
    '@anthropic-ai/sandbox-runtime',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
  ],
  // Bundled CommonJS packages call require() for Node's built-ins.
  banner: {
    js: "import{createRequire as __hookloopRequire}from'node:module';const require=__hookloopRequire(import.meta.url);",
  },
});

// WebAssembly the grammar loader reads beside the code that loads it.
fs.copyFileSync(
  path.join(root, 'node_modules/web-tree-sitter/web-tree-sitter.wasm'),
  path.join(outdir, 'web-tree-sitter.wasm'),
);
fs.copyFileSync(
  path.join(root, 'grammars/tree-sitter-bash.wasm'),
  path.join(outdir, 'tree-sitter-bash.wasm'),
);
fs.chmodSync(path.join(outdir, 'bin.js'), 0o755);
