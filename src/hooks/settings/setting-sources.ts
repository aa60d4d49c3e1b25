import { ConfigError } from '../../errors.js';

/** The settings files `--setting-sources` can select: `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`. */
export const SETTING_SOURCES = ['user', 'project', 'local'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/**
 * Parses `--setting-sources` as Claude Code does: a comma-separated list of `user`, `project`,
 * `local` (spaces around names allowed, order irrelevant); an empty value selects none of them.
 * `--settings` files are read whatever the list says.
 *
 * @throws ConfigError `--setting-sources: invalid setting source "x"; expected user, project, local`.
 */
export function parseSettingSources(value: string): SettingSource[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!(SETTING_SOURCES as readonly string[]).includes(name)) {
      throw new ConfigError(
        `--setting-sources: invalid setting source ${JSON.stringify(name)}; expected a comma-separated list of ${SETTING_SOURCES.join(', ')}`,
        { field: '--setting-sources' },
      );
    }
  }
  return SETTING_SOURCES.filter((source) => names.includes(source));
}
