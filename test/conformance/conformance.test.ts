/**
 * The conformance suite: every loop-tier and compat-tier scenario of test/fixtures/conformance
 * (and the later tier's compaction scenarios) runs through the built `hookloop` CLI with the reference runner, and its trace is compared with what Claude Code
 * 2.1.328 did. A difference fails the test unless known-differences.json documents it (and
 * docs/compatibility.md explains it). `npm run conformance` prints the per-scenario table.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScenario, describeReport, type ScenarioReport } from './check-scenario.js';
import { CLI_PATH } from './hookloop-trace.js';
import { loadKnownDifferences } from './known-differences.js';
import { FIXTURES, REPO_ROOT, scenariosOfTier } from './reference-tools.js';
import { RunSlots } from './run-slots.js';

declare module 'vitest' {
  interface TaskMeta {
    /** Set on each scenario test for the table reporter. */
    conformance?: Pick<ScenarioReport, 'scenario' | 'status' | 'wallMs'> & {
      documented: number;
      unexpected: number;
      stale: number;
    };
  }
}

// The 'later' tier's compaction scenarios run too: hookloop compacts.
// The compat tier (prompt, agent and async hooks, PermissionDenied, ConfigChange) runs too.
// The 'later' tier's MCP scenarios run too: hookloop connects MCP servers.
// The 'later' tier's subagent scenario runs too: the Agent tool starts subagents.
const scenarios = [
  ...scenariosOfTier('loop'),
  ...scenariosOfTier('later').filter(
    (name) => name.startsWith('compaction-') || name.startsWith('mcp-') || name === 'subagent-start-stop',
  ),
  ...scenariosOfTier('compat'),
];
const known = loadKnownDifferences();
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-conformance-'));
// Two cores: runs spend most of their time waiting on hook processes, so three at once is safe;
// scenarios whose hooks sleep or time out run alone.
const slots = new RunSlots(3);

function measuresTiming(scenario: string): boolean {
  return /\bsleep\b|"timeout"/.test(
    fs.readFileSync(path.join(FIXTURES, 'scenarios', scenario, 'scenario.json'), 'utf8'),
  );
}

/** Builds dist/ when it is missing or older than a source file, since the suite runs the built CLI. */
function ensureBuilt(): void {
  const newestSource = (dir: string): number =>
    Math.max(
      0,
      ...fs.readdirSync(dir, { withFileTypes: true }).map((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory()
          ? newestSource(full)
          : entry.name.endsWith('.ts')
            ? fs.statSync(full).mtimeMs
            : 0;
      }),
    );
  if (fs.existsSync(CLI_PATH) && fs.statSync(CLI_PATH).mtimeMs >= newestSource(path.join(REPO_ROOT, 'src')))
    return;
  try {
    execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
  } catch {
    // tsc still emits on type errors; the typecheck is another test's job. Only a missing CLI is fatal.
  }
  // The suite runs the shipped CLI: the bundle made from that build.
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: REPO_ROOT, stdio: 'pipe' });
  if (!fs.existsSync(CLI_PATH)) throw new Error(`no CLI at ${CLI_PATH} after the build`);
}

/**
 * A private copy of the build (dist/ and package.json, node_modules linked), so that a rebuild of
 * dist/ while the suite runs cannot hand some scenarios half-written modules.
 */
function snapshotBuild(): string {
  const copy = path.join(workDir, '.build');
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(copy, 'package.json'));
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  return path.join(copy, 'dist/bundle/cli/bin.js');
}

// `HOOKLOOP_CONFORMANCE_CLI=/path/to/bin.js` runs the suite against another build as it is.
let cliPath = process.env['HOOKLOOP_CONFORMANCE_CLI'] ?? '';
beforeAll(() => {
  if (cliPath) return;
  ensureBuilt();
  cliPath = snapshotBuild();
}, 180_000);
afterAll(() => {
  // Traces of scenarios that passed were removed; keep the folder only when a failure left one.
  fs.rmSync(path.join(workDir, '.build'), { recursive: true, force: true });
  if (fs.readdirSync(workDir).length === 0) fs.rmdirSync(workDir);
});

describe('conformance fixtures', () => {
  it('are byte-identical to the copy recorded in SHA256SUMS', () => {
    const sums = fs.readFileSync(path.join(FIXTURES, 'SHA256SUMS'), 'utf8').trim().split('\n');
    const changed = sums.filter((line) => {
      const [hash, file] = line.split(/\s+/);
      const target = path.join(FIXTURES, file!);
      return (
        !fs.existsSync(target) || createHash('sha256').update(fs.readFileSync(target)).digest('hex') !== hash
      );
    });
    expect(changed).toEqual([]);
  });

  it('allow-list entries name scenarios of the suite and sections of docs/compatibility.md', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/compatibility.md'), 'utf8');
    // GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
    const anchors = new Set(
      [...doc.matchAll(/^#{2,4} (.+)$/gm)].map((match) =>
        match[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const problems: string[] = [];
    for (const [scenario, entries] of known.scenarios) {
      if (scenario !== '*' && !scenarios.includes(scenario))
        problems.push(`${scenario}: not a scenario of the suite`);
      for (const entry of entries)
        if (!anchors.has(entry.doc))
          problems.push(`${scenario}: doc "${entry.doc}" is not a section id in docs/compatibility.md`);
    }
    for (const ignore of known.ignoreSequenceOf)
      if (!anchors.has(ignore.doc))
        problems.push(
          `ignoreSequenceOf ${ignore.event}: doc "${ignore.doc}" is not a section id in docs/compatibility.md`,
        );
    expect(problems).toEqual([]);
  });
});

describe('conformance: scenarios against Claude Code 2.1.328', () => {
  for (const scenario of scenarios) {
    it.concurrent(
      scenario,
      async ({ task, expect }) => {
        const report = await slots.run(measuresTiming(scenario), () =>
          checkScenario(scenario, workDir, known, cliPath),
        );
        const unexpected = report.differences.filter((difference) => !difference.documentedBy).length;
        task.meta.conformance = {
          scenario,
          status: report.status,
          wallMs: report.wallMs,
          documented: report.differences.length - unexpected,
          unexpected,
          stale: report.stale.length,
        };
        if (report.status === 'fail') expect.fail(describeReport(report));
        fs.rmSync(report.traceDir, { recursive: true, force: true });
      },
      150_000,
    );
  }
});
