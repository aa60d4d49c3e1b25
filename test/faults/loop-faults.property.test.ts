import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookEngine, type HookEventName } from '../../src/index.js';
import {
  registerSettingsHandlers,
  type ExternalHandlerEntry,
} from '../../src/hooks/transports/settings-handlers.js';
import { scriptedAiSdkModel } from '../ai-sdk/scripted-ai-sdk-model.js';
import {
  answer,
  BEHAVIOURS,
  describeMessages,
  play,
  ruleNames,
  scenarioArb,
  scriptedModel,
  violations,
  type Behaviour,
  type Scenario,
} from './fault-harness.js';

// Fault injection over random runs: random model turns, random hook behaviour per event,
// random rules, modes and approvers; after every run the invariants of fault-harness.ts must hold.
// HOOKLOOP_FUZZ_RUNS sets the number of callback runs (the bench runs 10,000); command hooks spawn
// processes, so they get fewer runs (HOOKLOOP_FUZZ_COMMAND_RUNS). Seeds are fixed.

const CALLBACK_RUNS = Number(process.env['HOOKLOOP_FUZZ_RUNS'] ?? 300);
const COMMAND_RUNS = Number(process.env['HOOKLOOP_FUZZ_COMMAND_RUNS'] ?? 60);
/** Callback runs whose model answers through hookloop/ai-sdk (HOOKLOOP_FUZZ_AI_SDK_RUNS). */
const AI_SDK_RUNS = Number(process.env['HOOKLOOP_FUZZ_AI_SDK_RUNS'] ?? 100);
/** Every event hookloop fires, with how often a random hook picks it: the tool gates most, so that their interplay with rules is hit often. */
const EVENT_WEIGHTS: [HookEventName, number][] = [
  ['PreToolUse', 6],
  ['PermissionRequest', 3],
  ['PostToolUse', 2],
  ['PostToolUseFailure', 1],
  ['PostToolBatch', 1],
  ['Stop', 1],
  ['SessionStart', 1],
  ['UserPromptSubmit', 1],
  ['StopFailure', 1],
  ['SessionEnd', 1],
  // hookloop's model-call events.
  ['PreModelRequest', 2],
  ['PreToolSelection', 1],
  ['PostModelResponse', 2],
];
const weighted = <T>(pairs: readonly (readonly [T, number])[]) =>
  fc.oneof(...pairs.map(([value, weight]) => ({ weight, arbitrary: fc.constant(value) })));
/**
 * Decisions and failures that a gate must honour three times as often as the other behaviours.
 * A hanging callback costs its whole timeout, so it stays rare enough for 10,000 runs to fit the bench.
 */
const pick = <T extends string>(values: readonly T[], frequent: readonly string[]) =>
  weighted(values.map((value) => [value, frequent.includes(value) ? 3 : 1] as const));
const TOOL_EVENTS = new Set<HookEventName>([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
]);

let projectDir = '';
let scriptDir = '';
beforeAll(() => {
  projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-faults-')));
  scriptDir = path.join(projectDir, 'hooks');
  fs.mkdirSync(scriptDir);
});
afterAll(() => fs.rmSync(projectDir, { recursive: true, force: true }));

interface Hook<B> {
  readonly event: HookEventName;
  readonly behaviour: B;
  readonly matcher: 'Act' | 'Flaky' | undefined;
}
const applies = (hook: Hook<unknown>, event: HookEventName, tool: string) =>
  hook.event === event && (hook.matcher === undefined || hook.matcher === tool || !TOOL_EVENTS.has(event));

/**
 * True when the scenario forbids every call of `tool`: a deny rule; plan mode (neither tool is
 * read-only); an ask rule nobody can approve (the approver refuses and no PermissionRequest hook
 * allows — a PreToolUse allow must not be enough); or PreToolUse hooks that refuse it (`preRefuses`).
 */
