import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, describeError } from '../../errors.js';
import { HOOK_EVENT_NAMES, isHookEventName, REFERENCE_ONLY_EVENTS, TOOL_EVENTS } from '../../hooks/event-names.js';
import { compileMatcher } from '../../hooks/matcher.js';
import { pluginManifestSchema } from '../../hooks/plugins/plugin-schema.js';
import { describeValue, formatPath, parseJson, valueAt } from '../../hooks/settings/load-settings.js';
import { agentHandlerSchema, commandHandlerSchema, httpHandlerSchema, mcpToolHandlerSchema, promptHandlerSchema, settingsFileSchema, type CommandHandlerConfig } from '../../hooks/settings/settings-schema.js';
import { parseRule } from '../../permissions/rule.js';
import { checkCommand, type CommandContext } from './check-command.js';
import { KNOWN_TOOL_NAMES } from './known-tools.js';

/**
 * `hookloop hooks validate`: every problem of settings files, hooks files and plugin directories at
 * once (the loader stops at the first), each with its file and JSON path: schema errors with what
 * was expected and what was found, unknown events, matchers that are not valid regexes, `if` rules
 * that do not parse, command hooks whose program is missing or not executable. Warnings cover what
 * loads but will not do what it seems to: events hookloop does not fire, `if` on an event that
 * never evaluates it, a matcher that differs from a tool name only in case, unknown handler fields.
 */

/** One finding. `path` is the JSON path inside `file` ('' = the whole file). */
export interface ValidationProblem {
  readonly severity: 'error' | 'warning';
  readonly file: string;
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly got?: string;
}

/** The `--json` answer; `ok` is false when there is an error. */
export interface ValidationReport {
  readonly ok: boolean;
  readonly files: readonly string[];
  readonly problems: readonly ValidationProblem[];
}

/** What a file's commands are checked against (see check-command.ts). */
export type ValidationContext = Omit<CommandContext, 'pluginRoot' | 'pluginData'>;

/** What to check: settings or hooks files, inline `--settings` JSON, and plugin directories. */
export interface ValidationTargets {
  readonly files: readonly string[];
  readonly inlineSettings?: string;
  readonly pluginDirs: readonly string[];
}

const HANDLER_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  [commandHandlerSchema, httpHandlerSchema, promptHandlerSchema, agentHandlerSchema, mcpToolHandlerSchema].map((schema) => [
    schema.shape.type.value,
    new Set(Object.keys(schema.shape)),
  ]),
);

/** Checks every target; a file named in `files` that is a directory (or a `.claude-plugin/plugin.json`) is checked as a plugin. */
export async function validateTargets(targets: ValidationTargets, context: ValidationContext): Promise<ValidationReport> {
  const problems: ValidationProblem[] = [];
  const files: string[] = [];
  const pluginDirs: string[] = [];
  for (const target of targets.files) {
    const file = path.resolve(target);
    if (isDirectory(file)) pluginDirs.push(file);
    else if (file.endsWith(path.join('.claude-plugin', 'plugin.json'))) pluginDirs.push(path.dirname(path.dirname(file)));
    else {
      files.push(file);
      problems.push(...(await validateFile(file, context)));
    }
  }
  if (targets.inlineSettings !== undefined) {
    files.push('--settings');
    problems.push(...(await validateText(targets.inlineSettings, '--settings', context)));
  }
  for (const dir of [...pluginDirs, ...targets.pluginDirs]) {
    const checked = await validatePluginDir(dir, context);
    files.push(...checked.files);
    problems.push(...checked.problems);
  }
  return { ok: !problems.some((problem) => problem.severity === 'error'), files, problems };
}

