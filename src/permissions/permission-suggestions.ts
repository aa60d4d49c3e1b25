import path from 'node:path';
import type { BashClassification } from '../shell/index.js';
import type { AnyTool } from '../tools/define-tool.js';
import { formatRule } from './rule.js';

/** What the suggestions need to know about a call. */
export interface SuggestedCall {
  readonly tool: { readonly name: string; readonly kind: string; readonly mcpServer?: unknown };
  readonly command: string | undefined;
}

/**
 * Claude Code's `permission_suggestions` for a call the mode asks about (the PermissionRequest
 * payload): an exact `Bash(<command>)` session rule for a program, the written file's folder
 * (plus acceptEdits for a plain file write), an allow rule for an MCP tool, acceptEdits for an edit.
 */
export function permissionSuggestions(call: SuggestedCall, bash: BashClassification | undefined): unknown[] {
  if (bash) {
    const first = bash.writes[0];
    if (!bash.parsed || first === undefined) return [];
    if (first.kind === 'program') {
      return [
        {
          type: 'addRules',
          rules: [{ toolName: call.tool.name, ruleContent: escapeSpecifier(call.command ?? '') }],
          behavior: 'allow',
          destination: 'session',
        },
      ];
    }
    if (first.place !== 'inside' || first.path === undefined) return [];
    const directories = [
      { type: 'addDirectories', directories: [path.dirname(first.path)], destination: 'session' },
    ];
    return first.kind === 'filesystem'
      ? [...directories, { type: 'setMode', mode: 'acceptEdits', destination: 'session' }]
      : directories;
  }
  if (call.tool.mcpServer)
    return [
      {
        type: 'addRules',
        rules: [{ toolName: call.tool.name }],
        behavior: 'allow',
        destination: 'localSettings',
      },
    ];
  return call.tool.kind === 'edit' ? [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] : [];
}

function escapeSpecifier(command: string): string {
  return formatRule('x', command).slice(2, -1);
}

/**
 * Programs whose second word names a subcommand (`git commit`, `npm run`): for these an "always"
 * answer means "this subcommand, whatever its arguments", as Claude Code 2.1.328 proposes it
 * (measured: `git commit -m "x y"` → `Bash(git commit *)`, `npm run build -- --watch` → `Bash(npm run *)`).
 */
const SUBCOMMAND_PROGRAMS: ReadonlySet<string> = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'gh',
  'terraform',
  'dotnet',
  'mvn',
  'gradle',
  'rustup',
  'deno',
  'helm',
  'brew',
  'apt',
  'apt-get',
]);

/**
 * The session rule an approver's "always" should add for a call: for one simple Bash command of a
 * program with subcommands, that subcommand with any arguments (`Bash(git commit *)`); for any
 * other command the exact command (`Bash(touch z1.txt)`, with `(`, `)` and `*` escaped so the rule
 * matches just that command) — a command with operators, redirections or expansions never widens;
 * for other tools the bare tool name.
 */
export function ruleForCall(tool: Pick<AnyTool, 'name' | 'kind'>, input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  if (tool.kind !== 'bash' || typeof command !== 'string') return tool.name;
  const prefix = subcommandPrefix(command);
  return prefix !== undefined ? `${tool.name}(${prefix} *)` : formatRule(tool.name, command);
}

/** `git commit` of `git commit -m "x"`; undefined unless the command is plain words of a SUBCOMMAND_PROGRAMS program. */
function subcommandPrefix(command: string): string | undefined {
  // Anything a shell treats specially (operators, redirections, substitutions, expansions) keeps the exact rule.
  if (/[;&|<>`$(){}\n\\]/.test(command)) return undefined;
  const words = command.trim().split(/\s+/);
  const [program, subcommand] = words;
  if (program === undefined || subcommand === undefined || words.length < 3) return undefined;
  if (!SUBCOMMAND_PROGRAMS.has(program) || !/^[a-z][a-z0-9-]*$/.test(subcommand)) return undefined;
  return `${program} ${subcommand}`;
}
