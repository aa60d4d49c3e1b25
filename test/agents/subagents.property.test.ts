import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allow,
  assistantMessage,
  defaultTranscriptPath,
  defineTool,
  GENERAL_PURPOSE,
  HookEngine,
  loadSession,
  ProviderError,
  resumeAgent,
  runAgent,
  type Message,
  type ModelClient,
  type ModelRequest,
  type PendingDecision,
  type ToolCall,
} from '../../src/index.js';
import { tempProject } from '../support/scripted-run.js';

// Random subagent calls: Agent calls in the main answer (concurrent), subagents whose calls
// are allowed, denied by rule, denied by a hook, interrupted, stopped by a hook, failing, or try to
// start subagents themselves, or wait for a decision (a PreToolUse defer, inside a subagent or not),
// which later sessions give from the transcript until nothing waits. After every run: every call
// paired once (main conversation and every subagent transcript), nothing denied ever ran (by rule,
// hook or decision), and the run never threw.

const RUNS = Number(process.env['HOOKLOOP_FUZZ_RUNS'] ?? 60);

type Call =
  { kind: 'probe' | 'blocked' | 'forbidden' | 'stop' | 'nested' | 'wait' } | { kind: 'agent'; plan: number };
interface SubPlan {
  readonly batches: readonly (readonly Call[])[];
  readonly end: 'text' | 'fail';
}
interface Scenario {
  readonly main: readonly Call[];
  readonly subs: readonly SubPlan[];
  /** Abort the run when this many handlers have run. */
  readonly interruptAfter: number | undefined;
  /** What the later sessions decide for every waiting call. */
  readonly decide: 'allow' | 'deny';
}

const subCall = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'probe' } as const) },
  { weight: 2, arbitrary: fc.constantFrom({ kind: 'blocked' } as const, { kind: 'forbidden' } as const) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: 'stop' } as const, { kind: 'nested' } as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'wait' } as const) },
);
const subPlan = fc.record({
  batches: fc.array(fc.array(subCall, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
  end: fc.constantFrom('text', 'text', 'fail') as fc.Arbitrary<'text' | 'fail'>,
});
const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    subs: fc.array(subPlan, { minLength: 1, maxLength: 3 }),
    extra: fc.array(subCall, { maxLength: 2 }),
    interruptAfter: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    decide: fc.constantFrom('allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>,
  })
  .map(({ subs, extra, interruptAfter, decide }) => ({
    subs,
    main: [...subs.map((_, plan) => ({ kind: 'agent', plan }) as const), ...extra],
    interruptAfter,
    decide,
  }));

function toolCall(call: Call, id: string): ToolCall {
  if (call.kind === 'agent')
    return { id, name: 'Agent', input: { description: 'task', prompt: `PLAN-${call.plan}: do it` } };
  if (call.kind === 'nested')
    return { id, name: 'Agent', input: { description: 'nested', prompt: 'PLAN-0 again' } };
  if (call.kind === 'forbidden') return { id, name: 'Forbidden', input: { value: id } };
  if (call.kind === 'wait') return { id, name: 'Probe', input: { value: `wait:${id}` } };
  return { id, name: 'Probe', input: { value: call.kind } };
}

/** Answers by who asks (the main conversation or subagent PLAN-k) and how many answers it already got. */
function plannedModel(scenario: Scenario): ModelClient {
  return {
    name: 'planned',
    complete: async (request: ModelRequest) => {
      if (request.signal?.aborted) throw new ProviderError('planned', 'aborted');
      const first = request.messages[0];
      const plan = first?.role === 'user' ? /^PLAN-(\d+)/.exec(first.content)?.[1] : undefined;
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      const usage = { inputTokens: 1, outputTokens: 1 };
      if (plan === undefined) {
        const calls = turn === 0 ? scenario.main.map((call, index) => toolCall(call, `m${index}`)) : [];
        return {
          message: assistantMessage(calls.length ? '' : 'done', calls),
          usage,
          stopReason: calls.length ? 'tool_use' : 'end_turn',
        };
      }
      const sub = scenario.subs[Number(plan)]!;
      const batch = sub.batches[turn];
      // A nested PLAN-0 (started from the main answer) gets ids of its own: decisions name calls by id.
      const prefix = `p${plan}${first?.role === 'user' && first.content.includes('again') ? 'n' : ''}`;
      if (batch)
        return {
          message: assistantMessage(
            '',
            batch.map((call, index) => toolCall(call, `${prefix}-${turn}-${index}`)),
          ),
          usage,
          stopReason: 'tool_use',
        };
      if (sub.end === 'fail')
        throw new ProviderError('planned', 'API Error: 500 planned failure', { status: 500 });
      return { message: assistantMessage(`sub ${plan} done`, []), usage, stopReason: 'end_turn' };
    },
  };
}

/** Problems with the pairing of one conversation: each call answered exactly once, no answer without a call. */
function pairingProblems(where: string, calls: readonly string[], results: readonly string[]): string[] {
  const problems: string[] = [];
  for (const id of calls)
    if (results.filter((result) => result === id).length !== 1)
      problems.push(`${where}: call ${id} has ${results.filter((result) => result === id).length} results`);
  for (const id of results) if (!calls.includes(id)) problems.push(`${where}: result ${id} answers no call`);
  return problems;
}

function mainPairing(messages: readonly Message[]): string[] {
  const calls = messages.flatMap((message) =>
    message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : [],
  );
  const results = messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : []));
  return pairingProblems('main', calls, results);
}

