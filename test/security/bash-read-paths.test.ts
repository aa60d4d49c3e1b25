import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  builtinTools,
  callbackApprover,
  HookEngine,
  type PermissionMode,
  type PermissionRules,
} from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// The files a Bash command reads are under the Read rules and the working directories, as the
// Read tool is: every path a reading program takes
// as a file — operands, `-f FILE` values, `<` redirections, `cd` targets, git's `REV:path`, what a
// recursive reader walks through, cp/ln sources — is checked by real path. A Read deny rule
// denies; a path outside the workspace (or in /proc, /sys, /dev) is not run without a person.

const SECRET = 'SECRET-7f3a';
const CANARY = 'CANARY-91c2';

function setup(): { dir: string; outside: string } {
  const dir = tempProject({
    'secrets/key.txt': `${SECRET}\n`,
    'notes.txt': 'hello foo\n',
    'src/x.ts': 'export const foo = 1;\n',
  });
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-outside-')));
  fs.writeFileSync(path.join(outside, 'canary.txt'), `${CANARY}\n`);
  fs.mkdirSync(path.join(outside, 'sub'));
  fs.writeFileSync(path.join(outside, 'sub', 'deep.txt'), `${CANARY}\n`);
  fs.symlinkSync(path.join(dir, 'secrets', 'key.txt'), path.join(dir, 'secret-link'));
  fs.symlinkSync(path.join(outside, 'canary.txt'), path.join(dir, 'out-link'));
  fs.mkdirSync(path.join(dir, 'docs'));
  fs.symlinkSync(path.join(outside, 'sub'), path.join(dir, 'docs', 'linked-dir'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', 'secrets', 'notes.txt', 'src');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  return { dir, outside };
}

async function run(
  commands: readonly string[],
  options: { dir: string; mode: PermissionMode; rules?: Partial<PermissionRules>; answer?: ApprovalAnswer },
) {
  const asked: ApprovalRequest[] = [];
  const turns = [
    commands.map((command, index) => toolUse(`toolu_${index}`, 'Bash', { command })),
    [text('done')],
  ];
  const { result } = await scriptedRun(turns, {
    projectDir: options.dir,
    tools: builtinTools(),
    permissions: { mode: options.mode, rules: { allow: [], ask: [], deny: [], ...options.rules } },
    approver: callbackApprover((request) => (asked.push(request), options.answer ?? 'deny')),
  });
  const results = toolResults(result.messages).map((entry) => ({
    command: commands[Number(entry.toolCallId.slice(6))] as string,
    content: entry.content,
    isError: entry.isError === true,
  }));
  return { asked, results };
}

const DENY_SECRETS = { deny: ['Read(./secrets/**)'] };

/** Reads of the denied file, each spelled differently; none may print it, in any mode. */
const DENIED = [
  'cat secrets/key.txt',
  'cat ./secrets/key.txt',
  'cat secrets/../secrets/key.txt',
  'cat < secrets/key.txt',
  'head -n 1 secrets/key.txt',
  'cat notes.txt secrets/key.txt',
  'cat secret-link', // a symlink inside the workspace: judged by where it leads
  'grep -f secrets/key.txt notes.txt',
  'grep --file=secrets/key.txt notes.txt',
  'grep -e x secrets/key.txt',
  'sort secrets/key.txt',
  'diff secrets/key.txt notes.txt',
  'od -c secrets/key.txt',
  'timeout 5 cat secrets/key.txt',
  'cd secrets && cat key.txt',
  'git show HEAD:secrets/key.txt',
  'git log -p -- secrets',
  'sed -n p secrets/key.txt',
  'tac secrets/key.txt',
  'find secrets -type f',
  'cat notes.txt | tee /dev/null; cat secrets/key.txt',
  'echo $(cat secrets/key.txt)',
  'cat secrets/*', // a glob's matches all lie below its fixed start
  'cat secrets/{key,other}.txt',
  'python3 secrets/key.txt', // an interpreter reads its script (and prints the failing line)
  'bash secrets/key.txt',
  "sh -c 'cat secrets/key.txt'",
  'ln secrets/key.txt copy-link.txt && cat copy-link.txt', // a hard link is a second name of the file
  'cp secrets/key.txt copy.txt && cat copy.txt',
];

/** Reads outside the workspace; none may print the canary without a person's approval. OUT is the outside directory. */
const OUTSIDE = [
  'cat OUT/canary.txt',
  'head OUT/canary.txt',
  'cat < OUT/canary.txt',
  'cd OUT && cat canary.txt',
  'cd OUT; cat canary.txt',
  'cat out-link',
  'grep -r CANARY OUT',
  'grep -f OUT/canary.txt notes.txt',
  'grep -R CANARY docs', // -R follows the link docs/linked-dir out of the workspace
  'rg -L CANARY docs',
  'find -L docs -type f',
  'ls OUT',
  'diff OUT/canary.txt notes.txt',
  'diff -r docs OUT', // diff -r follows links by default
  'git diff --no-index OUT/canary.txt notes.txt',
  'wc -c OUT/canary.txt',
  'cat /proc/self/environ',
  'strings /proc/self/cmdline',
  'test -f OUT/canary.txt', // existence is a read too (the Glob tool hides it)
  '[ -e OUT/sub ]',
];

describe('Bash reads under Read deny rules', () => {
  it.each(['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const)(
    'every spelling of reading a denied file is denied in %s mode',
    async (mode) => {
      const { dir } = setup();
      const { asked, results } = await run(DENIED, { dir, mode, rules: DENY_SECRETS, answer: 'allow' });
      expect(
        results.filter((result) => result.content.includes(SECRET)).map((result) => result.command),
      ).toEqual([]);
      expect(results.filter((result) => !result.isError).map((result) => result.command)).toEqual([]);
      // A deny rule is not a question: nobody is asked (the approver here would allow everything).
      expect(asked.map((request) => (request.input as { command: string }).command)).toEqual([]);
    },
    60_000,
  );

  it('a recursive search that would read the denied file asks, and only a person may allow it', async () => {
    const { dir } = setup();
    const commands = ['grep -rn SECRET .', 'rg SECRET .', 'git grep SECRET', 'grep -r SECRET'];
    const { asked, results } = await run(commands, { dir, mode: 'default', rules: DENY_SECRETS });
    expect(results.filter((result) => result.content.includes(SECRET))).toEqual([]);
    expect(asked.map((request) => (request.input as { command: string }).command)).toEqual(commands);
    expect(asked[0]?.message).toContain('secrets');
    // dontAsk refuses them without asking.
    const strict = await run(commands, { dir, mode: 'dontAsk', rules: DENY_SECRETS });
    expect(strict.asked).toEqual([]);
    expect(strict.results.every((result) => result.isError)).toBe(true);
  }, 60_000);

  it.each(['default', 'bypassPermissions'] as const)(
    'under an allow rule, a read whose file is only known at run time asks a person in %s mode',
    async (mode) => {
      const { dir } = setup();
      const commands = [
        'cat s*/key.txt',
        'cat secret?/key.txt',
        'cat "$(echo secrets)/key.txt"',
        'f=secrets/key.txt; cat "$f"',
        'cat *',
      ];
      const { asked, results } = await run(commands, {
        dir,
        mode,
        rules: { ...DENY_SECRETS, allow: ['Bash(cat:*)', 'Bash(echo:*)', 'Bash'] },
      });
      expect(results.filter((result) => result.content.includes(SECRET))).toEqual([]);
      expect(asked.map((request) => (request.input as { command: string }).command)).toEqual(commands);
    },
    60_000,
  );

  it('everyday reads next to the denied folder still run without approval', async () => {
    const { dir } = setup();
    const commands = [
      'cat notes.txt',
      'grep -rn foo src',
      'rg foo src',
      'find src -name "*.ts"',
      'git status',
      'git diff',
      'git log --oneline -5',
      'ls -la',
      'wc -l notes.txt',
      'cd src && cat ../notes.txt',
      'git show HEAD:notes.txt',
      'ls secrets-not-there 2>/dev/null; pwd',
    ];
    const { asked, results } = await run(commands, { dir, mode: 'default', rules: DENY_SECRETS });
    expect(asked.map((request) => (request.input as { command: string }).command)).toEqual([]);
    expect(results.find((result) => result.command === 'grep -rn foo src')?.content).toContain('x.ts');
    expect(results.find((result) => result.command === 'cd src && cat ../notes.txt')?.content).toContain(
      'hello foo',
    );
  }, 60_000);
});

describe('rewrites of a read', () => {
  it('a PreToolUse or PermissionRequest allow that rewrites the command to read a denied or outside file does not get it read', async () => {
    const { dir, outside } = setup();
    const targets = [
      'cat secrets/key.txt',
      `cat ${outside}/canary.txt`,
      'cat notes.txt\ncat secrets/key.txt',
      `cd ${outside} && cat canary.txt`,
    ];
    for (const event of ['PreToolUse', 'PermissionRequest'] as const) {
      let index = 0;
      const hooks = new HookEngine();
      hooks.on(event, () => {
        const updatedInput = { command: targets[index++ % targets.length] as string };
        return event === 'PreToolUse'
          ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput } }
          : {
              hookSpecificOutput: {
                hookEventName: 'PermissionRequest',
                decision: { behavior: 'allow', updatedInput },
              },
            };
      });
      // mkdir asks, so PermissionRequest fires for it; the rewrite is then judged on its own.
      const turns = [
        targets.map((_, at) => toolUse(`toolu_${at}`, 'Bash', { command: `mkdir made-${at}` })),
        [text('done')],
      ];
      const { result } = await scriptedRun(turns, {
        projectDir: dir,
        tools: builtinTools(),
        hooks,
        permissions: { rules: { allow: [], ask: [], deny: ['Read(./secrets/**)'] } },
      });
      const results = toolResults(result.messages);
      expect(
        results.filter((entry) => entry.content.includes(SECRET) || entry.content.includes(CANARY)),
      ).toEqual([]);
      expect(results.every((entry) => entry.isError === true)).toBe(true);
    }
  }, 60_000);
});

describe('Bash reads outside the working directories', () => {
  it.each(['default', 'acceptEdits', 'plan'] as const)(
    'every read outside the workspace asks a person in %s mode, even under an allow rule',
    async (mode) => {
      const { dir, outside } = setup();
      const commands = OUTSIDE.map((command) => command.replaceAll('OUT', outside));
      const { asked, results } = await run(commands, {
        dir,
        mode,
        rules: { allow: ['Bash(cat:*)', 'Bash(grep:*)', 'Bash(cd:*)'] },
      });
      expect(
        results.filter((result) => result.content.includes(CANARY)).map((result) => result.command),
      ).toEqual([]);
      expect(asked.map((request) => (request.input as { command: string }).command).sort()).toEqual(
        [...commands].sort(),
      );
      expect(
        asked.find(
          (request) => (request.input as { command: string }).command === `cat ${outside}/canary.txt`,
        )?.message,
      ).toBe(
        `cat in '${outside}/canary.txt' was blocked. For security, Claude Code may only concatenate files from the allowed working directories for this session: '${dir}'.`,
      );
    },
    60_000,
  );

  it('dontAsk refuses reads outside the workspace without asking', async () => {
    const { dir, outside } = setup();
    const commands = OUTSIDE.map((command) => command.replaceAll('OUT', outside));
    const { asked, results } = await run(commands, { dir, mode: 'dontAsk' });
    expect(asked).toEqual([]);
    expect(
      results
        .filter((result) => result.content.includes(CANARY) || !result.isError)
        .map((result) => result.command),
    ).toEqual([]);
  }, 60_000);

  it('a read outside the workspace that a person approves runs', async () => {
    const { dir, outside } = setup();
    const { asked, results } = await run([`cat ${outside}/canary.txt`], {
      dir,
      mode: 'default',
      answer: 'allow',
    });
    expect(asked).toHaveLength(1);
    expect(results[0]?.content).toContain(CANARY);
  }, 60_000);

  it('the CLI refuses `cat <outside>` and a Read-denied `cat` headless, and still runs `cat notes.txt`', () => {
    const { dir, outside } = setup();
    writeJson(dir, 'turns.json', [
      [toolUse('toolu_1', 'Bash', { command: `cat ${outside}/canary.txt` })],
      [toolUse('toolu_2', 'Bash', { command: 'cat secrets/key.txt' })],
      [toolUse('toolu_3', 'Bash', { command: 'cat notes.txt' })],
      [text('done')],
    ]);
    writeJson(dir, 'settings.json', { permissions: { deny: ['Read(./secrets/**)'] } });
    const cli = runCli(
      [
        '-p',
        'read',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(cli.status).toBe(0);
    const output = JSON.parse(cli.stdout) as { permission_denials: { tool_input: { command: string } }[] };
    expect(output.permission_denials.map((denial) => denial.tool_input.command)).toEqual([
      `cat ${outside}/canary.txt`,
      'cat secrets/key.txt',
    ]);
    expect(cli.stdout).not.toContain(CANARY);
    expect(cli.stdout).not.toContain(SECRET);
  }, 60_000);
});
