/**
 * Row 7, the read-only Bash property at bench scale: test/permissions/read-only-bash.property.test.ts
 * with HOOKLOOP_BASH_FUZZ_RUNS generated commands (5,000 in the bench, 400 in `npm test`), each one
 * the classifier calls read-only run in a read-only bubblewrap sandbox. Through vitest, so that it
 * is the very same test code. Without bubblewrap the row is `info` and says so; it does not fail.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEST_FILE = 'test/permissions/read-only-bash.property.test.ts';

/** Generates and checks `runs` commands; a failure is a FAIL row with vitest's summary as the note. */
export async function bashReadOnlyFuzzRows(runs: number): Promise<BenchRow[]> {
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        TEST_FILE,
        '--typecheck.enabled=false',
        '--reporter=dot',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, HOOKLOOP_BASH_FUZZ_RUNS: String(runs), NO_COLOR: '1', FORCE_COLOR: '0' },
        maxBuffer: 64 << 20,
        timeout: 900_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          output: `${stdout}\n${stderr}`,
        }),
    );
  });
  const seconds = (performance.now() - started) / 1000;
  const skipped = /read-only Bash property skipped/.test(output);
  const passed = code === 0 && /Tests\s+.*2 passed/.test(output);
  const ran = /(\d+) of \d+ generated commands were read-only/.exec(output)?.[1];
  const summary = output
    .split('\n')
    .filter((line) => /seed|AssertionError|Tests |Error/.test(line))
    .slice(0, 4)
    .join(' / ');
  return [
    {
      row: `7 fuzz: ${runs.toLocaleString('en-US')} generated Bash commands, read-only ones run in bubblewrap (s)`,
      unit: 's',
      hookloop: { median: seconds, min: seconds, max: seconds, runs: 1 },
      goal: 'no read-only command writes or starts another program',
      verdict: skipped ? 'info' : passed ? 'pass' : 'FAIL',
      note: skipped
        ? 'bubblewrap is not available here'
        : passed
          ? `${ran ?? '?'} were read-only and ran in the sandbox; vitest start-up included`
          : `vitest exit ${code}: ${summary}`,
    },
  ];
}
