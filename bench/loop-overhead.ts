/**
 * Row 1, in-process loop overhead: the library loop driving the scripted model through 10,000 calls
 * of a no-op tool, with 0 and with 10 no-op callback hooks on every event, against a bare async
 * loop (the seed's minimal loop: model → for each call: callbacks, handler, callbacks → push result).
 *
 * The calls come 10 per assistant message, so a call also carries a tenth of a model turn (the
 * request, PostToolBatch); row 5 has 1 call per message. The scripted model keeps no requests
 * (`record: false`): a copy of the conversation per request would measure the test double.
 * The JSONL transcript (on by default) is off in 1a–1c and measured on its own in 1d. Times are
 * this process's CPU time (see `cpuMs`). 1e is 1b with spans made by an SDK tracer (and dropped); 1f one no-op PreModelRequest callback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { HOOK_EVENT_NAMES } from '../src/hooks/event-names.js';
import { HookEngine } from '../src/hooks/hook-engine.js';
import { runAgent } from '../src/run/run-agent.js';
import type { Message } from '../src/messages/messages.js';
import type { ModelClient } from '../src/model/model-client.js';
import { ScriptedModel, type ScriptTurn } from '../src/model/scripted-model.js';
import { defineTool, type AnyTool } from '../src/tools/define-tool.js';
import { cpuMs, interleaved, verdict, type BenchRow } from './measure.js';

/** Total tool calls per run and calls per assistant message. */
export const TOTAL_CALLS = 10_000;
export const CALLS_PER_TURN = 10;
const HOOKS_PER_EVENT = 10;

/** The no-op tool every row uses. */
export function noopTool(): AnyTool {
  return defineTool({
    name: 'Noop',
    description: 'does nothing',
    inputSchema: z.strictObject({ n: z.number() }),
    readOnly: true,
    handler: () => 'ok',
  });
}

/** `turns` assistant messages of `perTurn` Noop calls each, then a final text answer. */
export function noopScript(turns: number, perTurn: number): ScriptTurn[] {
  const script: ScriptTurn[] = [];
  let id = 0;
  for (let turn = 0; turn < turns; turn++) {
    script.push(
      Array.from({ length: perTurn }, () => ({
        type: 'tool_use',
        id: `toolu_${++id}`,
        name: 'Noop',
        input: { n: id },
      })),
    );
  }
  script.push([{ type: 'text', text: 'done' }]);
  return script;
}

/** An engine with `count` no-op callbacks on every event hookloop fires; `calls.n` counts invocations. */
export function noopHooks(count: number, calls: { n: number }): HookEngine {
  const hooks = new HookEngine();
  for (const event of HOOK_EVENT_NAMES) {
    for (let index = 0; index < count; index++) hooks.on(event, () => void calls.n++);
  }
  return hooks;
}

type Callback = (event: {
  readonly name: string;
  readonly call: unknown;
  readonly output?: unknown;
}) => Promise<void> | void;

/** The floor: the seed's minimal async loop, no validation, no permissions, plain callbacks before and after each call. */
export async function bareLoop(
  model: ModelClient,
  tools: ReadonlyMap<string, AnyTool>,
  callbacks: readonly Callback[],
  prompt: string,
): Promise<string> {
  const history: Message[] = [{ role: 'user', content: prompt }];
  for (let turn = 1; turn <= 100_000; turn++) {
    const reply = await model.complete({ system: '', messages: history, tools: [] });
    history.push(reply.message);
    if (reply.message.toolCalls.length === 0) return reply.message.text;
    for (const call of reply.message.toolCalls) {
      for (const callback of callbacks) await callback({ name: 'PreToolUse', call });
      const tool = tools.get(call.name)!;
      const output: unknown = await tool.handler(call.input, undefined as never);
      for (const callback of callbacks) await callback({ name: 'PostToolUse', call, output });
      history.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: String(output),
        isError: false,
      });
    }
  }
  throw new Error('bare loop: too many turns');
}

