/**
 * Issue 3's "Done when", through the built CLI and the conformance runner (tools/run.mjs):
 * conformance scenarios run through the Anthropic provider against the runner's own mock of the
 * Messages API (ANTHROPIC_BASE_URL, no --model-script), and through the OpenAI-compatible provider
 * against a local chat-completions mock serving the same turns. Each provider trace must equal the
 * trace of the same scenario replayed with --model-script — hook calls and their stdin, event order,
 * what each model request carried back (tool results, hook text), files, exit code, result and the
 * JSON output — so it matches Claude Code's trace exactly as well as the scripted run does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { ignoredEvents } from '../conformance/check-scenario.js';
import { traceHookloop } from '../conformance/hookloop-trace.js';
import {
  FIXTURES,
  readTrace,
  referenceTools,
  scenariosOfTier,
  type ModelRequestView,
  type Trace,
} from '../conformance/reference-tools.js';
import { CLI, ensureBuilt, ROOT } from './support/built-cli.js';

/** A sample of the loop tier by default; `HOOKLOOP_PROVIDER_CONFORMANCE=all` runs the whole tier (slow: three runs per scenario). */
const SCENARIOS =
  process.env['HOOKLOOP_PROVIDER_CONFORMANCE'] === 'all'
    ? scenariosOfTier('loop')
    : [
        'lifecycle-basic',
        'context-injection',
        'batch-order',
        'pre-exit2-blocks',
        'pre-json-deny-with-context',
        'post-tool-use-failure',
        'stop-block-once',
        'tools-read-write-edit',
      ];
const OPENAI_AGENT = path.join(ROOT, 'test/providers/support/openai-agent.mjs');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-providers-'));

beforeAll(ensureBuilt, 180_000);

/** Runs `scenario` with the runner and an agent command; returns the trace and the kept run folder. */
async function runWith(
  scenario: string,
  label: string,
  command: string,
): Promise<{ trace: Trace; runDir: string }> {
  const { runScenario } = await referenceTools.run();
  const outDir = path.join(workDir, label, scenario);
  const run = await runScenario(
    path.join(FIXTURES, 'scenarios', scenario),
    { name: 'hookloop', command, shell: true },
    { outDir, keep: true, agentLabel: 'hookloop' },
  );
  return { trace: readTrace(outDir), runDir: run.runDir! };
}

/** The differences between two traces, as the conformance suite's compare.mjs reports them. */
async function compare(a: Trace, b: Trace): Promise<string[]> {
  const { compareTraces } = await referenceTools.compare();
  return compareTraces(a, b, {
    skip: new Set(),
    events: null,
    ignoreEvents: await ignoredEvents(),
    ignoreFields: new Set(),
    unordered: false,
    quiet: false,
    hints: true,
  });
}

/** The trace's JSON output fields that the conformance suite compares. */
function output(trace: Trace) {
  const { subtype, is_error, stop_reason, terminal_reason, permission_denials, deferred_tool_use } =
    trace.output ?? {};
  return { subtype, is_error, stop_reason, terminal_reason, permission_denials, deferred_tool_use };
}

/** Chat messages after the last assistant message, in the runner's view: tool results, user text, system text. */
function chatView(
  messages: { role: string; content?: unknown; tool_call_id?: string }[],
): Omit<ModelRequestView, 'turn'> {
  // A first system message is the request's system prompt (Anthropic's top-level `system`), not conversation text.
  const conversation = messages[0]?.role === 'system' ? messages.slice(1) : messages;
  const last = conversation.map((message) => message.role).lastIndexOf('assistant');
  const toolResults: ModelRequestView['toolResults'] = [];
  const extraText: string[] = [];
  const systemText: string[] = [];
  for (const message of conversation.slice(last + 1)) {
    const text = String(message.content ?? '');
    if (message.role === 'tool')
      toolResults.push({ tool_use_id: String(message.tool_call_id), is_error: false, content: text });
    else if (message.role === 'system') systemText.push(text);
    else extraText.push(text);
  }
  return { toolResults, extraText, ...(systemText.length > 0 ? { systemText } : {}) };
}

