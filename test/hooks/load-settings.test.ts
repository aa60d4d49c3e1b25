import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, HOOK_EVENT_NAMES } from '../../src/index.js';
import { handlerIdentity, loadSettings, parseSettingsText } from '../../src/hooks/settings/load-settings.js';
import type { HandlerConfig } from '../../src/hooks/settings/settings-schema.js';

let root: string;
let homeDir: string;
let projectDir: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-settings-')));
  homeDir = path.join(root, 'home');
  projectDir = path.join(root, 'ws');
  fs.mkdirSync(homeDir);
  fs.mkdirSync(projectDir);
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function write(file: string, content: unknown): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

const userFile = () => path.join(homeDir, '.claude', 'settings.json');
const projectFile = () => path.join(projectDir, '.claude', 'settings.json');
const localFile = () => path.join(projectDir, '.claude', 'settings.local.json');
/** Trusts the project in `~/.claude.json`, so its settings' allow rules count. */
const trustProject = () =>
  write(path.join(homeDir, '.claude.json'), { projects: { [projectDir]: { hasTrustDialogAccepted: true } } });

/** `{hooks: {UserPromptSubmit: [{hooks: [command src.sh <label>]}]}}`, as in the settings-sources-merge scenario. */
function upsHook(label: string, extra: Record<string, unknown> = {}) {
  return {
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/src.sh ${label}` }] },
      ],
    },
    ...extra,
  };
}

function configError(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('\n');
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadSettings: sources', () => {
  it('merges user, project, local and --settings hooks in that order', () => {
    write(userFile(), upsHook('user', { permissions: { allow: ['Bash(ls)'], defaultMode: 'plan' } }));
    write(
      projectFile(),
      upsHook('project', {
        permissions: { allow: ['Read'], deny: ['Bash(rm *)'], defaultMode: 'acceptEdits' },
      }),
    );
    write(
      localFile(),
      upsHook('local', {
        permissions: { ask: ['Write'], defaultMode: 'dontAsk', additionalDirectories: ['../extra'] },
      }),
    );
    const flag = write(
      path.join(root, 'cli.json'),
      upsHook('cli-settings', { permissions: { allow: ['Edit'] } }),
    );

    trustProject();
    const loaded = loadSettings({ projectDir, homeDir, flagSettings: flag });

    expect(
      loaded.handlers.map((handler) => [
        handler.source.scope,
        handler.source.file,
        handler.config.type === 'command' && handler.config.command,
      ]),
    ).toEqual([
      ['user', userFile(), '"$CLAUDE_PROJECT_DIR"/.claude/hooks/src.sh user'],
      ['project', projectFile(), '"$CLAUDE_PROJECT_DIR"/.claude/hooks/src.sh project'],
      ['local', localFile(), '"$CLAUDE_PROJECT_DIR"/.claude/hooks/src.sh local'],
      ['flag', flag, '"$CLAUDE_PROJECT_DIR"/.claude/hooks/src.sh cli-settings'],
    ]);
    expect(loaded.handlers[0]).toMatchObject({
      event: 'UserPromptSubmit',
      matcher: undefined,
      groupIndex: 0,
      handlerIndex: 0,
    });
    expect(loaded.files).toEqual([userFile(), projectFile(), localFile(), flag]);
    expect(loaded.permissions).toEqual({
      allow: ['Bash(ls)', 'Read', 'Edit'],
      ask: ['Write'],
      deny: ['Bash(rm *)'],
    });
    // Scalars: flag > local > project > user; the flag file does not set defaultMode.
    expect(loaded.defaultMode).toBe('dontAsk');
    expect(loaded.additionalDirectories).toEqual(['../extra']);
    expect(loaded.disableAllHooks).toBe(false);
    expect(loaded.warnings).toEqual([]);
  });

  it('lets --settings win the defaultMode and skips missing files silently', () => {
    write(projectFile(), { permissions: { defaultMode: 'plan' } });
    const loaded = loadSettings({
      projectDir,
      homeDir,
      flagSettings: '{"permissions":{"defaultMode":"bypassPermissions"}}',
    });
    expect(loaded.files).toEqual([projectFile(), '--settings']);
    expect(loaded.defaultMode).toBe('bypassPermissions');
  });

  it('loads nothing when there are no files', () => {
    expect(loadSettings({ projectDir, homeDir })).toEqual({
      handlers: [],
      permissions: { allow: [], ask: [], deny: [] },
      permissionSources: { allow: [], ask: [], deny: [] },
      additionalDirectories: [],
      disableAllHooks: false,
      hookConcurrency: {},
      warnings: [],
      files: [],
    });
  });

  it('reads inline JSON given as --settings, named "--settings"', () => {
    const inline = JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi', timeout: 5 }] }],
      },
    });
    const loaded = loadSettings({ projectDir, homeDir, flagSettings: `  ${inline}` });
    expect(loaded.handlers).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        config: { type: 'command', command: 'echo hi', timeout: 5 },
        source: { file: '--settings', scope: 'flag' },
        groupIndex: 0,
        handlerIndex: 0,
      },
    ]);
    // As in Claude Code, an unreadable `hooks` is left out and the rest of the file counts.
    const lenient = loadSettings({
      projectDir,
      homeDir,
      flagSettings: '{"hooks": 1, "permissions": {"allow": ["Read"]}}',
    });
    expect(lenient.warnings).toEqual([
      '--settings: hooks: expected an object mapping event names to matcher groups, got 1; ignored',
    ]);
    expect(lenient.permissions.allow).toEqual(['Read']);
  });

  it('rejects a --settings value that is neither a file nor JSON', () => {
    const missing = path.join(root, 'nope.json');
    const error = configError(() => loadSettings({ projectDir, homeDir, flagSettings: missing }));
    expect(error.message).toBe(`--settings: no such file: ${missing}`);
  });

  it('reads extra files after --settings, with its precedence', () => {
    const extra = write(path.join(root, 'extra.json'), {
      ...upsHook('extra'),
      permissions: { defaultMode: 'plan' },
    });
    const loaded = loadSettings({
      projectDir,
      homeDir,
      flagSettings: JSON.stringify(upsHook('flag', { permissions: { defaultMode: 'default' } })),
      extraFiles: [extra],
    });
    expect(loaded.handlers.map((handler) => handler.source)).toEqual([
      { file: '--settings', scope: 'flag' },
      { file: extra, scope: 'flag' },
    ]);
    expect(loaded.defaultMode).toBe('plan');
  });

  it('keeps every handler of every group with its indices, without deduplicating', () => {
    write(projectFile(), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'a.sh' },
              { type: 'command', command: 'b.sh' },
            ],
          },
          { matcher: '*', hooks: [{ type: 'command', command: 'a.sh', timeout: 9 }] },
        ],
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is the task done? $ARGUMENTS' }] }],
      },
    });
    const loaded = loadSettings({ projectDir, homeDir });
    expect(
      loaded.handlers.map((handler) => [
        handler.event,
        handler.matcher,
        handler.groupIndex,
        handler.handlerIndex,
      ]),
    ).toEqual([
      ['PreToolUse', 'Bash', 0, 0],
      ['PreToolUse', 'Bash', 0, 1],
      ['PreToolUse', '*', 1, 0],
      ['Stop', undefined, 0, 0],
    ]);
    const [first, , third] = loaded.handlers;
    expect(handlerIdentity(first!.config)).toBe(handlerIdentity(third!.config));
  });
});

describe('loadSettings: disableAllHooks', () => {
  it('disables every hook, including those of --settings, when project settings set it', () => {
    write(userFile(), upsHook('user'));
    write(projectFile(), { disableAllHooks: true, permissions: { allow: ['Read'] } });
    trustProject();
    const loaded = loadSettings({
      projectDir,
      homeDir,
      flagSettings: JSON.stringify(upsHook('cli-settings')),
    });
    expect(loaded.disableAllHooks).toBe(true);
    expect(loaded.handlers).toEqual([]);
    // Only hooks are disabled; permissions still load.
    expect(loaded.permissions.allow).toEqual(['Read']);
  });

  it('is false when a file sets it to false', () => {
    write(projectFile(), { disableAllHooks: false, ...upsHook('project') });
    expect(loadSettings({ projectDir, homeDir }).handlers).toHaveLength(1);
  });
});

describe('parseSettingsText: validation messages', () => {
  const file = '/p/.claude/settings.json';

  it('names an unknown event and lists the valid ones', () => {
    const error = configError(() => parseSettingsText(JSON.stringify({ hooks: { PreTooluse: [] } }), file));
    expect(error.message).toBe(
      `${file}: hooks.PreTooluse: unknown hook event "PreTooluse" (did you mean PreToolUse?); expected one of ${HOOK_EVENT_NAMES.join(', ')}`,
    );
    expect(error.file).toBe(file);
    expect(error.field).toBe('hooks.PreTooluse');
    expect(configError(() => parseSettingsText('{"hooks":{"OnSave":[]}}', file)).message).toMatch(
      /^\/p\/\.claude\/settings\.json: hooks\.OnSave: unknown hook event "OnSave"; expected one of SessionStart, /,
    );
  });

  it('warns about events hookloop does not fire and leaves their handlers out', () => {
    const settings = {
      hooks: {
        CwdChanged: [
          { hooks: [{ type: 'command', command: 'a' }] },
          { hooks: [{ type: 'command', command: 'b' }] },
        ],
        MessageDisplay: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'c' }] }],
      },
    };
    expect(parseSettingsText(JSON.stringify(settings), file).warnings).toEqual([
      `${file}: hooks.CwdChanged: hookloop does not fire CwdChanged; its 2 handler(s) are ignored`,
      `${file}: hooks.MessageDisplay: hookloop does not fire MessageDisplay; its 1 handler(s) are ignored`,
    ]);
    write(projectFile(), settings);
    const loaded = loadSettings({ projectDir, homeDir });
    expect(loaded.handlers.map((handler) => handler.event)).toEqual(['Stop']);
    expect(loaded.warnings).toHaveLength(2);
    expect(loaded.warnings[0]).toMatch(/^\/.*\/ws\/\.claude\/settings\.json: hooks\.CwdChanged: /);
  });

  it('rejects an invalid regex matcher, naming file, field and regex error', () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [] },
          { matcher: '(Write', hooks: [] },
        ],
      },
    });
    const error = configError(() => parseSettingsText(text, file));
    expect(error.message).toMatch(
      /^\/p\/\.claude\/settings\.json: hooks\.PreToolUse\[1\]\.matcher: invalid matcher "\(Write": Invalid regular expression: .*Unterminated group$/,
    );
    expect(error.field).toBe('hooks.PreToolUse[1].matcher');
  });

  // The reason after the position is V8's own text, which differs between Node versions: only
  // the position is pinned here.
  const jsonError = (text: string) => configError(() => parseSettingsText(text, file)).message;

  it('reports malformed JSON with its line and column', () => {
    expect(jsonError('{\n  "hooks": {\n    "PreToolUse": [1,]\n  }\n}\n')).toMatch(
      /^\/p\/\.claude\/settings\.json: invalid JSON at line 3 column 22: \S/,
    );
    expect(jsonError('{\n  "disableAllHooks": true\n  "hooks": {}\n}')).toMatch(
      /: invalid JSON at line 3 column 3: \S/,
    );
    expect(jsonError('{\n  "hooks": {')).toMatch(/: invalid JSON at line 2 column 13: \S/);
    expect(jsonError('{\n  // my hooks\n  "hooks": {}\n}')).toMatch(/: invalid JSON at line 2 column 3: \S/);
    expect(jsonError('{"a": tru}')).toMatch(/: invalid JSON at line 1 column 7: \S/);
    expect(jsonError('{"a": "x\\q"}')).toMatch(/: invalid JSON at line 1 column 10: \S/);
    expect(jsonError('{} x')).toMatch(/: invalid JSON at line 1 column 4: \S/);
  });

  it("keeps the reason to one line without V8's excerpt of the text", () => {
    expect(jsonError('{\n  "hooks": {\n    "PreToolUse": [1,]\n  }\n}\n')).toBe(
      `${file}: invalid JSON at line 3 column 22: Unexpected token ']'`,
    );
  });

  it('leaves a loaded file with malformed JSON out, with one warning naming its path, line and column', () => {
    write(localFile(), '{"hooks": }');
    const loaded = loadSettings({ projectDir, homeDir });
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(
      /^\/.*\/ws\/\.claude\/settings\.local\.json: invalid JSON at line 1 column 11: \S.*; the whole file is ignored$/,
    );
  });

  it('names the JSON path of a field with the wrong type', () => {
    const text = JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] },
    });
    const error = configError(() => parseSettingsText(text, file));
    expect(error.message).toBe(
      `${file}: hooks.PreToolUse[0].hooks[0].timeout: expected a positive number, got "5"`,
    );
    expect(error.field).toBe('hooks.PreToolUse[0].hooks[0].timeout');
  });

  it.each([
    [
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 0 }] }] } },
      'hooks.Stop[0].hooks[0].timeout: expected a positive number, got 0',
    ],
    [
      { hooks: { Stop: [{ hooks: [{ type: 'comand', command: 'x' }] }] } },
      'hooks.Stop[0].hooks[0].type: expected one of "command", "http", "prompt", "agent", "mcp_tool", got "comand"',
    ],
    [
      { hooks: { Stop: [{ hooks: [{ command: 'x' }] }] } },
      'hooks.Stop[0].hooks[0].type: expected one of "command", "http", "prompt", "agent", "mcp_tool", got nothing',
    ],
    [
      { hooks: { Stop: [{ hooks: [{ type: 'command' }] }] } },
      'hooks.Stop[0].hooks[0].command: expected a non-empty string, got nothing',
    ],
    [
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', onFailure: 'deny' }] }] } },
      'hooks.Stop[0].hooks[0].onFailure: expected one of "block", "ignore", got "deny"',
    ],
    [
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', args: ['a', 2] }] }] } },
      'hooks.Stop[0].hooks[0].args[1]: expected a string, got 2',
    ],
    [{ hooks: { Stop: [{ matcher: 3, hooks: [] }] } }, 'hooks.Stop[0].matcher: expected a string, got 3'],
    [{ hooks: { Stop: { hooks: [] } } }, 'hooks.Stop: expected an array of matcher groups, got an object'],
    [
      { hooks: { Stop: [{ hooks: [{ type: 'http', url: 'http://x', headers: { A: 1 } }] }] } },
      'hooks.Stop[0].hooks[0].headers.A: expected a string, got 1',
    ],
    [{ disableAllHooks: 'yes' }, 'disableAllHooks: expected true or false, got "yes"'],
    [{ permissions: { allow: 'Bash' } }, 'permissions.allow: expected an array of strings, got "Bash"'],
    [
      { permissions: { defaultMode: 'yolo' } },
      'permissions.defaultMode: expected one of "default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto", got "yolo"',
    ],
  ])('explains %j', (settings, expected) => {
    expect(configError(() => parseSettingsText(JSON.stringify(settings), file)).message).toBe(
      `${file}: ${expected}`,
    );
  });

  it('counts the other problems in the same one-line message', () => {
    const text = JSON.stringify({ disableAllHooks: 1, permissions: { allow: 2, deny: 3 } });
    expect(configError(() => parseSettingsText(text, file)).message).toBe(
      `${file}: disableAllHooks: expected true or false, got 1 (and 2 more problems)`,
    );
  });

  it('requires a JSON object at the top', () => {
    expect(configError(() => parseSettingsText('[]', file)).message).toBe(
      `${file}: expected a JSON object, got an array`,
    );
  });

  it('accepts an empty file and a byte order mark', () => {
    expect(parseSettingsText(' \n', file).settings).toEqual({});
    expect(parseSettingsText('\uFEFF{"disableAllHooks": true}', file).settings).toEqual({
      disableAllHooks: true,
    });
  });
});

describe('parseSettingsText: a full Claude Code settings file', () => {
  const full = {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    model: 'opus',
    env: { FOO: '1' },
    statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
    enabledPlugins: { 'x@y': true },
    permissions: {
      allow: ['Bash(npm run test:*)'],
      deny: ['Read(./.env)'],
      disableBypassPermissionsMode: 'disable',
      defaultMode: 'acceptEdits',
    },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/pre.sh',
              timeout: 2.5,
              if: 'Bash(git *)',
              onFailure: 'block',
              statusMessage: 'checking',
              futureField: 1,
            },
            {
              type: 'command',
              command: '${CLAUDE_PROJECT_DIR}/.claude/hooks/probe.sh',
              args: ['exec', 'two words', '$HOME'],
            },
            {
              type: 'http',
              url: 'http://127.0.0.1:8800/hook/deny',
              headers: { Authorization: 'Bearer $TOKEN' },
              allowedEnvVars: ['TOKEN'],
              timeout: 3,
            },
            { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS', model: 'haiku', continueOnBlock: true },
            { type: 'mcp_tool', server: 'oracle', tool: 'echo', input: { text: '${tool_input.command}' } },
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: 'Write|Edit',
          hooks: [
            {
              type: 'command',
              command: 'npx prettier --write',
              async: true,
              asyncRewake: false,
              shell: 'bash',
            },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'agent', prompt: 'Verify the tests pass', timeout: 120 }] }],
    },
  };

  it('loads, keeps unknown top-level and permissions keys, and keeps every handler type', () => {
    const { settings, warnings } = parseSettingsText(JSON.stringify(full), 'settings.json');
    expect(warnings).toEqual([]);
    expect(settings['model']).toBe('opus');
    expect(settings['env']).toEqual({ FOO: '1' });
    expect(settings.permissions?.['disableBypassPermissionsMode']).toBe('disable');
    const handlers = settings.hooks?.['PreToolUse']?.[0]?.hooks ?? [];
    expect(handlers.map((handler) => handler.type)).toEqual([
      'command',
      'command',
      'http',
      'prompt',
      'mcp_tool',
    ]);
    // Unknown handler keys are dropped: hookloop never reads them.
    expect(handlers[0]).toEqual({
      type: 'command',
      command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/pre.sh',
      timeout: 2.5,
      if: 'Bash(git *)',
      onFailure: 'block',
      statusMessage: 'checking',
    });
  });

  it('ignores defaultMode "auto" with a warning', () => {
    write(projectFile(), { permissions: { defaultMode: 'acceptEdits' } });
    write(localFile(), { permissions: { defaultMode: 'auto' } });
    const loaded = loadSettings({ projectDir, homeDir });
    expect(loaded.defaultMode).toBe('acceptEdits');
    expect(loaded.warnings).toEqual([
      `${localFile()}: permissions.defaultMode: hookloop has no "auto" mode (it needs Claude Code's classifier); ignored`,
    ]);
  });
});

