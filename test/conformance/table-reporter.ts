/**
 * Vitest reporter for `npm run conformance`: after the run, one row per scenario with
 * its status (match / documented differences / FAIL), then the totals.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

type Row = NonNullable<ReturnType<TestCase['meta']>['conformance']>;

/** Prints the per-scenario conformance table at the end of the run. */
export default class ConformanceTableReporter implements Reporter {
  private readonly rows: Row[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const row = testCase.meta().conformance;
    if (row) this.rows.push(row);
    // A scenario that could not be run or compared at all (runner error, timeout) has no row yet.
    else if (
      testCase.module.moduleId.endsWith('conformance.test.ts') &&
      testCase.parent.type === 'suite' &&
      testCase.parent.name.startsWith('conformance: scenarios') &&
      testCase.result().state === 'failed'
    ) {
      this.rows.push({
        scenario: testCase.name,
        status: 'fail',
        wallMs: testCase.diagnostic()?.duration ?? 0,
        documented: 0,
        unexpected: 0,
        stale: 0,
      });
    }
  }

  onTestRunEnd(_modules: readonly TestModule[]): void {
    if (this.rows.length === 0) return;
    const rows = [...this.rows].sort((a, b) => a.scenario.localeCompare(b.scenario));
    const width = Math.max(...rows.map((row) => row.scenario.length));
    const lines = ['', `${'scenario'.padEnd(width)}  status                         time`];
    for (const row of rows) {
      const status =
        row.status === 'match'
          ? 'match'
          : row.status === 'documented'
            ? `documented differences (${row.documented})`
            : row.unexpected + row.stale === 0
              ? 'FAIL (error, see above)'
              : `FAIL (${row.unexpected} unexpected${row.stale ? `, ${row.stale} stale` : ''})`;
      lines.push(`${row.scenario.padEnd(width)}  ${status.padEnd(30)} ${(row.wallMs / 1000).toFixed(1)}s`);
    }
    const count = (status: Row['status']) => rows.filter((row) => row.status === status).length;
    lines.push(
      '',
      `${rows.length} scenarios: ${count('match')} match, ${count('documented')} with documented differences, ${count('fail')} FAIL`,
      '',
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
