import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import type { PermissionRules } from '../permissions/types.js';
import type { BashSandbox, SandboxedCallInput } from './bash-sandbox.js';
import { rulePaths } from './rule-paths.js';
import { callConfig, defaultProtectedPaths, runtimeConfig, type SandboxPlaces } from './runtime-config.js';
import type { SandboxSettings } from './sandbox-settings.js';
import { acquireRuntime, ensureInitialized, SandboxUnavailable, wrapWithSandbox } from './shared-runtime.js';

/**
 * `RunOptions.sandbox`: the `sandbox` settings (Claude Code's names, see sandbox-settings.ts) plus
 * `protectedPaths` (hookloop extension): files and folders that stay read-only inside the
 * sandbox even under a workspace root. Default: the project's `.claude/` and the user settings
 * files; the CLI also lists its `--settings` files and plugin directories.
 */
export type SandboxOptions = SandboxSettings & { readonly protectedPaths?: readonly string[] };

/** Where a run's sandbox lives (its workspace roots) and the permission rules it carries in (see rule-paths.ts). */
export interface RunSandboxPlaces {
  readonly projectDir: string;
  readonly roots: readonly string[];
  readonly rules?: Pick<PermissionRules, 'deny' | 'ask'>;
  readonly homeDir?: string;
}

/** What starting a run's sandbox gave: the sandbox (absent when disabled or unavailable) and a warning to show. */
export interface SandboxStart {
  readonly sandbox?: RunSandbox;
  readonly warning?: string;
}

/** The Debian packages the Linux sandbox needs, named in the warning. */
const LINUX_PACKAGES = 'bubblewrap, socat and ripgrep';

/**
 * Starts the OS sandbox of a run when `options.enabled` is true.
 * - Unavailable (a missing dependency, an unsupported platform): a one-line warning naming the
 *   packages, and Bash runs unsandboxed (nothing is auto-allowed then); with `failIfUnavailable`
 *   a ConfigError instead.
 * @throws ConfigError with `failIfUnavailable` when the sandbox cannot start, or when another
 *   sandboxed run of this process uses other network settings.
 */
export async function startRunSandbox(
  options: SandboxOptions | undefined,
  places: RunSandboxPlaces,
): Promise<SandboxStart> {
  if (options?.enabled !== true) return {};
  const homeDir = places.homeDir ?? os.homedir();
  const fromRules = rulePaths(places.rules ?? { deny: [], ask: [] }, {
    projectDir: places.projectDir,
    roots: places.roots,
    homeDir,
  });
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-sandbox-'));
  const sandboxPlaces: SandboxPlaces = {
    projectDir: places.projectDir,
    roots: places.roots,
    scratchDir,
    protectedPaths: options.protectedPaths ?? defaultProtectedPaths(places.projectDir, homeDir),
    ruleDenyRead: fromRules.denyRead,
    ruleDenyWrite: fromRules.denyWrite,
    homeDir,
  };
  let release: () => Promise<void>;
  try {
    release = await acquireRuntime(runtimeConfig(options, sandboxPlaces));
  } catch (error) {
    fs.rmSync(scratchDir, { recursive: true, force: true });
    if (!(error instanceof SandboxUnavailable)) throw error;
    const what = `the Bash sandbox (sandbox.enabled) cannot start: ${error.message}`;
    const install = process.platform === 'linux' ? `; install the ${LINUX_PACKAGES} packages` : '';
    if (options.failIfUnavailable === true)
      throw new ConfigError(`${what}${install} (sandbox.failIfUnavailable is true)`, {
        field: 'sandbox.failIfUnavailable',
      });
    return { warning: `${what}${install}; Bash commands run unsandboxed` };
  }
  ensureRuntimeTempDir();
  const autoAllow = options.autoAllowBashIfSandboxed !== false && fromRules.unenforceable.length === 0;
  const sandbox = new RunSandbox(options, sandboxPlaces, release, autoAllow);
  if (options.autoAllowBashIfSandboxed === false || autoAllow) return { sandbox };
  const listed = fromRules.unenforceable.map((rule) => JSON.stringify(rule)).join(', ');
  return {
    sandbox,
    warning: `sandbox: autoAllowBashIfSandboxed is off for this session: the sandbox cannot enforce the permission rule(s) ${listed} (a whole tool, or a write pattern with wildcards); Bash commands ask as without the sandbox`,
  };
}

/**
 * A run's OS sandbox for Bash (see BashSandbox). A call runs sandboxed unless its command is one
 * of `excludedCommands`, or it asks for `dangerouslyDisableSandbox` and `allowUnsandboxedCommands`
 * is not false.
 */
export class RunSandbox implements BashSandbox {
  private closed = false;

  /** @internal Built by startRunSandbox. */
  constructor(
    private readonly settings: SandboxSettings,
    private readonly places: SandboxPlaces,
    private readonly release: () => Promise<void>,
    private readonly autoAllow: boolean,
  ) {}

  get scratchDir(): string {
    return this.places.scratchDir;
  }

  /**
   * True when `autoAllowBashIfSandboxed` (default true) lets this call run without approval: it
   * runs sandboxed, and every Read/Edit deny or ask rule could be carried into the sandbox.
   */
  autoAllows(input: SandboxedCallInput): boolean {
    return this.autoAllow && this.runsSandboxed(input);
  }

  runsSandboxed(input: SandboxedCallInput): boolean {
    if (this.closed) return false;
    if (input.dangerouslyDisableSandbox === true && this.settings.allowUnsandboxedCommands !== false)
      return false;
    return !(this.settings.excludedCommands ?? []).some((pattern) => matchesExcluded(input.command, pattern));
  }

  async wrap(script: string, input: SandboxedCallInput): Promise<string | undefined> {
    if (!this.runsSandboxed(input)) return undefined;
    try {
      await ensureInitialized();
      return await wrapWithSandbox(script, '/bin/bash', callConfig(this.settings, this.places));
    } catch (error) {
      throw new Error(
        `The sandbox could not run this command: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Leaves the shared runtime and removes the scratch dir. Later calls run unsandboxed only if nothing holds them back: the run is over. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    fs.rmSync(this.places.scratchDir, { recursive: true, force: true });
    await this.release();
  }
}

/**
 * An `excludedCommands` entry matches a command that is the entry itself or starts with it as
 * whole words (`docker` matches `docker ps`, not `dockerd`); a trailing `:*` or ` *` means the
 * same prefix (`npm:*`). Leading spaces are ignored.
 */
function matchesExcluded(command: string, pattern: string): boolean {
  const prefix = pattern.replace(/(:\*| \*)$/, '').trim();
  if (prefix === '') return false;
  const text = command.trimStart();
  return text === prefix || text.startsWith(`${prefix} `) || text.startsWith(`${prefix}\t`);
}

/**
 * The runtime points `TMPDIR` at `/tmp/claude` inside the sandbox and allows writes there, but
 * does not create it: make it (world-writable with the sticky bit, like `/tmp`) so programs that
 * use `TMPDIR` work.
 */
function ensureRuntimeTempDir(): void {
  if (process.platform !== 'linux') return;
  try {
    fs.mkdirSync('/tmp/claude', { mode: 0o1777 });
    fs.chmodSync('/tmp/claude', 0o1777);
  } catch {
    // Exists already (or /tmp is not writable): programs then see the error themselves.
  }
}
