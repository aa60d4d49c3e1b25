import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/restate-server.js';
import { CLI, runCli } from '../support/cli.js';

// The durable flags without a Restate server: what is refused before anything is sent, and what a
// user sees when the server is not there or goes away.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-durable-flags-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('--durable and hookloop serve', () => {
  it('refuse what a durable run or a worker cannot take, with one line and exit code 2', () => {
    const cases: [string[], string][] = [
      [['-p', 'go', '--durable', 'localhost:8080'], '--durable: expected an http(s) URL'],
      [['-p', 'go', '--restate-admin', 'http://127.0.0.1:9070'], '--restate-admin goes with --durable URL'],
      [['serve', '-p', 'go'], "unknown option '-p'"],
      [['serve', 'go'], 'too many arguments'],
      [['serve', '--durable', 'http://127.0.0.1:8080'], 'hookloop serve takes no --durable'],
      [['serve', '--port', '70000'], '--port: expected a port number from 0 to 65535'],
      [['-c', '--durable', 'http://127.0.0.1:8080'], '--continue cannot find a durable session'],
    ];
    for (const [args, message] of cases) {
      const run = runCli(args, dir);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringContaining(message)]);
    }
  });

  it('a server that is not there: one line naming it, exit code 1', async () => {
    const port = await freePort();
    const run = runCli(['-p', 'go', '--durable', `http://127.0.0.1:${port}`], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `hookloop: the Restate server at http://127.0.0.1:${port} went away or is not running (ECONNREFUSED)\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('an ingress without the session object: one line saying how to start a worker', async () => {
    const ingress = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: "Service 'hookloop-session' not found." }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => ingress.listen(port, '127.0.0.1', resolve));
    try {
      // Not spawnSync: this process must answer the CLI's requests meanwhile.
      const run = await runCliAsync(['-p', 'go', '--durable', `http://127.0.0.1:${port}`]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('start `hookloop serve --register <admin URL>`');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      ingress.close();
    }
  });
});

function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: path.join(dir, '.test-home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
