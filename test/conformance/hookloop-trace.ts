/**
 * Runs one conformance scenario through the built `hookloop` CLI with the reference runner and
 * completes the trace it writes: the runner's mock never sees hookloop's model requests
 * (`--model-script` replays the turns in-process), so `modelRequests`, `tools` and `messages.json`
 * are rebuilt from the CLI's `--record-requests` log, normalized the way run.mjs normalizes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  FIXTURES,
  REPO_ROOT,
  readTrace,
  referenceTools,
  type ModelRequestView,
  type Trace,
} from './reference-tools.js';

/** The repository's built CLI. */
export const CLI_PATH = path.join(REPO_ROOT, 'dist/bundle/cli/bin.js');

/** One request as `--record-requests` writes it: Anthropic wire shape, tool names only. */
interface RecordedRequest {
  system: unknown;
  tools: string[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
}

/**
 * Runs scenario `name` (of the `fixtures` folder: scenarios/ and traces/) through the hookloop CLI at `cliPath` and writes `trace.json` (and
 * `messages.json`) to `outDir`. Returns the completed trace. The runner's temporary run folder is
 * removed afterwards.
 */
export async function traceHookloop(
  name: string,
  outDir: string,
  cliPath = CLI_PATH,
  fixtures = FIXTURES,
): Promise<Trace> {
  const { runScenario } = await referenceTools.run();
  const scenarioFile = path.join(fixtures, 'scenarios', name, 'scenario.json');
  // The runner's model-script.json holds the `model` turns only; a scenario with `aux` answers (prompt
  // hooks, classifier requests) is replayed from its scenario.json, whose `<ws>` the CLI expands the same way.
  const script =
    'aux' in (JSON.parse(fs.readFileSync(scenarioFile, 'utf8')) as Record<string, unknown>)
      ? `'${scenarioFile}'`
      : '"$ORACLE_MODEL_SCRIPT"';
  const command = `node '${cliPath}' --model-script ${script} --record-requests "$ORACLE_MODEL_SCRIPT.requests.jsonl"`;
  const run = await runScenario(
    path.dirname(scenarioFile),
    { name: 'hookloop', command, shell: true },
    { outDir, keep: true, agentLabel: 'hookloop' },
  );
  const runDir = run.runDir!;
  try {
    const trace = readTrace(outDir);
    // Requests without tools (prompt hooks) are the mock's `aux` requests, which the trace does not list as turns.
    const requests = readRequestLog(path.join(runDir, 'model-script.json.requests.jsonl')).filter(
      (request) => request.tools.length > 0,
    );
    const normalizer = await runNormalizer(runDir);
    const { collapseSystemText, collapseUserText } = await referenceTools.normalize();
    const scriptLength = (
      JSON.parse(fs.readFileSync(path.join(runDir, 'model-script.json'), 'utf8')) as unknown[]
    ).length;
    trace.modelRequests = requests.map((request, index) => ({
      turn: index + 1,
      thread:
        JSON.stringify(request.system ?? null) === JSON.stringify(requests[0]!.system ?? null)
          ? 'main'
          : 'sub',
      scriptTurn: index < scriptLength ? index + 1 : null,
      ...normalizer.norm(newUserContent(request.messages, collapseSystemText, collapseUserText)),
    }));
    if (requests[0]) trace.tools = requests[0].tools;
    fs.writeFileSync(path.join(outDir, 'trace.json'), `${JSON.stringify(trace, null, 2)}\n`);
    const last = requests.at(-1);
    if (last)
      fs.writeFileSync(
        path.join(outDir, 'messages.json'),
        `${JSON.stringify(normalizer.norm(last.messages), null, 2)}\n`,
      );
    return trace;
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

function readRequestLog(file: string): RecordedRequest[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RecordedRequest);
}

/** A normalizer with the same path rules as run.mjs, and the ids of the recorded hook calls registered in the same order. */
async function runNormalizer(runDir: string) {
  const { makeNormalizer } = await referenceTools.normalize();
  const ws = path.join(runDir, 'ws');
  const rec = path.join(runDir, 'rec');
  const normalizer = makeNormalizer({
    paths: [
      [ws, '<ws>'],
      [path.join(runDir, 'home'), '<home>'],
      [path.join(runDir, 'tmp'), '<tmp>'],
      [rec, '<rec>'],
      [runDir, '<run>'],
      [ws.replace(/[^A-Za-z0-9]/g, '-'), '<ws-slug>'],
    ],
  });
  const recordings = fs.existsSync(rec)
    ? fs
        .readdirSync(rec)
        .filter((file) => file.endsWith('.json'))
        .sort()
    : [];
  for (const file of recordings) {
    try {
      normalizer.collect(JSON.parse(fs.readFileSync(path.join(rec, file), 'utf8')));
    } catch {
      // A recording that is not JSON has no ids to register; run.mjs keeps it as `_raw`.
      continue;
    }
  }
  return normalizer;
}

/** run.mjs `newUserContent`: the tool results, user text and system text after the last assistant message. */
function newUserContent(
  messages: RecordedRequest['messages'],
  collapseSystemText: (text: string) => string,
  collapseUserText: (text: string) => string,
): Omit<ModelRequestView, 'turn'> {
  const lastAssistant = messages.map((message) => message.role).lastIndexOf('assistant');
  const toolResults: ModelRequestView['toolResults'] = [];
  const extraText: string[] = [];
  const systemText: string[] = [];
  for (const message of messages.slice(lastAssistant + 1)) {
    const blocks =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) {
      const text = typeof block['text'] === 'string' ? block['text'] : undefined;
      if (message.role === 'system') systemText.push(collapseSystemText(text ?? JSON.stringify(block)));
      else if (block['type'] === 'tool_result')
        toolResults.push({
          tool_use_id: String(block['tool_use_id']),
          is_error: block['is_error'] === true,
          content: block['content'],
        });
      else if (block['type'] === 'text') extraText.push(collapseUserText(text ?? ''));
      else extraText.push(JSON.stringify(block));
    }
  }
  return { toolResults, extraText, ...(systemText.length > 0 ? { systemText } : {}) };
}
