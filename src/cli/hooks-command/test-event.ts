import type { HookInput } from '../../hooks/event-schemas.js';
import { HookEngine, type HookPlan, type SkipReason } from '../../hooks/hook-engine.js';
import type { HandlerOutcome } from '../../hooks/handler.js';
import type { HookSetup } from '../../hooks/plugins/hook-setup.js';
import {
  describeHandler,
  locationOf,
  registerEffective,
  showMatcher,
  type EffectiveHandler,
} from './effective-handlers.js';
import { KNOWN_TOOL_NAMES } from './known-tools.js';
import type { TestPayload } from './build-payload.js';
import { verdictOf, type TestVerdict } from './test-verdict.js';

/**
 * `hookloop hooks test EVENT`: one event through the pipeline a run uses — the CLI's registration
 * of the configured handlers, the engine's one entry point (`fire`: matcher, `if`, dedupe, concurrent
 * execution, merge order and the event's merge rule) — with every handler's raw answer kept for display.
 */

/** One configured handler of the event and what became of it. */
export interface TestedHandler {
  readonly index: number;
  readonly handler: string;
  readonly matcher: string | undefined;
  readonly if: string | undefined;
  readonly source: { readonly file: string; readonly scope: string; readonly plugin?: string };
  readonly location: string;
  readonly async: boolean;
  /** `ran`, or `skipped` with `why` (matcher, `if`, duplicate, a type this build cannot run). */
  readonly status: 'ran' | 'skipped';
  readonly why?: string;
  readonly answer?: HandlerAnswer;
}

/** A handler's answer: the raw process result and what hookloop read from it. */
export interface HandlerAnswer {
  readonly outcome: HandlerOutcome['status'];
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly durationMs: number;
  readonly output: Readonly<Record<string, unknown>>;
  readonly plainText?: string;
  readonly blockMessage?: string;
  readonly error?: string;
  /** What was ignored in a lenient read of the answer (unknown fields), as the run warns it. */
  readonly warning?: string;
  readonly failClosed: boolean;
}

/** The whole result (`--json` prints it as is). */
export interface HookTestReport extends Omit<TestPayload, 'notes'> {
  readonly handlers: readonly TestedHandler[];
  /** Set when no handler ran, saying why (e.g. a matcher that differs only in case). */
  readonly nothingMatched?: string;
  readonly verdict: TestVerdict;
  readonly notes: readonly string[];
  /** The configuration's warnings (settings, plugins, registration), one line each; printed on stderr. */
  readonly warnings: readonly string[];
}

/**
 * Runs the event. Async handlers are waited for and shown, though (as in a run) their answers do
 * not take part in the merge. Never throws for hook failures: they are answers.
 */
export async function testEvent(
  setup: HookSetup,
  built: TestPayload,
  projectDir: string,
): Promise<HookTestReport> {
  // Wired as the CLI's run wires its engine: default `if` evaluation, the settings' concurrency
  // limits, the project folder given per fire.
  const engine = new HookEngine({ concurrency: setup.settings.hookConcurrency });
  const registration = registerEffective(engine, setup.handlers, projectDir);
  const configured = registration.byEvent.get(built.event) ?? [];
  const input = built.payload as HookInput<typeof built.event>;
  const plan = explain(configured, await engine.plan(built.event, input, { projectDir }));
  const running = plan.filter((entry) => entry.why === undefined);
  const answers = new Map<unknown, HandlerOutcome>();
  const background = running.filter((entry) => entry.effective.registered?.background === true).length;
  let backgroundDone: () => void = () => undefined;
  const allBackground = new Promise<void>((resolve) => (backgroundDone = resolve));
  let backgroundSeen = 0;
  if (background === 0) backgroundDone();
  const foreground = new Set(
    running
      .filter((entry) => entry.effective.registered?.background !== true)
      .map((entry) => entry.effective.registered?.origin),
  );
  const result = await engine.fire(built.event, input, {
    projectDir,
    onOutcome: (outcome) => {
      answers.set(outcome.origin, outcome);
      if (!foreground.has(outcome.origin) && ++backgroundSeen >= background) backgroundDone();
    },
  });
  // The engine runs exactly the handlers of its plan; the bound only guards against a mismatch.
  const longest = Math.max(0, ...running.map((entry) => entry.effective.entry.config.timeout ?? 600));
  await Promise.race([allBackground, delay(longest * 1000 + 2000)]);
  const handlers = plan.map(({ effective, why }) =>
    toTested(effective, why, answers.get(effective.registered?.origin)),
  );
  const nothingMatched = running.length === 0 ? describeNoMatch(configured, plan, built, setup) : undefined;
  return {
    event: built.event,
    payload: built.payload,
    matchValue: built.matchValue,
    matchField: built.matchField,
    handlers,
    ...(nothingMatched !== undefined ? { nothingMatched } : {}),
    verdict: verdictOf(built.event, result),
    notes: built.notes,
    warnings: [...setup.warnings, ...registration.warnings],
  };
}

interface Planned {
  readonly effective: EffectiveHandler;
  /** Why it does not run; undefined = it runs. */
  readonly why: string | undefined;
}

