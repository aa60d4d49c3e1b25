/**
 * hookloop's spawner process (see spawner.ts): a small Node process that starts the hook and Bash
 * processes the agent hands it, so that each fork copies this process's few pages instead of the
 * agent's. One JSON message a line each way:
 * - in: `{"id":1,"request":SpawnRequest}`;
 * - out: `{"ready":true}` once, then per id `{"id":1,"spawned":pid}` or `{"id":1,"failed":{code,message}}`,
 *   `{"id":1,"exited":[code,signal]}`, `{"id":1,"finished":{stdout,stderr,closed}}` (bytes as base64).
 * It ends when its stdin closes (the agent exited), first SIGKILLing the process groups whose
 * output nobody will read any more; background commands (`outputFile`) and processes that exited
 * on their own are left alone, as in-process spawning leaves them. Termination signals are the
 * agent's to handle (it kills its children and exits, which closes our stdin), so they are ignored.
 */
import { spawnLocal, type CapturedStream, type SpawnRequest } from './captured-spawn.js';

const unfinished = new Map<number, number>();

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function wire(stream: CapturedStream) {
  return {
    bytes: stream.bytes.toString('base64'),
    droppedBytes: stream.droppedBytes,
    droppedNewlines: stream.droppedNewlines,
  };
}

function handle(line: string): void {
  let message: { id: number; request: SpawnRequest };
  try {
    message = JSON.parse(line) as { id: number; request: SpawnRequest };
  } catch {
    return;
  }
  const { id, request } = message;
  spawnLocal(request, {
    spawned: (pid) => {
      if (request.outputFile === undefined) unfinished.set(id, pid);
      send({ id, spawned: pid });
    },
    failed: (failure) => send({ id, failed: failure }),
    exited: (code, signal) => {
      unfinished.delete(id);
      send({ id, exited: [code, signal] });
    },
    finished: (output) =>
      send({
        id,
        finished: { stdout: wire(output.stdout), stderr: wire(output.stderr), closed: output.closed },
      }),
  });
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line !== '') handle(line);
  }
});
process.stdin.on('end', () => {
  for (const pid of unfinished.values()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  process.exit(0);
});
// A write to the agent that fails means it is gone: the 'end' above follows.
process.stdout.on('error', () => undefined);
send({ ready: true });
