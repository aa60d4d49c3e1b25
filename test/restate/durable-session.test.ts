import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  haveRestateServer,
  killHard,
  RESTATE_SERVER,
  startRestateServer,
  until,
  type RestateServer,
} from '../support/restate-server.js';

// A real Restate server, started here as a child process on 127.0.0.1 with its own ports and
// folder, and a hookloop worker (test/fixtures/restate/worker.mjs, built from dist/) registered
// with it. Everything started is killed by PID at the end.

const WORKER = path.resolve('test/fixtures/restate/worker.mjs');
if (!haveRestateServer)
  console.warn(
    `skipping the Restate tests: ${RESTATE_SERVER} is not installed (npm install adds it as a dev dependency)`,
  );

const children: ChildProcess[] = [];
const folder = mkdtempSync(path.join(tmpdir(), 'hookloop-restate-'));
const logFile = path.join(folder, 'log.txt');
const marker = path.join(folder, 'crashed');
let server: RestateServer;
let ingress = '';
let workerPort = 0;

function logLines(): string[] {
  return existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : [];
}

function startWorker(): ChildProcess {
  const env = {
    ...process.env,
    LOG_FILE: logFile,
    WORKER_PORT: String(workerPort),
    PROJECT_DIR: folder,
    CONFIG_DIR: path.join(folder, 'config'),
    CRASH_MARKER: marker,
  };
  // The worker's stderr is Restate's own log (a refused decision is a logged terminal error): kept out of the test output.
  const child = spawn(process.execPath, [WORKER], { env, stdio: 'ignore' });
  children.push(child);
  return child;
}

async function workerListening(child: ChildProcess): Promise<void> {
  await until('the worker to listen', async () =>
    logLines().some((line) => line.startsWith(`worker ${child.pid} listening`)) ? true : undefined,
  );
}

async function call(
  pathname: string,
  body?: unknown,
  method = 'POST',
): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${ingress}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

describe.skipIf(!haveRestateServer)('durable sessions on a real Restate server', () => {
  beforeAll(async () => {
    workerPort = await freePort();
    server = await startRestateServer();
    ingress = server.ingress;
    await workerListening(startWorker());
    await server.register(`http://127.0.0.1:${workerPort}`);
  }, 40_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => killHard(child)));
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a worker killed after a tool step, before the next model step: the run finishes on a restarted worker, everything once', async () => {
    const key = '3f1e2d4c-0000-4000-8000-000000000001';
    const running = call(`/hookloop-session/${key}/prompt`, { prompt: 'go' });
    const crashed = children.at(-1)!;
    await until('the worker to kill itself', async () =>
      crashed.exitCode !== null || crashed.signalCode !== null ? true : undefined,
    );
    expect(crashed.signalCode).toBe('SIGKILL');
    await workerListening(startWorker());
    const { status, json } = await running;
    expect(status).toBe(200);
    expect(json).toMatchObject({ result: 'done', terminalReason: 'completed', sessionId: key });
    const lines = logLines().filter((line) => !line.startsWith('worker '));
    expect(lines).toEqual([
      `model ${key} turn 1`,
      `hook PreToolUse ${key} toolu_1`,
      'effect 1 toolu_1',
      `hook PostToolUse ${key} toolu_1`,
      `model ${key} turn 1`,
      `hook Stop ${key}`,
    ]);
    // The JSONL transcript on disk has each message once, although the crashed attempt had written its first lines.
    const projects = path.join(folder, 'config', 'projects');
    const transcriptFile = readdirSync(projects)
      .map((slug) => path.join(projects, slug, `${key}.jsonl`))
      .find((file) => existsSync(file))!;
    const written = readFileSync(transcriptFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(written.filter((line) => line.type === 'assistant')).toHaveLength(2);
    expect(written.filter((line) => line.type === 'user')).toHaveLength(2);
    const transcript = await call(`/hookloop-session/${key}/transcript`);
    expect((transcript.json as { role: string }[]).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  }, 30_000);

  it('a deferred call waits on the server; a decision from another process for a different input is refused, one for the frozen input runs it', async () => {
    const key = 'defer-session-1';
    const before = logLines().length;
    const sent = await call(`/hookloop-session/${key}/prompt/send`, { prompt: 'go' });
    const invocationId = (sent.json as { invocationId: string }).invocationId;
    const pending = await until('the call to wait', async () => {
      const answer = await call(`/hookloop-session/${key}/pending`);
      return Array.isArray(answer.json) && answer.json.length > 0
        ? (answer.json as { id: string; input: unknown }[])
        : undefined;
    });
    expect(pending).toEqual([
      expect.objectContaining({ id: 'toolu_1', name: 'Append', input: { n: 1 }, reason: 'defer' }),
    ]);
    const decide = (decisions: unknown) =>
      decideFromAnotherProcess(`${ingress}/hookloop-session/${key}/decide`, decisions);
    const wrong = await decide({ toolu_1: { behavior: 'allow', input: { n: 2 } } });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.text).toContain('not the pending input');
    const unnamed = await decide({ toolu_1: { behavior: 'allow' } });
    expect(unnamed.text).toContain('must name the input');
    expect(
      logLines()
        .slice(before)
        .filter((line) => line.startsWith('effect')),
    ).toEqual([]);
    const right = await decide({ toolu_1: { behavior: 'allow', input: { n: 1 } } });
    expect(right.status, right.text).toBe(200);
    const finished = await call(`/restate/invocation/${invocationId}/attach`, undefined, 'GET');
    expect(finished.json).toMatchObject({ result: 'done', terminalReason: 'completed' });
    expect(
      logLines()
        .slice(before)
        .filter((line) => line.startsWith('effect')),
    ).toEqual(['effect 1 toolu_1']);
  }, 30_000);
});

/** POSTs `decisions` from a separate Node process, as an approval page or a chat bot would. */
function decideFromAnotherProcess(
  url: string,
  decisions: unknown,
): Promise<{ status: number; text: string }> {
  const script = `const r = await fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: process.argv[2] }); process.stdout.write(JSON.stringify({ status: r.status, text: await r.text() }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', script, url, JSON.stringify(decisions)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as { status: number; text: string });
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}
