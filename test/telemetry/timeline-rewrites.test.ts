/// <reference lib="dom" />
// The page callbacks run in Chromium, hence the DOM types.
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// What a person reads about a session where a hook rewrote a call, a subagent had calls refused and
// the model kept a todo list: the --verbose log on stderr and the timeline page in headless Chromium.

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = fs.existsSync(CHROMIUM);

function recordSession(dir: string): { stderr: string } {
  writeJson(
    dir,
    'rewrite.sh',
    `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'"echo old"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten-by-hook"}}}';; esac\nexit 0\n`,
  );
  fs.chmodSync(path.join(dir, 'rewrite.sh'), 0o755);
  writeJson(dir, 'settings.json', {
    permissions: { allow: ['Bash(echo:*)'], deny: ['Bash(rm:*)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${dir}/rewrite.sh` }] }] },
  });
  writeJson(dir, 'turns.json', [
    [
      toolUse('toolu_1', 'TodoWrite', {
        todos: [
          { content: 'Check the site', status: 'completed', activeForm: 'Checking the site' },
          { content: 'Say hello', status: 'in_progress', activeForm: 'Saying hello' },
          { content: 'Report', status: 'pending', activeForm: 'Reporting' },
        ],
      }),
    ],
    [
      toolUse('toolu_2', 'Agent', {
        description: 'look',
        prompt: 'SUB-TASK: clean up',
        subagent_type: 'general-purpose',
      }),
    ],
    {
      match: 'SUB-TASK',
      content: [
        toolUse('toolu_s1', 'Bash', { command: 'rm -rf build' }),
        toolUse('toolu_s2', 'NoSuchTool', {}),
      ],
    },
    { match: 'SUB-TASK', content: [text('could not clean')] },
    [toolUse('toolu_3', 'Bash', { command: 'echo old' })],
    [text('done')],
  ]);
  const run = runCli(
    ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json', '--verbose'],
    dir,
  );
  expect(run.status, run.stderr).toBe(0);
  return { stderr: run.stderr };
}

describe('a rewritten call and a subagent’s refused calls', () => {
  it('--verbose logs the subagent’s own calls, the refused ones too, and names the hook that rewrote a call', () => {
    const dir = tempProject();
    const { stderr } = recordSession(dir);
    const lines = stderr.split('\n');
    expect(
      lines.find((line) =>
        /^\[Subagent general-purpose \w+\] \[Tool\] Bash toolu_s1 -> error: Permission to use Bash with command rm -rf build has been denied/.test(
          line,
        ),
      ),
    ).toBeDefined();
    expect(
      lines.find((line) =>
        /^\[Subagent general-purpose \w+\] \[Tool\] NoSuchTool toolu_s2 -> error: .*No such tool available: NoSuchTool/.test(
          line,
        ),
      ),
    ).toBeDefined();
    expect(
      lines.find((line) =>
        /^\[Subagent general-purpose \w+\] \[Decision\] Bash toolu_s1: deny by deny rule Bash\(rm:\*\)/.test(
          line,
        ),
      ),
    ).toBeDefined();
    expect(lines).toContain(`[Hook] PreToolUse: Bash input rewritten by [${dir}/rewrite.sh]`);
  });

  it.skipIf(!HAS_CHROMIUM)(
    'the timeline shows what ran, who rewrote it, every call in its count, and the todo list (headless Chromium)',
    async () => {
      const dir = tempProject();
      recordSession(dir);
      expect(runCli(['timeline', '--continue', '--out', 'timeline.html'], dir).status).toBe(0);
      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        const page = await browser.newPage();
        await page.goto(`file://${path.join(dir, 'timeline.html')}`);
        const calls = await page.$$eval('.row.kind-tool', (elements) =>
          elements.map((element) => ({
            lane: (element.closest('section') as HTMLElement).dataset['lane'],
            outcome: (element as HTMLElement).dataset['outcome'],
            text: (element.querySelector('.label') as HTMLElement).innerText,
          })),
        );
        const bash = calls.find((call) => call.lane === 'main' && call.text.includes('Bash'))!;
        expect(bash.text).toContain('Bash echo rewritten-by-hook');
        expect(bash.text).not.toMatch(/Bash echo old/);
        expect(bash.text).toContain(
          `Input rewritten by PreToolUse hook ${dir}/rewrite.sh (${dir}/settings.json: hooks.PreToolUse[0].hooks[0]); the model wrote: echo old`,
        );
        const hookRow = await page.$$eval('.row.kind-hook', (elements) =>
          elements
            .map((element) => (element as HTMLElement).innerText)
            .find((label) => label.includes('rewrote')),
        );
        expect(hookRow).toContain('allow, rewrote the input');
        // Both of the subagent's calls are rows, the one settled before any hook ran included, and the header counts them.
        const sub = calls.filter((call) => call.lane !== 'main');
        expect(sub.map((call) => call.outcome)).toEqual(['denied', 'denied']);
        expect(sub[1]!.text).toContain('No such tool available: NoSuchTool');
        const meta = await page.$eval('.meta', (element) => (element as HTMLElement).innerText);
        expect(meta).toContain(`${calls.length} tool call(s), 2 refused`);
        expect(calls).toHaveLength(5);
        const todos = await page.$$eval('.todos li', (items) =>
          items.map((item) => [(item as HTMLElement).dataset['status'], (item as HTMLElement).innerText]),
        );
        expect(todos).toEqual([
          ['completed', '✓ Check the site'],
          ['in_progress', '▶ Saying hello'],
          ['pending', '○ Report'],
        ]);
      } finally {
        await browser.close();
      }
    },
    180_000,
  );
});
