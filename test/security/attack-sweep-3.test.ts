import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, HookEngine, type PermissionMode } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// A third attack sweep, headless (no person to approve): files that make an allowed program run
// code later, the agent configuration inside `.claude/` (and the files a skill or a loop keeps
// there, which are not configuration), links made by the command that writes through them, and
// deny rules for git subcommands behind git's global options. Each class has its legitimate twin.

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
interface CallOptions {
  mode?: PermissionMode;
  rules?: Rules;
  hooks?: HookEngine;
}

async function call(dir: string, tool: string, input: Record<string, unknown>, options: CallOptions = {}) {
  const { result } = await scriptedRun([[toolUse('t1', tool, input)], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    transcript: false,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    permissions: { mode: options.mode ?? 'default', rules: options.rules ?? {} },
  });
  return toolResults(result.messages)[0]!;
}

const bash = (dir: string, command: string, options: CallOptions = {}) =>
  call(dir, 'Bash', { command }, options);
const write = (dir: string, file: string, options: CallOptions = {}) =>
  call(dir, 'Write', { file_path: path.join(dir, file), content: 'touch pwned\n' }, options);

/** The three setups that approve everything a person need not see: no rule in acceptEdits, and everything allowed in bypassPermissions. */
const PERMISSIVE: readonly [string, CallOptions][] = [
  ['acceptEdits', { mode: 'acceptEdits' }],
  [
    'acceptEdits + allow rules + allowing hook',
    { mode: 'acceptEdits', rules: { allow: ['Bash', 'Write', 'Edit'] }, hooks: allowingHooks() },
  ],
  ['bypassPermissions + allowing hook', { mode: 'bypassPermissions', hooks: allowingHooks() }],
];

function gitInit(dir: string, ...config: string[][]) {
  spawnSync('git', ['init', '-q', dir]);
  for (const pair of config) spawnSync('git', ['-C', dir, 'config', ...pair]);
}

