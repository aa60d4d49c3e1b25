import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../../errors.js';
import type { PermissionMode, PermissionRules } from '../../permissions/types.js';
import {
  HOOK_EVENT_NAMES,
  REFERENCE_ONLY_EVENTS,
  isHookEventName,
  type HookEventName,
} from '../event-names.js';
import { compileMatcher } from '../matcher.js';
import { mergeSandboxSettings, type SandboxSettings } from '../../sandbox/sandbox-settings.js';
import { parseRule } from '../../permissions/rule.js';
import { closestName } from './closest-name.js';
import type { SettingSource } from './setting-sources.js';
import { readSettingsLeniently, type LenientSettings } from './lenient-settings.js';
import { isTrustedWorkspace, withoutSelfGrants } from './project-trust.js';
import { describeValue, formatPath, valueAt } from './settings-path.js';
import { parseJson } from './settings-json.js';
import { settingsFileSchema, type HandlerConfig, type SettingsFile } from './settings-schema.js';

export { describeValue, formatPath, valueAt } from './settings-path.js';
export { parseJson } from './settings-json.js';

/**
 * Loads Claude Code settings files into one hook and permission configuration:
 * user `~/.claude/settings.json`, project `.claude/settings.json`, local
 * `.claude/settings.local.json`, then `--settings`, in that order. The two files of the repository
 * cannot grant themselves bypassPermissions, and the project file cannot add allow rules or
 * directories until the workspace is trusted (project-trust.ts); each entry left out is a warning.
 */

/**
 * Where a handler was configured. `file` is a path, or `--settings` for inline JSON. Scope `plugin`
 * is a plugin's hooks file (`--plugin-dir`, see hooks/plugins/load-plugin.ts); `plugin` names it.
 */
export interface HookSource {
  readonly file: string;
  readonly scope: 'user' | 'project' | 'local' | 'flag' | 'plugin';
  readonly plugin?: string;
}

/** One handler of one event, with its matcher and its place in the settings (`hooks.<event>[groupIndex].hooks[handlerIndex]`). */
export interface LoadedHandler {
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  readonly config: HandlerConfig;
  readonly source: HookSource;
  readonly groupIndex: number;
  readonly handlerIndex: number;
}

/**
 * The merged configuration.
 * - `handlers`: every handler of every file in source order, not deduplicated (see `handlerIdentity`);
 *   empty when `disableAllHooks` is set. Events hookloop does not fire are left out (with a warning).
 * - `permissions`: rule lists of all files concatenated in source order; `permissionSources`: the
 *   file each rule came from, index for index.
 * - `defaultMode`: the last file that sets it wins (flag > local > project > user).
 * - `additionalDirectories`: concatenated, as written (relative paths are not resolved here).
 * - `disableAllHooks`: true when any file sets it (Claude Code: true in project settings also
 *   disabled the hooks of `--settings`).
 * - `hookConcurrency`: per-event limits on concurrent handlers (hookloop's key); the last file that
 *   sets an event's limit wins. Unknown events are left out with a warning.
 * - `sandbox`: the `sandbox` keys merged (later scalars win, lists concatenated; see mergeSandboxSettings).
 * - `warnings`: one line each, to print; `files`: the sources actually read, in order.
 */
export interface LoadedSettings {
  readonly handlers: readonly LoadedHandler[];
  readonly permissions: PermissionRules;
  readonly permissionSources: PermissionRules;
  readonly defaultMode?: PermissionMode;
  readonly additionalDirectories: readonly string[];
  readonly disableAllHooks: boolean;
  readonly hookConcurrency: Readonly<Partial<Record<HookEventName, number>>>;
  readonly sandbox?: SandboxSettings;
  readonly warnings: readonly string[];
  readonly files: readonly string[];
}

/**
 * - `projectDir`, `homeDir`: absolute; the files are looked up under their `.claude/`.
 * - `flagSettings`: Claude Code's `--settings` value: inline JSON when it starts with `{`, else a
 *   file path (relative to the process cwd).
 * - `extraFiles`: more settings files read after `--settings`, with its scope and precedence.
 */
