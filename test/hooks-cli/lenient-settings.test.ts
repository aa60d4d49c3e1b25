import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// A run reads settings as Claude Code 2.1.328 does (measured with the reference runner): what it
// cannot read is left out with one warning line, the rest still counts; `hooks validate` stays strict.

const mark = (name: string) => ({ type: 'command', command: `touch "$CLAUDE_PROJECT_DIR/${name}"` });
const writeScript = [
  [text('w'), toolUse('toolu_1', 'Write', { file_path: 'out.txt', content: 'x\n' })],
  [text('done')],
];

function run(dir: string, script: unknown, args: string[] = []) {
  writeJson(dir, 't.json', script);
  return runCli(['-p', 'go', '--model-script', 't.json', ...args], dir);
}

function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('hookloop: warning: '));
}

describe('settings entries a run leaves out, as Claude Code does', () => {
  it('a published project with "Edit:*" in permissions.allow still runs its hooks; validate still reports the rule', () => {
    const dir = tempProject();
    const file = writeJson(dir, '.claude/settings.json', {
      permissions: { allow: ['Edit:*', 'Read'] },
      hooks: { UserPromptSubmit: [{ hooks: [mark('ups-ran')] }] },
    });
    trustWorkspace(dir);
    const result = run(dir, [[text('done')]]);
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ups-ran'))).toBe(true);
    expect(warnings(result.stderr)).toEqual([
      `hookloop: warning: ${file}: permissions.allow[0]: "Edit:*" is not a valid rule; ignored`,
    ]);
    const validate = runCli(['hooks', 'validate'], dir);
    expect(validate.status).toBe(1);
    expect(validate.stdout).toContain(
      `error: ${file}: permissions.allow[0]: invalid permission rule "Edit:*"`,
    );
  });

  it('drops only the unreadable handler, group or event: siblings still run, each drop is one warning naming its field', () => {
    const dir = tempProject();
    const file = writeJson(dir, 's.json', {
      hooks: {
        PreTooluse: [{ hooks: [mark('typo-ran')] }],
        Stop: {},
        UserPromptSubmit: [
          { hooks: [{ type: 'bogus' }, { ...mark('timeout-ran'), timeout: '5' }, mark('sibling-ran')] },
          { matcher: '(', hooks: [mark('bad-matcher-ran')] },
          { hooks: [mark('second-group-ran')] },
        ],
      },
    });
    const result = run(dir, [[text('done')]], ['--settings', 's.json']);
    expect(result.status).toBe(0);
    const ran = ['typo-ran', 'timeout-ran', 'sibling-ran', 'bad-matcher-ran', 'second-group-ran'].filter(
      (name) => fs.existsSync(path.join(dir, name)),
    );
    expect(ran).toEqual(['sibling-ran', 'second-group-ran']);
    expect(warnings(result.stderr).map((line) => line.replace(`hookloop: warning: ${file}: `, ''))).toEqual([
      'hooks.PreTooluse: unknown hook event "PreTooluse" (did you mean PreToolUse?); ignored',
      'hooks.Stop: expected an array of matcher groups, got an object; ignored',
      'hooks.UserPromptSubmit[0].hooks[0].type: expected one of "command", "http", "prompt", "agent", "mcp_tool", got "bogus"; ignored',
      'hooks.UserPromptSubmit[0].hooks[1].timeout: expected a positive number, got "5"; ignored',
      'hooks.UserPromptSubmit[1].matcher: invalid matcher "(": Invalid regular expression: /(/: Unterminated group; ignored',
    ]);
    // hooks list names the kept handlers by their place in the file.
    const list = runCli(['hooks', 'list', '--settings', 's.json'], dir);
    expect(list.stdout).toContain('hooks.UserPromptSubmit[0].hooks[2]');
  });

  it('a known key of the wrong type leaves the whole file out (its hooks do not run), with one warning', () => {
    const dir = tempProject();
    const file = writeJson(dir, '.claude/settings.json', {
      permissions: { allow: 'Read' },
      hooks: { UserPromptSubmit: [{ hooks: [mark('ups-ran')] }] },
    });
    const result = run(dir, [[text('done')]]);
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ups-ran'))).toBe(false);
    expect(warnings(result.stderr)).toEqual([
      `hookloop: warning: ${file}: permissions.allow: expected an array of strings, got "Read"; the whole file is ignored (its deny and ask rules still count)`,
    ]);
  });

  it('a file with malformed JSON is left out; the other files still count', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', '{"hooks": ');
    writeJson(dir, '.claude/settings.local.json', {
      hooks: { UserPromptSubmit: [{ hooks: [mark('local-ran')] }] },
    });
    const result = run(dir, [[text('done')]]);
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'local-ran'))).toBe(true);
    expect(warnings(result.stderr)).toHaveLength(1);
    expect(warnings(result.stderr)[0]).toMatch(
      /settings\.json: invalid JSON at line 1 column \d+: .*; the whole file is ignored$/,
    );
  });

  it('a missing --settings file still stops the run, as in Claude Code', () => {
    const dir = tempProject();
    const result = run(dir, [[text('done')]], ['--settings', 'nope.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('hookloop: --settings: no such file: nope.json\n');
  });
});

describe('deny and ask rules fail closed where Claude Code ignores them', () => {
  it('an unreadable deny rule refuses the whole tool it names (Claude Code would let the Write run)', () => {
    const dir = tempProject();
    const file = writeJson(dir, '.claude/settings.json', { permissions: { deny: ['Write:*'] } });
    const result = run(dir, writeScript, ['--permission-mode', 'acceptEdits']);
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
    expect(warnings(result.stderr)).toEqual([
      `hookloop: warning: ${file}: permissions.deny[0]: "Write:*" is not a valid rule; not ignored, since it guards: every Write call is refused instead`,
    ]);
  });

  it('the same Write runs when no rule guards it', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', { permissions: { deny: ['Bash(rm:*)'] } });
    const result = run(dir, writeScript, ['--permission-mode', 'acceptEdits']);
    expect(result.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('x\n');
  });

  it('the deny rules of a file left out as a whole still refuse', () => {
    const dir = tempProject();
    writeJson(dir, '.claude/settings.json', { disableAllHooks: 'yes', permissions: { deny: ['Write'] } });
    const result = run(dir, writeScript, ['--permission-mode', 'acceptEdits']);
    expect(result.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
    expect(warnings(result.stderr)).toHaveLength(1);
  });

  it('a sandbox section it cannot read stops the run (fails closed) instead of leaving the file out', () => {
    const dir = tempProject();
    const file = writeJson(dir, '.claude/settings.json', { sandbox: 'on' });
    const result = run(dir, writeScript, ['--permission-mode', 'acceptEdits']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}: sandbox: expected`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
  });

  it('a deny rule that names no tool stops the run with one line naming file and field', () => {
    const dir = tempProject();
    const file = writeJson(dir, '.claude/settings.json', { permissions: { deny: ['(rm -rf'] } });
    const result = run(dir, writeScript, ['--permission-mode', 'acceptEdits']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `hookloop: ${file}: permissions.deny[0]: cannot read "(rm -rf" as a rule, and a deny rule is not ignored; expected Tool or Tool(specifier), e.g. Bash(rm:*)\n`,
    );
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
  });
});
