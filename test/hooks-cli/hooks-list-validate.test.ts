import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const command = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: text,
  ...extra,
});

describe('hookloop hooks list', () => {
  function project(): string {
    const dir = tempProject({
      'plugin/.claude-plugin/plugin.json': JSON.stringify({ name: 'fmt' }),
      'plugin/hooks/hooks.json': JSON.stringify({
        hooks: {
          PostToolUse: [{ matcher: 'Write|Edit', hooks: [command('${CLAUDE_PLUGIN_ROOT}/format.sh')] }],
          PreToolUse: [{ hooks: [command('guard')] }],
        },
      }),
    });
    writeJson(dir, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [command('guard', { timeout: 5 }), command('audit', { if: 'Bash(git *)' })],
          },
        ],
      },
    });
    writeJson(dir, '.claude/settings.local.json', {
      hooks: { Stop: [{ hooks: [command('check-tests', { async: true })] }] },
    });
    return dir;
  }

  it("shows each event's handlers in firing order, with their file, JSON path and duplicates", () => {
    const dir = project();
    const run = runCli(['hooks', 'list', '--plugin-dir', 'plugin'], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        `Settings read: ${dir}/.claude/settings.json, ${dir}/.claude/settings.local.json`,
        `Plugin fmt: ${dir}/plugin (CLAUDE_PLUGIN_DATA=${dir}/.test-home/.claude/plugins/data/fmt-inline)`,
        '',
        'PreToolUse (3 handlers)',
        '  #1 "Bash"  command: guard  [timeout 5 s]',
        '      from .claude/settings.json (project) hooks.PreToolUse[0].hooks[0]',
        '  #2 "Bash"  command: audit  [if Bash(git *)]',
        '      from .claude/settings.json (project) hooks.PreToolUse[0].hooks[1]',
        '  #3 *  command: guard  [same as #1: runs once when both match]',
        '      from plugin fmt: plugin/hooks/hooks.json hooks.PreToolUse[0].hooks[0]',
        '',
        'PostToolUse (1 handler)',
        `  #1 "Write|Edit"  command: ${dir}/plugin/format.sh`,
        '      from plugin fmt: plugin/hooks/hooks.json hooks.PostToolUse[0].hooks[0]',
        '',
        'Stop (1 handler)',
        '  #1 *  command: check-tests  [async]',
        '      from .claude/settings.local.json (local) hooks.Stop[0].hooks[0]',
        '',
      ].join('\n'),
    );
    // Listing is read-only: the plugin's data directory is not created.
    expect(fs.existsSync(path.join(dir, '.test-home/.claude/plugins/data/fmt-inline'))).toBe(false);
  });

  it('--json, and --event to pick one event', () => {
    const dir = project();
    const list = JSON.parse(
      runCli(['hooks', 'list', '--plugin-dir', 'plugin', '--event', 'PreToolUse', '--json'], dir).stdout,
    );
    expect(Object.keys(list.events)).toEqual(['PreToolUse']);
    expect(list.events.PreToolUse[2]).toEqual({
      index: 3,
      type: 'command',
      matcherKind: 'all',
      handler: 'command: guard',
      async: false,
      source: { file: `${dir}/plugin/hooks/hooks.json`, scope: 'plugin', plugin: 'fmt' },
      location: 'hooks.PreToolUse[0].hooks[0]',
      duplicateOf: 1,
    });
    expect(list.plugins).toEqual([
      {
        name: 'fmt',
        root: `${dir}/plugin`,
        dataDir: `${dir}/.test-home/.claude/plugins/data/fmt-inline`,
        hookFiles: [`${dir}/plugin/hooks/hooks.json`],
      },
    ]);
  });

  it('says when disableAllHooks switches everything off', () => {
    const dir = project();
    writeJson(dir, 'off.json', { disableAllHooks: true });
    const run = runCli(['hooks', 'list', '--settings', 'off.json'], dir);
    expect(run.stdout).toContain('disableAllHooks is set: no hook runs.');
    expect(run.stdout).not.toContain('PreToolUse');
  });
});

