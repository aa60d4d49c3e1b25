import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, PermissionPolicy, Workspace, type PermissionMode } from '../../src/index.js';
import { tempProject } from '../support/scripted-run.js';

// Property: however a path to a protected file is spelled — through symlinked aliases of the
// workspace (inside or outside it), links to `.claude` or to its parent, chains of links, dangling
// links, `./` and `x/../` detours, relative to a cwd below the root — a Write to it asks and no hook
// may decide, in every mode; the same spellings of an ordinary file are allowed in bypassPermissions.

const write = builtinTools().find((tool) => tool.name === 'Write')!;
const bash = builtinTools().find((tool) => tool.name === 'Bash')!;

/** One workspace with every kind of link a spelling can go through. */
function fixture() {
  const home = tempProject();
  const dir = tempProject({ 'sub/deeper/keep': '', 'src/ok.txt': '' });
  const elsewhere = tempProject();
  fs.symlinkSync(dir, path.join(dir, 'alias'));
  fs.symlinkSync(dir, path.join(elsewhere, 'alias'));
  fs.symlinkSync(path.join(dir, 'alias'), path.join(elsewhere, 'chain'));
  fs.symlinkSync(path.join(dir, '.claude'), path.join(dir, 'claude-link')); // dangling until .claude exists
  fs.symlinkSync(path.join(home, '.claude'), path.join(dir, 'home-claude')); // dangling
  fs.symlinkSync(path.join(dir, 'sub'), path.join(dir, 'sub-link'));
  return { home, dir, elsewhere };
}

type Fixture = ReturnType<typeof fixture>;

/** Ways to reach the workspace root, then the protected file below it. */
const roots = fc.constantFrom(
  (f: Fixture) => f.dir,
  (f: Fixture) => path.join(f.dir, 'alias'),
  (f: Fixture) => path.join(f.elsewhere, 'alias'),
  (f: Fixture) => path.join(f.elsewhere, 'chain'),
  (f: Fixture) => path.join(f.dir, 'sub-link', '..'),
  (f: Fixture) => path.join(f.dir, 'sub', 'deeper', '..', '..'),
);
const detours = fc.array(fc.constantFrom('.', 'sub/..', 'sub-link/..', 'alias', 'src/..'), { maxLength: 3 });
const targets = fc.constantFrom(
  { via: (root: string) => path.join(root, '.claude', 'settings.json'), protectedFile: true },
  { via: (root: string) => path.join(root, '.claude', 'settings.local.json'), protectedFile: true },
  { via: (root: string) => path.join(root, 'claude-link', 'settings.json'), protectedFile: true },
  { via: (root: string) => path.join(root, 'home-claude', 'settings.json'), protectedFile: true },
  { via: (root: string) => path.join(root, '.git', 'config'), protectedFile: true },
  { via: (root: string) => path.join(root, '.mcp.json'), protectedFile: true },
  { via: (root: string) => path.join(root, 'src', 'ok.txt'), protectedFile: false },
  { via: (root: string) => path.join(root, 'sub', 'new.txt'), protectedFile: false },
);
const modes = fc.constantFrom<PermissionMode>('default', 'acceptEdits', 'bypassPermissions', 'dontAsk');
const relative = fc.boolean();

describe('protected files, however the path is spelled', () => {
  it('a Write asks with no hook allowed to decide; an ordinary file is allowed in bypassPermissions', async () => {
    const f = fixture();
    await fc.assert(
      fc.asyncProperty(
        roots,
        detours,
        targets,
        modes,
        relative,
        async (root, detour, target, mode, fromSub) => {
          const base = path.join(root(f), ...detour);
          const absolute = target.via(base);
          const cwd = path.join(f.dir, 'sub');
          // Written as the model would: absolute, or relative to a cwd below the root (without normalizing).
          const filePath = fromSub ? path.relative(cwd, absolute) : absolute;
          const policy = new PermissionPolicy({
            rules: { allow: ['Write'], ask: [], deny: [] },
            mode,
            workspace: new Workspace(f.dir),
            projectDir: f.dir,
            homeDir: f.home,
          });
          const input = write.normalizeInput!(
            { file_path: filePath, content: '' },
            { cwd, projectDir: f.dir },
          );
          const verdict = await policy.evaluate({ tool: write, input, cwd, hookDecision: 'allow' });
          if (target.protectedFile) {
            expect(verdict, filePath).toMatchObject({ behavior: 'ask', hookMayDecide: false });
          } else if (mode === 'bypassPermissions') {
            expect(verdict.behavior, filePath).toBe('allow');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a Bash redirection asks with no hook allowed to decide; an ordinary file is allowed in bypassPermissions', async () => {
    const f = fixture();
    await fc.assert(
      fc.asyncProperty(
        roots,
        detours,
        targets,
        modes,
        relative,
        fc.constantFrom('>', '>>', '1>', '&>'),
        async (root, detour, target, mode, fromSub, operator) => {
          const absolute = target.via(path.join(root(f), ...detour));
          const cwd = path.join(f.dir, 'sub');
          const filePath = fromSub ? path.relative(cwd, absolute) : absolute;
          const policy = new PermissionPolicy({
            rules: { allow: ['Bash'], ask: [], deny: [] },
            mode,
            workspace: new Workspace(f.dir),
            projectDir: f.dir,
            homeDir: f.home,
          });
          const command = `echo x ${operator} '${filePath}'`;
          const verdict = await policy.evaluate({
            tool: bash,
            input: { command },
            cwd,
            hookDecision: 'allow',
          });
          if (target.protectedFile)
            expect(verdict, command).toMatchObject({ behavior: 'ask', hookMayDecide: false });
          else if (mode === 'bypassPermissions') expect(verdict.behavior, command).toBe('allow');
        },
      ),
      { numRuns: 200 },
    );
  });
});