/** Runs row 1 and returns its rows. */
export async function loopOverheadRows(options: { runs: number; warmup: number }): Promise<BenchRow[]> {
  const turns = TOTAL_CALLS / CALLS_PER_TURN;
  const script = noopScript(turns, CALLS_PER_TURN);
  const tool = noopTool();
  const projectDir = os.tmpdir();
  const counted = { n: 0 };
  let lastHookCount = 0;
  const transcripts = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bench-transcripts-'));
  // Spans recorded by a real SDK tracer and dropped (no processor): the cost of making them.
  const tracer = new BasicTracerProvider().getTracer('hookloop');
  const hookloop =
    (hookCount: number, transcript = false, traced = false) =>
    async () => {
      const hooks = noopHooks(hookCount, counted);
      counted.n = 0;
      const transcriptPath = path.join(transcripts, 'run.jsonl');
      const ms = await cpuMs(() =>
        runAgent('go', {
          model: new ScriptedModel(script, { record: false }),
          projectDir,
          tools: [tool],
          hooks,
          maxTurns: turns + 1,
          transcript,
          transcriptPath,
          ...(traced ? { tracer } : {}),
        }),
      );
      fs.rmSync(transcriptPath, { force: true });
      if (hookCount > 0 && !transcript && !traced) lastHookCount = counted.n;
      return (ms * 1000) / TOTAL_CALLS;
    };
  // Row 1f: one no-op before-model hook (hookloop's PreModelRequest extension): its payload carries the whole conversation.
  const beforeModel = async () => {
    const hooks = new HookEngine();
    hooks.on('PreModelRequest', () => undefined);
    const ms = await cpuMs(() =>
      runAgent('go', {
        model: new ScriptedModel(script, { record: false }),
        projectDir,
        tools: [tool],
        hooks,
        maxTurns: turns + 1,
        transcript: false,
      }),
    );
    return (ms * 1000) / TOTAL_CALLS;
  };
  const bare = async () => {
    const callbacks: Callback[] = Array.from({ length: HOOKS_PER_EVENT }, () => () => void counted.n++);
    const ms = await cpuMs(() =>
      bareLoop(new ScriptedModel(script, { record: false }), new Map([[tool.name, tool]]), callbacks, 'go'),
    );
    return (ms * 1000) / TOTAL_CALLS;
  };
  let measured;
  try {
    measured = await interleaved(
      {
        zero: hookloop(0),
        ten: hookloop(HOOKS_PER_EVENT),
        transcript: hookloop(HOOKS_PER_EVENT, true),
        traced: hookloop(HOOKS_PER_EVENT, false, true),
        beforeModel,
        bare,
      },
      options,
    );
  } finally {
    fs.rmSync(transcripts, { recursive: true, force: true });
  }
  const invocationsPerCall = lastHookCount / TOTAL_CALLS;
  const perHookUs = (measured.ten.median - measured.zero.median) / invocationsPerCall;
  const ratio = measured.ten.median / measured.bare.median;
  return [
    {
      row: '1a loop, 0 hooks (CPU µs/call)',
      unit: 'µs/call',
      hookloop: measured.zero,
      floorLabel: 'bare loop, 10 callbacks',
      floor: measured.bare,
      ratio: measured.zero.median / measured.bare.median,
      goal: 'report',
      verdict: 'info',
    },
    {
      row: '1b loop, 10 hooks/event (CPU µs/call)',
      unit: 'µs/call',
      hookloop: measured.ten,
      floorLabel: 'bare loop, 10 callbacks',
      floor: measured.bare,
      ratio,
      goal: '≤ 25 µs/call and ≤ 10× floor',
      verdict: verdict(measured.ten.median <= 25 && ratio <= 10),
    },
    {
      row: '1c one hook invocation (CPU µs)',
      unit: 'µs/hook',
      hookloop: { median: perHookUs, min: perHookUs, max: perHookUs, runs: measured.ten.runs },
      goal: '≤ 2 µs per invocation',
      verdict: verdict(perHookUs <= 2),
      note: `(10-hook median − 0-hook median) / ${invocationsPerCall.toFixed(1)} hook invocations per call`,
    },
    {
      row: '1d loop, 10 hooks/event + JSONL transcript (CPU µs/call)',
      unit: 'µs/call',
      hookloop: measured.transcript,
      floorLabel: 'bare loop, 10 callbacks',
      floor: measured.bare,
      ratio: measured.transcript.median / measured.bare.median,
      goal: '≤ 25 µs/call and ≤ 10× floor',
      verdict: verdict(
        measured.transcript.median <= 25 && measured.transcript.median / measured.bare.median <= 10,
      ),
      note: `the transcript (on by default) adds ${(measured.transcript.median - measured.ten.median).toFixed(1)} µs per call: two JSONL lines, each built, serialized and written synchronously`,
    },
    {
      row: '1e loop, 10 hooks/event, traced: a span per hook (CPU µs/call)',
      unit: 'µs/call',
      hookloop: measured.traced,
      floorLabel: '1b: the same run untraced',
      floor: measured.ten,
      ratio: measured.traced.median / measured.ten.median,
      goal: 'report (tracing off: no observer at all, so 1b is its cost)',
      verdict: 'info',
      note: `with an SDK tracer, ${(measured.traced.median - measured.ten.median).toFixed(1)} µs per call for ~${Math.round(invocationsPerCall + 4)} spans; without a tracer or a registered SDK no span observer is installed, so telemetry off costs nothing beyond 1b`,
    },
    {
      row: '1f loop, one no-op PreModelRequest callback (CPU µs/call)',
      unit: 'µs/call',
      hookloop: measured.beforeModel,
      floorLabel: 'loop, 0 hooks',
      floor: measured.zero,
      ratio: measured.beforeModel.median / measured.zero.median,
      goal: 'report',
      verdict: 'info',
      note: `a before-model hook adds ${((measured.beforeModel.median - measured.zero.median) * CALLS_PER_TURN).toFixed(1)} µs per model request (${CALLS_PER_TURN} calls each) on a conversation growing to ${TOTAL_CALLS * 2} messages: its payload is built incrementally and frozen once`,
    },
  ];
}
