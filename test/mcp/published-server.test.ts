import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, trustWorkspace, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// A published server used as a user would: @modelcontextprotocol/server-memory, a devDependency
// pinned exactly (its only dependency is the SDK hookloop already has).
const MEMORY_SERVER = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);

describe('a published MCP server (@modelcontextprotocol/server-memory) through the CLI and .mcp.json', () => {
  it('runs its tools under a command hook that denies deletions, with allow rules', () => {
    const dir = tempProject();
    const memory = path.join(dir, 'memory.jsonl');
    writeJson(dir, '.mcp.json', {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: '${MEMORY_AT}' },
        },
      },
    });
    writeJson(dir, '.claude/settings.json', {
      permissions: { allow: ['mcp__memory'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'mcp__memory__delete.*',
            hooks: [{ type: 'command', command: 'echo "deletions are not allowed" >&2; exit 2' }],
          },
        ],
        PostToolUse: [
          {
            matcher: 'mcp__memory__read_graph',
            hooks: [
              { type: 'command', command: 'jq -c .tool_response > "$CLAUDE_PROJECT_DIR/response.json"' },
            ],
          },
        ],
      },
    });
    const turns = [
      [
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'mcp__memory__create_entities',
          input: { entities: [{ name: 'hookloop', entityType: 'project', observations: ['runs hooks'] }] },
        },
      ],
      [
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'mcp__memory__delete_entities',
          input: { entityNames: ['hookloop'] },
        },
      ],
      [{ type: 'tool_use', id: 'toolu_3', name: 'mcp__memory__read_graph', input: {} }],
      [{ type: 'text', text: 'done' }],
    ];
    const requests = path.join(dir, 'requests.jsonl');
    trustWorkspace(dir);
    const run = runCli(
      [
        '-p',
        'go',
        '--model-script',
        writeJson(dir, 'turns.json', turns),
        '--output-format',
        'json',
        '--record-requests',
        requests,
      ],
      dir,
      { MEMORY_AT: memory },
    );
    expect(run.status).toBe(0);
    expect(
      (JSON.parse(run.stdout) as { permission_denials: { tool_name: string }[] }).permission_denials.map(
        (denial) => denial.tool_name,
      ),
    ).toEqual(['mcp__memory__delete_entities']);
    expect(fs.readFileSync(memory, 'utf8')).toContain('"name":"hookloop"');
    const last = JSON.parse(fs.readFileSync(requests, 'utf8').trim().split('\n').at(-1)!) as {
      messages: { content: unknown }[];
    };
    expect(JSON.stringify(last.messages.at(-1))).toContain('runs hooks');
    // Its results carry structuredContent: hooks get that as JSON text, as under Claude Code.
    expect(
      JSON.parse(JSON.parse(fs.readFileSync(path.join(dir, 'response.json'), 'utf8')) as string),
    ).toEqual({
      entities: [{ name: 'hookloop', entityType: 'project', observations: ['runs hooks'] }],
      relations: [],
    });
  });
});
