/**
 * Shared measuring helpers for the benchmark rows: repeated samples after a warm-up, summarized as
 * median/min/max, with hookloop and its floor interleaved so both see the same machine noise.
 */

/** Median, min and max of a set of samples, in the row's unit. */
export interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

/** One printed row: hookloop against its floor measured in the same run. */
export interface BenchRow {
  readonly row: string;
  readonly unit: string;
  readonly hookloop: Stats;
  /** What the floor is (e.g. "bare async loop, 10 callbacks"); absent for report-only rows. */
  readonly floorLabel?: string;
  readonly floor?: Stats;
  /** hookloop median / floor median. */
  readonly ratio?: number;
  /** The goal as the issue states it, or "report". */
  readonly goal: string;
  readonly verdict: 'pass' | 'FAIL' | 'info';
  /** Extra facts worth printing under the table (e.g. per-hook cost, memory). */
  readonly note?: string;
}

/** Summarizes samples. @throws RangeError on an empty list. */
export function stats(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new RangeError('stats: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/**
 * Runs `warmup` untimed rounds, then `runs` rounds; in each round every measurement runs once, in
 * turn (a, b, a, b, …), so a slow patch of the machine hits all of them alike. Each measurement
 * returns its own sample (already in the row's unit). Returns one Stats per measurement, by key.
 */
export async function interleaved<K extends string>(
  measurements: Record<K, () => Promise<number>>,
  options: { readonly warmup: number; readonly runs: number },
): Promise<Record<K, Stats>> {
  const keys = Object.keys(measurements) as K[];
  for (let round = 0; round < options.warmup; round++) for (const key of keys) await measurements[key]();
  const samples = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < options.runs; round++) {
    // No forced GC between samples: a full GC also drops V8's warm-up state (feedback, new-space
    // size) and made short samples 3× slower than they are in a running agent.
    for (const key of keys) samples[key].push(await measurements[key]());
  }
  return Object.fromEntries(keys.map((key) => [key, stats(samples[key])])) as Record<K, Stats>;
}

/** Wall time of `action` in milliseconds (for rows whose work happens in other processes). */
export async function timeMs(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/**
 * CPU time (user + system, all threads of this process) of `action` in milliseconds. In-process
 * rows use it: on an idle machine it equals wall time, and on a busy one (this 2-core machine is
 * shared) it does not count the time the OS gave to other processes, so medians stay meaningful.
 */
export async function cpuMs(action: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await action();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The process's CPU time so far in milliseconds (for stamping points inside a run). */
export function cpuNowMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** `pass` when `ok`, else `FAIL`. */
export function verdict(ok: boolean): 'pass' | 'FAIL' {
  return ok ? 'pass' : 'FAIL';
}
