import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-pack-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

// What a fresh clone holds: the tracked files of this checkout (no dist/), with the shared install.
function freshClone(): string {
  const clone = path.join(work, 'clone');
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    if (!fs.existsSync(path.join(ROOT, file))) continue;
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(clone, file));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  return clone;
}

describe('packaging', () => {
  it('npm pack of a fresh clone builds dist itself and ships the CLI, the library, the docs and the license', () => {
    const clone = freshClone();
    expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false);
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: path.join(work, 'home'),
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: clone,
      env,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(packed.status, packed.stderr).toBe(0);
    const [report] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = report!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'docs/hooks.md',
        'docs/compatibility.md',
        'dist/bundle/cli/bin.js',
        'dist/bundle/cli/spawner-child.js',
        'dist/bundle/cli/tree-sitter-bash.wasm',
        'dist/bundle/cli/web-tree-sitter.wasm',
        'grammars/tree-sitter-bash.wasm',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/testing.js',
      ]),
    );
    expect(fs.readFileSync(path.join(clone, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} hookloop contributors/,
    );

    // Installed into a project (dependencies from the shared install: no network here).
    const project = path.join(work, 'project');
    const installed = path.join(project, 'node_modules', 'hookloop');
    fs.mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['xzf', path.join(work, report!.filename), '-C', installed, '--strip-components=1']);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(installed, 'node_modules'));
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      bin: { hookloop: string };
    };
    const version = spawnSync(process.execPath, [path.join(installed, manifest.bin.hookloop), '--version'], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(version.stdout.trim()).toBe(
      (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    fs.writeFileSync(
      path.join(project, 'use.mjs'),
      "import { runAgent } from 'hookloop';\nimport { ScriptedModel } from 'hookloop/testing';\nconsole.log(typeof runAgent, typeof ScriptedModel);\n",
    );
    expect(execFileSync(process.execPath, ['use.mjs'], { cwd: project, env, encoding: 'utf8' })).toBe(
      'function function\n',
    );
    // The library reads Bash with the grammar the package ships: an allow rule can only approve a
    // command the reader has parsed, so the file exists only if the grammar loaded.
    fs.writeFileSync(
      path.join(project, 'bash.mjs'),
      [
        "import fs from 'node:fs';",
        "import { loadClaudeCodeSetup, runAgent } from 'hookloop';",
        "import { ScriptedModel } from 'hookloop/testing';",
        "const setup = await loadClaudeCodeSetup(process.cwd(), { homeDir: process.cwd(), env: {}, allowedTools: ['Bash(touch:*)'], permissionMode: 'dontAsk', warn: () => {} });",
        "const model = new ScriptedModel([[{ type: 'tool_use', id: 'call0', name: 'Bash', input: { command: 'touch made' } }], [{ type: 'text', text: 'done' }]]);",
        "await runAgent('go', { ...setup, model, transcript: false });",
        "console.log(fs.existsSync('made'));",
      ].join('\n'),
    );
    expect(execFileSync(process.execPath, ['bash.mjs'], { cwd: project, env, encoding: 'utf8' })).toBe(
      'true\n',
    );
  }, 240_000);

  it('the docs and the comments a user gets (README, docs/, the .d.ts JSDoc from src/) name no file they do not have', () => {
    const sources = execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n');
    const shipped = [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join('docs', entry.name)),
      ...sources,
    ];
    for (const file of shipped) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/DESIGN\.md|\.\.\/shared\/|\/work\/shared/);
    }
  });
});
