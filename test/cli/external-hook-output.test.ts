import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';
import { hookServer } from '../hooks-compat/support.js';

// Issue 15 items 1, 3, 4 and 11: what real hook setups print and how they are configured, as a user
// meets it through `hookloop -p … --settings … --model-script …`.

const bashCall = (command: string) => [
  [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command } }],
  [{ type: 'text', text: 'done' }],
];

/** A project with `settings.json`, `turns.json` and the given files; runs the CLI on it. */
function run(
  settings: Record<string, unknown>,
  turns: unknown,
  files: Record<string, string> = {},
  env: Record<string, string> = {},
) {
  const dir = tempProject(files);
  for (const name of Object.keys(files)) if (name.endsWith('.sh')) fs.chmodSync(path.join(dir, name), 0o755);
  writeJson(dir, 'settings.json', settings);
  writeJson(dir, 'turns.json', turns);
  const result = runCli(
    ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json', '--output-format', 'json'],
    dir,
    env,
  );
  return {
    dir,
    ...result,
    json: JSON.parse(result.stdout || '{}') as { result?: string; permission_denials?: unknown[] },
  };
}

const printing = (value: unknown, exit = 0) =>
  `cat > /dev/null; printf '%s\\n' '${JSON.stringify(value)}'; exit ${exit}`;
const preHook = (command: string) => ({
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }],
});

describe('unknown fields in a command hook answer (item 1)', () => {
  it('a PreToolUse deny with an extra unknown field still denies, with one warning naming the hook and the field', () => {
    const answer = {
      extra: 1,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'NO-TOUCH',
        note: 'x',
      },
    };
    const { dir, stderr, json } = run(
      { permissions: { allow: ['Bash'] }, hooks: preHook(printing(answer)) },
      bashCall('touch canary'),
    );
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(json.permission_denials).toHaveLength(1);
    const warnings = stderr.split('\n').filter((line) => line.includes('ignored unknown field'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('PreToolUse hook [');
    expect(warnings[0]).toContain('extra');
    expect(warnings[0]).toContain('hookSpecificOutput.note');
  });

  it("oh-my-claudecode's PermissionRequest answer (decision.reason) allows the command", () => {
    const answer = {
      continue: true,
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', reason: 'Safe read-only or test command' },
      },
    };
    const settings = {
      hooks: {
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: printing(answer) }] }],
      },
    };
    const { dir, stderr } = run(settings, bashCall('touch built'));
    expect(fs.existsSync(path.join(dir, 'built'))).toBe(true);
    expect(stderr).toMatch(
      /PermissionRequest hook \[.*\].*: ignored unknown field hookSpecificOutput\.decision\.reason/,
    );
  });

  it('a deny whose reason has the wrong type still denies (a refusal is never lost); an allow with a malformed field counts for nothing', () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 42,
      },
    };
    const denied = run(
      { permissions: { allow: ['Bash'] }, hooks: preHook(printing(deny)) },
      bashCall('touch canary'),
    );
    expect(fs.existsSync(path.join(denied.dir, 'canary'))).toBe(false);
    expect(denied.stderr).toContain('ignored malformed field');
    // Claude Code ignores a malformed answer as a whole: the allow does not lift the need to ask.
    const allow = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: 'rm -rf x',
      },
    };
    const asked = run({ hooks: preHook(printing(allow)) }, bashCall('touch asked'));
    expect(fs.existsSync(path.join(asked.dir, 'asked'))).toBe(false);
  });

  it('an http hook answer with an unknown field still denies', async () => {
    const server = await hookServer(() => ({
      body: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'HTTP-NO',
        },
        trace_id: 'abc',
      },
    }));
    try {
      const settings = {
        permissions: { allow: ['Bash'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: server.url }] }] },
      };
      const dir = tempProject();
      writeJson(dir, 'settings.json', settings);
      writeJson(dir, 'turns.json', bashCall('touch canary'));
      // Async spawn: the test's server must keep answering while the CLI runs.
      const { spawn } = await import('node:child_process');
      const { CLI } = await import('../support/cli.js');
      const child = spawn(
        process.execPath,
        [CLI, '-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'],
        { cwd: dir, env: { PATH: process.env['PATH'] ?? '', HOME: path.join(dir, '.test-home') } },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
      expect(stderr).toContain('ignored unknown field trace_id');
    } finally {
      await server.close();
    }
  });
});

