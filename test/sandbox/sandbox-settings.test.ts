import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/index.js';
import { tempDir } from './support.js';

function write(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

describe('the sandbox settings key', () => {
  it('merges across user, project and local settings like Claude Code: later scalars win, lists concatenate, unknown keys kept', () => {
    const root = tempDir();
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    write(path.join(home, '.claude', 'settings.json'), {
      sandbox: { enabled: true, filesystem: { allowWrite: ['~/.kube'] }, futureKey: 1 },
    });
    write(path.join(project, '.claude', 'settings.json'), {
      sandbox: {
        filesystem: { allowWrite: ['/tmp/build'], denyRead: ['~/.ssh'] },
        network: { allowedDomains: ['example.com'] },
      },
    });
    write(path.join(project, '.claude', 'settings.local.json'), {
      sandbox: {
        autoAllowBashIfSandboxed: false,
        network: { allowedDomains: ['example.com', 'registry.npmjs.org'] },
      },
    });
    const settings = loadSettings({ projectDir: project, homeDir: home });
    expect(settings.sandbox).toEqual({
      enabled: true,
      autoAllowBashIfSandboxed: false,
      futureKey: 1,
      filesystem: { allowWrite: ['~/.kube', '/tmp/build'], denyRead: ['~/.ssh'] },
      network: { allowedDomains: ['example.com', 'registry.npmjs.org'] },
    });
  });

  it('names the file and the field of a wrong value', () => {
    const root = tempDir();
    write(path.join(root, 'project', '.claude', 'settings.json'), {
      sandbox: { network: { allowedDomains: 'example.com' } },
    });
    expect(() =>
      loadSettings({ projectDir: path.join(root, 'project'), homeDir: path.join(root, 'home') }),
    ).toThrow(/settings\.json: sandbox\.network\.allowedDomains: expected an array of strings/);
  });
});
