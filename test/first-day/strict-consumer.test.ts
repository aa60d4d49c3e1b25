import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A new user's TypeScript project: `strict`, and library types checked too (`skipLibCheck: false`).
// hookloop's published declarations must compile there without types the user would have to add.
// The package is packed from the built dist/ (`npm run build` first, as for the CLI tests): packing
// without the prepack build keeps this test to one type-check.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-strict-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    types: ['node'],
  },
  files: ['use.ts'],
};

// Every entry point, and a few of the types a library user writes down.
const CONSUMER_SOURCE = `import { runAgent, type RunOptions, type HookInput } from 'hookloop';
import { ScriptedModel } from 'hookloop/testing';
import * as providers from 'hookloop/providers';
import * as hook from 'hookloop/hook';
import { query, type Options } from 'hookloop/agent-sdk';

export const sdkOptions: Options = { allowedTools: ['Read'], hooks: { PreToolUse: [{ hooks: [async () => ({})] }] } };
export const options: Pick<RunOptions, 'projectDir'> = { projectDir: '.' };
export const seen: ((input: HookInput<'PreToolUse'>) => string) = (input) => input.tool_name;
export const used = [runAgent, ScriptedModel, providers, hook, query];
`;

describe('the published types', () => {
  it('type-check in a strict project that checks library types (skipLibCheck: false)', () => {
    expect(
      fs.existsSync(path.join(ROOT, 'dist', 'src', 'index.d.ts')),
      'dist/ is missing: run npm run build first',
    ).toBe(true);
    const env = {
      ...process.env,
      HOME: path.join(work, 'home'),
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(packed.status, packed.stderr).toBe(0);
    const [report] = JSON.parse(packed.stdout) as { filename: string }[];

    // Installed as npm would: hookloop's dependencies beside it (the shared install: no network here).
    const project = path.join(work, 'project');
    const installed = path.join(project, 'node_modules', 'hookloop');
    fs.mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['xzf', path.join(work, report!.filename), '-C', installed, '--strip-components=1']);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(installed, 'node_modules'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', '@types'), path.join(project, 'node_modules', '@types'));
    fs.writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG, null, 2));
    fs.writeFileSync(path.join(project, 'use.ts'), CONSUMER_SOURCE);

    const checked = spawnSync(process.execPath, [TSC, '-p', project], {
      cwd: project,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  }, 300_000);
});