describe('a JSON decision on a non-zero exit code (item 3)', () => {
  it('a PreToolUse hook that prints a deny and exits 1 denies', () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'EXIT1-DENY',
      },
    };
    const { dir, json } = run(
      { permissions: { allow: ['Bash'] }, hooks: preHook(printing(deny, 1)) },
      bashCall('touch canary'),
    );
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(json.permission_denials).toHaveLength(1);
  });

  it('a Stop hook that prints a block and exits 3 makes the model go on', () => {
    const settings = {
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `cat > /dev/null; [ -f once ] && exit 0; touch once; printf '%s\\n' '{"decision":"block","reason":"KEEP-GOING"}'; exit 3`,
              },
            ],
          },
        ],
      },
    };
    const turns = [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]];
    const { json } = run(settings, turns);
    expect(json.result).toBe('second');
  });

  it('without JSON, exit 1 stays a non-blocking error: the tool runs', () => {
    const { dir } = run(
      { permissions: { allow: ['Bash'] }, hooks: preHook('cat > /dev/null; echo broken >&2; exit 1') },
      bashCall('touch ran'),
    );
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
  });
});

describe('exec-form args (item 4)', () => {
  const guard = '#!/bin/bash\ncat > /dev/null\necho "GUARD-BLOCKED" >&2\nexit 2\n';

  it('expand ${CLAUDE_PROJECT_DIR} in args, and a script path with spaces stays one argument', () => {
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: 'bash', args: ['${CLAUDE_PROJECT_DIR}/.claude/my hooks/guard.sh'] },
          ],
        },
      ],
    };
    const { dir, json } = run({ permissions: { allow: ['Bash'] }, hooks }, bashCall('touch canary'), {
      '.claude/my hooks/guard.sh': guard,
    });
    expect(fs.existsSync(path.join(dir, 'canary'))).toBe(false);
    expect(JSON.stringify(json)).not.toContain('No such file');
  });

  it('expand the bare $CLAUDE_PROJECT_DIR form too, and leave other variables as written', () => {
    const probe = '#!/bin/bash\ncat > /dev/null\nprintf "%s\\n" "$@" > "$CLAUDE_PROJECT_DIR/argv.txt"\n';
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: '$CLAUDE_PROJECT_DIR/probe.sh',
              args: ['$CLAUDE_PROJECT_DIR/a', '$HOME'],
            },
          ],
        },
      ],
    };
    const { dir } = run({ permissions: { allow: ['Bash'] }, hooks }, bashCall('true'), { 'probe.sh': probe });
    expect(fs.readFileSync(path.join(dir, 'argv.txt'), 'utf8')).toBe(`${dir}/a\n$HOME\n`);
  });
});

describe('CLAUDE_ENV_FILE (item 11)', () => {
  it('lives under HOOKLOOP_HOME when it is set, never in the home folder', () => {
    const hooks = {
      SessionStart: [
        {
          hooks: [
            {
              type: 'command',
              command: 'cat > /dev/null; echo "$CLAUDE_ENV_FILE" > "$CLAUDE_PROJECT_DIR/envfile.txt"',
            },
          ],
        },
      ],
    };
    const dir = tempProject();
    const home = path.join(dir, 'hl-home');
    writeJson(dir, 'settings.json', { hooks });
    writeJson(dir, 'turns.json', [[{ type: 'text', text: 'done' }]]);
    runCli(['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'], dir, {
      HOOKLOOP_HOME: home,
    });
    expect(fs.readFileSync(path.join(dir, 'envfile.txt'), 'utf8').trim()).toMatch(
      new RegExp(`^${home}/session-env/[0-9a-f-]+/sessionstart-hook-0\\.sh$`),
    );
    expect(fs.existsSync(path.join(dir, '.test-home', '.claude', 'session-env'))).toBe(false);
  });
});

describe("the model's words (item 7)", () => {
  it('a call that fails the tool schema reads as Claude Code words it', () => {
    const turns = [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { timeout: 'soon' } }],
      [{ type: 'text', text: 'done' }],
    ];
    const dir = tempProject();
    writeJson(dir, 'settings.json', {});
    writeJson(dir, 'turns.json', turns);
    runCli(
      [
        '-p',
        'go',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
      ],
      dir,
    );
    const sent = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8');
    expect(sent).toContain(
      'InputValidationError: Bash failed due to the following issues:\\nThe required parameter `command` is missing\\nThe parameter `timeout` type is expected as `number` but provided as `string`',
    );
  });

  it('when the Stop cap overrides a block, result is empty, as in Claude Code', () => {
    const settings = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: `cat > /dev/null; echo '{"decision":"block","reason":"again"}'` },
            ],
          },
        ],
      },
    };
    const turns = Array.from({ length: 9 }, (_, index) => [{ type: 'text', text: `turn ${index}` }]);
    const { json } = run(settings, turns);
    expect(json).toMatchObject({ result: '', terminal_reason: 'completed', is_error: false });
  });
});
