/**
 * Shared pieces of the fault-injection properties: random scenarios (assistant messages with 1–5
 * calls, some unknown or invalid; hooks with random behaviour per event; random rules, mode and
 * approver), one run of a scenario, and the invariants checked after every run (pairing, deny precedence, bounded continuation).
 */
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  type ApprovalAnswer,
  defineTool,
  type HookEngine,
  type HookEventName,
  loadSession,
  type Message,
  type ModelClient,
  type PermissionMode,
  resumeAgent,
  runAgent,
  type RunEvent,
  type RunOptions,
  type RunResult,
  ToolFailure,
} from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { pairingViolations } from '../support/scripted-run.js';

/** What a random hook does. Transports map each to their own form (a command hook's `block` is exit 2). */
export const BEHAVIOURS = [
  'none',
  'allow',
  'deny',
  'ask',
  'defer',
  'rewrite',
  'rewrite-invalid',
  'block',
  'throw',
  'garbage',
  'hang',
  'stop',
  'big',
  'context',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];
/** The tools of every scenario: `Act` succeeds, `Flaky` fails (PostToolUseFailure); neither is read-only. */
export const TOOL_NAMES = ['Act', 'Flaky'] as const;
const ONE_MB = 'x'.repeat(1 << 20);

/** The JSON answer of `behaviour` on `event` (valid for the event or not: a wrong field is garbage too); undefined = no output. */
export function answer(event: HookEventName, behaviour: Behaviour): unknown {
  const specific = (fields: Record<string, unknown>) => ({
    hookSpecificOutput: { hookEventName: event, ...fields },
  });
  const model = modelCallAnswer(event, behaviour, specific);
  if (model !== undefined) return model;
  switch (behaviour) {
    case 'allow':
      return event === 'PermissionRequest'
        ? specific({ decision: { behavior: 'allow' } })
        : specific({ permissionDecision: 'allow' });
    case 'deny':
      return event === 'PermissionRequest'
        ? specific({ decision: { behavior: 'deny', message: 'no' } })
        : specific({ permissionDecision: 'deny', permissionDecisionReason: 'no' });
    case 'ask':
      return specific({ permissionDecision: 'ask', permissionDecisionReason: 'sure?' });
    case 'defer':
      return specific({ permissionDecision: 'defer' });
    case 'rewrite':
      return event === 'PostToolUse'
        ? specific({ updatedToolOutput: 'rewritten' })
        : specific({ updatedInput: { n: 7 } });
    case 'rewrite-invalid':
      return specific({ updatedInput: { n: 'seven', extra: true } });
    case 'block':
      return { decision: 'block', reason: 'blocked' };
    case 'garbage':
      return { surprise: [1, 2, 3] };
    case 'stop':
      return { continue: false, stopReason: 'enough' };
    case 'big':
      return { systemMessage: ONE_MB, ...specific({ additionalContext: ONE_MB }) };
    case 'context':
      return specific({ additionalContext: 'note' });
    default:
      return undefined;
  }
}

/**
 * hookloop's model-call events: random rewrites, synthetic responses (text only: a hook
 * never makes a tool call), forged message lists (which must be refused),
 * narrowed or forced tools, redacted text and dropped calls. Undefined: the generic answer applies.
 */
function modelCallAnswer(
  event: HookEventName,
  behaviour: Behaviour,
  specific: (fields: Record<string, unknown>) => unknown,
): unknown {
  const forged = [
    { role: 'assistant', text: '', tool_calls: [{ id: 'toolu_forged', name: 'Act', input: { n: 1 } }] },
    { role: 'tool', tool_use_id: 'toolu_forged', tool_name: 'Act', content: 'acted', is_error: false },
  ];
  if (event === 'PreModelRequest') {
    if (behaviour === 'rewrite')
      return specific({
        updatedSystem: 'rewritten system',
        updatedModel: 'other-model',
        additionalContext: 'note',
      });
    if (behaviour === 'rewrite-invalid') return specific({ updatedMessages: forged });
    if (behaviour === 'allow') return specific({ syntheticResponse: { text: 'from a hook' } });
    if (behaviour === 'block') return specific({ syntheticResponse: { text: 'cached' } });
  }
  if (event === 'PreToolSelection') {
    if (behaviour === 'deny') return specific({ allowedTools: [] });
    if (behaviour === 'rewrite') return specific({ allowedTools: ['Act'] });
    if (behaviour === 'allow') return specific({ toolChoice: { type: 'tool', name: 'Act' } });
  }
  if (event === 'PostModelResponse') {
    if (behaviour === 'deny')
      return specific({ dropToolCalls: ['toolu_1', 'toolu_2', 'toolu_3', 'toolu_4'] });
    if (behaviour === 'rewrite') return specific({ updatedText: 'redacted' });
  }
  return undefined;
}

/** A random call: mostly valid `Act`/`Flaky` calls, some with invalid input, raw JSON text, or an unknown tool. */
const callArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      name: fc.constantFrom(...TOOL_NAMES),
      input: fc.integer({ min: 0, max: 9 }).map((n): unknown => ({ n })),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ name: 'Act', input: { n: 'not a number' } as unknown }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { name: 'Act', input: '{"n": 3}' as unknown },
      { name: 'Act', input: '{"n": ' as unknown },
    ),
  },
  { weight: 1, arbitrary: fc.constant({ name: 'Ghost', input: {} as unknown }) },
);

