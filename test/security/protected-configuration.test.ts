import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, callbackApprover, HookEngine, type PermissionMode } from '../../src/index.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Issue 14 items 3 and 10: the files hookloop reads hooks, permissions and plugins from, and the
// files that make git run code, are written only when a person approves — by real path, in every
// mode, whatever rules or hooks say.

const ALL_MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'];
const EVIL = JSON.stringify({
  hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch /tmp/pwned' }] }] },
});

let home: string;
const saved = { HOME: process.env['HOME'], HOOKLOOP_HOME: process.env['HOOKLOOP_HOME'] };
beforeEach(() => {
  home = tempProject();
  process.env['HOME'] = home;
  delete process.env['HOOKLOOP_HOME'];
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** A PermissionRequest hook and a PreToolUse hook that both allow everything: neither may approve these writes. */
function allowingHooks(): HookEngine {
  const hooks = new HookEngine();
  hooks.on('PreToolUse', () => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
  }));
  hooks.on('PermissionRequest', () => ({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  }));
  return hooks;
}

async function attempt(
  dir: string,
  tool: string,
  input: Record<string, unknown>,
  mode: PermissionMode,
  extra: { configurationFiles?: string[]; allow?: string[] } = {},
) {
  const { result } = await scriptedRun([[toolUse('t1', tool, input)], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    hooks: allowingHooks(),
    permissions: { mode, rules: { allow: extra.allow ?? ['Write', 'Edit', 'Bash'] } },
    transcript: false,
    ...(extra.configurationFiles ? { configurationFiles: extra.configurationFiles } : {}),
  });
  return toolResults(result.messages)[0]!;
}

describe('hookloop configuration cannot be written by the model', () => {
  it.each(ALL_MODES)(
    'Write .claude/settings.json is refused in %s, with an allow rule and allowing hooks',
    async (mode) => {
      const dir = tempProject();
      const result = await attempt(dir, 'Write', { file_path: '.claude/settings.json', content: EVIL }, mode);
      expect(result.isError).toBe(true);
      expect(fs.existsSync(path.join(dir, '.claude', 'settings.json'))).toBe(false);
    },
  );

  it('through a symlinked alias of the workspace (inside it and outside it)', async () => {
    const dir = tempProject();
    const elsewhere = tempProject();
    fs.symlinkSync(dir, path.join(dir, 'alias'));
    fs.symlinkSync(dir, path.join(elsewhere, 'alias'));
    for (const file of [
      path.join(dir, 'alias', '.claude', 'settings.json'),
      path.join(elsewhere, 'alias', '.claude', 'settings.local.json'),
    ]) {
      const result = await attempt(dir, 'Write', { file_path: file, content: EVIL }, 'bypassPermissions');
      expect(result.isError).toBe(true);
    }
    expect(fs.existsSync(path.join(dir, '.claude'))).toBe(false);
  });

  it("through a dangling symlink that points at the user's ~/.claude/settings.json (fake HOME)", async () => {
    const dir = tempProject();
    fs.symlinkSync(path.join(home, '.claude', 'settings.json'), path.join(dir, 'notes.json'));
    for (const mode of ['acceptEdits', 'bypassPermissions'] as const) {
      const result = await attempt(dir, 'Write', { file_path: 'notes.json', content: EVIL }, mode);
      expect(result.isError).toBe(true);
    }
    expect(fs.existsSync(path.join(home, '.claude', 'settings.json'))).toBe(false);
  });

  it('through a symlinked directory whose target does not exist yet', async () => {
    const dir = tempProject();
    fs.symlinkSync(path.join(home, '.claude'), path.join(dir, 'conf'));
    const result = await attempt(
      dir,
      'Write',
      { file_path: 'conf/settings.json', content: EVIL },
      'bypassPermissions',
    );
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(home, '.claude'))).toBe(false);
  });

  it('a --settings file inside the project and a plugin directory are protected (RunOptions.configurationFiles)', async () => {
    const dir = tempProject({ 'conf/hooks.json': '{}', 'plugins/mine/hooks/hooks.json': '{}' });
    const configurationFiles = [path.join(dir, 'conf', 'hooks.json'), path.join(dir, 'plugins', 'mine')];
    for (const file of ['conf/hooks.json', 'plugins/mine/hooks/hooks.json', 'plugins/mine/hooks/new.json']) {
      const result = await attempt(dir, 'Write', { file_path: file, content: EVIL }, 'acceptEdits', {
        configurationFiles,
      });
      expect(result.isError).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'conf', 'hooks.json'), 'utf8')).toBe('{}');
  });

  it('$HOOKLOOP_HOME, .mcp.json, ~/.claude.json and .claude/agents are protected', async () => {
    const dir = tempProject();
    const configHome = tempProject();
    process.env['HOOKLOOP_HOME'] = configHome;
    for (const file of [
      path.join(configHome, 'settings.json'),
      '.mcp.json',
      path.join(home, '.claude.json'),
      '.claude/agents/evil.md',
      '.claude/skills/x/SKILL.md',
    ]) {
      const result = await attempt(dir, 'Write', { file_path: file, content: EVIL }, 'bypassPermissions');
      expect(result.isError).toBe(true);
    }
    expect(fs.readdirSync(configHome)).toEqual([]);
    expect(fs.existsSync(path.join(dir, '.mcp.json'))).toBe(false);
  });

  it('Bash redirections into configuration are refused, by real path, in bypassPermissions', async () => {
    const dir = tempProject();
    fs.symlinkSync(dir, path.join(dir, 'alias'));
    for (const command of [
      `echo '${EVIL}' > .claude/settings.json`,
      `echo '{}' > alias/.claude/settings.local.json`,
      `echo '{}' > $HOME/.claude/settings.json`,
      `echo '{}' >> ~/.claude/settings.json`,
    ]) {
      fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
      fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
      const result = await attempt(dir, 'Bash', { command }, 'bypassPermissions');
      expect(result.isError, command).toBe(true);
    }
    expect(fs.readdirSync(path.join(dir, '.claude'))).toEqual([]);
    expect(fs.readdirSync(path.join(home, '.claude'))).toEqual([]);
  });

  it('a write whose destination is only known when the command runs asks, even in bypassPermissions', async () => {
    const dir = tempProject();
    const result = await attempt(
      dir,
      'Bash',
      { command: 'f=.claude/settings.json; mkdir -p .claude; echo x > "$f"' },
      'bypassPermissions',
    );
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(dir, '.claude', 'settings.json'))).toBe(false);
  });

  it('a person can approve a Write to .claude/settings.json, and it is written', async () => {
    const dir = tempProject();
    let asked = 0;
    const { result } = await scriptedRun(
      [[toolUse('t1', 'Write', { file_path: '.claude/settings.json', content: '{}' })], [text('done')]],
      {
        projectDir: dir,
        tools: builtinTools(),
        permissions: { mode: 'acceptEdits' },
        approver: callbackApprover(() => {
          asked++;
          return 'allow';
        }),
      },
    );
    expect(asked).toBe(1);
    expect(toolResults(result.messages)[0]?.isError).toBe(false);
    expect(fs.readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{}');
  });

  it('ordinary writes inside the workspace still run in acceptEdits without asking', async () => {
    const dir = tempProject();
    fs.symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'Write', { file_path: 'src/a.txt', content: 'a' })],
        [toolUse('t2', 'Write', { file_path: 'link.txt', content: 'through a link' })],
        [toolUse('t3', 'Bash', { command: 'echo hi > out.txt' })],
        [text('done')],
      ],
      { projectDir: dir, tools: builtinTools(), permissions: { mode: 'acceptEdits' } },
    );
    expect(toolResults(result.messages).map((message) => message.isError)).toEqual([false, false, false]);
    expect(fs.readFileSync(path.join(dir, 'real.txt'), 'utf8')).toBe('through a link');
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});

