import { ConfigError, HookloopError } from '../errors.js';
import type { DurablePromptResult, DurableSessionStatus } from '../restate/session-object.js';
import type { PendingDecisions } from '../session/pending-calls.js';

/** The session object's name on the server: the path `serveSessions` registers by default. */
const SESSION_OBJECT = 'hookloop-session';

/**
 * A durable run that cannot go on: the server went away, or the invocation fails on every attempt
 * (a journal mismatch after a code change). `message` is the one line the CLI prints.
 */
export class DurableRunError extends HookloopError {}

/**
 * Journal mismatch (570) and protocol violation (571): a retry runs the same code into the same
 * wall, so the CLI reports them at once instead of waiting for the server's retries.
 */
const DETERMINISTIC_FAILURES = new Set([570, 571]);

/** What the CLI asks of a Restate server about one session, through its ingress and admin API. */
export interface SessionClient {
  /** Starts `prompt` on the session without waiting; resolves the invocation id. */
  send(prompt: string): Promise<string>;
  status(): Promise<DurableSessionStatus>;
  /** @throws ConfigError with the server's reason when it refuses the decisions. */
  decide(decisions: PendingDecisions): Promise<void>;
  /** Resolves the invocation's result once it completes; rejects when it fails for good or the connection drops. */
  attach(invocationId: string, signal: AbortSignal): Promise<DurablePromptResult>;
  /** The reason the invocation cannot complete (one line), or undefined while it can. */
  failure(invocationId: string): Promise<string | undefined>;
}

/**
 * A SessionClient for session `key` on the server whose ingress is `ingress` and admin API `admin`
 * (URLs without a trailing slash). Every network failure becomes a DurableRunError naming the URL.
 */
export function sessionClient(ingress: string, admin: string, key: string): SessionClient {
  const base = `${ingress}/${SESSION_OBJECT}/${encodeURIComponent(key)}`;
  const request = async (url: string, init: RequestInit, what: string) => {
    try {
      return await fetch(url, init);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new DurableRunError(
        `${what} at ${new URL(url).origin} went away or is not running (${causeOf(error)})`,
      );
    }
  };
  const post = (handler: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(
      `${base}/${handler}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body ?? null),
      },
      'the Restate server',
    );
  return {
    send: async (prompt) => {
      const response = await post('prompt/send', { prompt });
      const body = (await answer(response, 'prompt')) as { invocationId?: string };
      if (typeof body.invocationId !== 'string')
        throw new DurableRunError(`the Restate server answered the prompt without an invocation id`);
      return body.invocationId;
    },
    status: async () => (await answer(await post('status'), 'status')) as DurableSessionStatus,
    decide: async (decisions) => {
      const response = await post('decide', decisions);
      if (!response.ok) throw new ConfigError(`the decision was refused: ${await reasonOf(response)}`);
    },
    attach: async (invocationId, signal) => {
      const response = await request(
        `${ingress}/restate/invocation/${encodeURIComponent(invocationId)}/attach`,
        { signal },
        'the Restate server',
      );
      return (await answer(response, 'prompt')) as DurablePromptResult;
    },
    failure: async (invocationId) => {
      const id = invocationId.replace(/[^A-Za-z0-9_]/g, '');
      const response = await request(
        `${admin}/query`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            query: `SELECT status, last_failure FROM sys_invocation WHERE id = '${id}'`,
          }),
        },
        'the Restate admin API (pass --restate-admin URL)',
      );
      const rows = ((await answer(response, 'admin query')) as { rows?: InvocationRow[] }).rows ?? [];
      const row = rows[0];
      if (row === undefined) return undefined;
      // The failure text opens with the protocol's code (`[570 Journal mismatch] …`); the code
      // column holds Restate's own (`RT0016`).
      const code = Number(/^\[(\d+)/.exec(row.last_failure ?? '')?.[1]);
      if (row.status !== 'paused' && !DETERMINISTIC_FAILURES.has(code)) return undefined;
      const reason = (row.last_failure ?? 'no reason given').replace(/\s+/g, ' ').trim();
      return `the durable run of session ${key} cannot go on (Restate ${row.status === 'paused' ? 'paused' : 'retries'} invocation ${invocationId}): ${reason}`;
    },
  };
}

interface InvocationRow {
  readonly status?: string;
  readonly last_failure?: string | null;
}

/** The JSON body of a 2xx answer; anything else is a DurableRunError with the server's reason. */
async function answer(response: Response, what: string): Promise<unknown> {
  if (!response.ok) {
    if (response.status === 404)
      throw new DurableRunError(
        `${what}: the Restate server knows no ${SESSION_OBJECT} service: start \`hookloop serve --register <admin URL>\` (HTTP 404: ${await reasonOf(response)})`,
      );
    throw new DurableRunError(`${what} failed (HTTP ${response.status}): ${await reasonOf(response)}`);
  }
  try {
    return await response.json();
  } catch (error) {
    throw new DurableRunError(
      `${what}: the Restate server sent something that is not JSON (${causeOf(error)})`,
    );
  }
}

/** The `message` of a Restate error body, else its text, on one line. */
async function reasonOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: the text is the reason.
  }
  return message.replace(/\s+/g, ' ').trim().slice(0, 500) || 'no reason given';
}

/** The low-level reason of a failed fetch (`ECONNREFUSED`), which undici keeps in `cause`. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
