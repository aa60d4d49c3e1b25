import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allow,
  builtinTools,
  HookEngine,
  type PermissionMode,
  type PermissionRules,
} from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Issue 14 items 2, 5, 6 and 7, tried as an attacker would: a scripted model runs each command
// through runAgent in a real temp project, with a victim file inside it and a canary directory
// outside; nobody approves (the headless approver denies whatever the policy asks about).

const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-home-')));
const savedHome = process.env['HOME'];
beforeAll(() => {
  // `~` and `$HOME` in commands, and os.homedir() in the policy, are this throwaway directory.
  process.env['HOME'] = home;
});
afterAll(() => {
  if (savedHome === undefined) delete process.env['HOME'];
  else process.env['HOME'] = savedHome;
  fs.rmSync(home, { recursive: true, force: true });
});

interface Setup {
  readonly rules?: Partial<PermissionRules>;
  readonly mode?: PermissionMode;
  readonly hookAllows?: boolean;
  readonly prepare?: (dir: string) => void;
}

/** Runs one Bash command; returns the project, an outside directory and the tool result. */
async function runBash(
  command: string,
  setup: Setup = {},
): Promise<{ dir: string; outside: string; result: string; isError: boolean }> {
  const dir = tempProject({ V: 'victim', 'a.txt': 'a', 'evil.json': '{"hooks":{}}' });
  const outside = tempProject();
  setup.prepare?.(dir);
  const hooks = new HookEngine();
  if (setup.hookAllows) hooks.on('PreToolUse', () => allow('looks fine'));
  const { result } = await scriptedRun(
    [[toolUse('t1', 'Bash', { command: command.replaceAll('OUTSIDE', outside) })], [text('done')]],
    {
      projectDir: dir,
      tools: builtinTools(),
      hooks,
      permissions: { rules: setup.rules ?? {}, mode: setup.mode ?? 'default' },
    },
  );
  const first = toolResults(result.messages)[0];
  return {
    dir,
    outside,
    result: typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content),
    isError: first?.isError === true,
  };
}

const gitStatusRules = { allow: ['Bash(git status:*)'], deny: ['Bash(rm:*)'] };
const gitRepo = (dir: string): void => void execFileSync('git', ['init', '-q'], { cwd: dir });

