import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../../errors.js';
import { pluginManifestSchema } from '../../hooks/plugins/plugin-schema.js';
import { describeValue, formatPath, parseJson, valueAt } from '../../hooks/settings/load-settings.js';
import { isMcpConfigFile, validateMcpConfigFile } from '../../mcp/validate-mcp-config.js';
import type { CommandContext } from './check-command.js';
import { validateData, validateFile, validateText } from './validate-document.js';
import type { ValidationProblem } from './validation-problem.js';

export type { ValidationProblem } from './validation-problem.js';

/**
 * `hookloop hooks validate`: every problem of settings files, hooks files and plugin directories at
 * once (the loader stops at the first), each with its file and JSON path: schema errors with what
 * was expected and what was found, unknown events, matchers that are not valid regexes, `if` rules
 * that do not parse, command hooks whose program is missing or not executable, permission rules a
 * run would refuse, http hook URLs that are not http(s) URLs. Warnings cover what loads but will
 * not do what it seems to: events hookloop does not fire, `if` on an event that never evaluates it,
 * a matcher that differs from a tool name only in case, unknown handler fields, top-level keys that
 * are not settings keys (with the likely name), and every warning a run prints when it registers a
 * handler (e.g. `onFailure: "block"` on an event that cannot block).
 */

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

/** Checks every target; a file named in `files` that is a directory (or a `.claude-plugin/plugin.json`) is checked as a plugin. */
export async function validateTargets(
  targets: ValidationTargets,
  context: ValidationContext,
): Promise<ValidationReport> {
  const problems: ValidationProblem[] = [];
  const files: string[] = [];
  const pluginDirs: string[] = [];
  for (const target of targets.files) {
    const file = path.resolve(target);
    if (isDirectory(file)) pluginDirs.push(file);
    else if (file.endsWith(path.join('.claude-plugin', 'plugin.json')))
      pluginDirs.push(path.dirname(path.dirname(file)));
    else if (isMcpConfigFile(file)) {
      files.push(file);
      problems.push(...validateMcpConfigFile(file));
    } else {
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
  const lines = report.problems.map(
    (problem) =>
      `${problem.severity}: ${problem.file}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`,
  );
  const errors = report.problems.filter((problem) => problem.severity === 'error').length;
  const warnings = report.problems.length - errors;
  const checked = `${report.files.length} file${report.files.length === 1 ? '' : 's'} checked`;
  lines.push(
    report.problems.length === 0
      ? `ok: ${checked}: ${report.files.join(', ') || '(none)'}`
      : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}; ${checked}`,
  );
  return `${lines.join('\n')}\n`;
}

async function validatePluginDir(
  dir: string,
  base: ValidationContext,
): Promise<{ files: string[]; problems: ValidationProblem[] }> {
  const root = path.resolve(dir);
  if (!isDirectory(root))
    return {
      files: [root],
      problems: [{ severity: 'error', file: root, path: '', message: 'no such plugin directory' }],
    };
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
      if (data !== null && typeof data === 'object' && !Array.isArray(data))
        manifest = data as Record<string, unknown>;
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const got = describeValue(valueAt(data, issue.path));
        problems.push({
          severity: 'error',
          file: manifestFile,
          path: formatPath(issue.path),
          message: `expected ${issue.message}, got ${got}`,
          expected: issue.message,
          got,
        });
      }
    } catch (error) {
      problems.push({
        severity: 'error',
        file: manifestFile,
        path: '',
        message: describeError(error).replace(`${manifestFile}: `, ''),
      });
    }
  } else if (!fs.existsSync(defaultHooks)) {
    return {
      files: [root],
      problems: [
        {
          severity: 'error',
          file: root,
          path: '',
          message: 'not a plugin: found neither .claude-plugin/plugin.json nor hooks/hooks.json',
        },
      ],
    };
  }
  const real = fs.realpathSync(root);
  const name = typeof manifest?.['name'] === 'string' ? manifest['name'] : path.basename(real);
  const context: CommandContext = {
    ...base,
    pluginRoot: real,
    pluginData: path.join(
      base.homeDir,
      '.claude',
      'plugins',
      'data',
      `${name}-inline`.replace(/[^A-Za-z0-9_-]/g, '-'),
    ),
  };
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
        problems.push({
          severity: 'error',
          file: manifestFile,
          path: field,
          message: `no such file: ${file}`,
        });
        continue;
      }
      files.push(file);
      problems.push(...(await validateFile(file, context)));
    } else if (entry !== null && typeof entry === 'object') {
      const inline = entry as Record<string, unknown>;
      const events =
        inline['hooks'] !== null && typeof inline['hooks'] === 'object' && !Array.isArray(inline['hooks'])
          ? inline['hooks']
          : inline;
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
