import { createInterface } from 'node:readline/promises';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../permissions/types.js';

/**
 * Asks on a terminal: writes the tool name, a compact rendering of the input (the Bash command, the
 * file path, or short JSON) and the policy's message to `output`, then
 * `Allow? [y]es / [n]o / [a]lways (adds RULE for this session)` and reads one line from `input`.
 * `y`/`yes` → allow, `a`/`always` → always, `n`/`no`/empty → deny; anything else asks again (three
 * times at most, then deny). The end of `input` or an abort of the request's signal → deny.
 * Ctrl-C at the question interrupts the turn, as it does everywhere else in interactive mode: the
 * terminal is in raw mode while the question reads it, so the key does not raise SIGINT by itself;
 * `onInterrupt` is called instead (default: emit SIGINT on `process`, which the interactive session
 * listens to while a turn runs), and the answer is deny. Concurrent requests are asked one after another.
 * `callShown`: the session prints each call as it starts (interactiveActivity), so the question
 * shows only the policy's message under it instead of the call again.
 */
export function ttyApprover(streams: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  onInterrupt?: () => void;
  callShown?: boolean;
}): Approver {
  let previous: Promise<unknown> = Promise.resolve();
  const onInterrupt = streams.onInterrupt ?? (() => process.emit('SIGINT', 'SIGINT'));
  return {
    awaitsHuman: true,
    approve(request) {
      const answer = previous
        .then(() => askOnce(streams, request, onInterrupt))
        .catch((): ApprovalAnswer => 'deny');
      previous = answer;
      return answer;
    },
  };
}

const CLOSED = Symbol('closed');
const INTERRUPTED = Symbol('interrupted');

async function askOnce(
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; callShown?: boolean },
  request: ApprovalRequest,
  onInterrupt: () => void,
): Promise<ApprovalAnswer> {
  if (request.signal.aborted) return 'deny';
  const lines = createInterface({ input: streams.input, output: streams.output });
  const ended = new Promise<typeof CLOSED | typeof INTERRUPTED>((resolve) => {
    lines.once('close', () => resolve(CLOSED));
    lines.once('SIGINT', () => resolve(INTERRUPTED));
  });
  const always =
    request.alwaysRule === undefined ? '[a]lways' : `[a]lways (adds ${request.alwaysRule} for this session)`;
  try {
    // Where the session already printed the call (`● Bash(touch x)`) just above, it is not repeated.
    streams.output.write(
      streams.callShown === true
        ? `  ⎿ ${request.message}\n`
        : `\n${request.toolName}: ${renderInput(request.input)}\n${request.message}\n`,
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const reply = await Promise.race([
        lines.question(`Allow? [y]es / [n]o / ${always} `, { signal: request.signal }),
        ended,
      ]);
      if (reply === INTERRUPTED) {
        // The cursor is still after the question: what follows (the refusal, "(interrupted)") starts on its own line.
        streams.output.write('\n');
        onInterrupt();
        return 'deny';
      }
      if (reply === CLOSED) {
        streams.output.write('\n');
        return 'deny';
      }
      const answer = parseAnswer(reply);
      if (answer !== undefined) return answer;
    }
    return 'deny';
  } catch {
    streams.output.write('\n');
    return 'deny'; // the request's signal aborted the question
  } finally {
    lines.close();
  }
}

function parseAnswer(reply: string): ApprovalAnswer | undefined {
  const word = reply.trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'allow';
  if (word === 'a' || word === 'always') return 'always';
  if (word === '' || word === 'n' || word === 'no') return 'deny';
  return undefined;
}

/** The Bash command, the file path, or compact JSON cut at 200 characters. */
export function renderInput(input: unknown): string {
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  for (const key of ['command', 'file_path', 'notebook_path', 'url', 'path', 'pattern']) {
    const value = fields[key];
    if (typeof value === 'string') return value;
  }
  const json = JSON.stringify(input) ?? String(input);
  return json.length > 200 ? `${json.slice(0, 199)}…` : json;
}
