/**
 * Row 0, hookloop and Claude Code side by side: the same scripted work through both CLIs against
 * the same local mock of the Messages API (mock-messages.ts; hookloop through its Anthropic
 * provider with ANTHROPIC_BASE_URL), in interleaved rounds (every workload of both agents once per
 * round), medians over rounds of per-round paired differences:
 * - start-up: `-p hi`, the model answers with text at once (wall, spawn to exit), against `node -e 0`;
 * - per tool call: `CALLS` Bash `echo a` calls, one per turn, minus start-up, per call;
 * - per hook: a `cat >/dev/null` command hook on PreToolUse and PostToolUse, minus the same run
 *   without hooks, per invocation; five different such hooks on each event, per event;
 * - a one-shot `node` hook (bench/node-hook.ts, written with `hookloop/hook`) on PreToolUse (the
 *   same script as a `"persistent": true` hook, a hookloop extension, is row 2: in-process);
 * - CPU (user + system of the whole process tree, from `/usr/bin/time`) and peak RSS (its largest
 *   process) of the five-hooks run.
 * Claude Code is found at HOOKLOOP_BENCH_CLAUDE or where the conformance setup (npm install --prefix /tmp/oracle-cc)
 * installs it; without it its cells say so and hookloop's rows still run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockMessages } from './mock-messages.js';
import { stats, verdict, type BenchRow, type Stats } from './measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOOKLOOP = process.env['HOOKLOOP_BENCH_BIN'] ?? path.resolve(here, '../bundle/cli/bin.js');
const NODE_HOOK = path.resolve(here, 'node-hook.js');
const CLAUDE_CANDIDATES = [
  process.env['HOOKLOOP_BENCH_CLAUDE'],
  '/tmp/oracle-cc/node_modules/@anthropic-ai/claude-code-linux-x64/claude',
];
const CALLS = 8;
const TIME = '/usr/bin/time';

type Agent = 'hookloop' | 'claude';
type Workload = 'startup' | 'tools' | 'hook' | 'five' | 'node' | 'persistent';
interface Sample {
  wallMs: number;
  cpuMs?: number;
  rssMb?: number;
}

function claudeBinary(): string | undefined {
  return CLAUDE_CANDIDATES.find((file): file is string => file !== undefined && fs.existsSync(file));
}

function hookEntries(commands: readonly string[], persistent = false) {
  return [
    {
      matcher: 'Bash',
      hooks: commands.map((command) => ({
        type: 'command',
        command,
        timeout: 30,
        ...(persistent ? { persistent: true } : {}),
      })),
    },
  ];
}

/** The settings file of one workload (Bash allowed, so no approval is needed in `-p`). */
function settingsFor(workload: Workload): Record<string, unknown> {
  const cat = 'cat >/dev/null';
  const five = [1, 2, 3, 4, 5].map((n) => `cat >/dev/null # ${n}`);
  const node = `node ${JSON.stringify(NODE_HOOK)}`;
  const hooks: Record<string, unknown> =
    workload === 'hook'
      ? { PreToolUse: hookEntries([cat]), PostToolUse: hookEntries([cat]) }
      : workload === 'five'
        ? { PreToolUse: hookEntries(five), PostToolUse: hookEntries(five) }
        : workload === 'node'
          ? { PreToolUse: hookEntries([node]) }
          : workload === 'persistent'
            ? { PreToolUse: hookEntries([node], true) }
            : {};
  return { permissions: { allow: ['Bash'] }, hooks };
}

