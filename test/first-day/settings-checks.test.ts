import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const SCRIPT = [[{ type: 'text', text: 'done' }]];

describe('invalid permission rules name their file (or flag) and index', () => {
  it('a bad allow rule in .claude/settings.json is one warning naming that file and its index there; the run goes on', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', { permissions: { allow: ['Read', 'Edit', 'Bash(npm test'] } });
    trustWorkspace(dir);
    // The --settings file's rules come later in the merged list: the index is still the file's own.
    writeJson(dir, 'extra.json', { permissions: { deny: ['Write'] } });
    writeJson(dir, 't.json', SCRIPT);
    const run = runCli(['-p', 'go', '--settings', 'extra.json', '--model-script', 't.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      `hookloop: warning: ${path.join(dir, '.claude/settings.json')}: permissions.allow[2]: "Bash(npm test" is not a valid rule; ignored`,
    ]);
  });

  for (const flag of ['--allowedTools', '--disallowedTools']) {
    it(`a bad rule in ${flag} names the flag and the rule's index`, () => {
      const dir = tempProject();
      writeJson(dir, 't.json', SCRIPT);
      const run = runCli(['-p', 'go', flag, 'Read', 'Bash(ls', '--model-script', 't.json'], dir);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`^hookloop: ${flag}\\[1\\]: invalid permission rule "Bash\\(ls"[^\\n]*\\n$`),
      );
    });
  }
});

describe('hookloop hooks validate reports what a run would refuse or warn about', () => {
  it('bad rules (each, with its index), onFailure where nothing can block, an http url that is not a URL, a misspelt top-level key', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', {
      hoks: { Stop: [] },
      model: 'sonnet',
      statusLine: { type: 'command', command: 'true' },
      permissions: { allow: ['Read', 'Bash(ls'], deny: ['(x)'] },
      hooks: {
        Notification: [{ hooks: [{ type: 'command', command: 'true', onFailure: 'block' }] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'localhost:8080/hook' },
              { type: 'http', url: 'http://127.0.0.1:8080/hook' },
            ],
          },
        ],
      },
    });
    const run = runCli(['hooks', 'validate'], dir);
    expect(run.status).toBe(1);
    const file = path.join(dir, '.claude/settings.json');
    const lines = run.stdout.trim().split('\n');
    expect(lines).toContain(
      `warning: ${file}: hoks: not a settings key (did you mean hooks?); it is ignored`,
    );
    expect(
      lines.find((line) =>
        line.startsWith(`error: ${file}: permissions.allow[1]: invalid permission rule "Bash(ls"`),
      ),
    ).toBeDefined();
    expect(
      lines.find((line) =>
        line.startsWith(`error: ${file}: permissions.deny[0]: invalid permission rule "(x)"`),
      ),
    ).toBeDefined();
    expect(lines).toContain(
      `warning: ${file}: hooks.Notification[0].hooks[0].onFailure: onFailure "block" has no effect on Notification, which cannot block; a failure there is reported and ignored`,
    );
    expect(
      lines.find((line) =>
        line.startsWith(
          `error: ${file}: hooks.PreToolUse[0].hooks[0].url: "localhost:8080/hook" is not an http(s) URL`,
        ),
      ),
    ).toBeDefined();
    // Claude Code's own keys and a valid URL are not problems.
    expect(run.stdout).not.toMatch(/model|statusLine|hooks\[1\]\.url/);
    expect(lines.at(-1)).toBe('3 errors, 2 warnings; 1 file checked');
  });

  it('a file with none of these problems is ok', () => {
    const dir = tempProject();
    writeJson(dir, 's.json', {
      model: 'sonnet',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        Stop: [{ hooks: [{ type: 'http', url: 'https://hooks.example.com/stop', onFailure: 'block' }] }],
      },
    });
    const run = runCli(['hooks', 'validate', 's.json'], dir);
    expect(run.stdout).toBe(`ok: 1 file checked: ${path.join(dir, 's.json')}\n`);
    expect(run.status).toBe(0);
  });
});

describe('hooks record, hooks list --event, unknown events', () => {
  it("hooks record --settings F -- RUN-ARGS runs with F's hooks, as the README says", () => {
    const dir = tempProject();
    writeJson(dir, 'hooks.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/stop.json"' }] }] },
    });
    writeJson(dir, 't.json', SCRIPT);
    const run = runCli(
      ['hooks', 'record', '--settings', 'hooks.json', '--', '-p', 'go', '--model-script', 't.json'],
      dir,
    );
    expect(run.status).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { hook_event_name: string }).hook_event_name);
    expect(events).toContain('Stop');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'stop.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'Stop',
    });
  });

  it('hooks list --event Stop says there are none for Stop when other events have hooks', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const run = runCli(['hooks', 'list', '--event', 'Stop'], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('No hooks for Stop.');
    expect(run.stdout).not.toContain('No hooks configured');
  });

  it("an unknown event in a run's settings is ignored with a warning suggesting the likely name, as validate does", () => {
    const dir = tempProject();
    writeJson(dir, 's.json', {
      hooks: { PostToolUseFailed: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    writeJson(dir, 't.json', SCRIPT);
    const run = runCli(['-p', 'go', '--settings', 's.json', '--model-script', 't.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /s\.json: hooks\.PostToolUseFailed: unknown hook event "PostToolUseFailed" \(did you mean PostToolUseFailure\?\); ignored/,
    );
    const validate = runCli(['hooks', 'validate', 's.json'], dir);
    expect(validate.stdout).toContain('(did you mean PostToolUseFailure?)');
  });
});
