/**
 * Row 3, CLI start-up and memory: `hookloop -p hi --model-script <one turn>` in an empty project
 * with an empty HOME (no settings, no hooks), wall time and peak RSS, against `node -e 0`.
 * Peak RSS comes from `/usr/bin/time -v` when present, else from a preloaded probe (rss-probe.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats, verdict, type BenchRow } from './measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bundle/cli/bin.js');
const PROBE = path.resolve(here, 'rss-probe.js');
const TIME = '/usr/bin/time';

/** One process run: wall ms (spawn to exit) and peak RSS in MB. @throws Error when the process fails. */
async function measureProcess(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ wallMs: number; rssMb: number }> {
  const useTime = fs.existsSync(TIME);
  const rssFile = path.join(cwd, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const [file, args] = useTime
    ? [TIME, ['-v', process.execPath, ...argv]]
    : [process.execPath, ['--import', PROBE, ...argv]];
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      env: { ...env, HOOKLOOP_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, stderr: err }));
  });
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(-500)}`);
  let rssKb: number;
  if (useTime) {
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    if (!match) throw new Error(`no RSS in /usr/bin/time output: ${stderr.slice(-300)}`);
    rssKb = Number(match[1]);
  } else {
    rssKb = Number(fs.readFileSync(rssFile, 'utf8'));
    fs.rmSync(rssFile, { force: true });
  }
  return { wallMs, rssMb: rssKb / 1024 };
}

/** Runs row 3 and returns its rows. */
export async function cliStartupRows(options: { runs: number; warmup: number }): Promise<BenchRow[]> {
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bench-cli-')));
  try {
    const script = path.join(project, 'one-turn.json');
    fs.writeFileSync(script, JSON.stringify([[{ type: 'text', text: 'hello' }]]));
    // An empty HOME: the user's own settings (and their hooks) must not be part of the measurement.
    const env = { ...process.env, HOME: project };
    const cli = [BIN, '-p', 'hi', '--model-script', script];
    const bare = ['-e', '0'];
    const samples = {
      cli: [] as { wallMs: number; rssMb: number }[],
      node: [] as { wallMs: number; rssMb: number }[],
    };
    for (let round = 0; round < options.warmup + options.runs; round++) {
      const cliRun = await measureProcess(cli, project, env);
      const nodeRun = await measureProcess(bare, project, env);
      if (round >= options.warmup) {
        samples.cli.push(cliRun);
        samples.node.push(nodeRun);
      }
    }
    const wall = stats(samples.cli.map((sample) => sample.wallMs));
    const nodeWall = stats(samples.node.map((sample) => sample.wallMs));
    const rss = stats(samples.cli.map((sample) => sample.rssMb));
    const nodeRss = stats(samples.node.map((sample) => sample.rssMb));
    return [
      {
        row: '3 CLI -p, one scripted turn: wall (ms)',
        unit: 'ms',
        hookloop: wall,
        floorLabel: 'node -e 0',
        floor: nodeWall,
        ratio: wall.median / nodeWall.median,
        goal: '≤ 3× node -e 0',
        verdict: verdict(wall.median <= 3 * nodeWall.median),
      },
      {
        row: '3 CLI -p, one scripted turn: peak RSS (MB)',
        unit: 'MB',
        hookloop: rss,
        floorLabel: 'node -e 0',
        floor: nodeRss,
        ratio: rss.median / nodeRss.median,
        goal: '≤ 70 MB',
        verdict: verdict(rss.median <= 70),
      },
    ];
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}
