import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  HookEngine,
  type HookEventName,
  type PermissionMode,
  startSession,
} from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { answer, BEHAVIOURS } from '../faults/fault-harness.js';
import { pairingViolations, tempProject } from '../support/scripted-run.js';

const EVENTS: HookEventName[] = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
];

const callArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.integer({ min: 0, max: 9 }).map((n) => ({ name: 'Act', input: { n } as unknown })),
  },
  { weight: 1, arbitrary: fc.constant({ name: 'Act', input: { n: 'not a number' } as unknown }) },
  { weight: 1, arbitrary: fc.constant({ name: 'Ghost', input: {} as unknown }) },
);

const scenarioArb = fc.record({
  turns: fc.array(fc.array(callArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
  hooks: fc.array(
    fc.record({ event: fc.constantFrom(...EVENTS), behaviour: fc.constantFrom(...BEHAVIOURS) }),
    { maxLength: 5 },
  ),
  rules: fc.record({ allow: fc.subarray(['Act']), ask: fc.subarray(['Act']), deny: fc.subarray(['Act']) }),
  mode: fc.constantFrom<PermissionMode>('default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'),
  approve: fc.boolean(),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

async function play(scenario: Scenario) {
  const runs: string[] = [];
  const act = defineTool({
    name: 'Act',
    description: 'records that it ran',
    inputSchema: z.strictObject({ n: z.number() }),
    kind: 'other',
    readOnly: false,
    handler: async (_input) => {
      runs.push('ran');
      return 'acted';
    },
  });
  let id = 0;
  const calls: { id: string; name: string }[] = [];
  const turns: ScriptTurn[] = scenario.turns.map((turn) =>
    turn.map((call) => {
      const toolUseId = `toolu_${++id}`;
      calls.push({ id: toolUseId, name: call.name });
      return { type: 'tool_use', id: toolUseId, name: call.name, input: call.input };
    }),
  );
  turns.push([{ type: 'text', text: 'done' }]);
  const hooks = new HookEngine();
  for (const hook of scenario.hooks) {
    hooks.on(hook.event, { timeout: 0.02 }, () => {
      if (hook.behaviour === 'throw') throw new Error('boom');
      if (hook.behaviour === 'hang') return new Promise<undefined>(() => {});
      return answer(hook.event, hook.behaviour) as never;
    });
  }
  const ranIds: string[] = [];
  hooks.on('PostToolUse', ({ tool_use_id }) => void ranIds.push(tool_use_id));
  hooks.on('PostToolUseFailure', ({ tool_use_id }) => void ranIds.push(tool_use_id));
  const session = await startSession({
    model: new ScriptedModel(turns, { mode: 'lenient' }),
    projectDir: tempProject(),
    tools: [act],
    hooks,
    permissions: { rules: scenario.rules, mode: scenario.mode },
    approver: { approve: async () => (scenario.approve ? 'allow' : 'deny') },
    maxTurns: 20,
    maxStopContinuations: 2,
  });
  let result = await session.send('go');
  // Calls left waiting for a decision (a defer) are decided in the same session: denied, so every call ends paired.
  for (let rounds = 0; rounds < 25 && result.pending !== undefined && result.pending.length > 0; rounds++)
    result = await session.resume(
      Object.fromEntries(result.pending.map((call) => [call.id, { behavior: 'deny' as const }])),
    );
  await session.end();
  return { result, runs, ranIds, calls };
}

const preGates = (scenario: Scenario) =>
  scenario.hooks.filter((hook) => hook.event === 'PreToolUse').map((hook) => hook.behaviour);

describe('invariants over random runs (fast-check)', () => {
  it('every call is paired exactly once and in order, handlers run at most once, and hook allows never beat deny or ask rules', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const { result, runs, ranIds } = await play(scenario);
        // Pairing, whatever the hooks did.
        expect(pairingViolations(result.messages)).toEqual([]);
        // Exactly-once side effects.
        expect(new Set(ranIds).size).toBe(ranIds.length);
        expect(runs.length).toBe(ranIds.length);
        // A deny rule is never beaten.
        if (scenario.rules.deny.includes('Act')) expect(runs).toEqual([]);
        // A PreToolUse deny, block, throw or hang (gates fail closed) is never beaten.
        if (
          preGates(scenario).some(
            (b) =>
              b === 'deny' || b === 'throw' || b === 'hang' || b === 'garbage' || b === 'rewrite-invalid',
          )
        )
          expect(runs).toEqual([]);
        // An ask rule is never beaten by a PreToolUse allow: only the approver or a PermissionRequest allow can pass it.
        const permissionRequestAllows = scenario.hooks.some(
          (h) => h.event === 'PermissionRequest' && h.behaviour === 'allow',
        );
        if (scenario.rules.ask.includes('Act') && !scenario.approve && !permissionRequestAllows)
          expect(runs).toEqual([]);
        // Plan mode refuses a tool that is not read-only, whatever the hooks say.
        if (scenario.mode === 'plan') expect(runs).toEqual([]);
        // The run ended, within its bounds.
        expect(result.numTurns).toBeLessThanOrEqual(21);
      }),
      { numRuns: 150, seed: 20261130 },
    );
  });
});
