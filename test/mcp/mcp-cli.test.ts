import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url));

/** A model script: the given tool calls, one per turn, then "done". */
function script(dir: string, calls: { name: string; input: Record<string, unknown> }[]): string {
  const turns = [
    ...calls.map((call, index) => [
      { type: 'tool_use', id: `toolu_${index + 1}`, name: call.name, input: call.input },
    ]),
    [{ type: 'text', text: 'done' }],
  ];
  return writeJson(dir, 'turns.json', turns);
}

const serverConfig = (log: string) => ({
  mcpServers: { test: { command: process.execPath, args: [SERVER], env: { CALL_LOG: log } } },
});

function calls(log: string): string[] {
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

describe('hookloop -p with MCP servers', () => {
  it('runs a project .mcp.json server under a PreToolUse command hook (matcher mcp__test__.*) and deny rules', () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    writeJson(dir, '.mcp.json', serverConfig(log));
    writeJson(dir, '.claude/settings.json', {
      permissions: { allow: ['mcp__test'], deny: ['mcp__test__danger'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'mcp__test__.*',
            hooks: [
              {
                type: 'command',
                command: `jq -e '.tool_name == "mcp__test__image"' >/dev/null && { echo "no images" >&2; exit 2; }; exit 0`,
              },
            ],
          },
        ],
      },
    });
    const turns = script(dir, [
      { name: 'mcp__test__echo', input: { text: 'hi' } },
      { name: 'mcp__test__image', input: {} },
      { name: 'mcp__test__danger', input: {} },
    ]);
    trustWorkspace(dir);
    const run = runCli(['-p', 'go', '--model-script', turns, '--output-format', 'json'], dir);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { permission_denials: { tool_name: string }[] };
    // The deny rule leaves mcp__test__danger out of the session ("No such tool available"), not a refusal.
    expect(result.permission_denials.map((denial) => denial.tool_name)).toEqual(['mcp__test__image']);
    expect(calls(log)).toEqual(['echo']);
  });

  it('--strict-mcp-config ignores .mcp.json; --mcp-config inline JSON adds servers', () => {
    const dir = tempProject();
    const projectLog = path.join(dir, 'project.log');
    const flagLog = path.join(dir, 'flag.log');
    writeJson(dir, '.mcp.json', { mcpServers: { proj: serverConfig(projectLog).mcpServers.test } });
    const turns = script(dir, [
      { name: 'mcp__flag__echo', input: { text: 'x' } },
      { name: 'mcp__proj__echo', input: { text: 'y' } },
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        turns,
        '--strict-mcp-config',
        '--mcp-config',
        JSON.stringify({ mcpServers: { flag: serverConfig(flagLog).mcpServers.test } }),
        '--allowedTools',
        'mcp__flag',
        'mcp__proj',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(calls(flagLog)).toEqual(['echo']);
    expect(fs.existsSync(projectLog)).toBe(false);
  });

  it('disabledMcpjsonServers keeps a project server off, even with enableAllProjectMcpServers', () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    writeJson(dir, '.mcp.json', serverConfig(log));
    writeJson(dir, '.claude/settings.local.json', {
      enableAllProjectMcpServers: true,
      disabledMcpjsonServers: ['test'],
      permissions: { allow: ['mcp__test'] },
    });
    const turns = script(dir, [{ name: 'mcp__test__echo', input: { text: 'x' } }]);
    const run = runCli(['-p', 'go', '--model-script', turns], dir);
    expect(run.status).toBe(0);
    expect(calls(log)).toEqual([]);
  });

  it('a bad config is one line naming the file and field, exit 2', () => {
    const dir = tempProject();
    writeJson(dir, '.mcp.json', { mcpServers: { test: { type: 'http' } } });
    const run = runCli(['-p', 'go', '--model-script', script(dir, [])], dir);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `hookloop: ${path.join(dir, '.mcp.json')}: mcpServers.test.url: expected a string, got nothing`,
    ]);
  });

  it('user-scope servers in $CLAUDE_CONFIG_DIR/.claude.json, with ${VAR:-default} expansion', () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const configDir = path.join(dir, 'cfg');
    writeJson(configDir, '.claude.json', {
      mcpServers: {
        user: { command: '${NODE_BIN}', args: [SERVER], env: { CALL_LOG: '${MISSING_LOG:-' + log + '}' } },
      },
    });
    const turns = script(dir, [{ name: 'mcp__user__echo', input: { text: 'x' } }]);
    const run = runCli(['-p', 'go', '--model-script', turns, '--allowedTools', 'mcp__user__echo'], dir, {
      CLAUDE_CONFIG_DIR: configDir,
      NODE_BIN: process.execPath,
    });
    expect(run.status).toBe(0);
    expect(calls(log)).toEqual(['echo']);
  });

  it('an mcp_tool hook handler calls the server with ${tool_input.x} substituted', () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    writeJson(dir, 'servers.json', serverConfig(log));
    writeJson(dir, 'hooks.json', {
      permissions: { allow: ['mcp__test__echo'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'mcp__test__echo',
            hooks: [
              { type: 'mcp_tool', server: 'test', tool: 'echo', input: { text: '${tool_input.text}' } },
            ],
          },
        ],
      },
    });
    const turns = script(dir, [{ name: 'mcp__test__echo', input: { text: 'from-model' } }]);
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        turns,
        '--mcp-config',
        'servers.json',
        '--settings',
        'hooks.json',
        '--verbose',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(calls(log)).toEqual(['echo', 'echo']);
    expect(run.stderr).not.toContain('skipped');
  });

  it('an mcp_tool hook counts JSON text as output and plain text as "<Event> completed"; on SessionStart (startup) it reaches no server, as in Claude Code', () => {
    const dir = tempProject();
    const log = path.join(dir, 'raw.log');
    const RAW = fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url));
    writeJson(dir, 'servers.json', {
      mcpServers: { raw: { command: process.execPath, args: [RAW], env: { SRV_LOG: log } } },
    });
    const verbatim = (text: string) => ({
      type: 'mcp_tool',
      server: 'raw',
      tool: 'verbatim',
      input: { text },
    });
    writeJson(dir, 'hooks.json', {
      hooks: {
        SessionStart: [{ hooks: [verbatim('AT-STARTUP')] }],
        UserPromptSubmit: [
          {
            hooks: [
              verbatim(
                '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CTX-FROM-MCP"}}',
              ),
            ],
          },
          { hooks: [verbatim('PLAIN-FROM-MCP')] },
        ],
      },
    });
    const requests = path.join(dir, 'requests.jsonl');
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        script(dir, []),
        '--mcp-config',
        'servers.json',
        '--settings',
        'hooks.json',
        '--record-requests',
        requests,
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const first = fs.readFileSync(requests, 'utf8').split('\n')[0]!;
    expect(first).toContain('UserPromptSubmit hook additional context: CTX-FROM-MCP');
    expect(first).toContain('UserPromptSubmit hook success: UserPromptSubmit completed');
    expect(first).not.toContain('PLAIN-FROM-MCP');
    expect(first).not.toContain('AT-STARTUP');
    expect(fs.readFileSync(log, 'utf8')).not.toContain('AT-STARTUP');
  });

  it('a plugin .mcp.json server (with ${CLAUDE_PLUGIN_ROOT}) is offered as mcp__plugin_<plugin>_<server>__<tool>', () => {
    const dir = tempProject();
    const log = path.join(dir, 'calls.log');
    const plugin = path.join(dir, 'plug');
    fs.mkdirSync(plugin);
    fs.copyFileSync(SERVER, path.join(plugin, 'server.mjs'));
    writeJson(plugin, '.claude-plugin/plugin.json', { name: 'kit' });
    writeJson(plugin, '.mcp.json', {
      mcpServers: {
        tools: {
          command: process.execPath,
          args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'],
          env: { CALL_LOG: log },
        },
      },
    });
    // The copied server imports the SDK: let it find this checkout's node_modules.
    fs.symlinkSync(
      fileURLToPath(new URL('../../node_modules', import.meta.url)),
      path.join(plugin, 'node_modules'),
    );
    const turns = script(dir, [{ name: 'mcp__plugin_kit_tools__echo', input: { text: 'x' } }]);
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        turns,
        '--plugin-dir',
        'plug',
        '--allowedTools',
        'mcp__plugin_kit_tools',
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(calls(log)).toEqual(['echo']);
  });
});

