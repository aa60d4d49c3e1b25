/**
 * Row 5, growth: the cost of one tool call (1 call per assistant message, 3 no-op callback hooks
 * per event) as the transcript grows (1, 100, 10,000 prior messages), and as the tool's output
 * grows (1 KB, 1 MB, 10 MB) through three PostToolUse rewrites.
 *
 * A call's cost is the CPU time (see measure.ts `cpuMs`) between consecutive handler runs in a
 * window of calls, so it includes the model request and everything the loop does per call, and
 * nothing of building the prefix. The JSONL transcript is off (row 1d measures it).
 */
import os from 'node:os';
import { z } from 'zod';
import { replaceOutput } from '../src/hooks/builders.js';
import { runAgent } from '../src/run/run-agent.js';
import type { Message } from '../src/messages/messages.js';
import { ScriptedModel, type ScriptTurn } from '../src/model/scripted-model.js';
import { defineTool } from '../src/tools/define-tool.js';
import { noopHooks } from './loop-overhead.js';
import { cpuNowMs, interleaved, verdict, type BenchRow } from './measure.js';

/** `prefixCalls` calls in assistant messages of up to 99 calls, then `window` messages of one call each. */
function script(prefixCalls: number, window: number): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  let id = 0;
  const call = () => ({ type: 'tool_use', id: `toolu_${++id}`, name: 'Work', input: { n: id } });
  for (let left = prefixCalls; left > 0; left -= 99)
    turns.push(Array.from({ length: Math.min(99, left) }, call));
  for (let index = 0; index < window; index++) turns.push([call()]);
  turns.push([{ type: 'text', text: 'done' }]);
  return turns;
}

/** Prior calls that put `messages` messages before the window: the prompt, then per message of ≤ 99 calls, 1 + calls. */
function prefixCallsFor(messages: number): number {
  if (messages <= 1) return 0;
  const turns = Math.ceil((messages - 1) / 100);
  return messages - 1 - turns;
}

/** What the rewriting hooks do, like secret-redaction hooks: each scans the whole output for its word. */
const REDACTIONS = [/alpha/g, /bravo/g, /charlie/g];
const redact = (text: string, index: number) => text.replace(REDACTIONS[index]!, '*****');

/** A tool output of `bytes` bytes in which each redaction finds one word. */
function outputOf(bytes: number): string {
  const words = 'alpha bravo charlie ';
  return words + 'x'.repeat(Math.max(0, bytes - words.length));
}

/**
 * CPU µs per call over the window: the handler stamps the time of every call after the prefix.
 * `output` is what the tool returns; `rewrites` PostToolUse hooks each redact one word.
 */
async function windowCost(
  prefixCalls: number,
  window: number,
  output: string,
  rewrites: number,
): Promise<number> {
  const stamps: number[] = [];
  const tool = defineTool({
    name: 'Work',
    description: 'returns a fixed output',
    inputSchema: z.strictObject({ n: z.number() }),
    readOnly: true,
    handler: ({ n }) => {
      if (n > prefixCalls) stamps.push(cpuNowMs());
      return output;
    },
  });
  const hooks = noopHooks(3, { n: 0 });
  for (let index = 0; index < rewrites; index++)
    hooks.on('PostToolUse', ({ tool_response }) => replaceOutput(redact(tool_response as string, index)));
  const turns = script(prefixCalls, window);
  const result = await runAgent('go', {
    model: new ScriptedModel(turns, { record: false }),
    projectDir: os.tmpdir(),
    tools: [tool],
    hooks,
    maxTurns: turns.length + 1,
    transcript: false,
  });
  if (result.terminalReason !== 'completed')
    throw new Error(`growth run ended with ${result.terminalReason}`);
  return ((stamps[stamps.length - 1]! - stamps[0]!) * 1000) / (stamps.length - 1);
}

/** The floor for big outputs: a bare loop (1 call per message) doing the same three rewrites with plain functions. */
async function bareRewrites(window: number, output: string, rewrites: number): Promise<number> {
  const stamps: number[] = [];
  const model = new ScriptedModel(script(0, window), { record: false });
  const history: Message[] = [{ role: 'user', content: 'go' }];
  for (;;) {
    const reply = await model.complete({ system: '', messages: history, tools: [] });
    history.push(reply.message);
    if (reply.message.toolCalls.length === 0) break;
    for (const call of reply.message.toolCalls) {
      stamps.push(cpuNowMs());
      let result = await Promise.resolve(output);
      for (let index = 0; index < rewrites; index++) result = redact(result, index);
      history.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: result,
        isError: false,
      });
    }
  }
  return ((stamps[stamps.length - 1]! - stamps[0]!) * 1000) / (stamps.length - 1);
}

/** Runs row 5 and returns its rows. */
export async function growthRows(options: { runs: number; warmup: number }): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const WINDOW = 101;
  const lengths = await interleaved(
    {
      one: () => windowCost(prefixCallsFor(1), WINDOW, 'ok', 0),
      hundred: () => windowCost(prefixCallsFor(100), WINDOW, 'ok', 0),
      tenThousand: () => windowCost(prefixCallsFor(10_000), WINDOW, 'ok', 0),
    },
    options,
  );
  for (const [key, label] of [
    ['hundred', '100'],
    ['tenThousand', '10,000'],
  ] as const) {
    const ratio = lengths[key].median / lengths.one.median;
    rows.push({
      row: `5 call after ${label} prior messages (CPU µs)`,
      unit: 'µs/call',
      hookloop: lengths[key],
      floorLabel: 'after 1 message',
      floor: lengths.one,
      ratio,
      goal: 'flat (≤ 1.25× after 1)',
      verdict: verdict(ratio <= 1.25),
    });
  }

  const sizes = [
    { label: '1 KB', bytes: 1024, window: 201 },
    { label: '1 MB', bytes: 1024 ** 2, window: 21 },
    { label: '10 MB', bytes: 10 * 1024 ** 2, window: 6 },
  ];
  // The rewrite path (replaceOutput, the engine's rewrite, the loop's output check) is cold until
  // here; a few thousand calls let the JIT settle, as it has in an agent that has been running a while.
  await windowCost(0, 3000, outputOf(1024), 3);
  await bareRewrites(3000, outputOf(1024), 3);
  const perMb: number[] = [];
  for (const size of sizes) {
    const output = outputOf(size.bytes);
    const measured = await interleaved(
      {
        hookloop: () => windowCost(0, size.window, output, 3),
        floor: () => bareRewrites(size.window, output, 3),
      },
      { runs: options.runs, warmup: 1 },
    );
    perMb.push(measured.hookloop.median / (size.bytes / 1024 ** 2));
    rows.push({
      row: `5 ${size.label} output, 3 rewrites (CPU µs/call)`,
      unit: 'µs/call',
      hookloop: measured.hookloop,
      floorLabel: 'bare loop, same rewrites',
      floor: measured.floor,
      ratio: measured.hookloop.median / measured.floor.median,
      goal: size.bytes === 1024 ? 'report' : 'linear in bytes',
      verdict: size.bytes === 1024 ? 'info' : verdict(perMb[perMb.length - 1]! <= 1.5 * perMb[1]!),
      ...(size.bytes > 1024 ? { note: `${perMb[perMb.length - 1]!.toFixed(0)} µs per MB` } : {}),
    });
  }
  return rows;
}
