/**
 * Row 2, command hook cost: a trivial command hook on PreToolUse and PostToolUse over 200 tool
 * calls, per invocation, against spawning the same command straight from Node (`/bin/sh -c`, the
 * event JSON on stdin, wait for exit); five hooks on one event against one; a `node -e` hook
 * against node's own start-up.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookEngine } from '../src/hooks/hook-engine.js';
import type { HookEventName } from '../src/hooks/event-names.js';
import { closePersistentHooks } from '../src/hooks/transports/persistent-command.js';
import {
  registerSettingsHandlers,
  type ExternalHandlerEntry,
} from '../src/hooks/transports/settings-handlers.js';
import { runAgent } from '../src/run/run-agent.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import { noopScript, noopTool } from './loop-overhead.js';
import { interleaved, timeMs, verdict, type BenchRow } from './measure.js';

/** A command hook entry as the settings loader would produce it. */
function commandEntry(event: HookEventName, command: string): ExternalHandlerEntry {
  return {
    event,
    matcher: undefined,
    config: { type: 'command', command, timeout: 30 } as ExternalHandlerEntry['config'],
    source: { file: 'bench' },
  };
}

/** ms for one agent run of `calls` Noop calls (10 per turn) with `commands` on each of `events`. */
async function agentRun(
  calls: number,
  events: readonly HookEventName[],
  commands: readonly string[],
): Promise<number> {
  const hooks = new HookEngine();
  registerSettingsHandlers(
    hooks,
    events.flatMap((event) => commands.map((command) => commandEntry(event, command))),
    os.tmpdir(),
  );
  const perTurn = Math.min(10, calls);
  const turns = calls / perTurn;
  return timeMs(() =>
    runAgent('go', {
      model: new ScriptedModel(noopScript(turns, perTurn), { record: false }),
      projectDir: os.tmpdir(),
      tools: [noopTool()],
      hooks,
      maxTurns: turns + 1,
      transcript: false,
    }),
  );
}

// What a PreToolUse hook reads on stdin, so the floor writes as many bytes as hookloop does.
const SAMPLE_EVENT = JSON.stringify({
  session_id: '00000000-0000-4000-8000-000000000000',
  transcript_path: `${os.homedir()}/.claude/projects/-tmp/00000000-0000-4000-8000-000000000000.jsonl`,
  cwd: os.tmpdir(),
  permission_mode: 'default',
  effort: { level: 'medium' },
  hook_event_name: 'PreToolUse',
  tool_name: 'Noop',
  tool_input: { n: 1 },
  tool_use_id: 'toolu_1',
});

