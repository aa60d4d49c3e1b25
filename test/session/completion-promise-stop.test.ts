import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// A Stop hook that reads transcript_path, in the style of the published
// "keep going until the completion phrase" loops, behaves under hookloop as under Claude Code.

const HOOK = fileURLToPath(new URL('fixtures/completion-promise-stop.sh', import.meta.url));
const CLAUDE_CODE_EXAMPLE = fileURLToPath(new URL('fixtures/claude-code-example.jsonl', import.meta.url));
const FEEDBACK =
  'Stop hook feedback:\nNot done yet: keep working on the task. Say <promise>DONE</promise> when it is complete.';

/** Runs the hook as Claude Code would: the Stop payload on stdin, the project dir in the environment. */
function runHook(transcriptPath: string, projectDir: string) {
  const input = JSON.stringify({
    session_id: 's',
    transcript_path: transcriptPath,
    cwd: projectDir,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: '',
  });
  return spawnSync(HOOK, {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', CLAUDE_PROJECT_DIR: projectDir },
  });
}

describe('a completion-promise Stop hook', () => {
  it('reads a transcript Claude Code wrote: blocks while the last assistant text lacks the phrase, lets it stop once it is there', () => {
    const dir = tempProject();
    const blocked = runHook(CLAUDE_CODE_EXAMPLE, dir);
    expect(blocked.status).toBe(0);
    expect(JSON.parse(blocked.stdout)).toEqual({
      decision: 'block',
      reason: FEEDBACK.replace('Stop hook feedback:\n', ''),
    });

    const done = path.join(dir, 'done.jsonl');
    fs.writeFileSync(
      done,
      fs
        .readFileSync(CLAUDE_CODE_EXAMPLE, 'utf8')
        .replace('"text":"second answer"', '"text":"all finished <promise>DONE</promise>"'),
    );
    const allowed = runHook(done, dir);
    expect([allowed.status, allowed.stdout]).toEqual([0, '']);
  });

  it('keeps a hookloop session going until the model says the phrase, then lets it stop', () => {
    const dir = tempProject();
    writeJson(dir, 'turns.json', [
      [{ type: 'text', text: 'Working on step 1.' }],
      [
        { type: 'text', text: 'Working on step 2.' },
        { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo step 2' } },
      ],
      [{ type: 'text', text: 'Step 2 checked.' }],
      [{ type: 'text', text: 'All finished. <promise>DONE</promise>' }],
    ]);
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: HOOK }] }] },
    });
    const run = runCli(
      [
        '-p',
        'do the task',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--record-requests',
        'requests.jsonl',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      result: 'All finished. <promise>DONE</promise>',
      terminal_reason: 'completed',
      num_turns: 4,
    });
    // Two stops were blocked (after step 1, after "Step 2 checked."); the third was let through.
    expect(fs.readFileSync(path.join(dir, '.completion-promise-iterations'), 'utf8').trim()).toBe('2');
    const requests = fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { messages: { role: string; content: { type: string; text?: string }[] }[] },
      );
    expect(requests).toHaveLength(4);
    const lastUserText = (index: number) =>
      requests[index]!.messages.filter((message) => message.role === 'user')
        .at(-1)!
        .content.map((block) => block.text)
        .join('');
    expect([lastUserText(1), lastUserText(3)]).toEqual([FEEDBACK, FEEDBACK]);
  });
});
