/**
 * Scenarios recorded against Claude Code 2.1.328 (test/fixtures/prompt-scenarios), run through the
 * built CLI and the Anthropic provider against the reference runner's mock of the Messages API:
 * which memory files load and what InstructionsLoaded reports, `--max-budget-usd`'s result, and
 * which model each request goes to with `--fallback-model`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTrace, referenceTools, type Trace } from '../conformance/reference-tools.js';
import { CLI, ensureBuilt } from '../providers/support/built-cli.js';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const SCENARIOS = path.join(HERE, '../fixtures/prompt-scenarios');

beforeAll(ensureBuilt, 180_000);

/** Runs scenario `name` through hookloop; the trace and the mock's request log. */
async function runHookloop(name: string): Promise<{ trace: Trace; models: string[] }> {
  const { runScenario } = await referenceTools.run();
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), `hookloop-${name}-`));
  const run = await runScenario(
    path.join(SCENARIOS, 'scenarios', name),
    { name: 'hookloop', command: `node '${CLI}'`, shell: true },
    { outDir, keep: true, agentLabel: 'hookloop' },
  );
  try {
    const requests = fs
      .readFileSync(path.join(run.runDir!, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { body: { model: string } });
    return { trace: readTrace(outDir), models: requests.map((request) => request.body.model) };
  } finally {
    fs.rmSync(run.runDir!, { recursive: true, force: true });
  }
}

const reference = (name: string) => readTrace(path.join(SCENARIOS, 'traces', name));

/** The InstructionsLoaded payloads of a trace, without the common fields, sorted (the reference fires them concurrently). */
function instructionsLoaded(trace: Trace): string[] {
  return trace.hookCalls
    .filter((call) => call.event === 'InstructionsLoaded')
    .map((call) => {
      const {
        session_id: _s,
        transcript_path: _t,
        cwd: _c,
        hook_event_name: _h,
        prompt_id: _p,
        effort: _e,
        ...own
      } = call.input as Record<string, unknown>;
      return JSON.stringify(own);
    })
    .sort();
}

/** The `Contents of <path>` headers of the first request's memory reminder. */
function memoryHeaders(trace: Trace): string[] {
  const block = (trace.modelRequests[0]?.extraText ?? []).find((text) => text.includes('\nContents of '));
  return [...(block ?? '').matchAll(/^Contents of (.+):$/gm)].map((match) => match[1]!);
}

describe('memory-files (user, parent folder, project, imports to depth 4, rules, local)', () => {
  it('loads the files Claude Code loads at start and reports each to InstructionsLoaded with its payload', async () => {
    const { trace } = await runHookloop('memory-files');
    const expected = reference('memory-files');
    // Claude Code loads a scoped rule and a subfolder's CLAUDE.md later, when a file they cover is read (documented as not done).
    const atStart = instructionsLoaded(expected).filter(
      (payload) => !/"load_reason":"(path_glob_match|nested_traversal)"/.test(payload),
    );
    expect(instructionsLoaded(trace)).toEqual(atStart);
    // Same files, same descriptions; hookloop reads a rules folder in name order (Claude Code in directory order).
    expect([...memoryHeaders(trace)].sort()).toEqual([...memoryHeaders(expected)].sort());
    const notRules = (headers: string[]) => headers.filter((header) => !header.includes('/.claude/rules/'));
    expect(notRules(memoryHeaders(trace))).toEqual(notRules(memoryHeaders(expected)));
    // InstructionsLoaded comes after SessionStart and before the prompt's UserPromptSubmit, as there.
    const events = trace.hookCalls.map((call) => call.event);
    expect(events.indexOf('SessionStart')).toBeLessThan(events.indexOf('InstructionsLoaded'));
    expect(events.lastIndexOf('InstructionsLoaded')).toBeLessThan(events.indexOf('UserPromptSubmit'));
  }, 90_000);
});

describe('--max-budget-usd 0.01 with a first answer that costs more', () => {
  it('ends the run as Claude Code does: error_max_budget_usd, budget_exhausted, the errors line, exit 1, no second request', async () => {
    const { trace, models } = await runHookloop('max-budget');
    const expected = reference('max-budget');
    const fields = [
      'subtype',
      'is_error',
      'stop_reason',
      'terminal_reason',
      'num_turns',
      'errors',
      'permission_denials',
      'api_error_status',
    ];
    const pick = (output: Record<string, unknown> | null | undefined) =>
      Object.fromEntries(fields.map((field) => [field, output?.[field]]));
    expect(pick(trace.output)).toEqual(pick(expected.output));
    expect(trace.exitCode).toBe(expected.exitCode);
    expect(models).toHaveLength(1);
    expect(trace.hookCalls.map((call) => call.event)).not.toContain('PostToolUse');
  }, 90_000);
});

describe('--fallback-model when the main model stays overloaded', () => {
  it('sends the same requests to the same models as Claude Code: three to the main model, then the fallback', async () => {
    const { trace, models } = await runHookloop('fallback-model');
    const expected = JSON.parse(
      fs.readFileSync(path.join(SCENARIOS, 'traces/fallback-model/request-models.json'), 'utf8'),
    ) as { models: string[] };
    expect(models).toEqual(expected.models);
    expect(trace.output?.['subtype']).toBe('success');
    expect(trace.stderr).toContain('switching to the fallback model claude-haiku-4-5');
  }, 90_000);
});
