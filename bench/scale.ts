/**
 * Row 4, scale: 1,000 concurrent sessions in one process, each 20 tool calls with 3 callback hooks.
 * Runs scale-child.js in a child process with --expose-gc (so full GCs are possible and this
 * process's heap does not count) and turns its numbers into rows.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stats, verdict, type BenchRow } from './measure.js';

const CHILD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'scale-child.js');

/** What scale-child.js prints. Memory in MB (heapUsed after full GC unless named otherwise), times in ms. */
interface ScaleReport {
  readonly sessions: number;
  readonly callsPerSession: number;
  readonly rounds: number;
  readonly idleMb: number;
  readonly oneMb: number;
  readonly manyMb: number;
  readonly peakRssMb: number;
  readonly concurrentMs: readonly number[];
  readonly sequentialMs: readonly number[];
  readonly afterRoundMb: readonly number[];
}

/** Growth of the heap over the rounds after the first, in MB, that still counts as "no growth". */
const LEAK_TOLERANCE_MB = 1;

/** Runs row 4 and returns its rows. @throws Error when the child fails. */
export async function scaleRows(): Promise<BenchRow[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', CHILD],
      { maxBuffer: 1 << 20, timeout: 180_000 },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    ),
  );
  const report = JSON.parse(stdout) as ScaleReport;
  const calls = report.sessions * report.callsPerSession;
  const concurrent = stats(report.concurrentMs.map((ms) => calls / (ms / 1000)));
  const sequential = stats(report.sequentialMs.map((ms) => calls / (ms / 1000)));
  const extraMb = report.manyMb - report.oneMb;
  const one = { median: report.oneMb, min: report.oneMb, max: report.oneMb, runs: 1 };
  const many = { median: report.manyMb, min: report.manyMb, max: report.manyMb, runs: 1 };
  const settled = report.afterRoundMb.slice(1);
  const growthMb = settled[settled.length - 1]! - settled[0]!;
  const rounds = stats(report.afterRoundMb);
  return [
    {
      row: `4 ${report.sessions} concurrent sessions: throughput (calls per CPU s)`,
      unit: 'calls/s',
      hookloop: concurrent,
      floorLabel: 'same sessions one by one',
      floor: sequential,
      ratio: concurrent.median / sequential.median,
      goal: 'report',
      verdict: 'info',
    },
    {
      row: `4 ${report.sessions} sessions alive at once: heap (MB)`,
      unit: 'MB',
      hookloop: many,
      floorLabel: 'one session alive',
      floor: one,
      ratio: report.manyMb / report.oneMb,
      goal: '≤ 50 MB above one session',
      verdict: verdict(extraMb <= 50),
      note: `${extraMb.toFixed(1)} MB above one session (${((extraMb * 1024) / (report.sessions - 1)).toFixed(1)} KB per extra session); peak RSS of the whole child ${report.peakRssMb.toFixed(0)} MB`,
    },
    {
      row: `4 heap after each of ${report.rounds} rounds (MB)`,
      unit: 'MB',
      hookloop: rounds,
      goal: `no growth (< ${LEAK_TOLERANCE_MB} MB over rounds 2–${report.rounds})`,
      verdict: verdict(Math.abs(growthMb) < LEAK_TOLERANCE_MB),
      note: `after full GC: ${report.afterRoundMb.map((mb) => mb.toFixed(2)).join(', ')} MB (growth rounds 2–${report.rounds}: ${growthMb >= 0 ? '+' : ''}${(growthMb * 1024).toFixed(0)} KB)`,
    },
  ];
}