describe('handlerIdentity', () => {
  const id = (config: HandlerConfig) => handlerIdentity(config);

  it('is the command string, whatever the timeout or other fields', () => {
    expect(id({ type: 'command', command: 'a.sh' })).toBe(
      id({ type: 'command', command: 'a.sh', timeout: 5, if: 'Bash' }),
    );
    expect(id({ type: 'command', command: 'a.sh x' })).not.toBe(id({ type: 'command', command: 'a.sh y' }));
  });

  it('includes args in exec form, so the same script with other args runs separately', () => {
    expect(id({ type: 'command', command: 'a.sh', args: ['x'] })).not.toBe(
      id({ type: 'command', command: 'a.sh', args: ['y'] }),
    );
    expect(id({ type: 'command', command: 'a.sh', args: ['x'] })).toBe(
      id({ type: 'command', command: 'a.sh', args: ['x'], timeout: 1 }),
    );
    expect(id({ type: 'command', command: 'a.sh', args: [] })).not.toBe(
      id({ type: 'command', command: 'a.sh' }),
    );
    expect(id({ type: 'command', command: 'a b', args: [] })).not.toBe(
      id({ type: 'command', command: 'a', args: ['b'] }),
    );
  });

  it('uses the url for http and the prompt text for prompt and agent, never colliding across types', () => {
    expect(id({ type: 'http', url: 'http://x/h' })).toBe(id({ type: 'http', url: 'http://x/h', timeout: 2 }));
    expect(id({ type: 'prompt', prompt: 'ok?' })).toBe(id({ type: 'prompt', prompt: 'ok?', model: 'haiku' }));
    expect(id({ type: 'prompt', prompt: 'ok?' })).not.toBe(id({ type: 'agent', prompt: 'ok?' }));
    expect(id({ type: 'prompt', prompt: 'echo' })).not.toBe(id({ type: 'command', command: 'echo' }));
  });
});