/** The OpenAI run's model requests, rebuilt from the chat mock's log (the runner's Anthropic mock saw none). */
async function withChatRequests(trace: Trace, runDir: string): Promise<Trace> {
  const { makeNormalizer } = await referenceTools.normalize();
  const normalizer = makeNormalizer({
    paths: [
      [path.join(runDir, 'ws'), '<ws>'],
      [path.join(runDir, 'home'), '<home>'],
      [path.join(runDir, 'tmp'), '<tmp>'],
      [runDir, '<run>'],
    ],
  });
  const log = fs
    .readFileSync(path.join(runDir, 'model-script.json.chat-requests.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean);
  const turns = log
    .map(
      (line) =>
        JSON.parse(line) as {
          tools?: { function: { name: string } }[];
          messages: { role: string; content?: unknown }[];
        },
    )
    .filter((body) => (body.tools?.length ?? 0) > 0);
  return {
    ...trace,
    tools: turns[0]?.tools?.map((tool) => tool.function.name) ?? [],
    modelRequests: turns.map((body, index) => ({
      turn: index + 1,
      thread: 'main',
      ...normalizer.norm(chatView(body.messages)),
    })),
  };
}

/** Chat completions have no error flag on tool results: compare the scripted run's without it too. */
function withoutErrorFlags(trace: Trace): Trace {
  return {
    ...trace,
    modelRequests: trace.modelRequests.map(({ scriptTurn: _scriptTurn, ...request }) => ({
      ...request,
      toolResults: request.toolResults.map((result) => ({ ...result, is_error: false })),
    })),
  };
}

/** The variables the OpenAI wrapper swaps (hooks inherit them; hook-env-cwd-stdin records them). */
const PROVIDER_ENV = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'HOOKLOOP_SYSTEM_MESSAGES',
];

function withoutProviderEnv(trace: Trace): Trace {
  return {
    ...trace,
    hookCalls: trace.hookCalls.map((call) =>
      call.env
        ? {
            ...call,
            env: Object.fromEntries(
              Object.entries(call.env).filter(([name]) => !PROVIDER_ENV.includes(name)),
            ),
          }
        : call,
    ),
  };
}

describe('conformance scenarios through the real providers against local mocks', () => {
  for (const scenario of SCENARIOS) {
    it.concurrent(
      `${scenario}: the Anthropic and OpenAI-compatible runs equal the --model-script run`,
      async ({ expect }) => {
        const scriptedDir = path.join(workDir, 'scripted', scenario);
        fs.mkdirSync(scriptedDir, { recursive: true });
        const scripted = await traceHookloop(scenario, scriptedDir);
        const anthropic = await runWith(scenario, 'anthropic', `node '${CLI}'`);
        const openai = await runWith(
          scenario,
          'openai',
          `HOOKLOOP_SYSTEM_MESSAGES=system-role node '${OPENAI_AGENT}' '${CLI}'`,
        );

        expect(anthropic.trace.modelRequests.length).toBe(scripted.modelRequests.length);
        expect(await compare(scripted, anthropic.trace)).toEqual([]);
        // The comparison does look at what the model was sent: dropping it shows up.
        if (scripted.modelRequests.length > 0)
          expect(
            await compare(scripted, {
              ...anthropic.trace,
              modelRequests: anthropic.trace.modelRequests.slice(1),
            }),
          ).not.toEqual([]);
        expect(output(anthropic.trace)).toEqual(output(scripted));

        const chat = await withChatRequests(openai.trace, openai.runDir);
        expect(chat.modelRequests.length).toBe(scripted.modelRequests.length);
        expect(
          await compare(
            withoutErrorFlags(withoutProviderEnv(scripted)),
            withoutErrorFlags(withoutProviderEnv(chat)),
          ),
        ).toEqual([]);
        expect(output(openai.trace)).toEqual(output(scripted));
        for (const run of [anthropic, openai]) fs.rmSync(run.runDir, { recursive: true, force: true });
      },
      120_000,
    );
  }
});