function forbids(
  scenario: Scenario<Hook<string>>,
  tool: string,
  preRefuses: (hooks: Hook<string>[]) => boolean,
): boolean {
  if (ruleNames(scenario.rules.deny, tool) || scenario.mode === 'plan') return true;
  const permissionAllows = scenario.hooks.some(
    (hook) => applies(hook, 'PermissionRequest', tool) && hook.behaviour === 'allow',
  );
  if (ruleNames(scenario.rules.ask, tool) && scenario.approver !== 'allow' && !permissionAllows) return true;
  return preRefuses(scenario.hooks.filter((hook) => applies(hook, 'PreToolUse', tool)));
}

/** Callbacks run in order and a deny, block or failure ends the chain: the first decisive answer counts. */
function callbacksRefuse(hooks: Hook<string>[]): boolean {
  let invalidRewrite = false;
  for (const { behaviour } of hooks) {
    if (['deny', 'block', 'throw', 'hang', 'garbage', 'defer'].includes(behaviour)) return true;
    if (behaviour === 'stop') return invalidRewrite;
    if (behaviour === 'rewrite-invalid') invalidRewrite = true;
    if (behaviour === 'rewrite') invalidRewrite = false;
  }
  return invalidRewrite;
}

function report(scenario: unknown, played: Awaited<ReturnType<typeof play>>, problems: string[]): string {
  return `${problems.join('\n')}\nscenario: ${JSON.stringify(scenario)}\nmessages: ${describeMessages(played.result.messages)}\nended: ${played.result.terminalReason}`;
}