describe('Elicitation command hooks', () => {
  it('a hook that exits 2 declines the elicitation', () => {
    const dir = tempProject();
    writeJson(dir, 'servers.json', { mcpServers: { test: { command: process.execPath, args: [SERVER] } } });
    writeJson(dir, 'hooks.json', {
      permissions: { allow: ['mcp__test__ask'] },
      hooks: {
        Elicitation: [{ matcher: 'test', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }],
      },
    });
    const turns = script(dir, [{ name: 'mcp__test__ask', input: {} }]);
    const requests = path.join(dir, 'requests.jsonl');
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        turns,
        '--mcp-config',
        'servers.json',
        '--settings',
        'hooks.json',
        '--record-requests',
        requests,
      ],
      dir,
    );
    expect(run.status).toBe(0);
    expect(fs.readFileSync(requests, 'utf8')).toContain('ELICITATION-RESULT:{\\"action\\":\\"decline\\"}');
  });
});

describe('hookloop mcp list', () => {
  it('shows each server, its source, state and tools; a server that fails is reported and the exit code is 1', () => {
    const dir = tempProject();
    writeJson(dir, '.mcp.json', {
      mcpServers: {
        test: { command: process.execPath, args: [SERVER] },
        off: { command: 'x' },
        broken: { command: path.join(dir, 'missing-binary') },
      },
    });
    writeJson(dir, '.claude/settings.local.json', { disabledMcpjsonServers: ['off'] });
    const run = runCli(['mcp', 'list'], dir);
    expect(run.status).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines).toContain(`test (project, ${path.join(dir, '.mcp.json')}): connected`);
    expect(lines).toContain('  mcp__test__echo  Echo text back');
    expect(run.stdout).toMatch(/^broken \(project, .*\): failed - /m);
    expect(lines).toContain(
      `off (project, ${path.join(dir, '.mcp.json')}): rejected - listed in disabledMcpjsonServers`,
    );
  });

  it('--json', () => {
    const dir = tempProject();
    const run = runCli(
      [
        'mcp',
        'list',
        '--json',
        '--mcp-config',
        JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } }),
      ],
      dir,
    );
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      servers: { name: string; source: string; state: string; tools: { name: string }[] }[];
    };
    expect(report.servers[0]).toMatchObject({ name: 'test', source: 'dynamic', state: 'connected' });
    expect(report.servers[0]!.tools.map((tool) => tool.name)).toContain('mcp__test__fail');
  });
});

describe('hookloop hooks validate checks MCP configs', () => {
  it('reports every bad server of .mcp.json with its field, and passes a good one', () => {
    const dir = tempProject();
    writeJson(dir, '.mcp.json', {
      mcpServers: { good: { command: 'node' }, noUrl: { type: 'http' }, badType: { type: 'ws', url: 'x' } },
    });
    const run = runCli(['hooks', 'validate'], dir);
    expect(run.status).toBe(1);
    const file = path.join(dir, '.mcp.json');
    expect(run.stdout).toContain(`error: ${file}: mcpServers.noUrl.url: expected a string, got nothing`);
    expect(run.stdout).toContain(
      `error: ${file}: mcpServers.badType.type: expected "stdio", "http" or "sse", got "ws"`,
    );
    writeJson(dir, '.mcp.json', { mcpServers: { good: { command: 'node' } } });
    expect(runCli(['hooks', 'validate'], dir).status).toBe(0);
  });
});
