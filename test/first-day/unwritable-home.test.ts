import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// A HOME where the transcript folder cannot be made must not stop the run: on procfs, Node's
// recursive mkdir never returned (the CLI hung and, blocked in a sync call, ignored SIGTERM).
describe('a HOME where no folder can be made', () => {
  const procHome = fs.existsSync('/proc/self') ? it : it.skip;

  procHome('a run under HOME=/proc answers, warns once per record it could not write, and exits 0', () => {
    const dir = tempProject();
    writeJson(dir, 's.json', { model: [{ content: [{ type: 'text', text: 'DONE' }] }] });
    const run = runCli(['-p', 'go', '--model-script', 's.json'], dir, { HOME: '/proc' });
    expect(run.stdout).toBe('DONE\n');
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^hookloop: warning: the transcript \/proc\/\.claude\/projects\/.+ could not be written/m,
    );
  });

  it('a HOME whose folders can be made gets the transcript as before', () => {
    const dir = tempProject();
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    writeJson(dir, 's.json', { model: [{ content: [{ type: 'text', text: 'DONE' }] }] });
    const run = runCli(['-p', 'go', '--model-script', 's.json'], dir, { HOME: home });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const projects = fs.readdirSync(path.join(home, '.claude', 'projects'));
    expect(projects).toHaveLength(1);
    expect(
      fs.readdirSync(path.join(home, '.claude', 'projects', projects[0]!)).some((f) => f.endsWith('.jsonl')),
    ).toBe(true);
  });
});
