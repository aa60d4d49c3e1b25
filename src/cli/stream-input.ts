import readline from 'node:readline';
import { startSession, type RunOptions, type RunResult } from '../run/run-agent.js';

/** Where the stream-json session reads and writes. */
export interface StreamInputIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** What the CLI does around each turn: the `init` line before a turn after the first, the `result` line (and exit code) after each. */
export interface StreamInputHooks {
  readonly beforeTurn: (index: number) => void;
  readonly afterTurn: (result: RunResult) => number;
  readonly warn: (text: string) => void;
}

/**
 * `--input-format stream-json`: a long-lived session fed by JSON lines on stdin, as the Agent SDK
 * drives Claude Code. Each `{"type":"user","message":{"role":"user","content":…}}` line (content a
 * string, or blocks whose `text` blocks are joined) starts a turn of the same session; turns run one
 * at a time in arrival order, each ending with its `result` line. `control_request` lines get a
 * `control_response`: `initialize` succeeds, `interrupt` aborts the running turn, other subtypes
 * answer an error. Other line types are ignored with a warning. EOF ends the session (SessionEnd)
 * once the last turn is done. A line that is not JSON ends the session too, as in Claude Code.
 *
 * Resolves with the exit code of the last turn (0 when there was none; 1 after a line that is not JSON).
 */
export async function runStreamInput(
  options: RunOptions,
  io: StreamInputIo,
  hooks: StreamInputHooks,
  firstPrompt?: string,
): Promise<number> {
  const session = await startSession(options);
  let turns = 0;
  let exitCode = 0;
  let current: AbortController | undefined;
  let queue: Promise<void> = Promise.resolve();
  const respond = (requestId: unknown, response: Record<string, unknown>) =>
    io.stdout.write(
      `${JSON.stringify({ type: 'control_response', response: { request_id: requestId, ...response } })}\n`,
    );
  const turn = (prompt: string) => {
    queue = queue.then(async () => {
      hooks.beforeTurn(turns++);
      current = new AbortController();
      const result = await session.send(prompt, { signal: current.signal });
      current = undefined;
      exitCode = hooks.afterTurn(result);
    });
  };
  if (firstPrompt !== undefined) turn(firstPrompt);
  const lines = readline.createInterface({ input: io.stdin, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const raw of lines) {
      lineNumber++;
      const text = raw.trim();
      if (text === '') continue;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(text) as Record<string, unknown>;
      } catch (error) {
        io.stderr.write(
          `hookloop: stream-json input line ${lineNumber}: not JSON (${(error as Error).message}); the session ends\n`,
        );
        exitCode = 1;
        break;
      }
      if (message['type'] === 'user') {
        const prompt = promptOf(message['message']);
        if (prompt === undefined)
          hooks.warn(
            `stream-json input line ${lineNumber}: a user message needs message.content (a string or text blocks); ignored`,
          );
        else turn(prompt);
      } else if (message['type'] === 'control_request') {
        const request = (message['request'] ?? {}) as Record<string, unknown>;
        if (request['subtype'] === 'initialize')
          respond(message['request_id'], { subtype: 'success', response: {} });
        else if (request['subtype'] === 'interrupt') {
          current?.abort();
          respond(message['request_id'], { subtype: 'success' });
        } else
          respond(message['request_id'], {
            subtype: 'error',
            error: `hookloop does not support control request ${JSON.stringify(request['subtype'])}`,
          });
      } else
        hooks.warn(
          `stream-json input line ${lineNumber}: ignored a line of type ${JSON.stringify(message['type'])} (hookloop reads "user" and "control_request" lines)`,
        );
    }
    const failed = exitCode;
    await queue;
    return failed === 1 ? 1 : exitCode;
  } finally {
    lines.close();
    await queue.catch(() => undefined);
    await session.end('other');
  }
}

/** The prompt of a user message: its string content, or its text blocks joined by newlines. */
function promptOf(message: unknown): string | undefined {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block: unknown) => {
    const entry = block as { type?: unknown; text?: unknown } | null;
    return entry?.type === 'text' && typeof entry.text === 'string' ? [entry.text] : [];
  });
  return texts.length > 0 ? texts.join('\n') : undefined;
}