/** The text form: one line per problem (`error: <file>: <path>: <message>`), then a count. */
export function formatValidation(report: ValidationReport): string {
  const lines = report.problems.map((problem) => `${problem.severity}: ${problem.file}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`);
  const errors = report.problems.filter((problem) => problem.severity === 'error').length;
  const warnings = report.problems.length - errors;
  const checked = `${report.files.length} file${report.files.length === 1 ? '' : 's'} checked`;
  lines.push(report.problems.length === 0 ? `ok: ${checked}: ${report.files.join(', ') || '(none)'}` : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}; ${checked}`);
  return `${lines.join('\n')}\n`;
}

async function validateFile(file: string, context: CommandContext): Promise<ValidationProblem[]> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return [{ severity: 'error', file, path: '', message: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `cannot read: ${describeError(error)}` }];
  }
  return validateText(text, file, context);
}

async function validateText(text: string, file: string, context: CommandContext): Promise<ValidationProblem[]> {
  let data: unknown;
  try {
    data = parseJson(text, file);
  } catch (error) {
    return [{ severity: 'error', file, path: '', message: describeError(error).replace(`${file}: `, '') }];
  }
  return validateData(data, file, context);
}

/** Every check of one settings-format document (settings file, hooks file, or a manifest's inline hooks wrapped as `{hooks}`). */
async function validateData(data: unknown, file: string, context: CommandContext): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  const add = (severity: ValidationProblem['severity'], segments: readonly PropertyKey[], message: string, extra: { expected?: string; got?: string } = {}) =>
    problems.push({ severity, file, path: formatPath(segments), message, ...extra });

  const parsed = settingsFileSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const got = describeValue(valueAt(data, issue.path));
      add('error', issue.path, `expected ${issue.message}, got ${got}`, { expected: issue.message, got });
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return problems;
  const root = data as Record<string, unknown>;
  for (const key of Object.keys(root)) {
    if (isHookEventName(key) || (REFERENCE_ONLY_EVENTS as readonly string[]).includes(key)) {
      add('error', [key], `hook events belong under a top-level "hooks" key: {"hooks": {"${key}": [...]}}`);
    }
  }
  const hooks = root['hooks'];
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return problems;
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if ((REFERENCE_ONLY_EVENTS as readonly string[]).includes(event)) {
      add('warning', ['hooks', event], `hookloop does not fire ${event}; its handlers are ignored`);
    } else if (!isHookEventName(event)) {
      const close = closestName(event, [...HOOK_EVENT_NAMES, ...REFERENCE_ONLY_EVENTS]);
      const expected = `one of ${HOOK_EVENT_NAMES.join(', ')}`;
      add('error', ['hooks', event], `unknown hook event ${JSON.stringify(event)}${close === undefined ? '' : ` (did you mean ${close}?)`}; expected ${expected}`, { expected, got: JSON.stringify(event) });
      continue;
    }
    if (!Array.isArray(groups)) continue;
    for (const [groupIndex, group] of groups.entries()) {
      if (group === null || typeof group !== 'object') continue;
      const at = ['hooks', event, groupIndex];
      problems.push(...checkMatcher((group as Record<string, unknown>)['matcher'], event, file, at));
      const handlers = (group as Record<string, unknown>)['hooks'];
      if (!Array.isArray(handlers)) continue;
      for (const [handlerIndex, handler] of handlers.entries()) {
        if (handler !== null && typeof handler === 'object') problems.push(...(await checkHandler(handler as Record<string, unknown>, event, file, [...at, 'hooks', handlerIndex], context)));
      }
    }
  }
  return problems;
}

function checkMatcher(matcher: unknown, event: string, file: string, at: readonly PropertyKey[]): ValidationProblem[] {
  if (typeof matcher !== 'string') return [];
  const where = formatPath([...at, 'matcher']);
  let kind: string;
  try {
    kind = compileMatcher(matcher).kind;
  } catch (error) {
    return [{ severity: 'error', file, path: where, message: describeError(error) }];
  }
  if (kind !== 'names' || !TOOL_EVENTS.has(event)) return [];
  const problems: ValidationProblem[] = [];
  for (const name of matcher.split(/[|,]/).map((part) => part.trim()).filter((part) => part !== '')) {
    if (KNOWN_TOOL_NAMES.includes(name) || name.startsWith('mcp__')) continue;
    const close = KNOWN_TOOL_NAMES.find((tool) => tool.toLowerCase() === name.toLowerCase());
    if (close !== undefined) problems.push({ severity: 'warning', file, path: where, message: `"${name}" never matches: matchers are case-sensitive (did you mean ${close}?)` });
  }
  return problems;
}

async function checkHandler(handler: Record<string, unknown>, event: string, file: string, at: readonly PropertyKey[], context: CommandContext): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  const add = (severity: ValidationProblem['severity'], field: string, message: string) => problems.push({ severity, file, path: formatPath([...at, field]), message });
  const known = HANDLER_FIELDS[String(handler['type'])];
  if (known !== undefined) {
    for (const key of Object.keys(handler)) if (!known.has(key)) add('warning', key, `unknown field of a "${String(handler['type'])}" handler; it is ignored`);
  }
  const condition = handler['if'];
  if (typeof condition === 'string') {
    try {
      parseRule(condition);
      if (!TOOL_EVENTS.has(event)) add('warning', 'if', `this handler never runs: "if" is evaluated on tool events only (${[...TOOL_EVENTS].join(', ')})`);
    } catch (error) {
      add('error', 'if', error instanceof ConfigError ? error.message : describeError(error));
    }
  }
  if (handler['type'] === 'command' && typeof handler['command'] === 'string' && handler['command'] !== '') {
    for (const problem of await checkCommand(handler as unknown as CommandHandlerConfig, context)) add(problem.severity, 'command', problem.message);
  }
  return problems;
}

async function validatePluginDir(dir: string, base: ValidationContext): Promise<{ files: string[]; problems: ValidationProblem[] }> {
  const root = path.resolve(dir);
  if (!isDirectory(root)) return { files: [root], problems: [{ severity: 'error', file: root, path: '', message: 'no such plugin directory' }] };
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const defaultHooks = path.join(root, 'hooks', 'hooks.json');
  const files: string[] = [];
  const problems: ValidationProblem[] = [];
  let manifest: Record<string, unknown> | undefined;
  if (fs.existsSync(manifestFile)) {
    files.push(manifestFile);
    try {
      const data = parseJson(fs.readFileSync(manifestFile, 'utf8'), manifestFile);
      const parsed = pluginManifestSchema.safeParse(data);
      // Even a manifest with a bad field still says where its hooks are.
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) manifest = data as Record<string, unknown>;
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const got = describeValue(valueAt(data, issue.path));
        problems.push({ severity: 'error', file: manifestFile, path: formatPath(issue.path), message: `expected ${issue.message}, got ${got}`, expected: issue.message, got });
      }
    } catch (error) {
      problems.push({ severity: 'error', file: manifestFile, path: '', message: describeError(error).replace(`${manifestFile}: `, '') });
    }
  } else if (!fs.existsSync(defaultHooks)) {
    return { files: [root], problems: [{ severity: 'error', file: root, path: '', message: 'not a plugin: found neither .claude-plugin/plugin.json nor hooks/hooks.json' }] };
  }
  const real = fs.realpathSync(root);
  const name = typeof manifest?.['name'] === 'string' ? manifest['name'] : path.basename(real);
  const context: CommandContext = { ...base, pluginRoot: real, pluginData: path.join(base.homeDir, '.claude', 'plugins', 'data', `${name}-inline`.replace(/[^A-Za-z0-9_-]/g, '-')) };
  if (fs.existsSync(defaultHooks)) {
    files.push(defaultHooks);
    problems.push(...(await validateFile(defaultHooks, context)));
  }
  const declared = manifest?.['hooks'];
  const entries = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  for (const [index, entry] of entries.entries()) {
    const field = Array.isArray(declared) ? `hooks[${index}]` : 'hooks';
    if (typeof entry === 'string') {
      const file = path.resolve(root, entry);
      if (file === defaultHooks) continue;
      if (!fs.existsSync(file)) {
        problems.push({ severity: 'error', file: manifestFile, path: field, message: `no such file: ${file}` });
        continue;
      }
      files.push(file);
      problems.push(...(await validateFile(file, context)));
    } else if (entry !== null && typeof entry === 'object') {
      const inline = entry as Record<string, unknown>;
      const events = inline['hooks'] !== null && typeof inline['hooks'] === 'object' && !Array.isArray(inline['hooks']) ? inline['hooks'] : inline;
      problems.push(...(await validateData({ hooks: events }, manifestFile, context)));
    }
  }
  return { files, problems };
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The known name nearest to `name` (case ignored), when it is a likely typo: at most two edits away. */
function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