export interface LoadSettingsOptions {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly flagSettings?: string;
  readonly extraFiles?: readonly string[];
  /** `--setting-sources`: the user/project/local files to read; all three when undefined. */
  readonly settingSources?: readonly SettingSource[];
  /**
   * Claude Code's `~/.claude.json` (default `<homeDir>/.claude.json`), read for whether the project is
   * trusted: until it is, `.claude/settings.json` cannot widen its own permissions (project-trust.ts).
   */
  readonly claudeJsonFile?: string;
}

/** One settings file, validated. `warnings` are one line each, prefixed with the file label. */
export interface ParsedSettings {
  readonly settings: SettingsFile;
  readonly warnings: readonly string[];
}

/**
 * Reads and merges the settings sources (see `LoadedSettings`). Missing user/project/local files
 * are skipped silently; a missing `--settings` file or extra file is an error.
 *
 * @throws ConfigError with a one-line message naming the file and the JSON path of the problem.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const handlers: LoadedHandler[] = [];
  const rules = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
  const ruleSources = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
  const additionalDirectories: string[] = [];
  const warnings: string[] = [];
  const files: string[] = [];
  let defaultMode: PermissionMode | undefined;
  let disableAllHooks = false;
  const hookConcurrency: Partial<Record<HookEventName, number>> = {};
  let sandbox: SandboxSettings | undefined;
  const claudeJsonFile = options.claudeJsonFile ?? path.join(options.homeDir, '.claude.json');
  let trusted: boolean | undefined;

  for (const { source, text } of readSources(options)) {
    const read = readSourceLeniently(text, source);
    files.push(source.file);
    warnings.push(...read.warnings);
    const { guardRules } = read;
    let settings = read.settings;
    if (settings !== undefined && (source.scope === 'project' || source.scope === 'local')) {
      trusted ??= isTrustedWorkspace(options.projectDir, claudeJsonFile);
      const narrowed = withoutSelfGrants(settings, {
        scope: source.scope,
        fileLabel: source.file,
        projectDir: options.projectDir,
        trusted,
        claudeJsonFile,
      });
      settings = narrowed.settings;
      warnings.push(...narrowed.warnings);
    }
    for (const list of ['deny', 'ask'] as const) {
      rules[list].push(...guardRules[list]);
      ruleSources[list].push(...guardRules[list].map(() => source.file));
    }
    if (settings === undefined) continue;
    if (settings.disableAllHooks === true) disableAllHooks = true;
    sandbox = mergeSandboxSettings(sandbox, settings.sandbox);
    const permissions = settings.permissions;
    rules.allow.push(...(permissions?.allow ?? []));
    rules.ask.push(...(permissions?.ask ?? []));
    rules.deny.push(...(permissions?.deny ?? []));
    for (const list of ['allow', 'ask', 'deny'] as const)
      ruleSources[list].push(...(permissions?.[list] ?? []).map(() => source.file));
    additionalDirectories.push(...(permissions?.additionalDirectories ?? []));
    if (permissions?.defaultMode !== undefined && permissions.defaultMode !== 'auto')
      defaultMode = permissions.defaultMode;
    for (const [event, limit] of Object.entries(settings.hookConcurrency ?? {})) {
      if (isHookEventName(event)) hookConcurrency[event] = limit;
      else
        warnings.push(
          `${source.file}: hookConcurrency.${event}: hookloop does not fire ${JSON.stringify(event)}; its limit is ignored`,
        );
    }
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      if (!isHookEventName(event)) continue;
      groups.forEach((group, groupIndex) =>
        group.hooks.forEach((config, kept) => {
          const handlerIndex = read.handlerIndexes[event]?.[groupIndex]?.[kept] ?? kept;
          handlers.push({ event, matcher: group.matcher, config, source, groupIndex, handlerIndex });
        }),
      );
    }
  }
  return {
    handlers: disableAllHooks ? [] : handlers,
    permissions: rules,
    permissionSources: ruleSources,
    ...(defaultMode === undefined ? {} : { defaultMode }),
    additionalDirectories,
    disableAllHooks,
    hookConcurrency,
    ...(sandbox === undefined ? {} : { sandbox }),
    warnings,
    files,
  };
}

/**
 * Parses and validates one settings file's text. `fileLabel` starts every message (a path, or
 * `--settings` for inline JSON). An empty (whitespace-only) text is an empty settings object.
 * Checks: JSON syntax, field types, event names, matcher regexes, permission rules.
 *
 * @throws ConfigError, one line: `<file>: invalid JSON at line L column C: <why>`,
 * `<file>: hooks.PreToolUse[0].hooks[0].timeout: expected a positive number, got "5"`,
 * `<file>: hooks.PreTooluse: unknown hook event "PreTooluse"; …` or an invalid matcher.
 */
