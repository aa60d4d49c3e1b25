import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookEngine, registerSettingsHandlers } from '../../src/index.js';
import { loadHookSetup } from '../../src/hooks/plugins/hook-setup.js';
import { loadPlugin, loadPlugins } from '../../src/hooks/plugins/load-plugin.js';
import { tempProject } from '../support/scripted-run.js';

const guardHooks = {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh' }] },
    ],
  },
};

function plugin(files: Record<string, unknown>): { root: string; home: string } {
  const root = tempProject(
    Object.fromEntries(
      Object.entries(files).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    ),
  );
  return { root, home: tempProject() };
}

describe('loadPlugin', () => {
  it('reads plugin.json and hooks/hooks.json, substituting ${CLAUDE_PLUGIN_ROOT} and giving the plugin env', () => {
    const { root, home } = plugin({
      '.claude-plugin/plugin.json': { name: 'guard', version: '1.0.0', author: { name: 'x' } },
      'hooks/hooks.json': guardHooks,
    });
    const loaded = loadPlugin(root, { homeDir: home });
    const dataDir = path.join(home, '.claude/plugins/data/guard-inline');
    expect(loaded).toMatchObject({
      name: 'guard',
      root,
      dataDir,
      manifestFile: path.join(root, '.claude-plugin/plugin.json'),
      hookFiles: [path.join(root, 'hooks/hooks.json')],
      warnings: [],
    });
    expect(loaded.handlers).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        config: { type: 'command', command: `${root}/hooks/guard.sh` },
        source: { file: path.join(root, 'hooks/hooks.json'), scope: 'plugin', plugin: 'guard' },
        groupIndex: 0,
        handlerIndex: 0,
        env: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir },
      },
    ]);
    expect(fs.statSync(dataDir).isDirectory()).toBe(true);
  });

  it('names a plugin without a manifest after its directory, and leaves the data directory alone when asked', () => {
    const { root, home } = plugin({ 'hooks/hooks.json': guardHooks });
    const loaded = loadPlugin(root, { homeDir: home, createDataDir: false });
    expect(loaded.name).toBe(path.basename(root));
    expect(loaded.manifestFile).toBeUndefined();
    expect(fs.existsSync(loaded.dataDir)).toBe(false);
  });

  it('adds hook files and inline hooks named by the manifest, each file once', () => {
    const { root, home } = plugin({
      '.claude-plugin/plugin.json': {
        name: 'multi',
        hooks: [
          './hooks/hooks.json',
          './extra/more.json',
          { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] },
        ],
      },
      'hooks/hooks.json': guardHooks,
      'extra/more.json': {
        hooks: {
          PostToolUse: [
            { hooks: [{ type: 'command', command: 'echo post', args: ['${CLAUDE_PLUGIN_DATA}/log'] }] },
          ],
        },
      },
    });
    const loaded = loadPlugin(root, { homeDir: home });
    expect(
      loaded.handlers.map((handler) => [
        handler.event,
        handler.config.type === 'command' ? [handler.config.command, handler.config.args] : undefined,
      ]),
    ).toEqual([
      ['PreToolUse', [`${root}/hooks/guard.sh`, undefined]],
      ['PostToolUse', ['echo post', [`${loaded.dataDir}/log`]]],
      ['Stop', ['echo stop', undefined]],
    ]);
    expect(loaded.hookFiles).toEqual([
      path.join(root, 'hooks/hooks.json'),
      path.join(root, 'extra/more.json'),
      path.join(root, '.claude-plugin/plugin.json'),
    ]);
    expect(loaded.warnings).toEqual([
      `${path.join(root, '.claude-plugin/plugin.json')}: hooks: hooks/hooks.json is read anyway; listing it again loads it once`,
    ]);
  });

  const errors: { name: string; files: Record<string, unknown>; message: (root: string) => string }[] = [
    {
      name: 'a directory that is not a plugin',
      files: { 'README.md': 'x' },
      message: (root) =>
        `--plugin-dir ${root}: not a plugin: found neither .claude-plugin/plugin.json nor hooks/hooks.json`,
    },
    {
      name: 'invalid JSON in the manifest',
      files: { '.claude-plugin/plugin.json': '{"name": }' },
      message: (root) => `${root}/.claude-plugin/plugin.json: invalid JSON at line 1 column 10`,
    },
    {
      name: 'a manifest name of the wrong type',
      files: { '.claude-plugin/plugin.json': { name: 42 } },
      message: (root) =>
        `${root}/.claude-plugin/plugin.json: name: expected a plugin name (kebab-case, e.g. "my-guard"), got 42`,
    },
    {
      name: 'a name with a space',
      files: { '.claude-plugin/plugin.json': { name: 'my guard' } },
      message: (root) =>
        `${root}/.claude-plugin/plugin.json: name: expected a plugin name without spaces or slashes (kebab-case, e.g. "my-guard"), got "my guard"`,
    },
    {
      name: 'a hook file the manifest names but that is missing',
      files: { '.claude-plugin/plugin.json': { name: 'p', hooks: './nope.json' } },
      message: (root) => `${root}/.claude-plugin/plugin.json: hooks: no such file: ${root}/nope.json`,
    },
    {
      name: 'events outside the "hooks" key',
      files: { 'hooks/hooks.json': guardHooks.hooks },
      message: (root) =>
        `${root}/hooks/hooks.json: PreToolUse: hook events belong under a top-level "hooks" key`,
    },
    {
      name: 'a handler field of the wrong type',
      files: {
        'hooks/hooks.json': {
          hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] },
        },
      },
      message: (root) =>
        `${root}/hooks/hooks.json: hooks.PreToolUse[0].hooks[0].timeout: expected a positive number, got "5"`,
    },
    {
      name: 'an unknown event',
      files: { 'hooks/hooks.json': { hooks: { PreTooluse: [] } } },
      message: (root) =>
        `${root}/hooks/hooks.json: hooks.PreTooluse: unknown hook event "PreTooluse" (did you mean PreToolUse?)`,
    },
  ];
  for (const { name, files, message } of errors) {
    it(`names the file and field for ${name}`, () => {
      const { root, home } = plugin(files);
      expect(() => loadPlugin(root, { homeDir: home })).toThrow(message(root));
    });
  }

  it('refuses a missing directory and two plugins of one name', () => {
    const { root, home } = plugin({ '.claude-plugin/plugin.json': { name: 'same' } });
    const twin = tempProject({ '.claude-plugin/plugin.json': JSON.stringify({ name: 'same' }) });
    expect(() => loadPlugin(path.join(root, 'missing'), { homeDir: home })).toThrow(
      `--plugin-dir ${path.join(root, 'missing')}: no such directory`,
    );
    expect(() => loadPlugins([root, twin], { homeDir: home })).toThrow(
      `--plugin-dir ${twin}: a plugin named "same" is already loaded from ${root}`,
    );
  });
});

