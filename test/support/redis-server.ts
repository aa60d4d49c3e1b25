import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A redis-server this test process started on 127.0.0.1, with a folder of its own. */
export interface LocalRedis {
  readonly url: string;
  /** Kills the server by its PID and removes its folder. */
  stop(): Promise<void>;
}

/** The path of redis-server, or undefined when it is not installed (the tests that need it are skipped). */
export function redisServerPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const file = found.stdout.trim();
  return found.status === 0 && file !== '' ? file : undefined;
}

/** A port of 127.0.0.1 that nothing listened on a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` accepts a connection and answers PING; rejects when the server exits first. */
function ready(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const exited = (code: number | null) => {
      if (done) return;
      done = true;
      reject(new Error(`redis-server exited (${code}) before it was ready`));
    };
    child.once('exit', exited);
    const attempt = () => {
      if (done) return;
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        if (data.toString().startsWith('+PONG') && !done) {
          done = true;
          child.off('exit', exited);
          resolve();
        } else setTimeout(attempt, 20);
      });
      socket.once('error', () => (socket.destroy(), setTimeout(attempt, 20)));
    };
    attempt();
  });
}

/**
 * Starts redis-server (no persistence) on a free port of 127.0.0.1, with a folder of its own. A
 * port another process took between the probe and the bind makes the server exit: then it tries
 * another, three times at most.
 */
export async function startRedis(binary: string, attempts = 3): Promise<LocalRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  try {
    await ready(port, child);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (attempts > 1 && child.exitCode !== null) return startRedis(binary, attempts - 1);
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(child.pid, 'SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