/** Spawns `/bin/sh -c command` with the event on stdin and waits until it exited and its pipes closed. */
function rawSpawn(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    child.stdin.end(SAMPLE_EVENT);
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

/** ms for `count` sequential raw spawns, each of `parallel` commands at once (as the engine runs one event's hooks). */
async function rawSpawns(count: number, commands: readonly string[]): Promise<number> {
  return timeMs(async () => {
    for (let index = 0; index < count; index++) await Promise.all(commands.map(rawSpawn));
  });
}

/** The `node` hook written with hookloop/hook (node-hook.ts), run one-shot and persistent. */
const NODE_HOOK = `node ${JSON.stringify(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'node-hook.js'))}`;

/**
 * ms for one agent run of `calls` Noop calls (10 per turn) with `engine`'s hooks, in session
 * `sessionId` (a persistent hook's process lives for its session: the same id keeps it across runs).
 */
async function sessionRun(calls: number, engine: HookEngine, sessionId: string): Promise<number> {
  const turns = calls / 10;
  return timeMs(() =>
    runAgent('go', {
      model: new ScriptedModel(noopScript(turns, 10), { record: false }),
      projectDir: os.tmpdir(),
      tools: [noopTool()],
      hooks: engine,
      maxTurns: turns + 1,
      transcript: false,
      sessionId,
    }),
  );
}

/** Per invocation of the node hook on PreToolUse, persistent (its process already started) against one-shot. */
async function persistentRows(options: { runs: number; warmup: number }): Promise<BenchRow> {
  const persistent = new HookEngine();
  const config = {
    type: 'command',
    command: NODE_HOOK,
    timeout: 30,
    persistent: true,
  } as ExternalHandlerEntry['config'];
  const registration = registerSettingsHandlers(
    persistent,
    [{ event: 'PreToolUse', matcher: undefined, config, source: { file: 'bench' } }],
    os.tmpdir(),
  );
  const oneShot = new HookEngine();
  registerSettingsHandlers(oneShot, [commandEntry('PreToolUse', NODE_HOOK)], os.tmpdir());
  const none = new HookEngine();
  const sessionId = randomUUID();
  try {
    const measured = await interleaved(
      {
        persistent: async () =>
          ((await sessionRun(PERSISTENT_CALLS, persistent, sessionId)) -
            (await sessionRun(PERSISTENT_CALLS, none, sessionId))) /
          PERSISTENT_CALLS,
        oneShot: async () =>
          ((await sessionRun(NODE_CALLS, oneShot, sessionId)) -
            (await sessionRun(NODE_CALLS, none, sessionId))) /
          NODE_CALLS,
      },
      options,
    );
    const ratio = measured.oneShot.median / measured.persistent.median;
    return {
      row: '2 persistent `node` hook (hookloop/hook) (ms/invocation)',
      unit: 'ms',
      hookloop: measured.persistent,
      floorLabel: 'the same, one-shot',
      floor: measured.oneShot,
      ratio: measured.persistent.median / measured.oneShot.median,
      goal: '≤ 0.5 ms and ≥ 100× cheaper',
      verdict: verdict(measured.persistent.median <= 0.5 && ratio >= 100),
      note: `${ratio.toFixed(0)}× cheaper than one node start-up per event (its process starts once per session, here in the warm-up)`,
    };
  } finally {
    registration.unregister();
    await closePersistentHooks();
  }
}

const PERSISTENT_CALLS = 200;
const CALLS = 200;
const FAN_CALLS = 100;
const NODE_CALLS = 20;

/** Runs row 2 and returns its rows. */
export async function commandHookRows(options: { runs: number; warmup: number }): Promise<BenchRow[]> {
  const prePost: HookEventName[] = ['PreToolUse', 'PostToolUse'];
  const invocations = CALLS * prePost.length;
  const rows: BenchRow[] = [];
  for (const command of ['true', 'cat >/dev/null']) {
    const measured = await interleaved(
      {
        // The loop without hooks is a few ms for 200 calls; it is subtracted so the row is the hooks' cost.
        hookloop: async () =>
          ((await agentRun(CALLS, prePost, [command])) - (await agentRun(CALLS, [], []))) / invocations,
        floor: async () => (await rawSpawns(invocations, [command])) / invocations,
      },
      options,
    );
    const ratio = measured.hookloop.median / measured.floor.median;
    rows.push({
      row: `2 command hook \`${command}\` (ms/invocation)`,
      unit: 'ms',
      hookloop: measured.hookloop,
      floorLabel: 'spawn from Node',
      floor: measured.floor,
      ratio,
      goal: '≤ 1.3× raw spawn',
      verdict: verdict(ratio <= 1.3),
    });
  }

  // Five different commands: identical ones would run once (Claude Code dedupes by command string).
  const five = ['true 1', 'true 2', 'true 3', 'true 4', 'true 5'];
  const fan = await interleaved(
    {
      one: async () => (await agentRun(FAN_CALLS, ['PreToolUse'], ['true'])) / FAN_CALLS,
      five: async () => (await agentRun(FAN_CALLS, ['PreToolUse'], five)) / FAN_CALLS,
      rawOne: async () => (await rawSpawns(FAN_CALLS, ['true'])) / FAN_CALLS,
      rawFive: async () => (await rawSpawns(FAN_CALLS, five)) / FAN_CALLS,
    },
    options,
  );
  const fanRatio = fan.five.median / fan.one.median;
  rows.push({
    row: '2 five `true` hooks on one event vs one (ms/call)',
    unit: 'ms',
    hookloop: fan.five,
    floorLabel: 'one hook',
    floor: fan.one,
    ratio: fanRatio,
    goal: '≤ 2× one hook',
    verdict: verdict(fanRatio <= 2),
    note: `the same from Node directly, 5 spawns at once vs 1: ${fan.rawFive.median.toFixed(1)} vs ${fan.rawOne.median.toFixed(1)} ms (${(fan.rawFive.median / fan.rawOne.median).toFixed(2)}×): Node starts processes one after another on its main thread, and ${os.cpus().length} cores run them`,
  });

  const nodeCommand = 'node -e 0';
  const nodeRuns = { runs: Math.max(3, Math.ceil(options.runs / 2)), warmup: 1 };
  const nodeHook = await interleaved(
    {
      hookloop: async () =>
        ((await agentRun(NODE_CALLS, ['PreToolUse'], [nodeCommand])) - (await agentRun(NODE_CALLS, [], []))) /
        NODE_CALLS,
      floor: async () => (await rawSpawns(NODE_CALLS, [nodeCommand])) / NODE_CALLS,
    },
    nodeRuns,
  );
  rows.push({
    row: '2 `node -e 0` hook (ms/invocation)',
    unit: 'ms',
    hookloop: nodeHook.hookloop,
    floorLabel: 'spawn from Node',
    floor: nodeHook.floor,
    ratio: nodeHook.hookloop.median / nodeHook.floor.median,
    goal: 'report (node start-up)',
    verdict: 'info',
    note: `a hook written in JavaScript pays node's start-up (~${nodeHook.floor.median.toFixed(0)} ms here) on every event; a shell hook pays ~${rows[0]!.floor!.median.toFixed(1)} ms`,
  });
  rows.push(await persistentRows({ runs: options.runs + 2, warmup: 1 }));
  return rows;
}