function subagentPairing(configDir: string, started: number | undefined): string[] {
  const problems: string[] = [];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^agent-a[0-9a-f]{16}\.jsonl$/.test(entry.name)) files.push(full);
    }
  };
  walk(configDir);
  // Without an interrupt every Agent call of the main answer starts its subagent (they run side by side).
  if (started !== undefined && files.length !== started)
    problems.push(`${files.length} subagent transcripts for ${started} subagents`);
  for (const file of files) {
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message?: { content?: unknown } });
    const blocks = lines.flatMap((line) =>
      Array.isArray(line.message?.content)
        ? (line.message.content as { type: string; id?: string; tool_use_id?: string }[])
        : [],
    );
    problems.push(
      ...pairingProblems(
        path.basename(file),
        blocks.filter((block) => block.type === 'tool_use').map((block) => block.id!),
        blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id!),
      ),
    );
  }
  return problems;
}

describe('subagents under random calls (property)', () => {
  it('every call is paired inside and outside, and nothing a rule or hook denied ever runs', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const projectDir = tempProject();
        const configDir = path.join(projectDir, 'config');
        const ran: string[] = [];
        const controller = new AbortController();
        const count = (value: string) => {
          ran.push(value);
          if (scenario.interruptAfter !== undefined && ran.length >= scenario.interruptAfter)
            controller.abort();
          return `ran ${value}`;
        };
        const probe = defineTool({
          name: 'Probe',
          description: 'probe',
          inputSchema: z.object({ value: z.string() }),
          readOnly: true,
          handler: ({ value }) => count(value),
        });
        const forbidden = defineTool({
          name: 'Forbidden',
          description: 'never',
          inputSchema: z.object({ value: z.string() }),
          readOnly: true,
          handler: ({ value }) => count(`forbidden ${value}`),
        });
        const hooks = new HookEngine();
        // A hook allow for everything: it must never lift the deny rule on Forbidden.
        hooks.on('PreToolUse', () => allow('recommended'));
        hooks.on('PreToolUse', { matcher: 'Probe' }, (input) => {
          const value = (input.tool_input as { value: string }).value;
          if (value === 'blocked')
            return {
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'blocked',
              },
            };
          if (value === 'stop') return { continue: false, stopReason: 'stopped' };
          if (value.startsWith('wait:'))
            return {
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'defer',
                permissionDecisionReason: 'later',
              },
            };
          return undefined;
        });
        const options = {
          projectDir,
          configDir,
          hooks,
          tools: [probe, forbidden],
          agents: [GENERAL_PURPOSE],
          permissions: { rules: { deny: ['Forbidden'] } },
        };
        let result = await runAgent('go', {
          ...options,
          model: plannedModel(scenario),
          signal: controller.signal,
        });
        // Calls left waiting, inside subagents or not: later sessions decide them from the transcript until none waits.
        const transcriptPath = defaultTranscriptPath(projectDir, result.sessionId, configDir);
        for (
          let round = 0;
          round < 12 && result.pending !== undefined && result.pending.length > 0;
          round++
        ) {
          const decision: PendingDecision =
            scenario.decide === 'allow'
              ? { behavior: 'allow' }
              : { behavior: 'deny', message: 'denied on resume' };
          result = await resumeAgent(Object.fromEntries(result.pending.map((call) => [call.id, decision])), {
            ...options,
            model: plannedModel(scenario),
            resume: loadSession(transcriptPath),
          });
        }
        const waitsInMain = scenario.main.some((call) => call.kind === 'wait');
        const problems = [
          ...mainPairing(result.messages),
          ...subagentPairing(
            configDir,
            scenario.interruptAfter === undefined && !waitsInMain
              ? scenario.main.filter((call) => call.kind === 'agent' || call.kind === 'nested').length
              : undefined,
          ),
        ];
        if ((result.pending ?? []).length > 0)
          problems.push(`still pending: ${result.pending!.map((call) => call.id).join(', ')}`);
        // (A PreToolUse `continue: false` ends the run after its call, as in Claude Code: that call may run.)
        if (ran.some((value) => value.startsWith('forbidden') || value === 'blocked'))
          problems.push(`denied calls ran: ${ran.join(', ')}`);
        if (scenario.decide === 'deny' && ran.some((value) => value.startsWith('wait:')))
          problems.push(`calls denied on resume ran: ${ran.join(', ')}`);
        expect(problems, JSON.stringify(scenario)).toEqual([]);
      }),
      { numRuns: RUNS, seed: 9 },
    );
  }, 120_000);
});
