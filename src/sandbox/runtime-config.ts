import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  RuntimeCallConfig,
  RuntimeConfig,
  RuntimeCredentials,
  RuntimeNetworkConfig,
} from './runtime-types.js';
import { agentConfigurationPaths } from '../permissions/agent-configuration.js';
import {
  CODE_RUNNING_DIRECTORY_NAMES,
  CODE_RUNNING_FILE_NAMES,
  gitHooksDirectories,
} from '../permissions/code-running-files.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** The facts of a run the sandbox policy is built from. All paths absolute. */
export interface SandboxPlaces {
  readonly projectDir: string;
  /** Workspace roots: the project directory and every additional directory (`--add-dir`). */
  readonly roots: readonly string[];
  /** The session's temp dir, writable inside the sandbox. */
  readonly scratchDir: string;
  /** hookloop's own configuration: stays read-only inside the sandbox even under a root. */
  readonly protectedPaths: readonly string[];
  /** What Read and Edit deny/ask rules keep from the sandbox (see rule-paths.ts). */
  readonly ruleDenyRead?: readonly string[];
  readonly ruleDenyWrite?: readonly string[];
  readonly homeDir?: string;
}

/**
 * Files that make later commands run code (shell and git startup files, package manager
 * configuration, MCP servers; see code-running-files.ts), kept read-only at every root, as the
 * runtime keeps some of them in the process cwd.
 */
const DANGEROUS_FILES = [...CODE_RUNNING_FILE_NAMES, '.mcp.json'];
const DANGEROUS_FOLDERS = [...CODE_RUNNING_DIRECTORY_NAMES, '.claude/commands', '.claude/agents'];

/**
 * The runtime protects `.git/hooks`, `.git/config` and shell/editor startup files only under the
 * process's cwd, which for the library need not be the project. The same paths at every
 * workspace root; `.git/*` only when `.git` is a folder (a blocker at a missing `.git` would stop `git init`).
 */
export function rootDenyWritePaths(roots: readonly string[]): string[] {
  return roots
    .flatMap((root) => {
      const paths = [...DANGEROUS_FILES, ...DANGEROUS_FOLDERS].map((name) => path.join(root, name));
      if (isDirectory(path.join(root, '.git')))
        paths.push(path.join(root, '.git', 'hooks'), path.join(root, '.git', 'config'));
      return paths;
    })
    .concat(gitHooksDirectories(roots, os.homedir()));
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The configuration files and folders of a session that the model must never write, for a run
 * built without a list of its own (the library): what configures an agent in the project's
 * `.claude/` (settings, local settings, hooks, agents, commands, plugins, skills …; see
 * `agentConfigurationPaths`) and the user settings files. The CLI adds `--settings` files and
 * plugin directories.
 */
export function defaultProtectedPaths(projectDir: string, homeDir = os.homedir()): string[] {
  return [
    ...agentConfigurationPaths(path.join(projectDir, '.claude')),
    path.join(homeDir, '.claude', 'settings.json'),
    path.join(homeDir, '.claude', 'settings.local.json'),
  ];
}

/**
 * The runtime's network policy from `sandbox.network`: only `allowedDomains` are reachable
 * (none by default); with no ask callback a host outside the list is refused at once.
 */
export function networkConfig(settings: SandboxSettings): RuntimeNetworkConfig {
  const network = settings.network ?? {};
  return {
    allowedDomains: [...(network.allowedDomains ?? [])],
    deniedDomains: [...(network.deniedDomains ?? [])],
    strictAllowlist: true,
    ...(network.allowUnixSockets !== undefined ? { allowUnixSockets: [...network.allowUnixSockets] } : {}),
    ...(network.allowAllUnixSockets !== undefined
      ? { allowAllUnixSockets: network.allowAllUnixSockets }
      : {}),
    ...(network.allowLocalBinding !== undefined ? { allowLocalBinding: network.allowLocalBinding } : {}),
    ...(network.httpProxyPort !== undefined ? { httpProxyPort: network.httpProxyPort } : {}),
    ...(network.socksProxyPort !== undefined ? { socksProxyPort: network.socksProxyPort } : {}),
  };
}

/**
 * The per-call part of the policy (filesystem and credentials), which the runtime takes at every
 * wrap: writes reach the workspace roots, the scratch dir and `filesystem.allowWrite`; the
 * protected paths and `filesystem.denyWrite` stay read-only (deny wins over allow, also for paths
 * that do not exist yet: the runtime mounts a blocker there); reads follow `denyRead`/`allowRead`.
 * Settings paths: `~/` is the home directory, a relative path is under the project directory.
 */
export function callConfig(settings: SandboxSettings, places: SandboxPlaces): RuntimeCallConfig {
  const resolve = (entry: string) => resolveSettingsPath(entry, places.projectDir, places.homeDir);
  const filesystem = settings.filesystem ?? {};
  return {
    filesystem: {
      allowWrite: [...places.roots, places.scratchDir, ...(filesystem.allowWrite ?? []).map(resolve)],
      denyWrite: [
        ...places.protectedPaths,
        ...rootDenyWritePaths(places.roots),
        ...(places.ruleDenyWrite ?? []),
        ...(filesystem.denyWrite ?? []).map(resolve),
      ],
      denyRead: [...(places.ruleDenyRead ?? []), ...(filesystem.denyRead ?? []).map(resolve)],
      ...(filesystem.allowRead !== undefined ? { allowRead: filesystem.allowRead.map(resolve) } : {}),
    },
    ...(settings.credentials !== undefined
      ? { credentials: settings.credentials as RuntimeCredentials }
      : {}),
  };
}

/** The whole configuration `SandboxManager.initialize` takes: network, the call policy, and the runtime's own switches. */
export function runtimeConfig(settings: SandboxSettings, places: SandboxPlaces): RuntimeConfig {
  const call = callConfig(settings, places);
  return {
    network: networkConfig(settings),
    filesystem: call.filesystem,
    ...(call.credentials !== undefined ? { credentials: call.credentials } : {}),
    ...(settings.ignoreViolations !== undefined ? { ignoreViolations: settings.ignoreViolations } : {}),
    ...(settings.enableWeakerNestedSandbox !== undefined
      ? { enableWeakerNestedSandbox: settings.enableWeakerNestedSandbox }
      : {}),
    ...(settings.bwrapPath !== undefined ? { bwrapPath: settings.bwrapPath } : {}),
    ...(settings.socatPath !== undefined ? { socatPath: settings.socatPath } : {}),
  };
}

/** `~/x` → under the home directory; `/x` stays; anything else is relative to the project directory. */
export function resolveSettingsPath(entry: string, projectDir: string, homeDir = os.homedir()): string {
  if (entry === '~') return homeDir;
  if (entry.startsWith('~/')) return path.join(homeDir, entry.slice(2));
  return path.resolve(projectDir, entry);
}

/** Names of the variables `sandbox.credentials.envVars` denies: also kept out of unsandboxed Bash processes. */
export function deniedEnvVars(settings: SandboxSettings | undefined): string[] {
  return (settings?.credentials?.envVars ?? [])
    .filter((entry) => entry.mode === 'deny')
    .map((entry) => entry.name);
}