describe('the parser never disagrees with bash silently (item 2)', () => {
  // Operators that expand their word when the variable is unset use `x`; the others `HOME`, which is set.
  const forms = [
    '${x:-WORD}',
    '${x-WORD}',
    '${x:=WORD}',
    '${x=WORD}',
    '${x:?WORD}',
    '${x?WORD}',
    '${HOME:+WORD}',
    '${HOME+WORD}',
    '${HOME#WORD}',
    '${HOME##WORD}',
    '${HOME%WORD}',
    '${HOME%%WORD}',
    '${HOME/WORD}',
    '${HOME//WORD}',
    '${HOME/a/WORD}',
    '${HOME^WORD}',
    '${HOME,WORD}',
    '${HOME:0:WORD}',
    '"${HOME:+WORD}"',
  ];
  it.each(forms)('git status --short %s (WORD a backquoted touch X; rm -f V) runs neither', async (form) => {
    const { dir } = await runBash(
      `git status --short ${form.replace('WORD', '`touch X; rm -f V; echo 1`')}`,
      { rules: gitStatusRules, prepare: gitRepo },
    );
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'X'))).toBe(false);
  });

  it.each([
    '${x:-$(rm -f V)}',
    '${x#$(rm -f V)}',
    '${x:1:$(rm -f V)}',
    '${x:-#$(rm -f V)}',
    '"${x/a/$(rm -f V)}"',
  ])('git status --short %s is denied by Bash(rm:*)', async (word) => {
    const { dir, isError } = await runBash(`git status --short ${word}`, { rules: gitStatusRules });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
  });

  it('a carriage return makes the command unreadable: never allowed by a rule', async () => {
    const { dir, isError } = await runBash('git status --short \r#; touch X', { rules: gitStatusRules });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'X'))).toBe(false);
  });

  it('an unreadable command is allowed neither by a bare Bash rule, nor acceptEdits, nor a hook-free mode', async () => {
    for (const setup of [
      { rules: { allow: ['Bash'] } },
      { mode: 'acceptEdits' as const },
      { mode: 'dontAsk' as const },
    ]) {
      const { dir, isError } = await runBash('touch X\r', setup);
      expect(isError).toBe(true);
      expect(fs.existsSync(path.join(dir, 'X'))).toBe(false);
    }
  });

  it('nor by a PreToolUse hook allow; a computed program name neither', async () => {
    for (const command of ['touch X\r', 'r=touch; $r X']) {
      const { dir, isError } = await runBash(command, { hookAllows: true });
      expect(isError).toBe(true);
      expect(fs.existsSync(path.join(dir, 'X'))).toBe(false);
    }
  });

  it('bypassPermissions still runs it (a person chose that mode)', async () => {
    const { dir } = await runBash('touch X; : \r', { mode: 'bypassPermissions' });
    expect(fs.existsSync(path.join(dir, 'X'))).toBe(true);
  });

  it.each([
    "x='a[$(rm -f V)]'; echo $((x))",
    "x='a[$(rm -f V)]'; (( x ))",
    "x='a[$(rm -f V)]'; echo ${a[x]}",
    "x='a[$(rm -f V)]'; [[ $x -eq 0 ]]",
    "y='a[$(rm -f V)]'; x=y; echo ${!x}",
    "x='$(rm -f V)'; echo ${x@P}",
    "printf -v 'a[$(rm -f V)]' 1",
    "test -v 'a[$(rm -f V)]'",
  ])('late evaluation (%s) matches a deny rule', async (command) => {
    const { dir, isError } = await runBash(command, { rules: { allow: ['Bash'], deny: ['Bash(rm:*)'] } });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
  });

  it.each([
    'cat <<EOF\n$(rm -f V)\nEOF',
    'f() { rm -f V; }; f',
    'cat <(rm -f V)',
    '[[ -n $(rm -f V) ]]',
    'echo $(( $(rm -f V) ))',
  ])('nested commands (%s) are seen by deny rules', async (command) => {
    const { dir, isError } = await runBash(command, { rules: { allow: ['Bash'], deny: ['Bash(rm:*)'] } });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
  });

  it('git status still runs under Bash(git status:*)', async () => {
    const { isError } = await runBash('git status --short', { rules: gitStatusRules, prepare: gitRepo });
    expect(isError).toBe(false);
  });
});

