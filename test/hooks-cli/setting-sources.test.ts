import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text } from '../support/scripted-run.js';

// Claude Code 2.1.328, measured: `--setting-sources` picks which of the user, project and local
// settings files are read; `--settings` always counts; an unknown name stops the run.

const mark = (name: string) => ({
  hooks: {
    UserPromptSubmit: [
      {
        hooks: [
          {
            type: 'command',
            command: `mkdir -p "$CLAUDE_PROJECT_DIR/marks" && touch "$CLAUDE_PROJECT_DIR/marks/${name}"`,
          },
        ],
      },
    ],
  },
});

function project(): string {
  const dir = tempProject();
  writeJson(dir, '.test-home/.claude/settings.json', mark('user'));
  writeJson(dir, '.claude/settings.json', mark('project'));
  writeJson(dir, '.claude/settings.local.json', mark('local'));
  writeJson(dir, 'flag.json', mark('flag'));
  writeJson(dir, 't.json', [[text('done')]]);
  return dir;
}

function marks(dir: string): string[] {
  const folder = path.join(dir, 'marks');
  return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
}

describe('--setting-sources', () => {
  for (const [value, expected] of [
    ['project', ['flag', 'project']],
    ['user,local', ['flag', 'local', 'user']],
    ['user, project', ['flag', 'project', 'user']],
    ['', ['flag']],
  ] as const) {
    it(`${JSON.stringify(value)} reads ${expected.join(', ')}`, () => {
      const dir = project();
      const run = runCli(
        ['-p', 'go', '--settings', 'flag.json', '--setting-sources', value, '--model-script', 't.json'],
        dir,
      );
      expect(run.status).toBe(0);
      expect(marks(dir)).toEqual(expected);
    });
  }

  it('reads every source without the flag', () => {
    const dir = project();
    expect(runCli(['-p', 'go', '--settings', 'flag.json', '--model-script', 't.json'], dir).status).toBe(0);
    expect(marks(dir)).toEqual(['flag', 'local', 'project', 'user']);
  });

  it('an unknown source is one line naming the flag, exit 2, and no hook runs', () => {
    const dir = project();
    const run = runCli(['-p', 'go', '--setting-sources', 'bogus', '--model-script', 't.json'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'hookloop: --setting-sources: invalid setting source "bogus"; expected a comma-separated list of user, project, local\n',
    );
    expect(marks(dir)).toEqual([]);
  });
});