describe('fault injection: random runs keep the loop invariants', () => {
  const callbackHook = fc.record({
    event: weighted(EVENT_WEIGHTS),
    behaviour: pick(BEHAVIOURS, ['allow', 'deny', 'none', 'throw']),
    matcher: fc.constantFrom(undefined, 'Act' as const, 'Flaky' as const),
  });

  /** The callback property: random callback hooks on every event, the invariants after each run. */
  const callbackProperty = (
    model: Parameters<typeof play>[3],
    onPlayed: (played: Awaited<ReturnType<typeof play>>) => void = () => undefined,
  ) =>
    fc.asyncProperty(scenarioArb(callbackHook, { maxTurns: 3, maxHooks: 6 }), async (scenario) => {
      const hooks = new HookEngine();
      for (const hook of scenario.hooks) {
        hooks.on(
          hook.event,
          {
            timeout: 0.002,
            ...(hook.matcher && TOOL_EVENTS.has(hook.event) ? { matcher: hook.matcher } : {}),
          },
          () => {
            if (hook.behaviour === 'throw') throw new Error('boom');
            if (hook.behaviour === 'hang') return new Promise<undefined>(() => {});
            return answer(hook.event, hook.behaviour as Behaviour) as never;
          },
        );
      }
      const played = await play(scenario, hooks, projectDir, model);
      const problems = violations(played, (tool) => forbids(scenario, tool, callbacksRefuse));
      expect(problems, report(scenario, played, problems)).toEqual([]);
      onPlayed(played);
    });

  it(
    `callback hooks (${CALLBACK_RUNS} runs)`,
    async () => {
      await fc.assert(callbackProperty(scriptedModel), { numRuns: CALLBACK_RUNS, seed: 20261130 });
    },
    Math.max(60_000, CALLBACK_RUNS * 50),
  );

  it(
    `callback hooks with the model answering through hookloop/ai-sdk (${AI_SDK_RUNS} runs): streamed, split tool calls`,
    async () => {
      // The invariants hold trivially if no call got through the adapter: some must have run.
      let ran = 0;
      const property = callbackProperty(scriptedAiSdkModel, (played) => {
        ran += played.timeline.filter((entry) => entry.startsWith('ran:')).length;
      });
      await fc.assert(property, { numRuns: AI_SDK_RUNS, seed: 20261204 });
      expect(ran).toBeGreaterThan(AI_SDK_RUNS / 4);
    },
    Math.max(60_000, AI_SDK_RUNS * 50),
  );

  /** Command hook behaviours: the callback ones in their command form, plus what only a process can do. */
  const COMMAND_BEHAVIOURS = [
    'none',
    'noread',
    'allow',
    'deny',
    'ask',
    'defer',
    'rewrite',
    'rewrite-invalid',
    'block',
    'exit2',
    'exit1',
    'garbage',
    'invalid-json',
    'plain',
    'big',
    'big-plain',
    'hang',
    'stop',
    'context',
  ] as const;
  type CommandBehaviour = (typeof COMMAND_BEHAVIOURS)[number];
  // SessionEnd hooks get at least 1.5 s: too slow to hang here.
  const COMMAND_EVENTS = EVENT_WEIGHTS.filter(([event]) => event !== 'SessionEnd');
  const commandHook = fc.record({
    event: weighted(COMMAND_EVENTS),
    behaviour: pick(COMMAND_BEHAVIOURS, ['allow', 'deny', 'none', 'exit2', 'exit1', 'hang']),
    matcher: fc.constantFrom(undefined, 'Act' as const, 'Flaky' as const),
    failClosed: fc.boolean(),
  });

  /** The shell command of a behaviour; JSON answers are files written once per event and behaviour. */
  function commandFor(event: HookEventName, behaviour: CommandBehaviour, failClosed: boolean): string {
    const suffix = failClosed ? ' # onFailure block' : '';
    const json = (value: unknown) => {
      const file = path.join(scriptDir, `${event}.${behaviour}.json`);
      if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(value ?? {}));
      return `cat >/dev/null; cat '${file}'${suffix}`;
    };
    switch (behaviour) {
      case 'none':
        return `cat >/dev/null${suffix}`;
      case 'noread':
        return `true${suffix}`;
      case 'exit2':
        return `cat >/dev/null; echo 'blocked by exit 2' >&2; exit 2${suffix}`;
      case 'exit1':
        return `echo 'hook failed' >&2; exit 1${suffix}`;
      case 'invalid-json':
        return `echo '{not json'${suffix}`;
      case 'plain':
        return `echo 'plain words'${suffix}`;
      case 'big-plain':
        return `head -c 1048576 /dev/zero | tr '\\0' x${suffix}`;
      case 'hang':
        return `sleep 5${suffix}`;
      default:
        return json(answer(event, behaviour));
    }
  }

  /** Settings hooks all run and merge (deny > defer > ask > allow); a failure refuses only with onFailure "block"; the last rewrite wins. */
  function commandsRefuse(hooks: Hook<string>[]): boolean {
    const typed = hooks as unknown as (Hook<CommandBehaviour> & { failClosed: boolean })[];
    if (typed.some(({ behaviour }) => ['deny', 'defer', 'block', 'exit2'].includes(behaviour))) return true;
    if (
      typed.some(({ behaviour, failClosed }) => failClosed && (behaviour === 'exit1' || behaviour === 'hang'))
    )
      return true;
    const rewrites = typed.filter(
      ({ behaviour }) => behaviour === 'rewrite' || behaviour === 'rewrite-invalid',
    );
    return rewrites.at(-1)?.behaviour === 'rewrite-invalid';
  }

  it(
    `command hooks (${COMMAND_RUNS} runs): exit codes, garbage, 1 MB output, timeouts, JSON decisions`,
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb(commandHook, { maxTurns: 2, maxHooks: 4 }), async (scenario) => {
          const hooks = new HookEngine();
          const entries: ExternalHandlerEntry[] = scenario.hooks.map((hook, index) => ({
            event: hook.event,
            matcher: TOOL_EVENTS.has(hook.event) ? hook.matcher : undefined,
            config: {
              type: 'command',
              command: commandFor(hook.event, hook.behaviour, hook.failClosed),
              timeout: hook.behaviour === 'hang' ? 0.3 : 20,
              ...(hook.failClosed ? { onFailure: 'block' } : {}),
            } as ExternalHandlerEntry['config'],
            source: { file: 'fuzz-settings.json' },
            groupIndex: index,
            handlerIndex: 0,
          }));
          registerSettingsHandlers(hooks, entries, projectDir);
          const played = await play(scenario, hooks, projectDir);
          const problems = violations(played, (tool) => forbids(scenario, tool, commandsRefuse));
          expect(problems, report(scenario, played, problems)).toEqual([]);
        }),
        { numRuns: COMMAND_RUNS, seed: 20261201 },
      );
    },
    Math.max(60_000, COMMAND_RUNS * 4_000),
  );
});
