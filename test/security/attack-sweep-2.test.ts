import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, HookEngine, type PermissionMode } from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// A second attack sweep over the same classes as attack-sweep.test.ts, with new spellings: builtins that move the
// shell reached through wrappers, wrappers that run a command string, Bash's `time --`, and
// settings (git -c, environment variables) that make a program run a command. Each attack has a
// legitimate twin that still works.

function allowingHooks(): HookEngine {
  const hooks = new HookEngine();
  hooks.on('PreToolUse', () => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
  }));
  return hooks;
}

interface Rules {
  allow?: string[];
  deny?: string[];
  ask?: string[];
}

async function bash(
  dir: string,
  command: string,
  options: { mode?: PermissionMode; rules?: Rules; hooks?: HookEngine } = {},
) {
  const { result } = await scriptedRun([[toolUse('t1', 'Bash', { command })], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    transcript: false,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    permissions: { mode: options.mode ?? 'default', rules: options.rules ?? {} },
  });
  return toolResults(result.messages)[0]!;
}

/** Runs `command` in a fresh project holding victim.txt: the call must be refused and the file still there. */
async function expectRmRefused(command: string, options: Parameters<typeof bash>[2]) {
  const dir = tempProject({ 'victim.txt': 'v\n' });
  const result = await bash(dir, command, options);
  expect(result.isError, String(result.content)).toBe(true);
  expect(fs.existsSync(path.join(dir, 'victim.txt'))).toBe(true);
}

const SECRET_RULES: Rules = { deny: ['Read(./secrets/**)'] };
const RM_RULES: Rules = { allow: ['Bash'], deny: ['Bash(rm:*)'] };

describe('a cd behind a wrapper moves the shell', () => {
  it('command cd / command -p cd / timeout cd then a relative read of a denied file is denied; outside the workspace asks', async () => {
    const dir = tempProject({ 'secrets/key.txt': 'TOPSECRET\n', 'a.txt': 'a\n' });
    for (const command of [
      'command cd secrets && cat key.txt',
      'command -p cd secrets && cat key.txt',
      'timeout 5 cd secrets && cat key.txt',
    ]) {
      const result = await bash(dir, command, { rules: SECRET_RULES });
      expect(result.isError, command).toBe(true);
      expect(String(result.content), command).not.toContain('TOPSECRET');
    }
    const outside = await bash(dir, 'command cd /etc && cat hostname');
    expect(outside.isError).toBe(true);
    expect(String(outside.content)).toMatch(/blocked|approval/);
  });

  it('legitimate: command cd into a folder of the workspace and reading there still runs unasked', async () => {
    const dir = tempProject({ 'secrets/key.txt': 'TOPSECRET\n', 'src/a.txt': 'hello\n' });
    const result = await bash(dir, 'command cd src && cat a.txt', { rules: SECRET_RULES });
    expect(result).toMatchObject({ isError: false });
    expect(String(result.content)).toContain('hello');
  });
});

describe('deny rules see programs behind command-string runners and `time --`', () => {
  it.each([
    'script -qc "rm victim.txt" /dev/null',
    'script --command="rm victim.txt" /dev/null',
    'echo rm victim.txt | script -q /dev/null',
    'time -- rm victim.txt',
    'time -p -- rm victim.txt',
    'sg root "rm victim.txt"',
    'gosu root rm victim.txt',
    'setarch x86_64 rm victim.txt',
    "source /dev/stdin <<< 'rm victim.txt'",
    '. <(echo rm victim.txt)',
    '. /proc/self/fd/0 <<< "rm victim.txt"',
  ])('%s is denied under deny Bash(rm:*) with allow: [Bash] and an allowing hook', async (command) => {
    await expectRmRefused(command, { rules: RM_RULES, hooks: allowingHooks() });
  });

  it('legitimate: the same wrappers around other programs still run under allow: [Bash]', async () => {
    const dir = tempProject({ 'victim.txt': 'v\n' });
    fs.writeFileSync(path.join(dir, 'setup.sh'), 'echo hi\n');
    for (const command of [
      'script -qc "ls" /dev/null',
      'time -- ls',
      'time -p ls',
      '. ./setup.sh',
      'source setup.sh',
    ]) {
      expect(await bash(dir, command, { rules: RM_RULES }), command).toMatchObject({ isError: false });
    }
  });
});

