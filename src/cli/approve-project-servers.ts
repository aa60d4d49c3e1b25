import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { SkippedServer } from '../mcp/load-mcp-config.js';
import type { McpServerEntry } from '../mcp/server-config.js';
import { makeDirectorySync } from '../files/make-directory.js';

/**
 * Asks the person at the terminal about each pending `.mcp.json` server, as Claude Code's startup
 * dialog does: `y` uses it, `n` (or an empty answer, or a closed input) leaves it off, `a` uses it
 * and every server of this project from now on. The answers are kept in the project's
 * `.claude/settings.local.json` (`enabledMcpjsonServers`, `disabledMcpjsonServers`,
 * `enableAllProjectMcpServers`), the file Claude Code keeps them in. Returns the approved servers.
 */
export async function approveProjectServers(
  pending: readonly SkippedServer[],
  options: {
    readonly input: NodeJS.ReadableStream;
    readonly output: NodeJS.WritableStream;
    readonly projectDir: string;
  },
): Promise<McpServerEntry[]> {
  const candidates = pending.filter((server) => server.state === 'pending' && server.config !== undefined);
  if (candidates.length === 0) return [];
  const lines = createInterface({ input: options.input, output: options.output });
  const closed = new Promise<'closed'>((resolve) => lines.once('close', () => resolve('closed')));
  const approved: McpServerEntry[] = [];
  const enabled: string[] = [];
  const disabled: string[] = [];
  let all = false;
  try {
    for (const server of candidates) {
      const config = server.config!;
      const what =
        'command' in config
          ? [config.command, ...((config.args as string[] | undefined) ?? [])].join(' ')
          : `${String(config.type)} ${String(config.url)}`;
      options.output.write(
        `\nNew MCP server found in ${server.file}: ${server.name}\n  ${what}\nMCP servers may run code and reach the network; its tool calls still need approval.\n`,
      );
      const reply = all
        ? 'y'
        : await Promise.race([
            lines.question('Use it? [y]es / [n]o / [a]ll servers of this project ', {}),
            closed,
          ]);
      if (reply === 'closed') break;
      const word = reply.trim().toLowerCase();
      if (word === 'a' || word === 'all') all = true;
      if (all || word === 'y' || word === 'yes') {
        enabled.push(server.name);
        approved.push({ name: server.name, config, source: 'project', file: server.file });
      } else disabled.push(server.name);
    }
  } finally {
    lines.close();
  }
  rememberAnswers(path.join(options.projectDir, '.claude', 'settings.local.json'), {
    enabled,
    disabled,
    all,
  });
  return approved;
}

/** Adds the answers to `settings.local.json`, keeping everything else in it. A file that is not a JSON object is left alone. */
function rememberAnswers(
  file: string,
  answers: { enabled: readonly string[]; disabled: readonly string[]; all: boolean },
): void {
  let settings: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return;
    settings = parsed as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  const merge = (key: string, names: readonly string[]) => {
    if (names.length === 0) return;
    const existing = Array.isArray(settings[key])
      ? (settings[key] as unknown[]).filter((name): name is string => typeof name === 'string')
      : [];
    settings[key] = [...new Set([...existing, ...names])];
  };
  merge('enabledMcpjsonServers', answers.enabled);
  merge('disabledMcpjsonServers', answers.disabled);
  if (answers.all) settings['enableAllProjectMcpServers'] = true;
  makeDirectorySync(path.dirname(file));
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}