export function parseSettingsText(text: string, fileLabel: string): ParsedSettings {
  return parseSettingsData(parseJson(text, fileLabel), fileLabel);
}

/**
 * One source read as a run reads it (lenient-settings.ts): JSON that does not parse leaves the whole
 * file out with a warning, except inline `--settings` JSON, which the user just typed.
 *
 * @throws ConfigError for inline JSON that does not parse, or a deny/ask rule that names no tool.
 */
function readSourceLeniently(text: string, source: HookSource): LenientSettings {
  let data: unknown;
  try {
    data = parseJson(text, source.file);
  } catch (error) {
    if (source.file === '--settings' || !(error instanceof ConfigError)) throw error;
    return {
      settings: undefined,
      guardRules: { deny: [], ask: [] },
      warnings: [`${error.message}; the whole file is ignored`],
      handlerIndexes: {},
    };
  }
  const lenient = readSettingsLeniently(data, source.file);
  if (lenient.settings === undefined) return lenient;
  // What is left is valid, so the strict reading only adds its warnings (events hookloop does not fire, "auto").
  const strict = parseSettingsData(lenient.settings, source.file);
  return { ...lenient, settings: strict.settings, warnings: [...lenient.warnings, ...strict.warnings] };
}

function parseSettingsData(data: unknown, fileLabel: string): ParsedSettings {
  const parsed = settingsFileSchema.safeParse(data);
  if (!parsed.success) throw issueError(parsed.error.issues, data, fileLabel);
  const settings = parsed.data;
  const warnings: string[] = [];
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    const field = formatPath(['hooks', event]);
    if ((REFERENCE_ONLY_EVENTS as readonly string[]).includes(event)) {
      const count = groups.reduce((sum, group) => sum + group.hooks.length, 0);
      warnings.push(
        `${fileLabel}: ${field}: hookloop does not fire ${event}; its ${count} handler(s) are ignored`,
      );
    } else if (!isHookEventName(event)) {
      throw new ConfigError(
        `${fileLabel}: ${field}: unknown hook event ${JSON.stringify(event)}${suggestEvent(event)}; expected one of ${HOOK_EVENT_NAMES.join(', ')}`,
        {
          file: fileLabel,
          field,
        },
      );
    }
    groups.forEach((group, groupIndex) =>
      compileMatcher(group.matcher, { file: fileLabel, field: `${field}[${groupIndex}].matcher` }),
    );
  }
  // A bad rule names this file and its index here, not its place in the merged lists.
  for (const list of ['allow', 'ask', 'deny'] as const) {
    settings.permissions?.[list]?.forEach((rule, index) => {
      try {
        parseRule(rule, `permissions.${list}[${index}]`);
      } catch (error) {
        throw error instanceof ConfigError
          ? new ConfigError(`${fileLabel}: ${error.message}`, {
              file: fileLabel,
              ...(error.field ? { field: error.field } : {}),
            })
          : error;
      }
    });
  }
  if (settings.permissions?.defaultMode === 'auto') {
    warnings.push(
      `${fileLabel}: permissions.defaultMode: hookloop has no "auto" mode (it needs Claude Code's classifier); ignored`,
    );
  }
  return { settings, warnings };
}