/** Runs one agent once on one workload in a fresh project and HOME. @throws Error when it fails. */
async function runOnce(agent: Agent, workload: Workload, claude: string | undefined): Promise<Sample> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bench-sbs-')));
  const mock = await startMockMessages(workload === 'startup' ? 0 : CALLS, 'echo a');
  try {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    fs.mkdirSync(home);
    fs.mkdirSync(project);
    const settings = path.join(root, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify(settingsFor(workload)));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      USER: process.env['USER'] ?? 'root',
      SHELL: '/bin/bash',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: os.tmpdir(),
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: 'sk-ant-bench',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    const args = ['-p', 'hi', '--settings', settings, '--output-format', 'json'];
    const argv = agent === 'claude' ? [claude!, ...args] : [process.execPath, HOOKLOOP, ...args];
    return await timed(argv, project, env);
  } finally {
    await mock.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Wall time of `argv`, and its tree's CPU and peak RSS when /usr/bin/time is there. @throws Error on a non-zero exit. */
async function timed(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const useTime = fs.existsSync(TIME);
  const [file, args] = useTime ? [TIME, ['-f', 'BENCH %e %U %S %M', ...argv]] : [argv[0]!, argv.slice(1)];
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.once('error', reject);
      child.once('close', (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
    },
  );
  const wallMs = performance.now() - started;
  if (code !== 0)
    throw new Error(`${argv.slice(0, 2).join(' ')} exited ${code}: ${(stderr + stdout).slice(-600)}`);
  const match = /BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return match
    ? { wallMs, cpuMs: (Number(match[2]) + Number(match[3])) * 1000, rssMb: Number(match[4]) / 1024 }
    : { wallMs };
}

function median(values: readonly number[]): Stats {
  return stats(values);
}

/** Runs row 0 and returns its rows; `rounds` interleaved rounds after one warm-up round. */
export async function sideBySideRows(options: { rounds: number }): Promise<BenchRow[]> {
  const claude = claudeBinary();
  const agents: Agent[] = claude ? ['hookloop', 'claude'] : ['hookloop'];
  // The persistent hook is measured in row 2, in-process: its ~0.1 ms per invocation is far below
  // what differences of whole CLI runs can resolve here.
  const workloads: Workload[] = ['startup', 'tools', 'hook', 'five', 'node'];
  const samples = new Map<string, Sample[]>();
  const nodeBare: number[] = [];
  // Warm-up: one start-up of each, so files are in the page cache.
  for (const agent of agents) await runOnce(agent, 'startup', claude);
  for (let round = 0; round < options.rounds; round++) {
    for (const workload of workloads) {
      for (const agent of agents) {
        if (agent === 'claude' && workload === 'persistent') continue;
        const sample = await runOnce(agent, workload, claude);
        samples.set(`${agent}:${workload}`, [...(samples.get(`${agent}:${workload}`) ?? []), sample]);
      }
    }
    nodeBare.push((await timed([process.execPath, '-e', '0'], os.tmpdir(), process.env)).wallMs);
  }
  const wall = (agent: Agent, workload: Workload) =>
    (samples.get(`${agent}:${workload}`) ?? []).map((sample) => sample.wallMs);
  /** Per round: (a − b) / divisor, then the median over rounds. */
  const paired = (agent: Agent, a: Workload, b: Workload, divisor: number): Stats | undefined => {
    const left = wall(agent, a);
    const right = wall(agent, b);
    if (left.length === 0 || right.length === 0) return undefined;
    return median(left.map((value, index) => (value - right[index]!) / divisor));
  };
  const perRound = (agent: Agent) => ({
    startup: wall(agent, 'startup').length > 0 ? median(wall(agent, 'startup')) : undefined,
    tool: paired(agent, 'tools', 'startup', CALLS),
    hook: paired(agent, 'hook', 'tools', CALLS * 2),
    five: paired(agent, 'five', 'tools', CALLS * 2),
    node: paired(agent, 'node', 'tools', CALLS),
    persistent: paired(agent, 'persistent', 'tools', CALLS),
    cpu: samples.get(`${agent}:five`)?.every((sample) => sample.cpuMs !== undefined)
      ? median(samples.get(`${agent}:five`)!.map((sample) => sample.cpuMs!))
      : undefined,
    rss:
      (samples.get(`${agent}:five`) ?? []).length > 0 &&
      samples.get(`${agent}:five`)!.every((sample) => sample.rssMb !== undefined)
        ? median(samples.get(`${agent}:five`)!.map((sample) => sample.rssMb!))
        : undefined,
  });
  const ours = perRound('hookloop');
  const theirs = claude ? perRound('claude') : undefined;
  const missing =
    'Claude Code not installed (npm install --prefix /tmp/oracle-cc @anthropic-ai/claude-code@2.1.328, or set HOOKLOOP_BENCH_CLAUDE)';
  const bare = median(nodeBare);
  const rows: BenchRow[] = [];
  const vsClaude = (
    row: string,
    unit: string,
    mine: Stats | undefined,
    other: Stats | undefined,
    limit: number | undefined,
    goal: string,
    note?: string,
  ) => {
    if (!mine) return;
    const ratio = other ? mine.median / other.median : undefined;
    rows.push({
      row,
      unit,
      hookloop: mine,
      floorLabel: 'Claude Code 2.1.328',
      ...(other ? { floor: other } : {}),
      ...(ratio !== undefined ? { ratio } : {}),
      goal,
      verdict: ratio === undefined || limit === undefined ? 'info' : verdict(ratio <= limit),
      ...(other ? (note ? { note } : {}) : { note: missing }),
    });
  };
  // The floor no CLI on this Node gets under: Node's own start-up, as a share of Claude Code's.
  const nodeShare = theirs?.startup ? bare.median / theirs.startup.median : undefined;
  const startupNote =
    nodeShare === undefined
      ? undefined
      : `floor: \`node -e 0\` alone is ${nodeShare.toFixed(2)}× Claude Code's start-up here${nodeShare > 0.35 ? ', so ≤ 0.35× cannot hold on this machine' : ''}`;
  vsClaude(
    '0 -p start-up, Anthropic provider, one text turn (ms)',
    'ms',
    ours.startup,
    theirs?.startup,
    0.35,
    '≤ 0.35× Claude Code',
    startupNote,
  );
  if (ours.startup) {
    const ratio = ours.startup.median / bare.median;
    rows.push({
      row: '0 -p start-up vs node -e 0 (ms)',
      unit: 'ms',
      hookloop: ours.startup,
      floorLabel: 'node -e 0',
      floor: bare,
      ratio,
      goal: '≤ 4× node -e 0',
      verdict: verdict(ratio <= 4),
    });
  }
  vsClaude(
    `0 per Bash call incl. model round trip, no hooks (ms)`,
    'ms',
    ours.tool,
    theirs?.tool,
    0.4,
    '≤ 0.4× Claude Code',
  );
  vsClaude(
    '0 per `cat >/dev/null` command hook (ms/invocation)',
    'ms',
    ours.hook,
    theirs?.hook,
    0.5,
    '≤ 0.5× Claude Code',
  );
  vsClaude(
    '0 five such hooks on one event (ms/event)',
    'ms',
    ours.five,
    theirs?.five,
    undefined,
    'report',
    theirs?.five ? undefined : undefined,
  );
  if (ours.five && ours.hook) {
    const ratio = ours.five.median / ours.hook.median;
    rows.push({
      row: '0 five hooks on one event vs one (ms)',
      unit: 'ms',
      hookloop: ours.five,
      floorLabel: 'one hook',
      floor: ours.hook,
      ratio,
      goal: '≤ 2.5× one hook',
      verdict: verdict(ratio <= 2.5),
      ...(theirs?.five && theirs.hook
        ? {
            note: `Claude Code: ${theirs.five.median.toFixed(1)} vs ${theirs.hook.median.toFixed(1)} ms (${(theirs.five.median / theirs.hook.median).toFixed(2)}×)`,
          }
        : {}),
    });
  }
  vsClaude('0 one-shot `node` hook (ms/invocation)', 'ms', ours.node, theirs?.node, undefined, 'report');
  if (ours.persistent && ours.node) {
    const ratio = ours.node.median / Math.max(ours.persistent.median, 0.001);
    rows.push({
      row: '0 persistent `node` hook (ms/invocation)',
      unit: 'ms',
      hookloop: ours.persistent,
      floorLabel: 'one-shot node hook',
      floor: ours.node,
      ratio: ours.persistent.median / ours.node.median,
      goal: '≤ 0.5 ms and ≥ 100× cheaper',
      verdict: verdict(ours.persistent.median <= 0.5 && ratio >= 100),
      note: `a hookloop extension (Claude Code has none): ${ratio >= 1000 ? '≥ 1000' : ratio.toFixed(0)}× cheaper than one-shot; a difference of two whole runs (${CALLS} invocations each) on a busy machine, so a median below 0 is noise around 0`,
    });
  }
  vsClaude(
    `0 CPU of the five-hooks run, ${CALLS} calls, whole process tree (ms)`,
    'ms',
    ours.cpu,
    theirs?.cpu,
    undefined,
    'report',
  );
  if (ours.rss) {
    rows.push({
      row: '0 peak RSS of the five-hooks run, largest process (MB)',
      unit: 'MB',
      hookloop: ours.rss,
      floorLabel: 'Claude Code 2.1.328',
      ...(theirs?.rss ? { floor: theirs.rss, ratio: ours.rss.median / theirs.rss.median } : {}),
      goal: '≤ 70 MB',
      verdict: verdict(ours.rss.median <= 70),
      note: "hookloop's main process; its spawner process (~40 MB, started at the first command) comes on top",
    });
  }
  return rows;
}
