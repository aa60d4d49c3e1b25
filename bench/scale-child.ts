/**
 * Row 4's measuring process (run with --expose-gc by scale.ts; prints one JSON object on stdout):
 * sessions of 20 Noop calls (4 turns of 5) with 3 callback hooks each, in one process.
 * - live memory: every session parks inside its 10th tool call until all have arrived; then a
 *   full GC and `heapUsed`, for 1 session and for `SESSIONS` sessions (the difference is what the
 *   extra sessions cost while running);
 * - throughput (per CPU second): `SESSIONS` sessions started at once, against the same sessions one after another;
 * - leaks: `ROUNDS` rounds of `SESSIONS` concurrent sessions, `heapUsed` after a full GC after each.
 */
import os from 'node:os';
import { z } from 'zod';
import { HookEngine } from '../src/hooks/hook-engine.js';
import { runAgent } from '../src/run/run-agent.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import { defineTool } from '../src/tools/define-tool.js';
import { noopScript } from './loop-overhead.js';

const SESSIONS = Number(process.env['HOOKLOOP_BENCH_SESSIONS'] ?? 1000);
const ROUNDS = Number(process.env['HOOKLOOP_BENCH_ROUNDS'] ?? 10);
const SCRIPT = noopScript(4, 5);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('scale-child needs --expose-gc');

function fullGc(): void {
  gc!();
  gc!();
}

const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/** A barrier the 10th call of every session waits at, so that all sessions are alive at once. */
function barrier(parties: number, atFull: () => void) {
  let arrived = 0;
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    if (++arrived === parties) {
      atFull();
      release();
    }
    await open;
  };
}

function session(wait?: () => Promise<void>) {
  let calls = 0;
  const tool = defineTool({
    name: 'Noop',
    description: 'does nothing',
    inputSchema: z.strictObject({ n: z.number() }),
    readOnly: true,
    handler: async () => {
      if (++calls === 10 && wait) await wait();
      return 'ok';
    },
  });
  const hooks = new HookEngine();
  hooks.on('PreToolUse', ({ tool_name }) => void tool_name);
  hooks.on('PostToolUse', ({ tool_response }) => void tool_response);
  hooks.on('Stop', () => undefined);
  // The result is dropped at once: a round's results must not stay reachable and pass for a leak.
  return runAgent('go', {
    model: new ScriptedModel(SCRIPT, { record: false }),
    projectDir: os.tmpdir(),
    tools: [tool],
    hooks,
    transcript: false,
  }).then((result) => {
    if (result.terminalReason !== 'completed') throw new Error(`session ended with ${result.terminalReason}`);
  });
}

async function liveHeapMb(sessions: number): Promise<number> {
  let measured = 0;
  const wait = barrier(sessions, () => {
    fullGc();
    measured = heapMb();
  });
  await Promise.all(Array.from({ length: sessions }, () => session(wait)));
  return measured;
}

// Warm-up: compile the hot paths so later measurements do not count code and feedback vectors.
for (let index = 0; index < 3; index++) await Promise.all(Array.from({ length: 200 }, () => session()));
fullGc();
const idleMb = heapMb();
const oneMb = await liveHeapMb(1);
const manyMb = await liveHeapMb(SESSIONS);

const concurrentSamples: number[] = [];
const sequentialSamples: number[] = [];
const afterRoundMb: number[] = [];
// Throughput is per CPU second of this process (user + system), for the reason measure.ts gives.
const cpuMsNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
for (let round = 0; round < ROUNDS; round++) {
  let started = cpuMsNow();
  await Promise.all(Array.from({ length: SESSIONS }, () => session()));
  concurrentSamples.push(cpuMsNow() - started);
  fullGc();
  afterRoundMb.push(heapMb());
  if (round < 2) {
    started = cpuMsNow();
    for (let index = 0; index < SESSIONS; index++) await session();
    sequentialSamples.push(cpuMsNow() - started);
    fullGc();
  }
}
// The whole round runs in microtasks (the scripted model does no I/O), so sampling on a timer would
// see nothing: the process's peak RSS is read once at the end instead.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  JSON.stringify({
    sessions: SESSIONS,
    callsPerSession: 20,
    rounds: ROUNDS,
    idleMb,
    oneMb,
    manyMb,
    peakRssMb,
    concurrentMs: concurrentSamples,
    sequentialMs: sequentialSamples,
    afterRoundMb,
  }),
);
