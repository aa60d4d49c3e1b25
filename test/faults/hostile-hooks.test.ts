import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  type HandlerOutcome,
  HookEngine,
  type HookEventName,
  runAgent,
} from '../../src/index.js';
import {
  registerSettingsHandlers,
  type ExternalHandlerEntry,
} from '../../src/hooks/transports/settings-handlers.js';
import { ScriptedModel } from '../../src/testing.js';
import { pairingViolations } from '../support/scripted-run.js';

// Hostile hook processes through the real command transport: each must end within its
// timeout plus the kill grace period, leave no process of its group behind, and the run must go
// on — the tool still runs once and its result is paired. Bounds are generous on purpose: the
// suite runs on a loaded 2-core machine, and speed is the bench's business.

const TIMEOUT_S = 0.5;
const KILL_GRACE_MS = 1000; // command-process.ts default
const SLACK_MS = 10_000;
/** Orphans are reaped by this machine's init with a delay (~1.6 s seen), so group checks poll for a while. */
const GROUP_GONE_WITHIN_MS = 20_000;
/** The event JSON of a call with this input is larger than a pipe buffer, so a hook that does not read it blocks our write. */
const BIG_INPUT = 'p'.repeat(256 * 1024);

let dir = '';
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-hostile-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each hook first appends `$$` (the shell's pid, which is its process group id) to its pid file. */
const HOSTILE: Record<string, (pidFile: string) => string> = {
  'forks a grandchild holding stdout open': (pidFile) =>
    `echo $$ >> '${pidFile}'; cat >/dev/null; sleep 30 & echo '{}'`,
  'never reads stdin': (pidFile) => `echo $$ >> '${pidFile}'; sleep 30`,
  'closes stdin early': (pidFile) => `exec 0<&-; echo $$ >> '${pidFile}'; sleep 30`,
  'prints without a newline and hangs': (pidFile) =>
    `echo $$ >> '${pidFile}'; printf '{"hookSpecificOutput": '; sleep 30`,
  'ignores SIGTERM': (pidFile) => `trap '' TERM; echo $$ >> '${pidFile}'; sleep 30`,
};

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ESRCH');
    return false;
  }
}

/** Every group named in `pidFile` (one line per invocation) ends up without processes. */
async function expectGroupsGone(pidFile: string, invocations: number): Promise<void> {
  const groups = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
  expect(groups).toHaveLength(invocations);
  const deadline = Date.now() + GROUP_GONE_WITHIN_MS;
  for (const pgid of groups) {
    expect(pgid).toBeGreaterThan(1);
    while (groupAlive(pgid) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(pgid), `process group ${pgid} still has processes`).toBe(false);
  }
}

/** One run of two calls (one with a stdin payload bigger than a pipe buffer) with `commands` on `event`. */
async function runWith(event: HookEventName, commands: readonly string[]) {
  const ran: number[] = [];
  const act = defineTool({
    name: 'Act',
    description: 'records that it ran',
    inputSchema: z.strictObject({ n: z.number(), pad: z.string().optional() }),
    handler: ({ n }) => {
      ran.push(n);
      return `acted ${n}`;
    },
  });
  const hooks = new HookEngine();
  const entries: ExternalHandlerEntry[] = commands.map((command, index) => ({
    event,
    matcher: undefined,
    config: { type: 'command', command, timeout: TIMEOUT_S } as ExternalHandlerEntry['config'],
    source: { file: 'hostile-settings.json' },
    groupIndex: index,
    handlerIndex: 0,
  }));
  registerSettingsHandlers(hooks, entries, dir);
  const outcomes: HandlerOutcome[] = [];
  const model = new ScriptedModel([
    [{ type: 'tool_use', id: 'toolu_1', name: 'Act', input: { n: 1, pad: BIG_INPUT } }],
    [{ type: 'tool_use', id: 'toolu_2', name: 'Act', input: { n: 2 } }],
    [{ type: 'text', text: 'done' }],
  ]);
  const result = await runAgent('go', {
    model,
    projectDir: dir,
    transcript: false,
    tools: [act],
    hooks,
    permissions: { mode: 'bypassPermissions' },
    observers: [(runEvent) => void (runEvent.type === 'hook_outcome' && outcomes.push(runEvent.outcome))],
  });
  return { result, ran, outcomes };
}

function expectRunWentOn(
  { result, ran, outcomes }: Awaited<ReturnType<typeof runWith>>,
  hooksPerCall: number,
): void {
  expect(result.terminalReason).toBe('completed');
  expect(pairingViolations(result.messages)).toEqual([]);
  expect(ran).toEqual([1, 2]);
  const results = result.messages.filter((message) => message.role === 'tool');
  expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([
    ['toolu_1', false],
    ['toolu_2', false],
  ]);
  expect(outcomes).toHaveLength(2 * hooksPerCall);
  for (const outcome of outcomes)
    expect(outcome.durationMs).toBeLessThan(TIMEOUT_S * 1000 + KILL_GRACE_MS + SLACK_MS);
}

describe('hostile command hooks', () => {
  for (const [name, command] of Object.entries(HOSTILE)) {
    it(`a PreToolUse hook that ${name} ends, leaves no process behind, and the run goes on`, async () => {
      const pidFile = path.join(dir, `${name.replace(/\W+/g, '-')}.pid`);
      const run = await runWith('PreToolUse', [command(pidFile)]);
      expectRunWentOn(run, 1);
      await expectGroupsGone(pidFile, 2);
    });
  }

  it('all five at once on PostToolUse: every group is gone and both results are paired', async () => {
    const pidFiles = Object.keys(HOSTILE).map((name) =>
      path.join(dir, `post-${name.replace(/\W+/g, '-')}.pid`),
    );
    const commands = Object.values(HOSTILE).map((command, index) => command(pidFiles[index]!));
    const run = await runWith('PostToolUse', commands);
    expectRunWentOn(run, commands.length);
    for (const pidFile of pidFiles) await expectGroupsGone(pidFile, 2);
  });
});
