import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const TURNS = [
  [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'rm -rf build' } }],
  [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'echo hello > out.txt' } }],
  [{ type: 'text', text: 'finished' }],
];

// A PreToolUse guard in the style published for Claude Code: python-free, reads stdin, answers
// with hookSpecificOutput.permissionDecision. Written independently of hookloop's code.
const GUARD = `#!/bin/sh
payload=$(cat)
case "$payload" in
  *'rm -rf'*)
    printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Destructive command blocked by guard.sh"}}'
    ;;
esac
exit 0
`;

function projectWithGuard() {
  const dir = tempProject({ '.claude/hooks/guard.sh': GUARD, 'build/keep.txt': 'precious\n' });
  fs.chmodSync(path.join(dir, '.claude/hooks/guard.sh'), 0o755);
  writeJson(dir, 'turns.json', TURNS);
  writeJson(dir, 'hooks.json', {
    permissions: { allow: ['Bash(echo:*)'] },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }],
        },
      ],
    },
  });
  return dir;
}

describe('hookloop -p', () => {
  it('runs real Bash calls and a Claude Code hook script that denies rm -rf decides as under Claude Code', () => {
    const dir = projectWithGuard();
    const run = runCli(
      [
        '-p',
        'clean up and write',
        '--settings',
        'hooks.json',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'finished',
      terminal_reason: 'completed',
      num_turns: 3,
    });
    expect(result.permission_denials).toEqual([
      { tool_name: 'Bash', tool_use_id: 'toolu_01', tool_input: { command: 'rm -rf build' } },
    ]);
    expect(fs.readFileSync(path.join(dir, 'build/keep.txt'), 'utf8')).toBe('precious\n');
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello\n');
  });

  it('prints the lifecycle log on stderr with --verbose and only the answer on stdout', () => {
    const dir = projectWithGuard();
    const run = runCli(
      ['-p', 'go', '--settings', 'hooks.json', '--model-script', 'turns.json', '--verbose'],
      dir,
    );
    expect(run.stdout).toBe('finished\n');
    expect(run.stderr).toContain('[Hook] PreToolUse: Bash -> deny');
    expect(run.stderr).toContain('[Permission] Bash: allow (rule Bash(echo:*))');
    expect(run.stderr).toContain('[Tool] Bash toolu_02 -> ok');
  });

  it('says how to configure a model when none is given, and points to the demo', () => {
    const run = runCli(['-p', 'hi'], tempProject());
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/no model configured.*--model-script.*hookloop demo/s);
  });
});

describe('bad input: one clear line naming the file and field, non-zero exit, nothing written', () => {
  const cases: { name: string; setup: (dir: string) => string[]; expected: RegExp }[] = [
    {
      // Claude Code parses a --settings value that is not JSON as a path, and stops when it is missing.
      name: 'malformed inline --settings JSON',
      setup: () => ['--settings', '{ "hooks": { ,}'],
      expected: /--settings: invalid JSON at line 1 column \d+/,
    },
    {
      // Claude Code ignores an unreadable deny rule; hookloop cannot leave a guard out (lenient-settings.ts).
      name: 'a deny rule that names no tool',
      setup: (dir) => (
        writeJson(dir, 's.json', { permissions: { deny: ['(rm'] } }),
        ['--settings', 's.json']
      ),
      expected: /s\.json: permissions\.deny\[0\]: cannot read "\(rm" as a rule/,
    },
    {
      name: 'an unknown permission mode',
      setup: () => ['--permission-mode', 'yolo'],
      expected: /--permission-mode.*yolo.*(default|choices)/,
    },
    {
      name: 'a typo in a --model-script block type',
      setup: (dir) => (
        writeJson(dir, 'typo.json', [[{ type: 'txt', text: 'x' }]]),
        ['--model-script', 'typo.json']
      ),
      expected: /--model-script: typo\.json: \[0\]\[0\]\.type: expected a content block type .*got "txt"/,
    },
    {
      name: 'a missing --model-script file',
      setup: () => ['--model-script', 'nope.json'],
      expected: /--model-script: no such file: nope\.json/,
    },
  ];
  for (const { name, setup, expected } of cases) {
    it(`rejects ${name}`, () => {
      const dir = tempProject();
      const args = setup(dir);
      const after = fs.readdirSync(dir).sort();
      const run = runCli(
        [
          '-p',
          'go',
          ...args,
          ...(args.includes('--model-script') ? [] : ['--model-script', writeJson(dir, 't.json', [])]),
        ],
        dir,
      );
      expect(run.status).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(expected);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(
        fs
          .readdirSync(dir)
          .filter((entry) => !after.includes(entry) && entry !== 't.json' && entry !== '.test-home'),
      ).toEqual([]);
    });
  }

  it('a hook command that does not exist is reported on one line naming the settings file and field, and the run goes on as under Claude Code', () => {
    const dir = tempProject();
    writeJson(dir, 's.json', {
      permissions: { allow: ['Bash(echo:*)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './missing-hook.sh' }] }],
      },
    });
    writeJson(dir, 't.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo ran' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(['-p', 'go', '--settings', 's.json', '--model-script', 't.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('done\n');
    const warning = run.stderr.split('\n').filter((line) => line.includes('missing-hook.sh'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(/s\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    expect(warning[0]).toMatch(/exit code 127/);
  });
});

describe('hookloop demo', () => {
  it('runs the scripted demo to completion with its hooks deciding, and exits 0', () => {
    const run = runCli(['demo'], tempProject());
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('SCRIPTED');
    expect(run.stdout).toMatch(/tool calls blocked:\s+2/);
    expect(run.stdout).toMatch(/inputs rewritten:\s+1/);
    expect(run.stdout).toMatch(/extra turns by Stop:\s+1/);
    expect(run.stdout).toContain('rm -rf is not allowed');
    expect(run.stdout).toMatch(/outcome:\s+completed/);
  });
});
