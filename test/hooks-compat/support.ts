import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  builtinTools,
  type ConcurrencyLimits,
  HookEngine,
  loadSettings,
  type Message,
  registerSettingsHandlers,
  runAgent,
  type RunEvent,
  type RunOptions,
  type RunResult,
} from '../../src/index.js';
import { ScriptedModel, type AuxRule, type ScriptTurn } from '../../src/testing.js';
import { matchesCondition } from '../../src/permissions/index.js';
import { tempProject } from '../support/scripted-run.js';

export { tempProject, text, toolResults, toolUse, pairingViolations } from '../support/scripted-run.js';

/**
 * Hooks exactly as the CLI builds them: a settings object loaded with Claude Code's loader (as
 * `--settings` JSON) and registered with `registerSettingsHandlers`, `if` conditions included.
 */
export function settingsHooks(
  settings: Record<string, unknown>,
  projectDir: string,
  concurrency?: ConcurrencyLimits,
): { hooks: HookEngine; warnings: string[] } {
  const home = path.join(projectDir, '.test-home');
  fs.mkdirSync(home, { recursive: true });
  const loaded = loadSettings({ projectDir, homeDir: home, flagSettings: JSON.stringify(settings) });
  const hooks = new HookEngine({
    conditionMatches: (rule, toolName, toolInput) =>
      matchesCondition(rule, toolName, toolInput, projectDir, projectDir),
    ...(concurrency ? { concurrency } : {}),
  });
  const registered = registerSettingsHandlers(hooks, loaded.handlers, projectDir);
  return { hooks, warnings: [...loaded.warnings, ...registered.warnings] };
}

export interface CompatRun {
  readonly result: RunResult;
  readonly model: ScriptedModel;
  readonly events: RunEvent[];
  readonly projectDir: string;
  /** Lines the CLI would print on stderr for the user: hook messages and warnings. */
  readonly userLines: string[];
}

/**
 * One run with the built-in tools, a strict scripted model (with `aux` answers for requests
 * without tools, as the conformance mock), transcripts in a private folder, and every RunEvent kept.
 */
export async function compatRun(
  turns: readonly ScriptTurn[],
  options: Partial<RunOptions> & { projectDir?: string; aux?: readonly AuxRule[]; lenient?: boolean } = {},
  prompt = 'go',
): Promise<CompatRun> {
  const projectDir = options.projectDir ?? tempProject();
  const model = new ScriptedModel(turns, {
    mode: options.lenient ? 'lenient' : 'strict',
    aux: options.aux ?? [],
  });
  const events: RunEvent[] = [];
  const result = await runAgent(prompt, {
    tools: builtinTools(),
    configDir: path.join(projectDir, '.test-config'),
    ...options,
    projectDir,
    model,
    observers: [(event) => events.push(event), ...(options.observers ?? [])],
  });
  const userLines = events.flatMap((event) =>
    event.type === 'system_message' || event.type === 'warning' ? [event.text] : [],
  );
  return { result, model, events, projectDir, userLines };
}

/** Every model request's messages that are not tool results, flattened to `role: text` lines (what the model was told besides results). */
export function textsSent(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === 'system' || message.role === 'user' ? [`${message.role}: ${message.content}`] : [],
  );
}

/** A hook that records every stdin payload it gets as one JSON line in `file` (inside the project). */
export function recorder(file: string): { type: 'command'; command: string } {
  return {
    type: 'command',
    command: `cat >> "$CLAUDE_PROJECT_DIR/${file}"; echo >> "$CLAUDE_PROJECT_DIR/${file}"`,
  };
}

/** The payloads a `recorder` wrote, parsed. */
export function recorded(projectDir: string, file: string): Record<string, unknown>[] {
  const target = path.join(projectDir, file);
  if (!fs.existsSync(target)) return [];
  return fs
    .readFileSync(target, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What a test HTTP server saw: each request's method, path, headers and body. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * An HTTP server on 127.0.0.1 (a free port) that answers each request with `reply(request, n)`
 * (`n` counts from 1): `{status, body, delayMs, contentType}`. `close()` ends it.
 */
export async function hookServer(
  reply: (
    request: SeenRequest,
    n: number,
  ) => { status?: number; body?: unknown; delayMs?: number; contentType?: string },
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const answer = reply(request, seen.length);
      const text =
        answer.body === undefined
          ? ''
          : typeof answer.body === 'string'
            ? answer.body
            : JSON.stringify(answer.body);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, {
          'content-type':
            answer.contentType ?? (typeof answer.body === 'string' ? 'text/plain' : 'application/json'),
        });
        res.end(text);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