describe('plugins with settings', () => {
  it('come after the settings handlers, are dropped by disableAllHooks, and dedupe with identical settings commands', async () => {
    const { root, home } = plugin({
      '.claude-plugin/plugin.json': { name: 'logger' },
      'hooks/hooks.json': {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'command', command: 'echo $CLAUDE_PLUGIN_ROOT >> "$CLAUDE_PROJECT_DIR/ran.log"' },
              ],
            },
          ],
        },
      },
    });
    const project = tempProject({
      'settings.json': JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'echo $CLAUDE_PLUGIN_ROOT >> "$CLAUDE_PROJECT_DIR/ran.log"' },
              ],
            },
          ],
        },
      }),
    });
    const setup = loadHookSetup({
      projectDir: project,
      homeDir: home,
      flagSettings: path.join(project, 'settings.json'),
      pluginDirs: [root],
    });
    expect(setup.handlers.map((handler) => handler.source.scope)).toEqual(['flag', 'plugin']);

    const engine = new HookEngine();
    registerSettingsHandlers(engine, setup.handlers, project);
    const payload = {
      session_id: 's',
      transcript_path: '/t',
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    } as const;
    const result = await engine.fire('PreToolUse', payload);
    expect(result.outcomes).toHaveLength(1);
    // The settings handler ran (it came first), so the plugin's environment was not set.
    expect(fs.readFileSync(path.join(project, 'ran.log'), 'utf8')).toBe('\n');
    await engine.fire('PreToolUse', { ...payload, tool_name: 'Read' });
    expect(fs.readFileSync(path.join(project, 'ran.log'), 'utf8')).toBe(`\n${root}\n`);

    fs.writeFileSync(path.join(project, 'disable.json'), JSON.stringify({ disableAllHooks: true }));
    expect(
      loadHookSetup({
        projectDir: project,
        homeDir: home,
        flagSettings: path.join(project, 'disable.json'),
        pluginDirs: [root],
      }).handlers,
    ).toEqual([]);
  });
});
