import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { approveProjectServers } from '../../src/cli/approve-project-servers.js';
import { loadMcpConfig } from '../../src/index.js';
import { tempProject } from '../support/scripted-run.js';

/** A terminal that types the next answer whenever a question (`… `) ends the output, then closes. */
function terminal(answers: readonly string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  const queue = [...answers];
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    if (!shown.endsWith('project ')) return;
    const next = queue.shift();
    if (next === undefined) input.end();
    else input.write(`${next}\n`);
  });
  return { input, output, shown: () => shown };
}

describe('interactive approval of .mcp.json servers', () => {
  it('asks per server, starts the approved ones and remembers both answers in settings.local.json', async () => {
    const dir = tempProject({
      '.mcp.json': JSON.stringify({
        mcpServers: {
          yes: { command: 'node', args: ['a.js'] },
          no: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
        },
      }),
      '.claude/settings.local.json': JSON.stringify({ permissions: { allow: ['Read'] } }),
    });
    const config = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true });
    const tty = terminal(['y', 'n']);
    const approved = await approveProjectServers(config.skipped, { ...tty, projectDir: dir });
    expect(approved.map((entry) => [entry.name, entry.source])).toEqual([['yes', 'project']]);
    expect(tty.shown()).toContain('New MCP server found in');
    expect(tty.shown()).toContain('node a.js');
    const settings = JSON.parse(
      fs.readFileSync(path.join(dir, '.claude', 'settings.local.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(settings).toEqual({
      permissions: { allow: ['Read'] },
      enabledMcpjsonServers: ['yes'],
      disabledMcpjsonServers: ['no'],
    });
    // Next time nobody is asked: one approved, one rejected.
    const again = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true });
    expect(again.servers.map((server) => server.name)).toEqual(['yes']);
    expect(again.skipped.map((server) => server.state)).toEqual(['rejected']);
  });

  it('a closed input approves nothing', async () => {
    const dir = tempProject({ '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: 'node' } } }) });
    const config = loadMcpConfig({ projectDir: dir, homeDir: dir, env: {}, interactive: true });
    const tty = terminal([]);
    expect(await approveProjectServers(config.skipped, { ...tty, projectDir: dir })).toEqual([]);
  });
});
