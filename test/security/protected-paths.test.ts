import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProtectedPaths } from '../../src/permissions/protected-paths.js';
import { realpathLoose } from '../../src/tools/workspace.js';
import { tempProject } from '../support/scripted-run.js';

// The path resolution under the protected-configuration check, on real temp dirs: what a Bash
// classifier hands the policy is a path as the shell would open it.

describe('realpathLoose resolves like the kernel', () => {
  it('follows a dangling link to where a write would create the file', () => {
    const dir = tempProject();
    const target = path.join(dir, 'home', '.claude', 'settings.json');
    fs.symlinkSync(target, path.join(dir, 'notes.json'));
    expect(realpathLoose(path.join(dir, 'notes.json'))).toBe(target);
  });

  it('applies .. after the link it follows', () => {
    const dir = tempProject({ 'deep/a/b/file': '' });
    fs.symlinkSync(path.join(dir, 'deep', 'a', 'b'), path.join(dir, 'link'));
    expect(realpathLoose(`${path.join(dir, 'link')}/../x.json`)).toBe(path.join(dir, 'deep', 'a', 'x.json'));
  });

  it('returns a normalized path for a symlink loop instead of hanging', () => {
    const dir = tempProject();
    fs.symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'));
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'));
    expect(realpathLoose(path.join(dir, 'a', 'x'))).toBe(path.join(dir, 'a', 'x'));
  });
});

describe('ProtectedPaths', () => {
  it('link/../settings.json reaching ~/.claude through a link is protected', () => {
    const project = tempProject();
    const home = tempProject({ '.claude/hooks/x.sh': '' });
    fs.symlinkSync(path.join(home, '.claude', 'hooks'), path.join(project, 'hooks-link'));
    const paths = new ProtectedPaths({ projectDir: project, homeDir: home });
    expect(
      paths.hit(`${path.join(project, 'hooks-link')}/../settings.json`, { replacesDirectories: false })?.kind,
    ).toBe('configuration');
    expect(
      paths.hit(path.join(project, 'src', 'settings.json'), { replacesDirectories: false }),
    ).toBeUndefined();
  });

  it('a directory that holds configuration counts only for writers that can replace directories', () => {
    const project = tempProject();
    const paths = new ProtectedPaths({ projectDir: project, homeDir: tempProject() });
    expect(paths.hit(project, { replacesDirectories: true })?.path).toBe(path.join(project, '.claude'));
    expect(paths.hit(project, { replacesDirectories: false })).toBeUndefined();
  });
});