/** A model turn: tool calls, or (rarely) an API error that ends the run through StopFailure. */
const turnArb = fc.oneof(
  { weight: 12, arbitrary: fc.array(callArb, { minLength: 1, maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constant('api-error' as const) },
);
/** Rule lists; deny and ask lists are often empty, or every call would be refused by a rule and hooks would never matter. */
const ruleArb = (emptyWeight: number) =>
  fc.oneof(
    { weight: emptyWeight, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.subarray(['Act', 'Flaky', 'Act(*)']) },
  );

/** A scenario over hooks of type `H` on `events`. */
export function scenarioArb<H>(hookArb: fc.Arbitrary<H>, options: { maxTurns: number; maxHooks: number }) {
  return fc.record({
    turns: fc.array(turnArb, { minLength: 1, maxLength: options.maxTurns }),
    hooks: fc.array(hookArb, { maxLength: options.maxHooks }),
    rules: fc.record({ allow: ruleArb(1), ask: ruleArb(2), deny: ruleArb(3) }),
    // A permissive baseline (bypass mode, an approving approver) is common, so that hooks and rules are what stops a call.
    mode: fc.constantFrom<PermissionMode>(
      'default',
      'bypassPermissions',
      'bypassPermissions',
      'acceptEdits',
      'plan',
      'dontAsk',
    ),
    approver: fc.constantFrom<ApprovalAnswer | 'throw'>('allow', 'allow', 'deny', 'throw', 'later'),
  });
}
export type Scenario<H> = {
  turns: (readonly { name: string; input: unknown }[] | 'api-error')[];
  hooks: H[];
  rules: { allow: string[]; ask: string[]; deny: string[] };
  mode: PermissionMode;
  approver: ApprovalAnswer | 'throw';
};

/** What a run left behind for the checks. */
export interface Played {
  readonly result: RunResult;
  /** Handler runs ("ran:<tool>") and tool_result events ("result:<id>:<ran>"), in the order they happened. */
  readonly timeline: readonly string[];
  readonly events: readonly RunEvent[];
  /** The JSONL transcript the run wrote (the file itself is removed). */
  readonly transcript: string;
}

let runCounter = 0;

/** The model of every run unless a property asks for another: the scripted model itself, lenient. */
export const scriptedModel = (turns: readonly ScriptTurn[]): ModelClient =>
  new ScriptedModel(turns, { mode: 'lenient' });

/**
 * Runs a scenario: `hooks` already holds the scenario's hooks. `model` makes the ModelClient that
 * answers the given turns (lenient: `done (script exhausted)` once they are used up), so the same
 * properties run through a provider adapter too.
 */
export async function play(
  scenario: Scenario<unknown>,
  hooks: HookEngine,
  projectDir: string,
  model: (turns: readonly ScriptTurn[]) => ModelClient = scriptedModel,
): Promise<Played> {
  const timeline: string[] = [];
  const tool = (name: string, fail: boolean) =>
    defineTool({
      name,
      description: 'records that it ran',
      inputSchema: z.strictObject({ n: z.number() }),
      handler: () => {
        timeline.push(`ran:${name}`);
        if (fail) throw new ToolFailure('Exit code 1\nflaky');
        return 'acted';
      },
    });
  let id = 0;
  const turns: ScriptTurn[] = scenario.turns.map((turn) =>
    turn === 'api-error'
      ? { error: { status: 500, message: 'scripted outage' } }
      : turn.map((call) => ({ type: 'tool_use', id: `toolu_${++id}`, name: call.name, input: call.input })),
  );
  turns.push([{ type: 'text', text: 'done' }]);
  const events: RunEvent[] = [];
  const transcriptPath = path.join(projectDir, 'transcripts', `run-${process.pid}-${++runCounter}.jsonl`);
  const options: RunOptions = {
    transcriptPath,
    model: model(turns),
    projectDir,
    tools: [tool('Act', false), tool('Flaky', true)],
    hooks,
    permissions: { rules: scenario.rules, mode: scenario.mode },
    approver: {
      approve: async () => {
        if (scenario.approver === 'throw') throw new Error('approver broke');
        return scenario.approver;
      },
    },
    maxTurns: 20,
    maxStopContinuations: 2,
    observers: [
      (event) => {
        events.push(event);
        if (event.type === 'tool_result') timeline.push(`result:${event.toolUseId}:${event.ran}`);
      },
    ],
  };
  let result = await runAgent('go', options);
  // Calls left waiting (defer, later): a second session from the transcript decides them, as `--resume ID --deny …` would.
  for (let rounds = 0; rounds < 25 && result.pending !== undefined && result.pending.length > 0; rounds++) {
    const decisions = Object.fromEntries(
      result.pending.map((call) => [call.id, { behavior: 'deny' as const, message: 'denied on resume' }]),
    );
    result = await resumeAgent(decisions, {
      ...options,
      model: model([[{ type: 'text', text: 'done' }]]),
      resume: loadSession(transcriptPath),
    });
  }
  const transcript = fs.existsSync(transcriptPath) ? fs.readFileSync(transcriptPath, 'utf8') : '';
  // The transcript, and the folder beside it where oversized hook context is saved.
  fs.rmSync(transcriptPath, { force: true });
  fs.rmSync(transcriptPath.replace(/\.jsonl$/, ''), { recursive: true, force: true });
  return { result, timeline, events, transcript };
}

const messageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.string() }),
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    text: z.string(),
    toolCalls: z.array(z.strictObject({ id: z.string().min(1), name: z.string(), input: z.unknown() })),
  }),
  z.strictObject({
    role: z.literal('tool'),
    toolCallId: z.string().min(1),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
  }),
]);

