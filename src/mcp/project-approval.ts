import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { describeValue, parseJson } from '../hooks/settings/load-settings.js';

/**
 * Claude Code's approval settings for the servers of a project's `.mcp.json`, merged over the
 * settings files (user, project, local, `--settings`) and the project's entry in `~/.claude.json`:
 * - `enableAllProjectMcpServers`: true in any source approves every server of `.mcp.json`;
 * - `enabledMcpjsonServers`: names approved (union of the sources);
 * - `disabledMcpjsonServers`: names rejected (union; a rejection beats an approval).
 * The checked-in `.claude/settings.json` may reject but not approve: a repository cannot approve
 * its own servers (this matters only interactively; headless, pending servers start anyway).
 */
export interface ProjectApproval {
  readonly enableAll: boolean;
  readonly enabled: ReadonlySet<string>;
  readonly disabled: ReadonlySet<string>;
}

/** What a `.mcp.json` server is under the approval settings: Claude Code's three states. */
export type ApprovalState = 'approved' | 'rejected' | 'pending';

/** The state of one project server. A rejection wins over `enableAllProjectMcpServers` and over a listing in `enabledMcpjsonServers`. */
export function approvalOf(approval: ProjectApproval, name: string): ApprovalState {
  if (approval.disabled.has(name)) return 'rejected';
  if (approval.enableAll || approval.enabled.has(name)) return 'approved';
  return 'pending';
}

/** Where the approval settings are read from. `claudeJson` is the `~/.claude.json` document (already read), if any. */
export interface ApprovalSources {
  readonly projectDir: string;
  readonly homeDir: string;
  /** Claude Code's `--settings` value: inline JSON when it starts with `{`, else a file path. */
  readonly flagSettings?: string;
  readonly claudeJson?: unknown;
}

/**
 * Reads the approval settings. Missing files are skipped; a file that is not JSON is left to the
 * settings loader, which reports it (this reader only looks at the three keys).
 * @throws ConfigError when one of the three keys has the wrong type (one line naming file and field).
 */
export function readProjectApproval(sources: ApprovalSources): ProjectApproval {
  const documents: { label: string; data: unknown; mayApprove?: false }[] = [];
  const checkedIn = path.join(sources.projectDir, '.claude', 'settings.json');
  const files = [
    path.join(sources.homeDir, '.claude', 'settings.json'),
    checkedIn,
    path.join(sources.projectDir, '.claude', 'settings.local.json'),
  ];
  for (const file of files) {
    const data = readJsonQuietly(file);
    if (data !== undefined)
      documents.push({ label: file, data, ...(file === checkedIn ? { mayApprove: false as const } : {}) });
  }
  if (sources.flagSettings !== undefined) {
    const inline = sources.flagSettings.trimStart().startsWith('{');
    const data = inline
      ? safeParse(sources.flagSettings)
      : readJsonQuietly(path.resolve(sources.flagSettings));
    if (data !== undefined) documents.push({ label: inline ? '--settings' : sources.flagSettings, data });
  }
  const projectEntry = projectEntryOf(sources.claudeJson, sources.projectDir);
  if (projectEntry !== undefined)
    documents.push({
      label: `~/.claude.json: projects[${JSON.stringify(sources.projectDir)}]`,
      data: projectEntry,
    });

  let enableAll = false;
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  for (const { label, data, mayApprove } of documents) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) continue;
    const record = data as Record<string, unknown>;
    const all = record['enableAllProjectMcpServers'];
    if (all !== undefined && typeof all !== 'boolean')
      throw new ConfigError(
        `${label}: enableAllProjectMcpServers: expected true or false, got ${describeValue(all)}`,
        { file: label, field: 'enableAllProjectMcpServers' },
      );
    if (all === true && mayApprove !== false) enableAll = true;
    for (const [key, target] of [
      ['enabledMcpjsonServers', enabled],
      ['disabledMcpjsonServers', disabled],
    ] as const) {
      const list = record[key];
      if (list === undefined || (mayApprove === false && key === 'enabledMcpjsonServers')) continue;
      if (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))
        throw new ConfigError(
          `${label}: ${key}: expected an array of server names, got ${describeValue(list)}`,
          { file: label, field: key },
        );
      for (const name of list as string[]) target.add(name);
    }
  }
  return { enableAll, enabled, disabled };
}

/** `projects[<projectDir>]` of `~/.claude.json`: where Claude Code keeps local-scope servers and per-project approvals. */
export function projectEntryOf(claudeJson: unknown, projectDir: string): Record<string, unknown> | undefined {
  if (claudeJson === null || typeof claudeJson !== 'object') return undefined;
  const projects = (claudeJson as Record<string, unknown>)['projects'];
  if (projects === null || typeof projects !== 'object') return undefined;
  const entry = (projects as Record<string, unknown>)[projectDir];
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as Record<string, unknown>)
    : undefined;
}

function readJsonQuietly(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return safeParse(text, file);
}

function safeParse(text: string, label = '--settings'): unknown {
  try {
    return parseJson(text, label);
  } catch {
    return undefined;
  }
}
