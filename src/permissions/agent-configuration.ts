/**
 * Which paths inside a `.claude/` folder configure an agent: settings (hot reload applies them
 * mid-session), hooks, subagent definitions, slash commands, plugins, output styles, rules and
 * memory files, MCP server lists, and each skill's definition (`skills/<name>/SKILL.md`, whose
 * front matter pre-approves tools). Everything else a skill or plugin keeps there — a skill's
 * notes, a loop's `.claude/<name>.local.md` state — is an ordinary file, as in Claude Code.
 */

// Compared case-folded (see protected-paths.ts): `.claude/Settings.json` is the settings on macOS.
const CONFIGURING_ENTRIES = new Set([
  'settings.json',
  'settings.local.json',
  'hooks',
  'agents',
  'commands',
  'plugins',
  'output-styles',
  'rules',
  'claude.md',
  'claude.local.md',
  '.mcp.json',
  'mcp.json',
]);

/**
 * Whether writing the path whose parts below a `.claude` folder are `below` (case-folded; empty for
 * the folder itself) changes an agent's configuration. `replacesDirectories`: the writer may
 * replace or fill a whole directory (`cp -r`, `mv`, `rm -r`), so the folder itself, `skills/` and a
 * skill's folder count, since what replaces them brings its own definitions.
 */
export function configuresAgent(below: readonly string[], replacesDirectories: boolean): boolean {
  const [first, skill, file] = below;
  if (first === undefined) return replacesDirectories;
  if (CONFIGURING_ENTRIES.has(first)) return true;
  if (first !== 'skills') return false;
  if (skill === undefined || file === undefined) return replacesDirectories;
  return file === 'skill.md';
}

/**
 * The fixed paths of `configuresAgent` below one `.claude` folder (absolute), for a policy that
 * binds paths rather than matching patterns (the OS sandbox): the configuring entries, and the
 * whole `skills/` folder, since a skill's SKILL.md cannot be named before the skill exists.
 */
export function agentConfigurationPaths(claudeFolder: string): string[] {
  return [...CONFIGURING_ENTRIES]
    .filter((name) => name !== 'claude.md' && name !== 'claude.local.md')
    .concat(['CLAUDE.md', 'CLAUDE.local.md', 'skills'])
    .map((name) => `${claudeFolder}/${name}`);
}
