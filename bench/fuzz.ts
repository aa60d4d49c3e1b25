/**
 * Row 6, fault injection at bench scale: the callback-hook property of
 * test/faults/loop-faults.property.test.ts with HOOKLOOP_FUZZ_RUNS random runs (10,000 in the bench,
 * a few hundred in `npm test`), through vitest so that it is the very same test code.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEST_FILE = 'test/faults/loop-faults.property.test.ts';
/** The name of the callback-only property in TEST_FILE (vitest -t pattern). */
const PROPERTY = 'callback hooks';

/** Runs the property `runs` times; a failure is a FAIL row with vitest's summary as the note. */
export async function fuzzRows(runs: number): Promise<BenchRow[]> {
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        TEST_FILE,
        '-t',
        PROPERTY,
        '--typecheck.enabled=false',
        '--reporter=dot',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, HOOKLOOP_FUZZ_RUNS: String(runs), NO_COLOR: '1', FORCE_COLOR: '0' },
        maxBuffer: 64 << 20,
        timeout: 240_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          output: `${stdout}\n${stderr}`,
        }),
    );
  });
  const seconds = (performance.now() - started) / 1000;
  const passed = code === 0 && /Tests\s+.*1 passed/.test(output);
  const summary = output
    .split('\n')
    .filter((line) => /Counterexample|AssertionError|Tests |Error/.test(line))
    .slice(0, 4)
    .join(' / ');
  return [
    {
      row: `6 fuzz: ${runs.toLocaleString('en-US')} random runs, callback hooks (s)`,
      unit: 's',
      hookloop: { median: seconds, min: seconds, max: seconds, runs: 1 },
      goal: 'every invariant holds',
      verdict: passed ? 'pass' : 'FAIL',
      note: passed
        ? `${((seconds * 1000) / runs).toFixed(1)} ms per run, vitest start-up included`
        : `vitest exit ${code}: ${summary}`,
    },
  ];
}
