import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real Restate server for the durable tests: the binary of the @restatedev/restate-server dev
 * dependency, started as a child process on 127.0.0.1 with free ports and its own data folder,
 * killed by PID (its process group: the installed command is a Node shim that starts the
 * platform's binary). No network beyond 127.0.0.1.
 */

/** The installed server command; the tests skip when it is missing. */
export const RESTATE_SERVER = path.resolve('node_modules/.bin/restate-server');
export const haveRestateServer = existsSync(RESTATE_SERVER);

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it soon after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Probes every 100 ms until `probe` resolves a value (a throw counts as "not yet"); gives up after `attempts`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  attempts = 300,
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Kills `child` (its process group with `group`) with SIGKILL and resolves once it has exited. */
export async function killHard(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(group ? -child.pid : child.pid, 'SIGKILL');
  } catch {
    // Already gone between the check and the kill.
  }
  await exited;
}

/** A running server: its URLs, its data folder, and what a test does to it. */
export interface RestateServer {
  readonly admin: string;
  readonly ingress: string;
  /** The folder the server keeps its data in (kept across `restart`). */
  readonly dataDir: string;
  /** `kill -9` of the server (its process group); its data stays. */
  kill(): Promise<void>;
  /** Starts it again on the same ports with the same data; resolves once it answers. */
  restart(): Promise<void>;
  /** Registers the deployment at `uri` (`POST /deployments`). @throws when the server refuses it. */
  register(uri: string): Promise<void>;
  /** One row per match of an introspection query (`sys_invocation`, `sys_journal`). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Kills the server and removes its folder. */
  stop(): Promise<void>;
}

/** Starts a server and resolves once its admin API and ingress answer. */
export async function startRestateServer(): Promise<RestateServer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'hookloop-restate-server-'));
  const [fabric, adminPort, ingressPort] = [await freePort(), await freePort(), await freePort()];
  const admin = `http://127.0.0.1:${adminPort}`;
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const env = {
    ...process.env,
    RESTATE_BASE_DIR: folder,
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_ADMIN__DISABLE_WEB_UI: 'true',
    RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '128MB',
    RESTATE_DEFAULT_NUM_PARTITIONS: '4',
    // Retries of a failed attempt (a killed worker) back off up to 60 s by default: a test's
    // restarted worker is up within a second, so it is retried within half of one.
    RESTATE_INVOCATION__DEFAULT_RETRY_POLICY__MAX_INTERVAL: '500ms',
  };
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(RESTATE_SERVER, ['--no-logo'], { env, stdio: 'ignore', detached: true });
    await until('the Restate server', async () => ((await fetch(`${admin}/health`)).ok ? true : undefined));
    await until('the ingress', async () =>
      (await fetch(`${ingress}/restate/health`)).ok ? true : undefined,
    );
  };
  await start();
  const kill = async () => {
    if (child !== undefined) await killHard(child, true);
  };
  return {
    admin,
    ingress,
    dataDir: folder,
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    register: async (uri) => {
      const response = await fetch(`${admin}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri }),
      });
      if (!response.ok)
        throw new Error(`registering ${uri}: HTTP ${response.status} ${await response.text()}`);
    },
    query: async (sql) => {
      const response = await fetch(`${admin}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: sql }),
      });
      return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
    },
    stop: async () => {
      await kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
