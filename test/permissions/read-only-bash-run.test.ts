import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ApprovalRequest,
  builtinTools,
  callbackApprover,
  type PermissionMode,
} from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Everyday read-only commands run without any rule in default mode; each attack on the
// "read-only" decision asks in default mode and is refused in dontAsk and plan,
// and a canary outside the workspace proves nothing ran.

const EVERYDAY = [
  'git status',
  'git diff',
  'git log --oneline -5',
  'git show HEAD',
  'ls -la',
  'cat file',
  'head -n 5 f',
  'wc -l',
  'grep -rn foo .',
  'rg foo .', // with a path: without one, rg searches a stdin that is not a terminal
  "find . -name '*.ts'",
  'diff a b',
  'pwd',
  'echo hi',
  'ls | wc -l',
  'git status && git diff',
  'cat a 2>/dev/null',
  "grep -n 'foo$' file",
];

/** Attacks with `CANARY` standing for the absolute path of a file that must never appear. */
const ATTACKS = [
  "env -S'touch CANARY'",
  `env --split-string='sh -c "id > CANARY"'`,
  "printf 'b\\na\\n' | sort --o=CANARY",
  'sort --compress-program=sh f',
  "git grep --open='touch CANARY' foo",
  "x='a[$(touch CANARY)]'; echo $((x))",
  "x='a[$(touch CANARY)]'; (( x ))",
  "x='a[$(touch CANARY)]'; echo ${a[x]}",
  "x='a[$(touch CANARY)]'; [[ $x -eq 0 ]]",
  "x='a[$(touch CANARY)]'; y=x; echo ${!y}",
  "x='$(touch CANARY)'; echo ${x@P}",
  "printf -v 'a[$(touch CANARY)]' 1",
  "test -v 'a[$(touch CANARY)]'",
  "[ -v 'a[$(touch CANARY)]' ]",
  'git status --short ${x:-`touch CANARY`}',
  'git status --short \r#; touch CANARY',
  'sort -o CANARY f',
  'sort --output=CANARY f',
  'find . -fprint CANARY',
  'find . -exec touch CANARY ;',
  'rg --pre=./pre.sh foo',
  'date --set=2001-01-01 || touch CANARY',
  'timeout 5 sh -c "touch CANARY"',
  'ls; touch CANARY',
  'echo hi > CANARY',
  'for ((i=0; i<1; i++)); do touch CANARY; done',
  'f() { touch CANARY; }; f',
  'echo $(touch CANARY)',
  'cat <(touch CANARY)',
  'git -c core.pager="touch CANARY" -p log',
  // git stops reading options at the first operand: `--get` after NAME VALUE is a value pattern, and git sets NAME.
  "git config core.fsmonitor 'touch CANARY' --get && git status --short",
  'git config a.b c --get-regexp',
  // `-l` as the value of --format/--sort: the operand after it names a tag or branch to create.
  'git tag --format -l made-tag',
  'git branch --sort -l made-branch',
  'rg -z foo',
  'ps -N e',
];

function project(): string {
  const dir = tempProject({
    file: 'foo\nbar\n',
    f: 'one\ntwo\n',
    a: 'same\n',
    b: 'same\n',
    'src/x.ts': 'export {};\n',
    'pre.sh': '#!/bin/sh\ntouch "$HOOKLOOP_CANARY"\n',
  });
  fs.chmodSync(path.join(dir, 'pre.sh'), 0o755);
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  return dir;
}

function canaryPath(): string {
  return path.join(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-canary-'))), 'canary');
}

async function runCalls(commands: readonly string[], mode: PermissionMode, projectDir: string) {
  const asked: ApprovalRequest[] = [];
  const turns = [
    commands.map((command, index) => toolUse(`toolu_${index}`, 'Bash', { command })),
    [text('done')],
  ];
  const { result } = await scriptedRun(turns, {
    projectDir,
    tools: builtinTools(),
    permissions: { mode },
    approver: callbackApprover((request) => {
      asked.push(request);
      return 'deny';
    }),
  });
  return { asked, results: toolResults(result.messages) };
}

describe('read-only Bash commands', () => {
  it('everyday read-only commands run without any rule in default mode', async () => {
    const dir = project();
    const { asked, results } = await runCalls(EVERYDAY, 'default', dir);
    expect(asked.map((request) => (request.input as { command: string }).command)).toEqual([]);
    const failed = results
      .filter((result) => result.isError)
      .map((result) => `${EVERYDAY[Number(result.toolCallId.slice(6))]}: ${result.content}`);
    expect(failed).toEqual([]);
    expect(results.find((result) => result.toolCallId === 'toolu_9')?.content).toContain('foo');
  }, 60_000);

  it.each(['default', 'dontAsk', 'plan'] as const)(
    'every attack on the read-only decision is stopped in %s mode',
    async (mode) => {
      const dir = project();
      const canary = canaryPath();
      const commands = ATTACKS.map((attack) => attack.replaceAll('CANARY', canary));
      const { asked, results } = await runCalls(commands, mode, dir);
      expect(fs.existsSync(canary)).toBe(false);
      expect(
        results
          .filter((result) => !result.isError)
          .map((result) => commands[Number(result.toolCallId.slice(6))]),
      ).toEqual([]);
      // In default mode each one reached a person (here: a callback that refuses); dontAsk refuses by itself.
      if (mode === 'default')
        expect(asked.map((request) => (request.input as { command: string }).command).sort()).toEqual(
          [...commands].sort(),
        );
      if (mode === 'dontAsk') expect(asked).toEqual([]);
    },
    60_000,
  );

  it('mkdir -p asks in default mode, like mkdir, and runs once approved', async () => {
    const dir = project();
    const refused = await runCalls(['mkdir -p out'], 'default', dir);
    expect(refused.asked).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    const asked: ApprovalRequest[] = [];
    await scriptedRun([[toolUse('toolu_1', 'Bash', { command: 'mkdir -p out' })], [text('done')]], {
      projectDir: dir,
      tools: builtinTools(),
      approver: callbackApprover((request) => (asked.push(request), 'allow')),
    });
    expect(asked).toHaveLength(1);
    expect(fs.statSync(path.join(dir, 'out')).isDirectory()).toBe(true);
  }, 60_000);

  it('the CLI fires PermissionRequest for mkdir -p in default mode, and a logging hook sees it', () => {
    const dir = project();
    writeJson(dir, 'turns.json', [[toolUse('toolu_1', 'Bash', { command: 'mkdir -p out' })], [text('done')]]);
    writeJson(dir, 'settings.json', {
      hooks: {
        PermissionRequest: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command:
                  'cat >> "$CLAUDE_PROJECT_DIR/requests.log"; echo >> "$CLAUDE_PROJECT_DIR/requests.log"',
              },
            ],
          },
        ],
      },
    });
    const run = runCli(
      [
        '-p',
        'make out',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const requests = fs
      .readFileSync(path.join(dir, 'requests.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_input: unknown; permission_mode: string });
    expect(requests).toMatchObject([{ tool_input: { command: 'mkdir -p out' }, permission_mode: 'default' }]);
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  }, 60_000);
});
