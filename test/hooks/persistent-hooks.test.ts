import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, toolUse, text } from '../support/scripted-run.js';

// Persistent command hooks (`"persistent": true`, a hookloop extension) through the built CLI, with
// a hook written with `hookloop/hook` (the built dist/src/hook.js). The hook logs its life to a
// file: `start <pid>`, `event <pid> <event> <n>` (n counts events within one process), `exit <pid>`.
const HOOK_MODULE = pathToFileURL(fileURLToPath(new URL('../../dist/src/hook.js', import.meta.url))).href;

const HOOK = `
import fs from 'node:fs';
import { defineHook } from ${JSON.stringify(HOOK_MODULE)};
const log = (line) => fs.appendFileSync(process.env.HOOK_LOG, line + '\\n');
log('start ' + process.pid);
process.on('exit', () => log('exit ' + process.pid));
let count = 0;
await defineHook(async (input) => {
  count += 1;
  log('event ' + process.pid + ' ' + input.hook_event_name + ' ' + count);
  const command = input.tool_input?.command ?? '';
  if (command.includes('BLOCK')) return { exitCode: 2, stderr: 'blocked by the persistent hook' };
  if (command.includes('DENY')) return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied by the persistent hook' } };
  if (command.includes('CRASH')) process.exit(3);
  if (command.includes('GARBAGE')) { process.stdout.write('this is not JSON\\n'); await new Promise(() => {}); }
  if (command.includes('HANG')) await new Promise(() => {});
  return undefined;
});
`;

function setup(commands: readonly string[], hook: Record<string, unknown>) {
  const project = tempProject({ 'hook.mjs': HOOK });
  const log = path.join(project, 'hook.log');
  const entry = {
    type: 'command',
    command: `node ${JSON.stringify(path.join(project, 'hook.mjs'))}`,
    persistent: true,
    timeout: 30,
    ...hook,
  };
  const settings = writeJson(project, 'settings.json', {
    permissions: { allow: ['Bash'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [entry] }], SessionEnd: [{ hooks: [entry] }] },
  });
  const script = writeJson(project, 'script.json', [
    ...commands.map((command, index) => [toolUse(`t${index}`, 'Bash', { command })]),
    [text('done')],
  ]);
  const requests = path.join(project, 'requests.jsonl');
  const run = runCli(
    ['-p', 'go', '--settings', settings, '--model-script', script, '--record-requests', requests],
    project,
    { HOOK_LOG: log },
  );
  const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
  const sent = fs.existsSync(requests) ? fs.readFileSync(requests, 'utf8') : '';
  return { project, run, lines, sent, ran: (name: string) => fs.existsSync(path.join(project, name)) };
}

function pids(lines: readonly string[], word: string): number[] {
  return lines.filter((line) => line.startsWith(`${word} `)).map((line) => Number(line.split(' ')[1]));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (at most 5 s) until `pid` is gone: a process killed with its parent shell is reaped by init, a moment later. */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return !alive(pid);
}

describe('persistent command hooks', () => {
  it('one process answers every event of the session, decisions and blocks count, and it ends at SessionEnd', async () => {
    const { run, lines, sent, ran } = setup(
      ['touch ran-one', 'touch ran-BLOCK', 'touch ran-DENY', 'touch ran-two'],
      {},
    );
    expect(run.status, run.stderr).toBe(0);
    expect(pids(lines, 'start')).toHaveLength(1);
    const [pid] = pids(lines, 'start');
    expect(lines.filter((line) => line.startsWith('event'))).toEqual([
      `event ${pid} PreToolUse 1`,
      `event ${pid} PreToolUse 2`,
      `event ${pid} PreToolUse 3`,
      `event ${pid} PreToolUse 4`,
      `event ${pid} SessionEnd 5`,
    ]);
    expect(ran('ran-one')).toBe(true);
    expect(ran('ran-two')).toBe(true);
    expect(ran('ran-BLOCK')).toBe(false);
    expect(ran('ran-DENY')).toBe(false);
    expect(sent).toContain('blocked by the persistent hook');
    expect(sent).toContain('denied by the persistent hook');
    expect(lines.at(-1)).toBe(`exit ${pid}`);
    expect(await gone(pid!)).toBe(true);
  });

  it('a crash is that exit code for its event, and the next event gets a new process; garbage on stdout fails the event and replaces the process', async () => {
    const { run, lines, ran } = setup(
      ['touch ran-one', 'touch ran-CRASH', 'touch ran-two', 'touch ran-GARBAGE', 'touch ran-three'],
      {},
    );
    expect(run.status, run.stderr).toBe(0);
    const started = pids(lines, 'start');
    expect(started).toHaveLength(3);
    // Exit 3 and a line that is not JSON are non-blocking failures: the calls still ran.
    for (const name of ['ran-one', 'ran-CRASH', 'ran-two', 'ran-GARBAGE', 'ran-three'])
      expect(ran(name), name).toBe(true);
    expect(lines).toContain(`event ${started[1]} PreToolUse 1`);
    expect(lines).toContain(`event ${started[2]} PreToolUse 1`);
    expect(lines).toContain(`event ${started[2]} SessionEnd 2`);
    for (const pid of started) expect(await gone(pid), `pid ${pid}`).toBe(true);
  });

  it('an event past the timeout kills the process; with onFailure "block" the call is blocked; the next event starts a new one', async () => {
    const { run, lines, sent, ran } = setup(['touch ran-one', 'touch ran-HANG', 'touch ran-two'], {
      timeout: 5,
      onFailure: 'block',
    });
    expect(run.status, run.stderr).toBe(0);
    const started = pids(lines, 'start');
    expect(started).toHaveLength(2);
    expect(ran('ran-one')).toBe(true);
    expect(ran('ran-HANG')).toBe(false);
    expect(ran('ran-two')).toBe(true);
    expect(sent).toMatch(/timed out/);
    for (const pid of started) expect(await gone(pid), `pid ${pid}`).toBe(true);
  });
});

describe('hookloop/hook defineHook', () => {
  it('one-shot, as Claude Code runs it: reads stdin once, prints the answer, sets the exit code', () => {
    const project = tempProject({ 'hook.mjs': HOOK });
    const run = (command: string) =>
      spawnSync(process.execPath, [path.join(project, 'hook.mjs')], {
        input: JSON.stringify({
          hook_event_name: 'PreToolUse',
          session_id: 's',
          cwd: project,
          tool_name: 'Bash',
          tool_input: { command },
        }),
        env: { PATH: process.env['PATH'] ?? '', HOOK_LOG: path.join(project, 'hook.log') },
        encoding: 'utf8',
      });
    const blocked = run('BLOCK');
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toBe('blocked by the persistent hook');
    const denied = run('DENY');
    expect(denied.status).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by the persistent hook',
      },
    });
    const plain = run('ls');
    expect(plain.status).toBe(0);
    expect(plain.stdout).toBe('');
  });
});