describe('deny rules see the real program (item 7)', () => {
  const bypasses = [
    '/bin/rm -f V',
    './rm -f V',
    'xargs -a list rm -f',
    'env -C . rm -f V',
    'env -i FOO=1 rm -f V',
    "env -S'rm -f V'",
    "env --split-string='rm -f V'",
    'setsid rm -f V',
    'stdbuf -o0 rm -f V',
    'nice -n 5 rm -f V',
    'ionice -c 3 rm -f V',
    'timeout -s KILL 5 rm -f V',
    'nohup rm -f V',
    'command rm -f V',
    'builtin command rm -f V',
    'exec rm -f V',
    'sudo -n rm -f V',
    'find . -name V -delete',
    'find . -name V -exec rm {} +',
    'find . -name V -execdir rm {} ;',
    'r=rm; $r -f V',
    'r=rm; "$r" -f V',
    '$(echo rm) -f V',
    'sh -c "rm -f V"',
    'env sh -c "rm -f V"',
    'watch -n 1 rm -f V',
    'flock lock rm -f V',
    'xargs -I R rm R',
    'env --chd=. rm -f V',
    'timeout --sig=KILL 5 rm -f V',
    'nice --frobnicate rm -f V',
    'eval "$cmd"',
    'bash -c "$cmd"',
    'echo rm -f V | bash',
    // Code held in text that Bash runs later: prompt variables, callbacks named in builtin options.
    "PS4='$(rm -f V)'; set -x; true",
    "set -x; PS4='`rm -f V`'; true",
    "export PS4='$(rm -f V)'; set -x; true",
    "mapfile -C 'rm -f V' -c 1 a < list",
    "readarray -C 'rm -f V' -c 1 a < list",
    "compgen -C 'rm -f V' x",
    "complete -C 'rm -f V' foo; compgen -C 'rm -f V' x",
  ];
  it.each(bypasses)('%s is denied by Bash(rm:*) even with allow Bash', async (command) => {
    const { dir, isError } = await runBash(`echo V > list; ${command}`, {
      rules: { allow: ['Bash'], deny: ['Bash(rm:*)'] },
      prepare: (project) => fs.copyFileSync('/bin/rm', path.join(project, 'rm')),
    });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
  });

  it('a hook allow does not beat it either', async () => {
    const { dir, isError } = await runBash('env -C . rm -f V', {
      rules: { deny: ['Bash(rm:*)'] },
      hookAllows: true,
    });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
  });

  it.each([
    ['env rm -f V', 'Bash(env:*)'],
    ['find . -name V -exec rm {} +', 'Bash(find:*)'],
    ['echo V | xargs rm -f', 'Bash(xargs:*)'],
    ['sudo -n rm -f V', 'Bash(sudo:*)'],
    ['r=rm; $r -f V', 'Bash(r=rm:*)'],
    ['/bin/rm -f V', 'Bash(rm:*)'],
    ['./rm -f V', 'Bash(rm:*)'],
  ])(
    '%s is not allowed by %s: every program run must be covered, a path program is not a bare name',
    async (command, rule) => {
      const { dir, isError } = await runBash(command, {
        rules: { allow: [rule] },
        prepare: (project) => fs.copyFileSync('/bin/rm', path.join(project, 'rm')),
      });
      expect(isError).toBe(true);
      expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
    },
  );

  it('legitimate wrapped commands still match their allow rule', async () => {
    expect(
      (await runBash('timeout 30 git status --short', { rules: gitStatusRules, prepare: gitRepo })).isError,
    ).toBe(false);
    expect((await runBash('nice -n 5 git status', { rules: gitStatusRules, prepare: gitRepo })).isError).toBe(
      false,
    );
    // `env FOO=1` changes the environment (NODE_OPTIONS, PATH…): the rule must name it, as with `FOO=1 git status`.
    expect((await runBash('env FOO=1 git status', { rules: gitStatusRules })).isError).toBe(true);
    expect(
      (
        await runBash('env FOO=1 git status', {
          rules: { allow: ['Bash(env FOO=1 git status)'] },
          prepare: gitRepo,
        })
      ).isError,
    ).toBe(false);
    expect((await runBash('sudo -n true', { rules: { allow: ['Bash(sudo -n true)'] } })).result).not.toMatch(
      /requested permissions/,
    );
  });
});

