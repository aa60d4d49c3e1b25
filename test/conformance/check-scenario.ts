/**
 * One conformance check: run a scenario through hookloop, compare its trace with Claude Code's
 * and classify every difference against the allow-list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HOOK_EVENT_NAMES } from '../../src/index.js';
import { comparableTraces } from './comparable.js';
import { traceHookloop } from './hookloop-trace.js';
import { classify, type Classification, type KnownDifferences } from './known-differences.js';
import { FIXTURES, readTrace, referenceTools, type Trace } from './reference-tools.js';

/** Fields of the `--output-format json` result that are compared (the `output` section). */
// `num_turns` is left out: see docs/compatibility.md, "num_turns".
const OUTPUT_FIELDS = [
  'subtype',
  'is_error',
  'stop_reason',
  'terminal_reason',
  'permission_denials',
  'deferred_tool_use',
  'api_error_status',
];

/** The outcome of one scenario. */
export interface ScenarioReport extends Classification {
  readonly scenario: string;
  /** Where hookloop's trace was written. */
  readonly traceDir: string;
  /** hookloop's exit code and the end of its stderr (normalized), for failure messages. */
  readonly exitCode: unknown;
  readonly stderr: string;
  readonly wallMs: number;
}

/**
 * Events the reference fires that hookloop does not (Claude-Code-only: MessageDisplay,
 * InstructionsLoaded, CwdChanged, Notification, PermissionDenied …): every event the runner
 * records minus the ones hookloop fires. Left out of the `hooks` and `sequence` sections.
 */
export async function ignoredEvents(): Promise<Set<string>> {
  const { ALL_EVENTS } = await referenceTools.run();
  return new Set(ALL_EVENTS.filter((event) => !(HOOK_EVENT_NAMES as readonly string[]).includes(event)));
}

/**
 * The difference lines between the reference trace and hookloop's (compare.mjs lines plus `[output]`
 * lines). `ignoreSequenceOf` events are added to the traces' own `ignoreSequenceOf` hints.
 */
export async function differences(
  reference: Trace,
  ours: Trace,
  ignoreSequenceOf: readonly string[] = [],
): Promise<string[]> {
  const { compareTraces } = await referenceTools.compare();
  const views = comparableTraces(reference, ours);
  if (ignoreSequenceOf.length > 0) {
    const hints = views.reference.compareHints ?? {};
    const own = Array.isArray(hints['ignoreSequenceOf']) ? (hints['ignoreSequenceOf'] as string[]) : [];
    views.reference.compareHints = { ...hints, ignoreSequenceOf: [...own, ...ignoreSequenceOf] };
  }
  const lines = compareTraces(views.reference, views.ours, {
    skip: new Set(),
    events: null,
    ignoreEvents: await ignoredEvents(),
    ignoreFields: new Set(),
    unordered: false,
    quiet: false,
    hints: true,
  });
  for (const field of OUTPUT_FIELDS) {
    const a = JSON.stringify(reference.output?.[field]);
    const b = JSON.stringify(ours.output?.[field]);
    if (a !== b) lines.push(`[output] ${field}: A=${a ?? '(absent)'} B=${b ?? '(absent)'}`);
  }
  return lines;
}

/** Runs `scenario` through the hookloop CLI at `cliPath` into `workDir/<scenario>/` and classifies its differences. */
export async function checkScenario(
  scenario: string,
  workDir: string,
  known: KnownDifferences,
  cliPath: string,
  fixtures = FIXTURES,
): Promise<ScenarioReport> {
  const started = Date.now();
  const traceDir = path.join(workDir, scenario);
  fs.mkdirSync(traceDir, { recursive: true });
  const ours = await traceHookloop(scenario, traceDir, cliPath, fixtures);
  const reference = readTrace(path.join(fixtures, 'traces', scenario));
  const lines = await differences(
    reference,
    ours,
    known.ignoreSequenceOf.map((ignore) => ignore.event),
  );
  return {
    scenario,
    traceDir,
    exitCode: ours.exitCode,
    stderr: ours.stderr ?? '',
    wallMs: Date.now() - started,
    ...classify(scenario, lines, known),
  };
}

/** A readable account of a report: every difference, marked documented or not, and stale entries. */
export function describeReport(report: ScenarioReport): string {
  const out = [`${report.scenario}: ${report.status} (hookloop trace: ${report.traceDir})`];
  for (const difference of report.differences) {
    out.push(
      `  ${difference.documentedBy ? 'documented' : 'UNEXPECTED'} [${difference.section}] ${difference.text}`,
    );
  }
  for (const entry of report.stale)
    out.push(
      `  STALE allow-list entry [${entry.section}] /${entry.pattern}/ (${entry.doc}): no such difference any more`,
    );
  // The settings warnings about events hookloop does not fire are the same in every run: left out.
  const stderr = report.stderr
    .split('\n')
    .filter((line) => line.trim() && !/hookloop does not fire \w+; its \d+ handler/.test(line));
  out.push(
    `  hookloop exited ${String(report.exitCode)}${
      stderr.length > 0
        ? `; end of its stderr:\n${stderr
            .slice(-15)
            .map((line) => `    ${line}`)
            .join('\n')}`
        : ''
    }`,
  );
  return out.join('\n');
}
