import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  haveRestateServer,
  killHard,
  startRestateServer,
  until,
  type RestateServer,
} from '../support/restate-server.js';

// `hookloop serve` workers and `hookloop -p … --durable` / `--resume … --approve … --durable`
// processes (the built CLI, dist/bundle) against a real Restate server started by the test on
// 127.0.0.1. One project, one settings file (command hooks that log every event they see, and a
// PreToolUse hook that defers Write calls) and one model script whose turns are picked by prompt.

const CLI = path.resolve('dist/bundle/cli/bin.js');
const folder = mkdtempSync(path.join(tmpdir(), 'hookloop-durable-cli-'));
const project = path.join(folder, 'project');
const home = path.join(folder, 'home');
// Where the sessions' transcripts and events files go (what ~/.claude is to a user).
const config = path.join(folder, 'config');
const children: ChildProcess[] = [];
const proxies: Server[] = [];
let server: RestateServer;
/** The worker of the first tests, and the port of their deployment. */
let current: Worker;
let currentPort = 0;
/** The workers behind the balancer of the later tests. */
let balanced: Worker[] = [];

/** A Bash call that records each attempt, and its effect once per call id (a marker directory), then takes a while. */
const idempotentBash = (id: string) =>
  `echo ${id} >> attempts.txt; if mkdir .done-${id} 2>/dev/null; then echo "${id} $HOOKLOOP_TEST_WORKER" >> effects.txt; sleep 4; fi`;

const script = [
  ...toolThenText('crash-run', 'toolu_c1', 'Bash', { command: idempotentBash('toolu_c1') }),
  ...toolThenText('two-workers-run', 'toolu_t1', 'Bash', { command: idempotentBash('toolu_t1') }),
  ...toolThenText('diverge-run', 'toolu_v1', 'Bash', { command: idempotentBash('toolu_v1') }),
  ...toolThenText('defer-run', 'toolu_d1', 'Write', { file_path: '<ws>/approved.txt', content: 'yes' }),
  ...toolThenText('deny-run', 'toolu_n1', 'Write', { file_path: '<ws>/denied.txt', content: 'no' }),
];

function toolThenText(prompt: string, id: string, name: string, input: object) {
  return [
    { match: prompt, content: [{ type: 'tool_use', id, name, input }] },
    { match: prompt, content: [{ type: 'text', text: `${prompt} done` }] },
  ];
}

const logHook = {
  type: 'command',
  command: `printf '%s ' "$HOOKLOOP_TEST_WORKER" >> hooks.log; cat >> hooks.log; echo >> hooks.log`,
};
const settings = {
  hooks: {
    PreToolUse: [
      { matcher: '*', hooks: [logHook] },
      {
        matcher: 'Write',
        hooks: [
          {
            type: 'command',
            command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'`,
          },
        ],
      },
    ],
    PostToolUse: [{ matcher: '*', hooks: [logHook] }],
    PermissionDecision: [{ hooks: [logHook] }],
    Stop: [{ hooks: [logHook] }],
  },
};

interface Worker {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
}

/** Starts `hookloop serve` as worker `name` on `port`; resolves once it listens (and registered, with `register`). */
async function startWorker(name: string, port: number, extra: string[] = []): Promise<Worker> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--port',
      String(port),
      '--model-script',
      'script.json',
      '--permission-mode',
      'bypassPermissions',
      ...extra,
    ],
    {
      cwd: project,
      env: { ...process.env, HOME: home, HOOKLOOP_HOME: config, HOOKLOOP_TEST_WORKER: name },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = extra.includes('--register') ? 'registered with' : 'listening on';
  await until(`worker ${name} to start`, async () => {
    if (child.exitCode !== null) throw new Error(`worker ${name} exited: ${stderr}`);
    return stderr.includes(ready) ? true : undefined;
  });
  return { name, port, child };
}

