import fs from 'node:fs';
import path from 'node:path';
import { loadHookSetup } from '../../hooks/plugins/hook-setup.js';
import type { CliIo } from '../cli-io.js';
import { buildTestPayloads } from './build-payload.js';
import { formatTestReport } from './format-test.js';
import { formatHookList, listHooks } from './list.js';
import { formatSkillHooks, listSkillHooks } from './skill-hooks-list.js';
import { loadSkills } from '../../skills/load-skills.js';
import { resolveConfigDir } from '../../session/paths.js';
import type { HooksCommandOptions, HookSourcesOptions, HooksValidateOptions } from './parse-hooks-args.js';
import { recordSession } from './record.js';
import type { RunSession } from './run-session.js';
import { testEvent } from './test-event.js';
import { formatValidation, validateTargets, type ValidationTargets } from './validate.js';

export type { RunSession } from './run-session.js';

/**
 * `hookloop hooks …`. Returns the exit code: 0 fine, 1 the checked configuration has errors (validate)
 * or the merged decision blocks or denies (test; with `--all`, any of them); a recorded session
 * returns its own code.
 * @throws ConfigError for bad flags or settings (main prints it and exits 2).
 */
export async function runHooksCommand(
  command: HooksCommandOptions,
  io: CliIo,
  runSession: RunSession,
): Promise<number> {
  switch (command.action) {
    case 'list': {
      const setup = loadHookSetup({ ...setupOptions(command, io), createPluginData: false });
      const list = listHooks(setup, io.cwd, command.event);
      // Skills' front-matter hooks join a run only when the skill is loaded: listed apart.
      const skills = loadSkills({
        projectDir: io.cwd,
        configDir: resolveConfigDir(undefined, io.env ?? process.env, io.homeDir),
        plugins: setup.plugins,
      }).skills;
      const skillHooks = listSkillHooks(skills).filter(
        (hook) => command.event === undefined || hook.event === command.event,
      );
      io.stdout.write(
        command.json
          ? `${JSON.stringify({ ...list, skillHooks }, null, 2)}\n`
          : formatHookList(list, setup, io.cwd) + formatSkillHooks(skillHooks, io.cwd),
      );
      return 0;
    }
    case 'validate': {
      const report = await validateTargets(validationTargets(command, io), {
        projectDir: io.cwd,
        homeDir: io.homeDir,
        path: (io.env ?? process.env)['PATH'] ?? '',
      });
      io.stdout.write(command.json ? `${JSON.stringify(report, null, 2)}\n` : formatValidation(report));
      return report.ok ? 0 : 1;
    }
    case 'test': {
      const setup = loadHookSetup(setupOptions(command, io));
      // Every payload is built (and every bad line reported) before any hook runs.
      const payloads = await buildTestPayloads(command, io.cwd, io.stdin);
      const reports = [];
      for (const built of payloads) reports.push(await testEvent(setup, built, io.cwd));
      // The configuration's warnings are the same for every test: shown once.
      for (const warning of reports[0]?.warnings ?? []) io.stderr.write(`hookloop: warning: ${warning}\n`);
      if (command.json) io.stdout.write(`${JSON.stringify(command.all ? reports : reports[0], null, 2)}\n`);
      else io.stdout.write(reports.map((report) => formatTestReport(report, io.cwd)).join('\n'));
      return reports.some((report) => report.verdict.refuses) ? 1 : 0;
    }
    case 'record':
      return recordSession(command, io, runSession);
  }
}

/** The settings and plugin options of a run in `io.cwd`. */
export function setupOptions(command: HookSourcesOptions, io: CliIo) {
  return {
    projectDir: io.cwd,
    homeDir: io.homeDir,
    ...(command.settings !== undefined ? { flagSettings: command.settings } : {}),
    pluginDirs: command.pluginDirs,
  };
}

/**
 * What `hooks validate` checks: the FILES given, or without FILES the settings files a run in
 * `io.cwd` reads (user, project and local, those that exist); then `--settings` and every `--plugin-dir`.
 */
function validationTargets(command: HooksValidateOptions, io: CliIo): ValidationTargets {
  const flag = command.settings;
  const inline = flag !== undefined && flag.trimStart().startsWith('{') ? flag : undefined;
  const defaults = [
    path.join(io.homeDir, '.claude', 'settings.json'),
    path.join(io.cwd, '.claude', 'settings.json'),
    path.join(io.cwd, '.claude', 'settings.local.json'),
    path.join(io.cwd, '.mcp.json'),
  ];
  const files =
    command.files.length > 0 ? [...command.files] : defaults.filter((file) => fs.existsSync(file));
  if (flag !== undefined && inline === undefined) files.push(path.resolve(io.cwd, flag));
  return {
    files: files.map((file) => path.resolve(io.cwd, file)),
    ...(inline !== undefined ? { inlineSettings: inline } : {}),
    pluginDirs: command.pluginDirs.map((dir) => path.resolve(io.cwd, dir)),
  };
}
