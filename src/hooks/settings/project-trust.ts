import fs from 'node:fs';
import type { SettingsFile } from './settings-schema.js';

/**
 * What a project's own settings may not grant itself. A repository carries `.claude/settings.json`
 * with it, so cloning one must not hand its author more power than the person running the agent
 * gave. Measured on Claude Code 2.1.328 (headless, `-p`):
 * - `permissions.defaultMode: "bypassPermissions"` is ignored in `.claude/settings.json` and in
 *   `.claude/settings.local.json`, trusted or not; user settings and `--settings` still turn it on.
 *   Every other mode (`acceptEdits`, `plan`, …) is honoured from either file.
 * - `permissions.allow` and `permissions.additionalDirectories` of `.claude/settings.json` are ignored
 *   until the workspace is trusted: `projects["<dir>"].hasTrustDialogAccepted: true` in
 *   `~/.claude.json`, for the exact directory (a trusted parent does not count). The same keys in
 *   `.claude/settings.local.json` and in user settings count without it.
 * - `deny` and `ask` rules and hooks of the project file always count: they only narrow.
 */

/** The scopes whose files live in the repository and so may have come with it. */
type ProjectScope = 'project' | 'local';

/**
 * Whether `projectDir` is a trusted workspace: `claudeJsonFile` (Claude Code's `~/.claude.json`)
 * has `projects[projectDir].hasTrustDialogAccepted === true`, under the path as given or its real
 * path. A missing or unreadable file, or one that is not JSON, means untrusted (fails closed); never throws.
 */
export function isTrustedWorkspace(projectDir: string, claudeJsonFile: string): boolean {
  let document: unknown;
  try {
    document = JSON.parse(fs.readFileSync(claudeJsonFile, 'utf8'));
  } catch {
    return false;
  }
  const projects = isObject(document) ? document['projects'] : undefined;
  if (!isObject(projects)) return false;
  const keys = new Set([projectDir]);
  try {
    keys.add(fs.realpathSync(projectDir));
  } catch {
    // A project folder that cannot be resolved is looked up as given only.
  }
  return [...keys].some((key) => {
    const entry = projects[key];
    return isObject(entry) && entry['hasTrustDialogAccepted'] === true;
  });
}

/** Where one file of the repository was read from, and how far the workspace is trusted. */
export interface SelfGrantContext {
  /** `project` is `.claude/settings.json`, `local` is `.claude/settings.local.json`. */
  readonly scope: ProjectScope;
  readonly fileLabel: string;
  readonly projectDir: string;
  /** `isTrustedWorkspace(projectDir, claudeJsonFile)`. */
  readonly trusted: boolean;
  readonly claudeJsonFile: string;
}

/**
 * `settings` without what a file in the repository may not grant itself (see the file comment), and
 * one warning line per field left out, each starting with the file label and the field. Never throws.
 */
export function withoutSelfGrants(
  settings: SettingsFile,
  context: SelfGrantContext,
): { settings: SettingsFile; warnings: string[] } {
  const permissions = settings.permissions;
  if (permissions === undefined) return { settings, warnings: [] };
  const warnings: string[] = [];
  const kept = { ...permissions };
  const label = context.fileLabel;
  if (permissions.defaultMode === 'bypassPermissions') {
    delete kept.defaultMode;
    warnings.push(
      `${label}: permissions.defaultMode: "bypassPermissions" is ignored in a project's settings; turn it on in user settings, --settings or --permission-mode`,
    );
  }
  if (context.scope === 'project' && !context.trusted) {
    for (const field of ['allow', 'additionalDirectories'] as const) {
      const entries = permissions[field];
      if (entries === undefined || entries.length === 0) continue;
      delete kept[field];
      const count = `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`;
      warnings.push(
        `${label}: permissions.${field}: ${count} ignored: a checked-in project file cannot widen its own permissions while the workspace is not trusted (trusted = projects[${JSON.stringify(context.projectDir)}].hasTrustDialogAccepted: true in ${context.claudeJsonFile}, as Claude Code's trust dialog writes it); .claude/settings.local.json may set them`,
      );
    }
  }
  return { settings: { ...settings, permissions: kept }, warnings };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