/** Runs the CLI to its end in the project (a separate process) and collects what it printed. */
function hookloop(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [CLI, ...args, '--durable', server.ingress, '--restate-admin', server.admin],
    {
      cwd: project,
      env: { ...process.env, HOME: home, HOOKLOOP_HOME: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

function lines(file: string): string[] {
  const full = path.join(project, file);
  return existsSync(full) ? readFileSync(full, 'utf8').trim().split('\n').filter(Boolean) : [];
}

/** The hook firings of one session: "<worker> <event> <tool_use_id>" in the order they ran. */
function hooksOf(sessionId: string): string[] {
  return lines('hooks.log')
    .map((line) => {
      const space = line.indexOf(' ');
      const event = JSON.parse(line.slice(space + 1)) as Record<string, string>;
      return { worker: line.slice(0, space), event };
    })
    .filter(({ event }) => event['session_id'] === sessionId)
    .map(({ worker, event }) => `${worker} ${event['hook_event_name']} ${event['tool_use_id'] ?? ''}`.trim());
}

/** The records of one session's timeline events file with `type`. */
function eventsOf(sessionId: string, type: string): unknown[] {
  const projects = path.join(config, 'projects');
  const file = readdirSync(projects)
    .map((slug) => path.join(projects, slug, `${sessionId}.events.ndjson`))
    .find((candidate) => existsSync(candidate))!;
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string })
    .filter((record) => record.type === type);
}

/** A TCP balancer in front of several workers: each connection goes to the next worker that accepts it. */
async function balancer(ports: readonly number[]): Promise<number> {
  let next = 0;
  const proxy = createServer((socket) => {
    const attempt = (tries: number) => {
      const port = ports[next++ % ports.length]!;
      const upstream = createConnection({ port, host: '127.0.0.1' });
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        socket.pipe(upstream).pipe(socket);
        socket.once('close', () => upstream.destroy());
        upstream.once('close', () => socket.destroy());
      });
      // Only a refused connection moves on to the next worker; a connection that breaks later (its
      // worker killed) is closed towards the server, which retries on a new one.
      upstream.on('error', () => {
        if (connected) socket.destroy();
        else if (tries > 1) attempt(tries - 1);
        else socket.destroy();
      });
    };
    socket.on('error', () => socket.destroy());
    attempt(ports.length);
  });
  proxies.push(proxy);
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return port;
}

