import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.js';
import type { DurablePromptResult } from '../restate/session-object.js';
import type { RunResult } from '../run/run-options.js';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';
import type { CliIo } from './cli-io.js';
import { DurableRunError, sessionClient, type SessionClient } from './restate-ingress.js';
import type { RunCommandOptions } from './run-command-types.js';
import { printResult } from './run-output.js';
import { headlessPrompt } from './stdin-prompt.js';

/** How often the CLI looks at a running prompt's session for a call left waiting, or a failing invocation. */
const POLL_MS = 250;

/**
 * `hookloop -p PROMPT --durable URL` and `hookloop --resume KEY --approve ID | --deny ID --durable URL`:
 * the session runs on a `hookloop serve` worker behind the Restate server at URL, and this process
 * only drives it. The result is printed as a local run prints it (text, json, stream-json: the
 * `init` line, then the `result` line) with the same exit code; a call left waiting for a decision
 * ends this process as a local deferred call does (`terminal_reason: tool_deferred`, the pending
 * calls), while the run stays suspended on the server until `--resume KEY --approve/--deny`.
 * `--approve ID` approves the input the call waits with; the server refuses an approval of another input.
 * Returns 1, after one line on stderr, when the server goes away or the invocation cannot replay.
 * @throws ConfigError for flags a durable run cannot take, or decisions the server refuses.
 */
export async function runDurable(options: RunCommandOptions, io: CliIo): Promise<number> {
  const ingress = options.durable!;
  const admin = options.restateAdmin ?? defaultAdmin(ingress);
  if (options.continue)
    throw new ConfigError('--continue cannot find a durable session: pass --resume KEY', {
      field: '--continue',
    });
  if (options.inputFormat === 'stream-json')
    throw new ConfigError('--durable takes one prompt: --input-format stream-json is not supported', {
      field: '--input-format',
    });
  const key = options.resume ?? options.sessionId ?? randomUUID();
  const client = sessionClient(ingress, admin, key);
  try {
    let invocationId: string;
    let decided = new Set<string>();
    if (options.decisions !== undefined) {
      const status = await client.status();
      if (status.waiting === null || status.invocationId === null)
        throw new ConfigError(`--resume ${key}: no tool call of this durable session waits for a decision`, {
          field: '--resume',
        });
      const decisions = withPendingInputs(options.decisions, status.waiting.calls);
      await client.decide(decisions);
      invocationId = status.invocationId;
      decided = new Set(Object.keys(decisions));
    } else {
      const prompt = await headlessPrompt(options.prompt, io.stdin, { print: true, warn: () => {} });
      if (prompt === undefined)
        throw new ConfigError('no prompt: pass one with -p "PROMPT" or on stdin', { field: '-p' });
      invocationId = await client.send(prompt);
    }
    if (options.outputFormat === 'stream-json')
      io.stdout.write(
        `${JSON.stringify({ type: 'system', subtype: 'init', cwd: io.cwd, session_id: key, durable: ingress })}\n`,
      );
    const result = await outcome(client, invocationId, decided);
    const run: RunResult = { ...result, messages: [] };
    return printResult(run, options, io, { alreadyPrinted: () => false }, [], { exitCode: (code) => code });
  } catch (error) {
    if (!(error instanceof DurableRunError)) throw error;
    io.stderr.write(`hookloop: ${error.message}\n`);
    return 1;
  }
}

/** Restate's admin API listens on 9070 by default, beside the ingress. */
function defaultAdmin(ingress: string): string {
  const url = new URL(ingress);
  url.port = '9070';
  return url.origin;
}

/** The CLI's decisions with each approval naming the frozen input its call waits with. */
function withPendingInputs(decisions: PendingDecisions, calls: readonly PendingCall[]): PendingDecisions {
  const completed: Record<string, PendingDecisions[string]> = {};
  for (const [id, decision] of Object.entries(decisions)) {
    const call = calls.find((candidate) => candidate.id === id);
    if (call === undefined)
      throw new ConfigError(
        `${decision.behavior === 'allow' ? '--approve' : '--deny'} ${id}: that call does not wait for a decision (waiting: ${calls.map((waiting) => waiting.id).join(', ')})`,
        { field: decision.behavior === 'allow' ? '--approve' : '--deny' },
      );
    completed[id] =
      decision.behavior === 'allow' && decision.input === undefined
        ? { behavior: 'allow', input: call.input }
        : decision;
  }
  return completed;
}

/**
 * Waits for the prompt's invocation: its result when it completes, or the result a local run would
 * have ended with when it waits for a decision on a call not in `decided`.
 * @throws DurableRunError when the server goes away or reports the invocation cannot go on.
 */
async function outcome(
  client: SessionClient,
  invocationId: string,
  decided: ReadonlySet<string>,
): Promise<DurablePromptResult> {
  const controller = new AbortController();
  const finished = client.attach(invocationId, controller.signal);
  // The race below reads it; this keeps an early rejection from counting as unhandled.
  finished.catch(() => undefined);
  try {
    for (;;) {
      const done = await Promise.race([finished, sleep(POLL_MS).then(() => undefined)]);
      if (done !== undefined) return done;
      const status = await client.status();
      const waiting = status.waiting;
      if (
        waiting !== null &&
        status.invocationId === invocationId &&
        waiting.calls.some((call) => !decided.has(call.id))
      )
        return waiting.result;
      const failure = await client.failure(invocationId);
      if (failure !== undefined) throw new DurableRunError(failure);
    }
  } finally {
    controller.abort();
  }
}