describe('settings that make a program run a command', () => {
  it.each([
    'git -c alias.x=!rm x victim.txt',
    'git -calias.x=!rm x victim.txt',
    'git --config-env=alias.x=E x',
    'GIT_CONFIG_PARAMETERS="\'alias.x=!rm victim.txt\'" git x',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="!rm victim.txt" git x',
    'env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="!rm victim.txt" git x',
    'GIT_PAGER="rm victim.txt" git -p log',
    'git --exec-path=. x',
  ])('%s is denied under deny Bash(rm:*) with allow: [Bash]', async (command) => {
    await expectRmRefused(command, { rules: RM_RULES });
  });

  it('legitimate: data-only git settings and identity variables still run', async () => {
    const dir = tempProject({ 'victim.txt': 'v\n' });
    for (const command of [
      'git -c user.name=x -c color.ui=never --version',
      'GIT_AUTHOR_NAME=x git --version',
      'LC_ALL=C git --version',
    ]) {
      expect(await bash(dir, command, { rules: RM_RULES }), command).toMatchObject({ isError: false });
    }
  });
});

function gitRepository(): string {
  const dir = tempProject({ 'a.txt': 'a\n', 'evil.json': '{"hooks":{}}\n' });
  spawnSync('git', ['init', '-q', dir]);
  return dir;
}

describe('configuration written through spellings the parser cannot read, and git subcommands that set configuration', () => {
  it.each(['bypassPermissions', 'acceptEdits'] as const)(
    'in %s, with allow: [Bash] and an allowing hook, <> redirections and git remote/branch/submodule/push -u are refused',
    async (mode) => {
      const dir = gitRepository();
      const before = fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8');
      for (const command of [
        'cat evil.json 1<>.claude/settings.json',
        'cat evil.json <>.clau""de/settings.json',
        'cat evil.json <>sub/.mcp.json',
        'git remote add x y',
        'git remote set-url origin x',
        'git branch -u origin/x',
        'git submodule add ./sub x',
        'git push -u origin x',
        'git init --template=. x',
        'git clone -c core.fsmonitor=x . sub/y',
      ]) {
        const result = await bash(dir, command, { mode, rules: { allow: ['Bash'] }, hooks: allowingHooks() });
        expect(result.isError, command).toBe(true);
        expect(String(result.content), command).toMatch(/needs approval/);
      }
      expect(fs.existsSync(path.join(dir, '.claude', 'settings.json'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'sub', '.mcp.json'))).toBe(false);
      expect(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toBe(before);
    },
  );

  it('legitimate: <> on an ordinary file, git remote -v, git init and a plain clone still run in bypassPermissions', async () => {
    const dir = gitRepository();
    for (const command of [
      'cat evil.json <>ok.txt',
      'git remote -v',
      'git remote',
      'git init',
      'git clone -q . sub/z',
    ]) {
      const result = await bash(dir, command, { mode: 'bypassPermissions' });
      expect(result.isError, `${command}: ${String(result.content)}`).toBe(false);
    }
  });
});

describe('a command hook refusal spelled loosely still refuses (CLI, bypassPermissions)', () => {
  function hookRun(answer: unknown): { victim: boolean; stderr: string } {
    const dir = tempProject({ 'victim.txt': 'v\n' });
    writeJson(dir, 'answer.json', answer);
    writeJson(dir, 'hooks.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat answer.json' }] }] },
    });
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm victim.txt' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--settings',
        'hooks.json',
        '--permission-mode',
        'bypassPermissions',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    return { victim: fs.existsSync(path.join(dir, 'victim.txt')), stderr: run.stderr };
  }

  it.each([
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'Deny' } },
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: ' DENY ' } },
    { hookSpecificOutput: { permissionDecision: 'deny' } },
    { hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } },
    { decision: 'Block', reason: 'no' },
  ])('%j keeps the victim and warns', (answer) => {
    const run = hookRun(answer);
    expect(run.victim).toBe(true);
    expect(run.stderr).toMatch(/kept the refusal/);
  });

  it('legitimate: a loosely spelled allow grants nothing extra, and an exact deny-free answer lets the command run', () => {
    expect(
      hookRun({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }).victim,
    ).toBe(false);
    expect(
      hookRun({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'Allow' } }).stderr,
    ).not.toMatch(/kept the refusal/);
  });
});