/**
 * The engine's plan, told per configured handler: a handler this build could not register says
 * why; every registered one reads its fate from the plan (the same selection `fire` runs).
 */
function explain(configured: readonly EffectiveHandler[], plan: HookPlan): Planned[] {
  const fates = new Map(plan.handlers.map((entry) => [entry.handler, entry.skip]));
  const indexOf = new Map(
    configured.flatMap((effective) =>
      effective.registered === undefined ? [] : [[effective.registered, effective.index] as const],
    ),
  );
  return configured.map((effective) => {
    if (effective.registered === undefined) return { effective, why: effective.skipped ?? 'not registered' };
    const skip = fates.get(effective.registered);
    return { effective, why: skip === undefined ? undefined : describeSkip(skip, plan, indexOf) };
  });
}

/** A skip reason in words, as `hooks test` prints it. */
function describeSkip(skip: SkipReason, plan: HookPlan, indexOf: ReadonlyMap<unknown, number>): string {
  switch (skip.kind) {
    case 'matcher':
      return `matcher ${showMatcher(skip.matcher)} does not match ${skip.value}${caseHint(skip.matcher, skip.value)}`;
    case 'if-off-tool-event':
      return `"if" is evaluated on tool events only: it never runs on ${plan.event}`;
    case 'if':
      return `if ${JSON.stringify(skip.condition)} does not match this call`;
    case 'duplicate':
      return `same handler as #${indexOf.get(skip.of) ?? '?'}, which runs: identical handlers run once per event`;
    case 'nested-agent':
      return 'agent hooks do not run inside an agent hook';
  }
}

function caseHint(matcher: string | undefined, value: string): string {
  const names = (matcher ?? '').split(/[|,]/).map((name) => name.trim());
  return names.some((name) => name !== value && name.toLowerCase() === value.toLowerCase())
    ? ` (case-sensitive: did you mean ${value}?)`
    : '';
}

/** `no handler matched PreToolUse for tool Bash; configured matchers: bash (case-sensitive: did you mean Bash?)`. */
function describeNoMatch(
  configured: readonly EffectiveHandler[],
  plan: readonly Planned[],
  built: TestPayload,
  setup: HookSetup,
): string {
  if (configured.length === 0) {
    const files = [...setup.settings.files, ...setup.plugins.flatMap((plugin) => plugin.hookFiles)];
    return `no handler is configured for ${built.event}${setup.settings.disableAllHooks ? ' (disableAllHooks is set)' : ''}; read: ${files.join(', ') || 'no settings file'}`;
  }
  const subject =
    built.matchValue === undefined
      ? built.event
      : `${built.event} for ${built.matchField === 'tool_name' ? 'tool' : (built.matchField ?? 'value')} ${built.matchValue}`;
  const matchers = [
    ...new Set(configured.map((effective) => showMatcher(effective.entry.matcher).replace(/^"(.*)"$/, '$1'))),
  ];
  const hints = [
    ...new Set(
      configured
        .map((effective) => caseHint(effective.entry.matcher, built.matchValue ?? ''))
        .filter((hint) => hint !== ''),
    ),
  ];
  const known =
    built.matchField === 'tool_name' &&
    built.matchValue !== undefined &&
    !KNOWN_TOOL_NAMES.includes(built.matchValue) &&
    !built.matchValue.startsWith('mcp__')
      ? ` (${built.matchValue} is not a tool name hookloop knows)`
      : '';
  const reasons = [
    ...new Set(
      plan.map((entry) => entry.why).filter((why) => why !== undefined && !why.startsWith('matcher ')),
    ),
  ];
  return `no handler matched ${subject}${known}; configured matchers: ${matchers.join(', ')}${hints.join('')}${reasons.length > 0 ? `; also: ${reasons.join('; ')}` : ''}`;
}

function toTested(
  effective: EffectiveHandler,
  why: string | undefined,
  outcome: HandlerOutcome | undefined,
): TestedHandler {
  const { entry } = effective;
  return {
    index: effective.index,
    handler: describeHandler(entry.config),
    matcher: entry.matcher,
    if: entry.config.if,
    source: {
      file: entry.source.file,
      scope: entry.source.scope,
      ...(entry.source.plugin !== undefined ? { plugin: entry.source.plugin } : {}),
    },
    location: locationOf(entry),
    async: effective.registered?.background === true,
    status: why === undefined ? 'ran' : 'skipped',
    ...(why !== undefined ? { why } : {}),
    ...(outcome !== undefined ? { answer: toAnswer(outcome) } : {}),
  };
}

function toAnswer(outcome: HandlerOutcome): HandlerAnswer {
  return {
    outcome: outcome.status,
    ...(outcome.raw ?? {}),
    durationMs: outcome.durationMs,
    output: outcome.output,
    ...(outcome.plainText !== undefined ? { plainText: outcome.plainText } : {}),
    ...(outcome.blockMessage !== undefined ? { blockMessage: outcome.blockMessage } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome.warning !== undefined ? { warning: outcome.warning } : {}),
    failClosed: outcome.failClosed,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
