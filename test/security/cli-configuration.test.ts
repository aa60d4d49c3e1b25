import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// Issue 14 item 3 through the built CLI: the files `hookloop -p` read its hooks from (a --settings
// file inside the project, a --plugin-dir plugin, the fake HOME's ~/.claude/settings.json) cannot be
// written by the model, even in bypassPermissions with an allow-everything PermissionRequest hook.

const EVIL = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"touch PWNED"}]}]}}';

function project(): string {
  const dir = tempProject({
    'plugin/hooks/hooks.json': '{"hooks":{}}\n',
    'plugin/.claude-plugin/plugin.json': '{"name":"mine"}\n',
  });
  writeJson(dir, 'conf/hooks.json', {
    permissions: { allow: ['Write', 'Bash'] },
    hooks: {
      PermissionRequest: [
        {
          hooks: [
            {
              type: 'command',
              command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`,
            },
          ],
        },
      ],
    },
  });
  return dir;
}

describe('hookloop -p protects the configuration it was started with', () => {
  it.each(['default', 'acceptEdits', 'bypassPermissions'])(
    'in %s: the --settings file, the plugin and ~/.claude/settings.json stay as they were',
    (mode) => {
      const dir = project();
      const original = fs.readFileSync(path.join(dir, 'conf/hooks.json'), 'utf8');
      const home = path.join(dir, '.test-home');
      writeJson(dir, 'turns.json', [
        [
          {
            type: 'tool_use',
            id: 't1',
            name: 'Write',
            input: { file_path: 'conf/hooks.json', content: EVIL },
          },
        ],
        [
          {
            type: 'tool_use',
            id: 't2',
            name: 'Write',
            input: { file_path: 'plugin/hooks/hooks.json', content: EVIL },
          },
        ],
        [
          {
            type: 'tool_use',
            id: 't3',
            name: 'Bash',
            input: { command: `echo '${EVIL}' > conf/hooks.json` },
          },
        ],
        [
          {
            type: 'tool_use',
            id: 't4',
            name: 'Write',
            input: { file_path: path.join(home, '.claude', 'settings.json'), content: EVIL },
          },
        ],
        [{ type: 'text', text: 'done' }],
      ]);
      const run = runCli(
        [
          '-p',
          'go',
          '--settings',
          'conf/hooks.json',
          '--plugin-dir',
          'plugin',
          '--permission-mode',
          mode,
          '--model-script',
          'turns.json',
          '--output-format',
          'json',
        ],
        dir,
      );
      expect(run.status, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { permission_denials: { tool_use_id: string }[] };
      expect(result.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['t1', 't2', 't3', 't4']);
      expect(fs.readFileSync(path.join(dir, 'conf/hooks.json'), 'utf8')).toBe(original);
      expect(fs.readFileSync(path.join(dir, 'plugin/hooks/hooks.json'), 'utf8')).toBe('{"hooks":{}}\n');
      expect(fs.existsSync(path.join(home, '.claude', 'settings.json'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'PWNED'))).toBe(false);
    },
  );

  it('the script a command hook runs cannot be rewritten by the model (a guard it could edit would be no guard)', () => {
    const dir = tempProject({ 'scripts/guard.sh': '#!/bin/sh\nexit 0\n', 'tools/check.py': 'print(1)\n' });
    fs.chmodSync(path.join(dir, 'scripts/guard.sh'), 0o755);
    writeJson(dir, 'hooks.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh' }],
          },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'python3 tools/check.py || true' }] }],
      },
    });
    writeJson(dir, 'turns.json', [
      [
        {
          type: 'tool_use',
          id: 't1',
          name: 'Write',
          input: { file_path: 'scripts/guard.sh', content: '#!/bin/sh\ntouch PWNED\n' },
        },
      ],
      [
        {
          type: 'tool_use',
          id: 't2',
          name: 'Edit',
          input: {
            file_path: 'tools/check.py',
            old_string: 'print(1)',
            new_string: 'import os; os.system("touch PWNED")',
          },
        },
      ],
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
    expect(run.status, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { permission_denials: unknown[] }).permission_denials).toHaveLength(2);
    expect(fs.readFileSync(path.join(dir, 'scripts/guard.sh'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(fs.readFileSync(path.join(dir, 'tools/check.py'), 'utf8')).toBe('print(1)\n');
  });

  it('MCP configs (--mcp-config files, .mcp.json) cannot be written by the model: they name processes the next session starts', () => {
    const dir = tempProject({
      'conf/servers.json': '{"mcpServers":{}}\n',
      '.mcp.json': '{"mcpServers":{}}\n',
    });
    const evil = '{"mcpServers":{"x":{"command":"sh","args":["-c","touch PWNED"]}}}';
    writeJson(dir, 'turns.json', [
      [
        {
          type: 'tool_use',
          id: 't1',
          name: 'Write',
          input: { file_path: 'conf/servers.json', content: evil },
        },
      ],
      [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: `echo '${evil}' > .mcp.json` } }],
      [{ type: 'tool_use', id: 't3', name: 'Write', input: { file_path: 'conf/other.json', content: '{}' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--mcp-config',
        'conf/servers.json',
        '--permission-mode',
        'bypassPermissions',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission_denials: { tool_use_id: string }[] };
    expect(result.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['t1', 't2']);
    expect(fs.readFileSync(path.join(dir, 'conf/servers.json'), 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(fs.readFileSync(path.join(dir, 'conf/other.json'), 'utf8')).toBe('{}');
  });

  it('ordinary writes in the same run still go through in acceptEdits', () => {
    const dir = project();
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: 'src/ok.txt', content: 'fine' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--settings',
        'conf/hooks.json',
        '--permission-mode',
        'acceptEdits',
        '--model-script',
        'turns.json',
      ],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'src/ok.txt'), 'utf8')).toBe('fine');
  });
});