describe.skipIf(!haveRestateServer)('the durable CLI on a real Restate server', () => {
  beforeAll(async () => {
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    mkdirSync(home);
    writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(settings));
    writeFileSync(path.join(project, 'script.json'), JSON.stringify(script));
    server = await startRestateServer();
  }, 30_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => killHard(child)));
    for (const proxy of proxies) proxy.close();
    await server?.stop();
    // KEEP=1 keeps the project, its logs and the sessions' files for a look after a failure.
    if (process.env['KEEP'] === undefined) rmSync(folder, { recursive: true, force: true });
    else console.log('kept', folder);
  });

  it('a worker killed with kill -9 during a tool step: a restarted worker finishes the run, the effect once, every hook once', async () => {
    const port = (currentPort = await freePort());
    const first = await startWorker('A', port, ['--register', server.admin]);
    const session = 'c0000000-0000-4000-8000-000000000001';
    const run = hookloop(['-p', 'crash-run', '--session-id', session, '--output-format', 'json']);
    await until('the tool step to start', async () => (lines('effects.txt').length > 0 ? true : undefined));
    await killHard(first.child);
    current = await startWorker('A2', port, ['--register', server.admin]);
    const { code, stdout, stderr } = await run;
    expect(code, stderr).toBe(0);
    expect(json(stdout)).toMatchObject({
      result: 'crash-run done',
      terminal_reason: 'completed',
      session_id: session,
    });
    // The step ran again on the restarted worker with the same call id, and the marker kept its effect to one.
    expect(lines('attempts.txt').filter((line) => line === 'toolu_c1')).toEqual(['toolu_c1', 'toolu_c1']);
    expect(lines('effects.txt').filter((line) => line.startsWith('toolu_c1'))).toEqual(['toolu_c1 A']);
    expect(hooksOf(session)).toEqual([
      'A PreToolUse toolu_c1',
      'A PermissionDecision toolu_c1',
      'A2 PostToolUse toolu_c1',
      'A2 Stop',
    ]);
    // The timeline of the session reports the decision once, although the restarted worker replayed it.
    expect(eventsOf(session, 'permission_decision')).toHaveLength(1);
    // `hookloop timeline` reads that file on the worker's machine as it does for a local session.
    const timeline = spawnSync(process.execPath, [CLI, 'timeline', session], {
      cwd: project,
      env: { ...process.env, HOME: home, HOOKLOOP_HOME: config },
      encoding: 'utf8',
    });
    expect(timeline.status, timeline.stderr).toBe(0);
    expect(existsSync(timeline.stdout.trim())).toBe(true);
  }, 40_000);

  it('a deferred call, then the worker and the server killed and restarted: an approval from another process runs it once; another input or call is refused', async () => {
    const session = 'd0000000-0000-4000-8000-000000000002';
    const deferred = await hookloop(['-p', 'defer-run', '--session-id', session, '--output-format', 'json']);
    // What a local run prints for a deferred call.
    expect(deferred.code, deferred.stderr).toBe(0);
    expect(json(deferred.stdout)).toMatchObject({
      terminal_reason: 'tool_deferred',
      deferred_tool_use: { id: 'toolu_d1', name: 'Write' },
      pending_tool_uses: [expect.objectContaining({ id: 'toolu_d1', reason: 'defer' })],
    });
    await killHard(current.child);
    await server.restart();
    current = await startWorker('A3', currentPort);
    const unknown = await hookloop(['--resume', session, '--approve', 'toolu_other']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'hookloop: --approve toolu_other: that call does not wait for a decision (waiting: toolu_d1)',
    );
    // An approval page that sends another input than the one the call waits with is refused by the server.
    const other = await fetch(`${server.ingress}/hookloop-session/${session}/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        toolu_d1: { behavior: 'allow', input: { file_path: '/etc/passwd', content: 'x' } },
      }),
    });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(await other.text()).toContain('not the pending input');
    expect(existsSync(path.join(project, 'approved.txt'))).toBe(false);
    const approved = await hookloop(['--resume', session, '--approve', 'toolu_d1']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toBe('defer-run done\n');
    expect(readFileSync(path.join(project, 'approved.txt'), 'utf8')).toBe('yes');
    expect(hooksOf(session).filter((line) => line.includes('PostToolUse'))).toEqual([
      'A3 PostToolUse toolu_d1',
    ]);
  }, 60_000);

  it('a denial pairs the waiting call with its message, and the run goes on', async () => {
    const session = 'e0000000-0000-4000-8000-000000000003';
    const deferred = await hookloop(['-p', 'deny-run', '--session-id', session]);
    expect(deferred.code, deferred.stderr).toBe(0);
    const denied = await hookloop([
      '--resume',
      session,
      '--deny',
      'toolu_n1=not this file',
      '--output-format',
      'json',
    ]);
    expect(denied.code, denied.stderr).toBe(0);
    expect(json(denied.stdout)).toMatchObject({ result: 'deny-run done', terminal_reason: 'completed' });
    expect(existsSync(path.join(project, 'denied.txt'))).toBe(false);
    const transcript = (await (
      await fetch(`${server.ingress}/hookloop-session/${session}/transcript`, { method: 'POST' })
    ).json()) as { role: string; content?: unknown }[];
    expect(transcript.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(transcript[2])).toContain('not this file');
  }, 40_000);

  it('two workers behind one URL: the one holding a session is killed, the other finishes it', async () => {
    const ports = [await freePort(), await freePort()];
    balanced = [await startWorker('B1', ports[0]!), await startWorker('B2', ports[1]!)];
    await server.register(`http://127.0.0.1:${await balancer(ports)}`);
    const session = 'f0000000-0000-4000-8000-000000000004';
    const run = hookloop(['-p', 'two-workers-run', '--session-id', session, '--output-format', 'json']);
    const effect = await until('the tool step to start', async () =>
      lines('effects.txt').find((line) => line.startsWith('toolu_t1')),
    );
    const holder = balanced.find((worker) => effect === `toolu_t1 ${worker.name}`)!;
    const other = balanced.find((worker) => worker !== holder)!;
    await killHard(holder.child);
    const { code, stdout, stderr } = await run;
    expect(code, stderr).toBe(0);
    expect(json(stdout)).toMatchObject({ result: 'two-workers-run done', terminal_reason: 'completed' });
    expect(lines('effects.txt').filter((line) => line.startsWith('toolu_t1'))).toEqual([effect]);
    expect(
      hooksOf(session).filter((line) => !line.includes('PreToolUse') && !line.includes('PermissionDecision')),
    ).toEqual([`${other.name} PostToolUse toolu_t1`, `${other.name} Stop`]);
    balanced = [other];
  }, 90_000);

  it('a worker restarted with code that replays differently: the CLI names the step and exits 1, instead of diverging or hanging', async () => {
    const session = '90000000-0000-4000-8000-000000000005';
    const run = hookloop(['-p', 'diverge-run', '--session-id', session]);
    await until('the tool step to start', async () =>
      lines('effects.txt').some((line) => line.startsWith('toolu_v1')) ? true : undefined,
    );
    const [survivor] = balanced;
    await killHard(survivor!.child);
    // The new setup fires a UserPromptSubmit hook: a step the journal of this run does not have.
    const changed = { hooks: { UserPromptSubmit: [{ hooks: [logHook] }] } };
    await startWorker('C', survivor!.port, ['--settings', JSON.stringify(changed)]);
    const { code, stdout, stderr } = await run;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const printed = stderr.trim().split('\n');
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      /^hookloop: the durable run of session 90000000-0000-4000-8000-000000000005 cannot go on/,
    );
    expect(printed[0]).toContain('model:main:turn-1');
    expect(lines('effects.txt').filter((line) => line.startsWith('toolu_v1'))).toHaveLength(1);
  }, 60_000);
});
