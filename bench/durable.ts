/**
 * Row 8, durable runs: the same scripted session run by a local `hookloop -p` and by `hookloop -p
 * --durable` through a Restate server (the @restatedev/restate-server dev dependency, started here
 * on free 127.0.0.1 ports with its own folder) and a `hookloop serve` worker, interleaved. Two
 * scripts: one text turn (start-up of a durable -p against a local one) and 20 turns that each call
 * Glob (the per-turn cost: model step, hook-free tool step, journal entries). Skipped, with a note,
 * when the server is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, timeMs, type BenchRow } from './measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bundle/cli/bin.js');
const SERVER = path.resolve(here, '../../node_modules/.bin/restate-server');
const TURNS = 20;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`bench: gave up waiting for ${what}`);
}

/** Runs the CLI to its end; @throws when it fails. */
function cli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`hookloop ${args.join(' ')} exited ${code}: ${stderr.slice(-400)}`)),
    );
  });
}

/** Runs row 8 and returns its rows. */
export async function durableRows(options: { runs: number; warmup: number }): Promise<BenchRow[]> {
  if (!fs.existsSync(SERVER)) return [];
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bench-durable-')));
  const children: ChildProcess[] = [];
  try {
    const oneTurn = path.join(folder, 'one-turn.json');
    const manyTurns = path.join(folder, 'many-turns.json');
    fs.writeFileSync(oneTurn, JSON.stringify([[{ type: 'text', text: 'hello' }]]));
    const globTurns = Array.from({ length: TURNS }, (_, index) => [
      { type: 'tool_use', id: `toolu_${index}`, name: 'Glob', input: { pattern: '*.json' } },
    ]);
    fs.writeFileSync(manyTurns, JSON.stringify([...globTurns, [{ type: 'text', text: 'done' }]]));
    const env = { ...process.env, HOME: folder, HOOKLOOP_HOME: path.join(folder, 'config') };
    const [fabric, admin, ingress, worker] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const adminUrl = `http://127.0.0.1:${admin}`;
    const ingressUrl = `http://127.0.0.1:${ingress}`;
    children.push(
      spawn(SERVER, ['--no-logo'], {
        detached: true,
        stdio: 'ignore',
        env: {
          ...env,
          RESTATE_BASE_DIR: path.join(folder, 'restate'),
          RESTATE_LISTEN_MODE: 'tcp',
          RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
          RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}`,
          RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
          RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
          RESTATE_DISABLE_TELEMETRY: 'true',
          RESTATE_ADMIN__DISABLE_WEB_UI: 'true',
          RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '128MB',
          RESTATE_DEFAULT_NUM_PARTITIONS: '4',
        },
      }),
    );
    await until('the Restate server', async () => (await fetch(`${ingressUrl}/restate/health`)).ok);
    await until('the admin API', async () => (await fetch(`${adminUrl}/health`)).ok);
    // A worker's flags fix its model script, so each script gets its own worker.
    const serve = (script: string, port: number) => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'serve',
          '--port',
          String(port),
          '--register',
          adminUrl,
          '--model-script',
          script,
          '--permission-mode',
          'bypassPermissions',
        ],
        { cwd: folder, env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      children.push(child);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return until('the worker', () => Promise.resolve(stderr.includes('registered with')));
    };
    const local = (script: string) => () =>
      timeMs(() =>
        cli(['-p', 'go', '--model-script', script, '--permission-mode', 'bypassPermissions'], folder, env),
      );
    const durable = () => () =>
      timeMs(() => cli(['-p', 'go', '--durable', ingressUrl, '--restate-admin', adminUrl], folder, env));
    await serve(oneTurn, worker);
    const startUp = await interleaved({ local: local(oneTurn), durable: durable() }, options);
    // The latest registered deployment takes new sessions: the many-turn worker from here on.
    await serve(manyTurns, await freePort());
    const turns = await interleaved({ local: local(manyTurns), durable: durable() }, options);
    const perTurn = (run: 'local' | 'durable') => (turns[run].median - startUp[run].median) / TURNS;
    return [
      {
        row: 'durable -p start-up, one text turn',
        unit: 'ms',
        hookloop: startUp.durable,
        floorLabel: 'local -p, same script',
        floor: startUp.local,
        ratio: startUp.durable.median / startUp.local.median,
        goal: 'report',
        verdict: 'info',
      },
      {
        row: `durable -p, ${TURNS} turns with a Glob call each`,
        unit: 'ms',
        hookloop: turns.durable,
        floorLabel: 'local -p, same script',
        floor: turns.local,
        ratio: turns.durable.median / turns.local.median,
        goal: 'report',
        verdict: 'info',
        note: `per turn ${perTurn('durable').toFixed(1)} ms durable against ${perTurn('local').toFixed(1)} ms local (medians, start-up taken out)`,
      },
    ];
  } finally {
    for (const child of children) {
      if (child.pid === undefined || child.exitCode !== null) continue;
      try {
        process.kill(child.spawnargs[0] === SERVER ? -child.pid : child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
