import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, describeError } from '../errors.js';
import { parseJson } from '../hooks/settings/load-settings.js';
import { parseServerConfig } from './server-config.js';

/** One finding about an MCP config file, in the shape of `hookloop hooks validate`'s problems. */
export interface McpConfigProblem {
  readonly severity: 'error' | 'warning';
  readonly file: string;
  readonly path: string;
  readonly message: string;
}

/** True for the files that hold MCP servers: `.mcp.json` (project, plugin) and `.claude.json` (user scope). */
export function isMcpConfigFile(file: string): boolean {
  const name = path.basename(file);
  return name === '.mcp.json' || name === '.claude.json';
}

/**
 * Every problem of one MCP config file (the loader stops at the first): JSON syntax, the shape of
 * `mcpServers`, each server's fields, and an unset `${VAR}` is left to the run (it may be set then).
 * `~/.claude.json` is checked only for its `mcpServers` and `projects[dir].mcpServers`.
 */
export function validateMcpConfigFile(file: string): McpConfigProblem[] {
  let document: unknown;
  try {
    document = parseJson(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    return [{ severity: 'error', file, path: '', message: describeError(error).replace(`${file}: `, '') }];
  }
  const problems: McpConfigProblem[] = [];
  const check = (servers: unknown, where: string) => {
    if (servers === undefined) return;
    if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
      problems.push({
        severity: 'error',
        file,
        path: where,
        message: 'expected an object of servers by name',
      });
      return;
    }
    for (const [name, config] of Object.entries(servers)) {
      try {
        parseServerConfig(config, file, `${where}.${name}`);
      } catch (error) {
        const field = error instanceof ConfigError ? (error.field ?? '') : '';
        problems.push({
          severity: 'error',
          file,
          path: field,
          message: describeError(error).replace(`${file}: ${field}: `, ''),
        });
      }
    }
  };
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return [{ severity: 'error', file, path: '', message: 'expected a JSON object with "mcpServers"' }];
  const record = document as Record<string, unknown>;
  check(record['mcpServers'], 'mcpServers');
  if (
    path.basename(file) === '.claude.json' &&
    record['projects'] !== null &&
    typeof record['projects'] === 'object'
  ) {
    for (const [dir, entry] of Object.entries(record['projects'] as Record<string, unknown>)) {
      if (entry !== null && typeof entry === 'object')
        check(
          (entry as Record<string, unknown>)['mcpServers'],
          `projects[${JSON.stringify(dir)}].mcpServers`,
        );
    }
  }
  return problems;
}
