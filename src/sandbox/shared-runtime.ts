import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { ConfigError } from '../errors.js';
import type { RuntimeCallConfig, RuntimeConfig, RuntimeCredentials } from './runtime-types.js';

/**
 * The sandbox runtime is one per process (`SandboxManager` is a module singleton: one set of
 * network proxies, one configuration). Runs share it here: the first run initializes it, the last
 * one to leave resets it. The filesystem policy is given per call, so runs with different
 * workspaces can share it; the network policy cannot, so concurrent runs must agree on it.
 */

type Manager = (typeof import('@anthropic-ai/sandbox-runtime'))['SandboxManager'];
let manager: Manager | undefined;

// The runtime's `SandboxManager`, imported at first use: the runtime (its proxies, TLS and SOCKS
// code) is ~90 ms of start-up and ~10 MB that a run without a sandbox does not need. Not exported,
// nor is any runtime type: hookloop's published declarations must not name the runtime's.
async function sandboxManager(): Promise<Manager> {
  manager ??= (await import('@anthropic-ai/sandbox-runtime')).SandboxManager;
  return manager;
}

let holders = 0;
let activeNetwork: string | undefined;
let activeConfig: RuntimeConfig | undefined;
let starting: Promise<void> | undefined;

/** Why the runtime cannot run here: the runtime's own findings, one line (`bubblewrap (bwrap) not installed, socat not installed`). */
export class SandboxUnavailable extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(reasons.join(', '));
    this.name = 'SandboxUnavailable';
  }
}

/**
 * Joins the process's sandbox runtime, starting it with `config` when no run holds it.
 * Resolves to the release function (call it once; the last release resets the runtime).
 * @throws SandboxUnavailable when the platform or a dependency is missing (bubblewrap, socat, ripgrep).
 * @throws ConfigError when a run holding the runtime has another network policy.
 */
export async function acquireRuntime(config: RuntimeConfig): Promise<() => Promise<void>> {
  if (!(await sandboxManager()).isSupportedPlatform())
    throw new SandboxUnavailable(['this platform is not supported (Linux with bubblewrap, or macOS)']);
  const network = JSON.stringify(config.network);
  if (holders > 0 && network !== activeNetwork) {
    throw new ConfigError(
      'sandbox.network differs from the network settings of another sandboxed run in this process; runs in one process share one network proxy',
      { field: 'sandbox.network' },
    );
  }
  holders += 1;
  try {
    if (holders === 1) {
      activeNetwork = network;
      activeConfig = config;
    }
    await ensureInitialized();
  } catch (error) {
    holders -= 1;
    if (holders === 0) await resetRuntime();
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) await resetRuntime();
  };
}

/**
 * Starts the runtime if it is not running: at first use, and again after the runtime reset
 * itself (it does so on SIGINT and SIGTERM). A wrap without a running runtime would leave the
 * network open, so every wrap goes through here first.
 * @throws SandboxUnavailable as acquireRuntime.
 */
export async function ensureInitialized(): Promise<void> {
  while (starting !== undefined) await starting;
  if (isRunning()) return;
  if (activeConfig === undefined) throw new SandboxUnavailable(['the sandbox runtime was released']);
  const config = activeConfig;
  starting = (async () => {
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    try {
      await (await sandboxManager()).initialize(toRuntime(config));
      dropRuntimeSignalListeners(signalListeners);
    } catch (error) {
      dropRuntimeSignalListeners(signalListeners);
      // initialize keeps its configuration even when its dependency check fails: clear it, so
      // that nothing later mistakes a runtime that never started for a running one.
      await (await sandboxManager()).reset().catch(() => undefined);
      throw unavailableFrom(error);
    }
  })();
  try {
    await starting;
  } finally {
    starting = undefined;
  }
}

/**
 * `command` wrapped to run inside the sandbox under `call`'s filesystem policy (and the network
 * policy the runtime started with), as a command line for `shell`. Call `ensureInitialized` first.
 */
export async function wrapWithSandbox(
  command: string,
  shell: string,
  call: RuntimeCallConfig,
): Promise<string> {
  return (await sandboxManager()).wrapWithSandbox(command, shell, callToRuntime(call));
}

// hookloop's own declarations (runtime-types.ts) checked against the runtime's, without a cast: if
// the runtime stops accepting these shapes, this stops compiling. Only the credentials, which
// hookloop passes through as the settings give them, are the runtime's to check.
function toRuntime(config: RuntimeConfig): SandboxRuntimeConfig {
  const { credentials, ...checked } = config;
  return { ...checked, ...runtimeCredentials(credentials) };
}

function callToRuntime(call: RuntimeCallConfig): Partial<SandboxRuntimeConfig> {
  return { filesystem: call.filesystem, ...runtimeCredentials(call.credentials) };
}

function runtimeCredentials(
  credentials: RuntimeCredentials | undefined,
): Pick<SandboxRuntimeConfig, 'credentials'> {
  return credentials !== undefined ? { credentials: credentials as SandboxRuntimeConfig['credentials'] } : {};
}

/**
 * True while the runtime's proxies are up. Not `isSandboxingEnabled()`: the runtime keeps its
 * configuration through `reset()`, so that stays true after a reset (its own on SIGINT included),
 * while the proxies, which we always configure (`network.allowedDomains` is always given), are gone.
 */
function isRunning(): boolean {
  return manager?.getProxyPort() !== undefined;
}

/**
 * The runtime's first initialize adds SIGINT and SIGTERM listeners that reset it. A listener
 * takes away Node's default exit on SIGTERM, so a hookloop process would survive its first
 * SIGTERM, and a reset under a running session would leave later commands without their network
 * proxy. Signals are the embedding program's to handle (the CLI ends the run, and SessionEnd
 * releases the runtime); the runtime's `exit` listener stays for a process that just exits.
 */
function dropRuntimeSignalListeners(before: Record<'SIGINT' | 'SIGTERM', readonly unknown[]>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!before[signal].includes(listener)) process.removeListener(signal, listener);
    }
  }
}

async function resetRuntime(): Promise<void> {
  activeNetwork = undefined;
  activeConfig = undefined;
  await (await sandboxManager()).reset().catch(() => undefined);
}

const DEPENDENCY_PREFIX = 'Sandbox dependencies not available: ';

function unavailableFrom(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith(DEPENDENCY_PREFIX))
    return new SandboxUnavailable(message.slice(DEPENDENCY_PREFIX.length).split(', '));
  return new SandboxUnavailable([message]);
}