describe('hookloop hooks validate', () => {
  it('reports every problem with file, JSON path, expected and got, and exits 1', () => {
    const dir = tempProject({ 'hooks/not-exec.sh': '#!/bin/sh\n' });
    writeJson(dir, 'bad.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash(', hooks: [command('true', { timeout: '5' })] },
          {
            matcher: 'bash',
            hooks: [
              command('"$CLAUDE_PROJECT_DIR"/hooks/missing.sh'),
              command('./hooks/not-exec.sh'),
              command('no-such-program-xyz --flag'),
              command('true', { if: 'Bash(git *' }),
            ],
          },
          {
            hooks: [
              command('python3 "$CLAUDE_PROJECT_DIR"/hooks/gone.py'),
              { type: 'command', comand: 'typo', command: 'true' },
            ],
          },
        ],
        PreTooluse: [],
        Stop: [{ hooks: [command('true', { if: 'Bash(*)' })] }],
        Notificaton: [],
        TeammateIdle: [{ hooks: [command('true')] }],
      },
    });
    const run = runCli(['hooks', 'validate', 'bad.json'], dir);
    expect(run.status).toBe(1);
    const file = path.join(dir, 'bad.json');
    const lines = run.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `error: ${file}: hooks.PreToolUse[0].hooks[0].timeout: expected a positive number, got "5"`,
        `error: ${file}: hooks.PreTooluse: unknown hook event "PreTooluse" (did you mean PreToolUse?); expected one of ${lines.find((line) => line.includes('PreTooluse'))?.split('expected one of ')[1]}`,
        expect.stringMatching(
          new RegExp(
            `^error: ${file}: hooks\\.PreToolUse\\[0\\]\\.matcher: invalid matcher "Bash\\(": Invalid regular expression`,
          ),
        ),
        `warning: ${file}: hooks.PreToolUse[1].matcher: "bash" never matches: matchers are case-sensitive (did you mean Bash?)`,
        `error: ${file}: hooks.PreToolUse[1].hooks[0].command: $CLAUDE_PROJECT_DIR/hooks/missing.sh (${dir}/hooks/missing.sh): no such file`
          .replace('$CLAUDE_PROJECT_DIR', dir)
          .replace(` (${dir}/hooks/missing.sh)`, ''),
        `error: ${file}: hooks.PreToolUse[1].hooks[1].command: ./hooks/not-exec.sh (${dir}/hooks/not-exec.sh): not executable (chmod +x ${dir}/hooks/not-exec.sh)`,
        `error: ${file}: hooks.PreToolUse[1].hooks[2].command: no-such-program-xyz: not found in PATH`,
        expect.stringMatching(
          new RegExp(
            `^error: ${file}: hooks\\.PreToolUse\\[1\\]\\.hooks\\[3\\]\\.if: invalid permission rule "Bash\\(git \\*"`,
          ),
        ),
        `error: ${file}: hooks.PreToolUse[2].hooks[0].command: ${dir}/hooks/gone.py: no such file`,
        `warning: ${file}: hooks.PreToolUse[2].hooks[1].comand: unknown field of a "command" handler; it is ignored`,
        `warning: ${file}: hooks.Stop[0].hooks[0].if: this handler never runs: "if" is evaluated on tool events only (PreToolUse, PermissionRequest, PermissionDenied, PermissionDecision, PostToolUse, PostToolUseFailure)`,
        expect.stringMatching(
          new RegExp(
            `^error: ${file}: hooks\\.Notificaton: unknown hook event "Notificaton" \\(did you mean Notification\\?\\)`,
          ),
        ),
        `warning: ${file}: hooks.TeammateIdle: hookloop does not fire TeammateIdle; its handlers are ignored`,
      ]),
    );
    expect(lines.at(-1)).toMatch(/^\d+ errors, \d+ warnings; 1 file checked$/);
  });

  it("--json gives each problem's fields; a clean setup exits 0", () => {
    const dir = tempProject({ '.claude/hooks/ok.sh': '#!/bin/sh\ncat >/dev/null\n' });
    fs.chmodSync(path.join(dir, '.claude/hooks/ok.sh'), 0o755);
    writeJson(dir, '.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/ok.sh'),
              command('jq -r .x 2>/dev/null || true', { timeout: 1 }),
            ],
          },
        ],
      },
    });
    const clean = runCli(['hooks', 'validate'], dir);
    expect(clean.stdout).toBe(`ok: 1 file checked: ${dir}/.claude/settings.json\n`);
    expect(clean.status).toBe(0);

    writeJson(dir, 'bad.json', { hooks: { PreToolUse: [{ hooks: [command('true', { timeout: -1 })] }] } });
    const run = runCli(['hooks', 'validate', '--settings', 'bad.json', '--json'], dir);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      files: [`${dir}/.claude/settings.json`, `${dir}/bad.json`],
      problems: [
        {
          severity: 'error',
          file: `${dir}/bad.json`,
          path: 'hooks.PreToolUse[0].hooks[0].timeout',
          message: 'expected a positive number, got -1',
          expected: 'a positive number',
          got: '-1',
        },
      ],
    });
  });

  it('checks plugin directories: manifest fields, hook files, ${CLAUDE_PLUGIN_ROOT} commands', () => {
    const dir = tempProject({
      'p/.claude-plugin/plugin.json': JSON.stringify({ name: 'has space', hooks: './extra.json' }),
      'p/hooks/hooks.json': JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [command('${CLAUDE_PLUGIN_ROOT}/scripts/missing.sh')] }] },
      }),
      'q/hooks/hooks.json': JSON.stringify({ PreToolUse: [] }),
    });
    const run = runCli(['hooks', 'validate', 'p', '--plugin-dir', 'q'], dir);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      `error: ${dir}/p/.claude-plugin/plugin.json: name: expected a plugin name without spaces or slashes (kebab-case, e.g. "my-guard"), got "has space"`,
      `error: ${dir}/p/hooks/hooks.json: hooks.PreToolUse[0].hooks[0].command: ${dir}/p/scripts/missing.sh: no such file`,
      `error: ${dir}/p/.claude-plugin/plugin.json: hooks: no such file: ${dir}/p/extra.json`,
      `error: ${dir}/q/hooks/hooks.json: PreToolUse: hook events belong under a top-level "hooks" key: {"hooks": {"PreToolUse": [...]}}`,
      '4 errors, 0 warnings; 3 files checked',
    ]);
  });

  it('invalid JSON: the line and column', () => {
    const dir = tempProject({ 's.json': '{\n  "hooks": {,}\n}' });
    const run = runCli(['hooks', 'validate', 's.json'], dir);
    expect(run.stdout).toMatch(new RegExp(`^error: ${dir}/s\\.json: invalid JSON at line 2 column 13: `));
    expect(run.status).toBe(1);
  });
});