/**
 * The invariants every run must keep, whatever the hooks did; returns what is broken ([] = fine).
 * `mustNotRun(tool)`: the scenario's rules/hooks say no call of `tool` may run.
 */
export function violations(played: Played, mustNotRun: (tool: string) => boolean): string[] {
  const { result, timeline, events } = played;
  const problems = pairingViolations(result.messages).map((text) => `pairing: ${text}`);
  // Every handler run is followed by its call's result, reported as ran; no result stands for two runs.
  let pending: string | undefined;
  const ranIds = new Set<string>();
  const seenResults = new Set<string>();
  for (const entry of timeline) {
    if (entry.startsWith('ran:')) {
      if (pending !== undefined) problems.push(`handler ran twice before one result (${pending}, ${entry})`);
      pending = entry;
      continue;
    }
    const [, id, ran] = entry.split(':');
    if (seenResults.has(id!)) problems.push(`call ${id} reported twice`);
    seenResults.add(id!);
    if ((ran === 'true') !== (pending !== undefined))
      problems.push(`call ${id}: reported ran=${ran} but the handler ${pending ? 'ran' : 'did not run'}`);
    if (pending !== undefined) ranIds.add(id!);
    if (pending !== undefined && mustNotRun(pending.slice(4)))
      problems.push(`call ${id} ran although rules or hooks forbid ${pending.slice(4)}`);
    pending = undefined;
  }
  if (pending !== undefined) problems.push(`${pending} has no result`);
  for (const denial of result.permissionDenials)
    if (ranIds.has(denial.tool_use_id)) problems.push(`denied call ${denial.tool_use_id} ran`);
  const calls = new Map(
    result.messages.flatMap((message) =>
      message.role === 'assistant' ? message.toolCalls.map((call) => [call.id, call.name] as const) : [],
    ),
  );
  for (const message of result.messages) {
    const parsed = messageSchema.safeParse(message);
    if (!parsed.success) problems.push(`malformed message: ${parsed.error.issues[0]?.message}`);
    if (!Object.isFrozen(message)) problems.push('a message is not frozen');
    if (message.role === 'tool' && calls.get(message.toolCallId) !== message.toolName)
      problems.push(`result ${message.toolCallId} names ${message.toolName}`);
    if (
      message.role === 'tool' &&
      message.content.startsWith('<tool_use_error>') &&
      ranIds.has(message.toolCallId)
    )
      problems.push(`invalid call ${message.toolCallId} ran`);
  }
  if (result.messages.length > 0 && result.messages[0]!.role !== 'user')
    problems.push('the conversation does not start with the prompt');
  if (JSON.stringify(JSON.parse(JSON.stringify(result.messages))) !== JSON.stringify(result.messages))
    problems.push('messages do not survive JSON');
  // The run's event log (what an audit hook gets) serializes line by line; the JSONL transcript parses
  // and has one tool_result line per paired result.
  for (const event of events) JSON.parse(JSON.stringify(event));
  const lines = played.transcript.split('\n').filter((line) => line !== '');
  let transcriptResults = 0;
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { message?: { content?: unknown } };
      const content = entry.message?.content;
      if (Array.isArray(content))
        transcriptResults += content.filter(
          (block: { type?: string }) => block.type === 'tool_result',
        ).length;
    } catch {
      problems.push(`transcript line does not parse: ${line.slice(0, 80)}`);
    }
  }
  const pairedResults = result.messages.filter((message) => message.role === 'tool').length;
  if (transcriptResults !== pairedResults)
    problems.push(`transcript has ${transcriptResults} tool results, the conversation ${pairedResults}`);
  if (result.numTurns > 21) problems.push(`ran ${result.numTurns} turns with maxTurns 20`);
  return problems;
}

/** True when a rule list names `tool` (by name or `Act(*)`). */
export function ruleNames(rules: readonly string[], tool: string): boolean {
  return rules.some((rule) => rule === tool || rule.startsWith(`${tool}(`));
}

/** Messages in the order given, for debugging failures. */
export function describeMessages(messages: readonly Message[]): string {
  return messages
    .map((message) =>
      message.role === 'tool'
        ? `tool(${message.toolCallId})`
        : message.role === 'assistant'
          ? `assistant[${message.toolCalls.map((call) => call.id).join(',')}]`
          : message.role,
    )
    .join(' ');
}
