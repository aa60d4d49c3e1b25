/**
 * Scenarios of settings read leniently, `--setting-sources`, skill-scoped hooks and slash commands,
 * recorded on Claude Code 2.1.328 with the reference runner (test/fixtures/setups-conformance), run
 * through the built CLI and compared like the shared suite. Differences must be documented in
 * setups-known-differences.json (and docs/compatibility.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkScenario, describeReport } from './check-scenario.js';
import { CLI_PATH } from './hookloop-trace.js';
import { loadKnownDifferences } from './known-differences.js';
import { REPO_ROOT } from './reference-tools.js';

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/setups-conformance');
const shared = loadKnownDifferences();
const own = loadKnownDifferences(
  path.join(path.dirname(new URL(import.meta.url).pathname), 'setups-known-differences.json'),
);
// The shared allow-list's `*` entries (Claude Code's own preamble and reminders) apply here too.
const known = {
  scenarios: new Map([...own.scenarios, ['*', shared.scenarios.get('*') ?? []]]),
  ignoreSequenceOf: shared.ignoreSequenceOf,
};
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-setups-conformance-'));
const scenarios = fs.readdirSync(path.join(FIXTURES, 'scenarios')).sort();

afterAll(() => {
  if (fs.readdirSync(workDir).length === 0) fs.rmdirSync(workDir);
});

describe('setups conformance (settings, skills, slash commands)', () => {
  it.each(scenarios)(
    '%s',
    async (scenario) => {
      const report = await checkScenario(
        scenario,
        workDir,
        known,
        process.env['HOOKLOOP_CONFORMANCE_CLI'] ?? CLI_PATH,
        FIXTURES,
      );
      expect(report.status === 'match' || report.status === 'documented', describeReport(report)).toBe(true);
      fs.rmSync(report.traceDir, { recursive: true, force: true });
    },
    120_000,
  );
});
