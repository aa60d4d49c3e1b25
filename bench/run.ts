/**
 * `npm run bench`: runs every benchmark row, prints the table (hookloop against its floor measured
 * in the same run) and writes bench/results.json with the machine it ran on.
 *
 * `node dist/bench/run.js [row…]` runs only the given rows (0–8); HOOKLOOP_BENCH_QUICK=1 takes
 * fewer samples (for trying things out, not for docs/performance.md); `--print` prints the table of the last
 * bench/results.json without running anything (for docs/performance.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliStartupRows } from './cli-startup.js';
import { durableRows } from './durable.js';
import { commandHookRows } from './command-hooks.js';
import { bashReadOnlyFuzzRows } from './bash-read-only-fuzz.js';
import { fuzzRows } from './fuzz.js';
import { growthRows } from './growth.js';
import { loopOverheadRows } from './loop-overhead.js';
import type { BenchRow, Stats } from './measure.js';
import { scaleRows } from './scale.js';
import { sideBySideRows } from './side-by-side.js';

const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/results.json');
const quick = process.env['HOOKLOOP_BENCH_QUICK'] === '1';
const samples = quick ? { runs: 3, warmup: 1 } : { runs: 7, warmup: 1 };

const sections: { id: string; title: string; run: () => Promise<BenchRow[]> }[] = [
  { id: '0', title: 'side by side with Claude Code', run: () => sideBySideRows({ rounds: quick ? 2 : 3 }) },
  { id: '1', title: 'in-process loop overhead', run: () => loopOverheadRows(samples) },
  // Each sample of row 2 already spawns 400 processes; 3 samples keep the bench under 5 minutes.
  { id: '2', title: 'command hook cost', run: () => commandHookRows({ runs: 3, warmup: 1 }) },
  {
    id: '3',
    title: 'CLI start-up and memory',
    run: () => cliStartupRows(quick ? samples : { runs: 10, warmup: 2 }),
  },
  { id: '4', title: 'scale', run: () => scaleRows() },
  { id: '5', title: 'growth', run: () => growthRows(samples) },
  { id: '6', title: 'fault injection, 10,000 runs', run: () => fuzzRows(quick ? 1000 : 10_000) },
  {
    id: '7',
    title: 'read-only Bash in a bubblewrap sandbox, 5,000 commands',
    run: () => bashReadOnlyFuzzRows(quick ? 1000 : 5000),
  },
  { id: '8', title: 'durable runs on Restate', run: () => durableRows({ runs: quick ? 2 : 5, warmup: 1 }) },
];

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
}

function format(value: number, unit: string): string {
  if (unit === 'calls/s') return Math.round(value).toLocaleString('en-US');
  if (unit === 's') return value.toFixed(1);
  const abs = Math.abs(value);
  return abs >= 1000
    ? Math.round(value).toLocaleString('en-US')
    : abs >= 100
      ? value.toFixed(0)
      : abs >= 10
        ? value.toFixed(1)
        : value.toFixed(2);
}

function cell(stats: Stats | undefined, unit: string): string {
  if (!stats) return '';
  return stats.runs > 1
    ? `${format(stats.median, unit)} (${format(stats.min, unit)}–${format(stats.max, unit)})`
    : format(stats.median, unit);
}

/** The table as GitHub markdown (also readable as plain text). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = [
    'row',
    'hookloop median (min–max)',
    'floor',
    'floor median (min–max)',
    'ratio',
    'goal',
    'verdict',
  ];
  const lines = rows.map((row) => [
    row.row,
    cell(row.hookloop, row.unit),
    row.floorLabel ?? '',
    cell(row.floor, row.unit),
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.goal,
    row.verdict,
  ]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...lines.map((line) => line[index]!.length)),
  );
  const render = (cells: readonly string[]) =>
    `| ${cells.map((text, index) => text.padEnd(widths[index]!)).join(' | ')} |`;
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.row}: ${row.note}`);
  return [
    render(header),
    render(widths.map((width) => '-'.repeat(width))),
    ...lines.map(render),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}

function machineLine(
  info: ReturnType<typeof machine> & { loadAverage1mBefore: number; loadAverage1mAfter: number },
  durationS: number,
): string {
  return `machine: ${info.cpu}, ${info.cores} cores, ${info.memoryGb} GB, ${info.platform}, Node ${info.node}; load average ${info.loadAverage1mBefore} → ${info.loadAverage1mAfter}; ${durationS.toFixed(0)} s`;
}

async function main(): Promise<void> {
  if (process.argv.includes('--print')) {
    const saved = JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as {
      date: string;
      durationS: number;
      machine: Parameters<typeof machineLine>[0];
      rows: BenchRow[];
    };
    process.stdout.write(
      `${renderTable(saved.rows)}\n\n${machineLine(saved.machine, saved.durationS)}; ${saved.date}\n`,
    );
    return;
  }
  const wanted = process.argv.slice(2);
  const started = performance.now();
  const loadBefore = os.loadavg();
  const rows: BenchRow[] = [];
  for (const section of sections) {
    if (wanted.length > 0 && !wanted.includes(section.id)) continue;
    const sectionStarted = performance.now();
    process.stderr.write(`bench: ${section.id} ${section.title}…`);
    rows.push(...(await section.run()));
    process.stderr.write(` ${((performance.now() - sectionStarted) / 1000).toFixed(1)} s\n`);
  }
  const durationS = (performance.now() - started) / 1000;
  const info = {
    ...machine(),
    loadAverage1mBefore: Number(loadBefore[0]!.toFixed(2)),
    loadAverage1mAfter: Number(os.loadavg()[0]!.toFixed(2)),
  };
  process.stdout.write(`${renderTable(rows)}\n\n`);
  process.stdout.write(`${machineLine(info, durationS)}\n`);
  if (wanted.length === 0 && !quick) {
    fs.writeFileSync(
      RESULTS,
      `${JSON.stringify({ date: new Date().toISOString(), durationS: Math.round(durationS), machine: info, rows }, null, 2)}\n`,
    );
    process.stdout.write(`wrote ${path.relative(process.cwd(), RESULTS)}\n`);
  }
  if (rows.some((row) => row.verdict === 'FAIL'))
    process.stdout.write('some goals are not met: see docs/performance.md for why\n');
}

// Run only as the entry point, so that renderTable can be imported without starting the bench.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  await main();