describe('acceptEdits stays in the workspace (item 5)', () => {
  it.each([
    'cp --target=OUTSIDE a.txt',
    'cp a.txt -tOUTSIDE',
    'cp a.txt --target-directory OUTSIDE',
    'cp -rt OUTSIDE a.txt',
    'mv a.txt OUTSIDE/moved',
    'install -D a.txt OUTSIDE/x',
    'ln -s a.txt OUTSIDE/link',
    'tee OUTSIDE/x < a.txt',
    'sed -i s/a/b/ OUTSIDE/x',
    'dd if=a.txt of=OUTSIDE/x',
    'truncate -s 0 OUTSIDE/x',
    'touch OUTSIDE/x',
    'mkdir OUTSIDE/d',
    'cp a.txt b.txt OUTSIDE',
    'cp --frobnicate a.txt OUTSIDE/x',
    // A link made by cp (hard: shares the outside file's contents; symbolic: leads out) is no plain edit.
    'cp -l OUTSIDE/v hl',
    'cp -s OUTSIDE/v sl && echo x > sl',
    'cp --link OUTSIDE/v hl',
    'cp --sym OUTSIDE/v sl',
    'cp -al OUTSIDE/v hl',
  ])('%s is not auto-allowed', async (command) => {
    const { dir, outside, isError } = await runBash(command, { mode: 'acceptEdits' });
    expect(isError).toBe(true);
    expect(fs.readdirSync(outside).filter((name) => name !== 'v')).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'hl')) || fs.existsSync(path.join(dir, 'sl'))).toBe(false);
  });

  it('cp evil.json .claude/settings.json writes .claude/settings.json, not only the first operand', async () => {
    const { classifyBashCommand } = await import('../../src/shell/bash-read-only.js');
    const { Workspace } = await import('../../src/tools/workspace.js');
    const dir = tempProject();
    const result = await classifyBashCommand('cp evil.json .claude/settings.json; cp x.json -t .claude', {
      cwd: dir,
      workspace: new Workspace(dir),
    });
    const paths = result.writes.map((write) => write.path);
    expect(paths).toContain(path.join(dir, '.claude/settings.json'));
    expect(paths).toContain(path.join(dir, '.claude/x.json'));
  });

  it('everyday edits inside the workspace still run: cp a b, rm -rf build, mkdir -p, sed -i', async () => {
    const copied = await runBash(
      'cp a.txt b.txt && mkdir -p build/x && rm -rf build && sed -i s/a/b/ b.txt',
      { mode: 'acceptEdits' },
    );
    expect(copied.isError).toBe(false);
    expect(fs.readFileSync(path.join(copied.dir, 'b.txt'), 'utf8')).toBe('b');
    expect(fs.existsSync(path.join(copied.dir, 'build'))).toBe(false);
  });
});

describe('protected removals (item 6)', () => {
  beforeAll(() => fs.writeFileSync(path.join(home, 'canary'), 'home'));
  const removals = [
    'rm -rf ~/',
    'rm -rf ~',
    'rm -rf ~/.',
    'rm -rf $HOME',
    'rm -rf ${HOME}/',
    'rm -rf "$HOME"/',
    'rm -rf ~/*',
    'rm -rf //tmp/../$HOME',
    'sudo -n rm -rf ~/',
    'find ~ -delete',
    'echo ~ | xargs rm -rf',
    'find ~ -exec rm -rf {} +',
    'rm -rf --no-preserve-root ~//',
    'rm -rf $x',
    'rm -rf "$d/hookloop-home"',
    'mv ~ OUTSIDE/gone',
  ];
  it.each(removals)(
    '%s asks even in bypassPermissions (nobody approves: the home survives)',
    async (command) => {
      const { isError } = await runBash(command.replace('hookloop-home', path.basename(home)), {
        mode: 'bypassPermissions',
      });
      expect(isError).toBe(true);
      expect(fs.existsSync(path.join(home, 'canary'))).toBe(true);
    },
  );

  it('a symlink to the home directory is the home directory', async () => {
    const { isError } = await runBash('rm -rf h/', {
      mode: 'bypassPermissions',
      prepare: (dir) => fs.symlinkSync(home, path.join(dir, 'h')),
    });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(home, 'canary'))).toBe(true);
  });

  it('the workspace itself (., ./, $PWD) is protected', async () => {
    for (const operand of ['.', './', '$PWD', './*']) {
      const { dir, isError } = await runBash(`rm -rf ${operand}`, { mode: 'bypassPermissions' });
      expect(isError).toBe(true);
      expect(fs.existsSync(path.join(dir, 'V'))).toBe(true);
    }
  });

  it('everyday removals still run in bypassPermissions: rm -rf build/', async () => {
    const { dir, isError } = await runBash('mkdir -p build/x && touch x && rm -rf build/ x', {
      mode: 'bypassPermissions',
    });
    expect(isError).toBe(false);
    expect(fs.existsSync(path.join(dir, 'build'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
  });

  it('rm -f "$tmp/x" is no protected removal, but its path is only known at run time, so it asks even in bypassPermissions (it could be configuration)', async () => {
    const { dir, isError } = await runBash('tmp=$PWD && touch x && rm -f "$tmp/x"', {
      mode: 'bypassPermissions',
    });
    expect(isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
  });
});