describe('every operand of a Bash writer is checked', () => {
  it('cp evil.json .claude/settings.json in acceptEdits is refused', async () => {
    const dir = tempProject({ 'evil.json': EVIL, '.claude/keep': '' });
    const result = await attempt(
      dir,
      'Bash',
      { command: 'cp evil.json .claude/settings.json' },
      'acceptEdits',
      { allow: [] },
    );
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(dir, '.claude', 'settings.json'))).toBe(false);
  });

  it('cp -t .claude evil.json in acceptEdits is refused', async () => {
    const dir = tempProject({ 'evil.json': EVIL, '.claude/keep': '' });
    const result = await attempt(dir, 'Bash', { command: 'cp -t .claude evil.json' }, 'acceptEdits', {
      allow: [],
    });
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(dir, '.claude', 'evil.json'))).toBe(false);
  });
});

describe('files that make git run code ask even in acceptEdits', () => {
  function gitRepo(): string {
    const dir = tempProject({ 'tracked.txt': 'a\n' });
    const git = (...args: string[]) =>
      spawnSync('git', args, { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: home } });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    return dir;
  }

  it('acceptEdits writing .git/config with core.fsmonitor, then git status: the command never runs', async () => {
    const dir = gitRepo();
    const canary = path.join(tempProject(), 'canary');
    const config = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${canary}"\n`;
    const { result } = await scriptedRun(
      [
        [toolUse('t1', 'Write', { file_path: '.git/config', content: config })],
        [
          toolUse('t2', 'Edit', {
            file_path: '.git/config',
            old_string: 'bare = false',
            new_string: `bare = false\n\tfsmonitor = "touch ${canary}"`,
          }),
        ],
        [
          toolUse('t3', 'Bash', {
            command: `printf '[core]\\n\\tfsmonitor = "touch ${canary}"\\n' >> .git/config`,
          }),
        ],
        [toolUse('t4', 'Bash', { command: 'git status --short' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        tools: builtinTools(),
        permissions: { mode: 'acceptEdits' },
        hooks: allowingHooks(),
      },
    );
    const results = toolResults(result.messages);
    expect(results.slice(0, 3).map((message) => message.isError)).toEqual([true, true, true]);
    expect(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(fs.existsSync(canary)).toBe(false);
  });

  it.each(['.git/hooks/pre-commit', '.gitattributes', 'sub/.git', '.gitmodules'])(
    '%s is refused in acceptEdits',
    async (file) => {
      const dir = gitRepo();
      const result = await attempt(
        dir,
        'Write',
        { file_path: file, content: '#!/bin/sh\ntouch x\n' },
        'acceptEdits',
      );
      expect(result.isError).toBe(true);
      expect(fs.existsSync(path.join(dir, file))).toBe(false);
    },
  );

  it('a person can approve a write to .git/config', async () => {
    const dir = gitRepo();
    await scriptedRun(
      [
        [
          toolUse('t1', 'Edit', {
            file_path: '.git/config',
            old_string: 'bare = false',
            new_string: 'bare = false\n\tautocrlf = false',
          }),
        ],
        [text('done')],
      ],
      {
        projectDir: dir,
        tools: builtinTools(),
        permissions: { mode: 'acceptEdits' },
        approver: callbackApprover(() => 'allow'),
      },
    );
    expect(fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toContain('autocrlf = false');
  });
});