describe('files that make an allowed program run code later', () => {
  const files = [
    '.npmrc',
    'packages/app/.npmrc',
    '.yarnrc.yml',
    '.yarnrc',
    'bunfig.toml',
    'pip.conf',
    '.config/pip/pip.conf',
    '.pnpmfile.cjs',
    'pnpm-workspace.yaml',
    '.envrc',
    '.bashrc',
    '.zshenv',
    '.pre-commit-config.yaml',
    'lefthook.yml',
    '.husky/pre-commit',
    '.husky/_/h',
    '.vscode/tasks.json',
    '.idea/workspace.xml',
    '.devcontainer/devcontainer.json',
    '.cargo/config.toml',
    '.yarn/plugins/p.cjs',
    '.mvn/wrapper/maven-wrapper.properties',
    'gradle/wrapper/gradle-wrapper.properties',
    '.NPMRC',
    '.Husky/pre-commit',
  ];

  for (const [setup, options] of PERMISSIVE) {
    it(`Write of each is refused headless (${setup}), and the file is not created`, async () => {
      const dir = tempProject();
      for (const file of files) {
        const result = await write(dir, file, options);
        expect(result.isError, `${file}: ${String(result.content)}`).toBe(true);
        expect(fs.existsSync(path.join(dir, file)), file).toBe(false);
      }
    });
  }

  it.each([
    'echo "script-shell=/tmp/x" > .npmrc',
    'mkdir -p .husky && echo "touch pwned" > .husky/pre-commit',
    'cp evil.txt .husky/pre-commit',
    'tee .yarnrc.yml < evil.txt',
    'cp evil.txt sub/bunfig.toml',
    'mv evil.txt .envrc',
    'ln -s evil.txt .npmrc',
    'sed -i s/a/b/ .vscode/settings.json',
    'cp -r evil-dir .vscode',
    'cp -r evil-dir/. .',
  ])('Bash %s is refused in acceptEdits and in bypassPermissions with an allowing hook', async (command) => {
    for (const options of [
      { mode: 'acceptEdits' as const },
      { mode: 'bypassPermissions' as const, rules: { allow: ['Bash'] }, hooks: allowingHooks() },
    ]) {
      const dir = tempProject({
        'evil.txt': 'a\n',
        'sub/x': '',
        'evil-dir/.husky/pre-commit': 'touch pwned\n',
        '.vscode/settings.json': '{"a":1}\n',
      });
      const result = await bash(dir, command, options);
      expect(result.isError, `${command}: ${String(result.content)}`).toBe(true);
      expect(
        fs.existsSync(path.join(dir, '.npmrc')) ||
          fs.existsSync(path.join(dir, '.husky')) ||
          fs.existsSync(path.join(dir, '.envrc')) ||
          fs.existsSync(path.join(dir, 'sub/bunfig.toml')) ||
          fs.existsSync(path.join(dir, '.yarnrc.yml')),
      ).toBe(false);
      expect(fs.readFileSync(path.join(dir, '.vscode/settings.json'), 'utf8')).toBe('{"a":1}\n');
    }
  });

  it('the directory core.hooksPath names — in the repository config or the user one — is protected, whatever its name', async () => {
    const dir = tempProject({ 'tools/git-hooks/pre-commit': '#!/bin/sh\nexit 0\n' });
    gitInit(dir, ['core.hooksPath', 'tools/git-hooks']);
    for (const [setup, options] of PERMISSIVE) {
      const result = await write(dir, 'tools/git-hooks/pre-commit', options);
      expect(result.isError, setup).toBe(true);
      const viaBash = await bash(dir, 'echo "touch pwned" >> tools/git-hooks/pre-commit', options);
      expect(viaBash.isError, setup).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'tools/git-hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('legitimate: ordinary files beside them are written in acceptEdits, and git commit runs its husky hook once allowed', async () => {
    const dir = tempProject({ '.husky/pre-commit': 'echo hooked > hook-ran.txt\n', 'a.txt': 'a\n' });
    fs.chmodSync(path.join(dir, '.husky/pre-commit'), 0o755);
    gitInit(dir, ['core.hooksPath', '.husky'], ['user.email', 't@example.com'], ['user.name', 't']);
    for (const file of [
      'src/npmrc-notes.md',
      'docs/husky.md',
      'src/app.ts',
      'package.json',
      'Makefile',
      'config/settings.json',
    ]) {
      expect(await write(dir, file, { mode: 'acceptEdits' }), file).toMatchObject({ isError: false });
    }
    expect(
      await bash(dir, 'cp a.txt b.txt && mkdir -p lib && cp -r src lib/', { mode: 'acceptEdits' }),
    ).toMatchObject({ isError: false });
    spawnSync('git', ['-C', dir, 'add', 'a.txt']);
    const commit = await bash(dir, 'git commit -q -m first', { rules: { allow: ['Bash(git commit:*)'] } });
    expect(commit, String(commit.content)).toMatchObject({ isError: false });
    expect(fs.readFileSync(path.join(dir, 'hook-ran.txt'), 'utf8')).toBe('hooked\n');
  });
});

describe('.claude/: the files that configure an agent, not every file kept there', () => {
  const configuring = [
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.claude/Settings.local.json',
    '.claude/hooks/guard.sh',
    '.claude/agents/a.md',
    '.claude/commands/c.md',
    '.claude/skills/foo/SKILL.md',
    '.claude/skills/new/SKILL.md',
    '.claude/plugins/p/plugin.json',
    '.claude/CLAUDE.md',
    '.claude/rules/r.md',
    'sub/.claude/settings.json',
  ];

  for (const [setup, options] of PERMISSIVE) {
    it(`Write of each configuring file is refused headless (${setup})`, async () => {
      const dir = tempProject({ '.claude/skills/foo/notes.md': 'n\n' });
      for (const file of configuring) {
        const result = await write(dir, file, options);
        expect(result.isError, file).toBe(true);
        expect(fs.existsSync(path.join(dir, file)), file).toBe(false);
      }
    });
  }

  it.each([
    'echo "---" > .claude/skills/foo/SKILL.md',
    'mv .claude/ralph-loop.local.md .claude/settings.local.json',
    'cp -r evil-skill .claude/skills/foo',
    'cp -r evil-skill .claude/skills',
    'rm -rf .claude/skills/foo',
    'ln -s ../evil.json .claude/settings.json',
  ])('Bash %s is refused in bypassPermissions with an allowing hook', async (command) => {
    const dir = tempProject({
      '.claude/skills/foo/SKILL.md': '---\nname: foo\n---\n',
      '.claude/ralph-loop.local.md': 'x\n',
      'evil-skill/SKILL.md': '---\nallowed-tools: Bash\n---\n',
      'evil.json': '{}\n',
    });
    const result = await bash(dir, command, {
      mode: 'bypassPermissions',
      rules: { allow: ['Bash'] },
      hooks: allowingHooks(),
    });
    expect(result.isError, String(result.content)).toBe(true);
    expect(fs.readFileSync(path.join(dir, '.claude/skills/foo/SKILL.md'), 'utf8')).toBe(
      '---\nname: foo\n---\n',
    );
    expect(
      fs.existsSync(path.join(dir, '.claude/settings.json')) ||
        fs.existsSync(path.join(dir, '.claude/settings.local.json')),
    ).toBe(false);
  });

  it('a link that leads a harmless name to the settings is the settings', async () => {
    const dir = tempProject({ '.claude/settings.json': '{}\n' });
    fs.symlinkSync('settings.json', path.join(dir, '.claude/notes.local.md'));
    const result = await write(dir, '.claude/notes.local.md', { mode: 'acceptEdits' });
    expect(result.isError).toBe(true);
    expect(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).toBe('{}\n');
  });

  it("legitimate: a skill's notes and a loop's state file are written in acceptEdits, by Write and by Bash", async () => {
    const dir = tempProject({ '.claude/skills/foo/SKILL.md': '---\nname: foo\n---\n' });
    expect(await write(dir, '.claude/skills/foo/notes.md', { mode: 'acceptEdits' })).toMatchObject({
      isError: false,
    });
    expect(await write(dir, '.claude/ralph-loop.local.md', { mode: 'acceptEdits' })).toMatchObject({
      isError: false,
    });
    const viaBash = await bash(
      dir,
      'mkdir -p .claude/skills/foo/data && echo state > .claude/skills/foo/data/log.txt && echo "iteration: 1" > .claude/loop.local.md',
      { mode: 'acceptEdits' },
    );
    expect(viaBash, String(viaBash.content)).toMatchObject({ isError: false });
    expect(fs.readFileSync(path.join(dir, '.claude/loop.local.md'), 'utf8')).toBe('iteration: 1\n');
  });
});

describe('deny rules read git (and npm, docker, kubectl) past global options and abbreviated long options', () => {
  /** A repository with one commit and a bare remote `origin`, so that a push that ran would land. */
  function repository(): { dir: string; remote: string } {
    const dir = tempProject({ 'a.txt': 'a\n' });
    const remote = tempProject();
    spawnSync('git', ['init', '-q', '--bare', remote]);
    gitInit(dir, ['user.email', 't@example.com'], ['user.name', 't']);
    spawnSync('git', ['-C', dir, 'add', 'a.txt']);
    spawnSync('git', ['-C', dir, 'commit', '-q', '-m', 'one']);
    spawnSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
    return { dir, remote };
  }
  const pushed = (remote: string) =>
    spawnSync('git', ['-C', remote, 'rev-parse', '--verify', '-q', 'HEAD']).status === 0;

  it.each([
    'git -C . push origin HEAD',
    'git -c push.default=current push origin HEAD',
    'git -cpush.default=current push origin HEAD',
    'git --no-pager push origin HEAD',
    'git -P push origin HEAD',
    'git --literal-pathspecs push origin HEAD',
    'git --git-dir=.git push origin HEAD',
    'git --git-dir .git --work-tree . push origin HEAD',
    'git --no-optional-locks -C . --no-pager push origin HEAD',
    'git --some-future-option push origin HEAD',
  ])(
    'deny Bash(git push:*) denies %s under allow: [Bash] and an allowing hook, and nothing is pushed',
    async (command) => {
      const { dir, remote } = repository();
      const result = await bash(dir, command, {
        rules: { allow: ['Bash'], deny: ['Bash(git push:*)'] },
        hooks: allowingHooks(),
      });
      expect(result.isError).toBe(true);
      expect(String(result.content)).toContain('has been denied');
      expect(pushed(remote)).toBe(false);
    },
  );

  it.each([
    'git reset --har HEAD~0',
    'git reset --ha',
    'git -C . reset --hard',
    'git --no-pager reset --hard',
  ])('deny Bash(git reset --hard:*) denies %s (git reads --har as --hard)', async (command) => {
    const { dir } = repository();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    const result = await bash(dir, command, {
      mode: 'bypassPermissions',
      rules: { deny: ['Bash(git reset --hard:*)'] },
    });
    expect(String(result.content)).toContain('has been denied');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('changed\n');
  });

  it.each([
    ['npm --prefix . publish', 'Bash(npm publish:*)'],
    ['npm -w pkg publish', 'Bash(npm publish:*)'],
    ['docker -H unix:///nonexistent.sock run alpine', 'Bash(docker run:*)'],
    ['docker --context other run alpine', 'Bash(docker run:*)'],
    ['kubectl -n prod delete pod x', 'Bash(kubectl delete:*)'],
    ['kubectl --context=prod delete pod x', 'Bash(kubectl delete:*)'],
  ])('%s is denied by %s', async (command, rule) => {
    const dir = tempProject();
    const result = await bash(dir, command, { mode: 'bypassPermissions', rules: { deny: [rule] } });
    expect(result.isError).toBe(true);
    expect(String(result.content)).toContain('has been denied');
  });

  it('legitimate: git push runs when allowed; other subcommands behind global options run beside the deny rule; allow rules are not widened', async () => {
    const { dir, remote } = repository();
    expect(
      await bash(dir, 'git -C . log --oneline', { rules: { allow: ['Bash'], deny: ['Bash(git push:*)'] } }),
    ).toMatchObject({ isError: false });
    expect(
      await bash(dir, 'git reset --soft HEAD', {
        rules: { allow: ['Bash'], deny: ['Bash(git reset --hard:*)'] },
      }),
    ).toMatchObject({ isError: false });
    const push = await bash(dir, 'git push -q origin HEAD:main', { rules: { allow: ['Bash(git push:*)'] } });
    expect(push, String(push.content)).toMatchObject({ isError: false });
    expect(
      pushed(remote) || spawnSync('git', ['-C', remote, 'rev-parse', '--verify', '-q', 'main']).status === 0,
    ).toBe(true);
    // An allow rule reads the words as written: `git -C elsewhere push` is not `git push` for it.
    const elsewhere = await bash(dir, `git -C ${remote} push`, { rules: { allow: ['Bash(git push:*)'] } });
    expect(elsewhere.isError).toBe(true);
    expect(String(elsewhere.content)).not.toContain('has been denied');
  });
});

describe('links made, copied or moved by the command that then writes through them', () => {
  /**
   * A workspace with `a/l`, a relative link that is harmless where it stands (it leads to
   * `<ws>/<name>-out`) and leads out of the workspace, to `<parent>/<name>-out`, once it lies at the
   * top; returns the workspace and that outside path, which no command may create.
   */
  function linkedTree(): { dir: string; outside: string } {
    const dir = tempProject({ 'a/f.txt': 'f\n', 'tree/x.txt': 'x\n', 'tree/sub/y.txt': 'y\n' });
    const name = `${path.basename(dir)}-out`;
    fs.symlinkSync(`../${name}`, path.join(dir, 'a', 'l'));
    return { dir, outside: path.join(path.dirname(dir), name) };
  }

  const attacks = [
    'cp -a a/l l2 && echo pwned > l2',
    'cp -P a/l l2 && echo pwned > l2',
    'cp -d a/l l2; echo pwned >> l2',
    'cp -r a/. . && echo pwned > l',
    'cp -R a b && cp -P b/l top && tee top < a/f.txt',
    'mv a/l l2 && echo pwned > l2',
    'mv a/l . && cp a/f.txt l',
    'ln -s a/../a/l l2 && echo pwned > l2',
    'tar -cf t.tar -C a l && tar -xf t.tar && echo pwned > l',
  ];

  const setups: [string, CallOptions][] = [
    ['acceptEdits', { mode: 'acceptEdits' }],
    [
      'default with allow: [Bash] and an allowing hook',
      { rules: { allow: ['Bash'] }, hooks: allowingHooks() },
    ],
  ];
  for (const [setup, options] of setups) {
    it(`each attack is refused headless (${setup}) and nothing is written outside`, async () => {
      for (const command of attacks) {
        const { dir, outside } = linkedTree();
        const result = await bash(dir, command, options);
        expect(result.isError, `${command}: ${String(result.content)}`).toBe(true);
        expect(fs.existsSync(outside), command).toBe(false);
      }
    });
  }

  it('acceptEdits asks for a copy or move that carries a link, even with no write after it', async () => {
    for (const command of ['cp -a a/l l2', 'cp -r a a2', 'mv a/l l2', 'mv a a2']) {
      const { dir } = linkedTree();
      const result = await bash(dir, command, { mode: 'acceptEdits' });
      expect(result.isError, command).toBe(true);
      expect(fs.lstatSync(path.join(dir, 'a', 'l')).isSymbolicLink(), command).toBe(true);
    }
  });

  it('a link made by an earlier command is followed at the next check', async () => {
    const { dir, outside } = linkedTree();
    expect(await bash(dir, 'cp -a a/l l2', { mode: 'bypassPermissions' })).toMatchObject({ isError: false });
    for (const [tool, input] of [
      ['Bash', { command: 'echo pwned > l2' }],
      ['Write', { file_path: path.join(dir, 'l2'), content: 'pwned\n' }],
    ] as const) {
      const result = await call(dir, tool, input, { mode: 'acceptEdits' });
      expect(result.isError, tool).toBe(true);
    }
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('legitimate: copying and moving trees without links runs in acceptEdits; writes that pass no new link run', async () => {
    const { dir } = linkedTree();
    for (const command of [
      'cp -r tree tree2',
      'cp -a tree tree3 && echo ok > tree3/note.txt',
      'mv tree2 tree4',
      'cp a/f.txt g.txt',
    ]) {
      const result = await bash(dir, command, { mode: 'acceptEdits' });
      expect(result, `${command}: ${String(result.content)}`).toMatchObject({ isError: false });
    }
    expect(fs.readFileSync(path.join(dir, 'tree3/note.txt'), 'utf8')).toBe('ok\n');
    const linked = await bash(dir, `ln -s ${path.join(dir, 'tree')} tree-link && echo ok > other.txt`, {
      rules: { allow: ['Bash'] },
    });
    expect(linked, String(linked.content)).toMatchObject({ isError: false });
    expect(fs.readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('fewer refusals under the user\'s own allow: ["Bash"], as in Claude Code 2.1.328', () => {
  function places() {
    const dir = tempProject({ 'a.txt': 'a\n' });
    const out = tempProject({ '.tool/state.txt': 'STATE\n', 'scratch/x': 'x\n', 'outdir/y': 'y\n' });
    return { dir, out };
  }

  it('everyday commands outside the workspace run: reads, removals, links, writes', async () => {
    const { dir, out } = places();
    const rules = { allow: ['Bash'] };
    const read = await bash(dir, `cat ${out}/.tool/state.txt`, { rules });
    expect(read).toMatchObject({ isError: false });
    expect(String(read.content)).toContain('STATE');
    for (const command of [
      `rm -rf ${out}/scratch`,
      `ln -s ${out}/outdir node_modules`,
      `echo hi > ${out}/written.txt`,
      `cp a.txt ${out}/copy.txt`,
    ]) {
      const result = await bash(dir, command, { rules });
      expect(result, `${command}: ${String(result.content)}`).toMatchObject({ isError: false });
    }
    expect(fs.existsSync(path.join(out, 'scratch'))).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'node_modules'))).toEqual(['y']);
    expect(fs.readFileSync(path.join(out, 'written.txt'), 'utf8')).toBe('hi\n');
    expect(fs.readFileSync(path.join(out, 'copy.txt'), 'utf8')).toBe('a\n');
  });

  it('attack: the same commands still ask under a prefix rule, a hook allow or a session rule, and configuration stays protected under allow: [Bash]', async () => {
    const { dir, out } = places();
    expect(
      (await bash(dir, `cat ${out}/.tool/state.txt`, { rules: { allow: ['Bash(cat:*)'] } })).isError,
    ).toBe(true);
    expect((await bash(dir, `echo hi > ${out}/w1.txt`, { rules: { allow: ['Bash(echo:*)'] } })).isError).toBe(
      true,
    );
    expect((await bash(dir, `echo hi > ${out}/w2.txt`, { hooks: allowingHooks() })).isError).toBe(true);
    for (const command of [
      `echo x >> ${out}/.bashrc`,
      `mkdir -p ${out}/.claude && echo '{}' > ${out}/.claude/settings.json`,
      `echo x > ${out}/.npmrc`,
      'echo x > .git/config',
      `cp a.txt ${out}/.husky/pre-commit`,
    ]) {
      const result = await bash(dir, command, { rules: { allow: ['Bash'] }, hooks: allowingHooks() });
      expect(result.isError, command).toBe(true);
    }
    expect(
      fs.existsSync(path.join(out, 'w1.txt')) ||
        fs.existsSync(path.join(out, 'w2.txt')) ||
        fs.existsSync(path.join(out, '.bashrc')) ||
        fs.existsSync(path.join(out, '.claude')),
    ).toBe(false);
    // Deny rules still deny what lies outside.
    const denied = await bash(dir, `cat ${out}/.tool/state.txt`, {
      rules: { allow: ['Bash'], deny: [`Read(/${out}/.tool/**)`] },
    });
    expect(String(denied.content)).not.toContain('STATE');
  });
});