/**
 * The key under which the dispatcher runs identical handlers of one event only once (Claude Code
 * dedupes by command string across matcher groups and files, whatever the timeout): the command
 * string for shell form (with the shell when one is named), command + args for exec form, the URL
 * for http, the prompt text for prompt and agent, server + tool + input for mcp_tool. The handler
 * type is part of the key, so a prompt never collides with a command of the same text.
 */
export function handlerIdentity(config: HandlerConfig): string {
  switch (config.type) {
    case 'command':
      if (config.args !== undefined) return `exec ${JSON.stringify([config.command, ...config.args])}`;
      return config.shell === undefined
        ? `command ${config.command}`
        : `command[${config.shell}] ${config.command}`;
    case 'http':
      return `http ${config.url}`;
    case 'prompt':
      return `prompt ${config.prompt}`;
    case 'agent':
      return `agent ${config.prompt}`;
    case 'mcp_tool':
      return `mcp_tool ${JSON.stringify([config.server, config.tool, config.input ?? null])}`;
  }
}

/** The user, project and local settings files `options.settingSources` selects, in precedence order. */
export function settingSourceFiles(options: LoadSettingsOptions): { file: string; scope: SettingSource }[] {
  const all: { file: string; scope: SettingSource }[] = [
    { file: path.join(options.homeDir, '.claude', 'settings.json'), scope: 'user' },
    { file: path.join(options.projectDir, '.claude', 'settings.json'), scope: 'project' },
    { file: path.join(options.projectDir, '.claude', 'settings.local.json'), scope: 'local' },
  ];
  const selected = options.settingSources;
  return selected === undefined ? all : all.filter((entry) => selected.includes(entry.scope));
}

interface SourceText {
  readonly source: HookSource;
  readonly text: string;
}

function readSources(options: LoadSettingsOptions): SourceText[] {
  const sources: SourceText[] = [];
  const optional = (file: string, scope: HookSource['scope']): void => {
    const text = readFile(file, false);
    if (text !== undefined) sources.push({ source: { file, scope }, text });
  };
  for (const { file, scope } of settingSourceFiles(options)) optional(file, scope);
  const flag = options.flagSettings;
  if (flag !== undefined) {
    if (flag.trimStart().startsWith('{')) {
      sources.push({ source: { file: '--settings', scope: 'flag' }, text: flag });
    } else {
      const file = path.resolve(flag);
      const text = readFile(file, true, `--settings: no such file: ${flag}`);
      if (text !== undefined) sources.push({ source: { file, scope: 'flag' }, text });
    }
  }
  for (const extra of options.extraFiles ?? []) {
    const file = path.resolve(extra);
    const text = readFile(file, true, `${file}: no such file`);
    if (text !== undefined) sources.push({ source: { file, scope: 'flag' }, text });
  }
  return sources;
}

/** The file's text; undefined when it does not exist and is optional. */
function readFile(
  file: string,
  required: boolean,
  missingMessage = `${file}: no such file`,
): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === 'ENOENT' || code === 'ENOTDIR';
    if (missing && !required) return undefined;
    if (missing) throw new ConfigError(missingMessage, { file, cause: error });
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`, { file, cause: error });
  }
}

function issueError(issues: z.ZodError['issues'], data: unknown, fileLabel: string): ConfigError {
  const issue = issues[0];
  if (issue === undefined) return new ConfigError(`${fileLabel}: invalid settings`, { file: fileLabel });
  const field = formatPath(issue.path);
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const message = `expected ${issue.message}, got ${describeValue(valueAt(data, issue.path))}${more}`;
  return new ConfigError(field === '' ? `${fileLabel}: ${message}` : `${fileLabel}: ${field}: ${message}`, {
    file: fileLabel,
    field,
  });
}

function suggestEvent(name: string): string {
  const close = closestName(name, [...HOOK_EVENT_NAMES, ...REFERENCE_ONLY_EVENTS]);
  return close === undefined ? '' : ` (did you mean ${close}?)`;
}
