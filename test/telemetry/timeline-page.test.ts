/// <reference lib="dom" />
// The page callbacks run in Chromium, hence the DOM types.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { renderTimelinePage } from '../../src/timeline/render-page.js';
import { buildTimeline } from '../../src/timeline/timeline-model.js';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

// `hookloop timeline`: a recorded session rendered in headless Chromium (Debian's package; .ci/run
// installs it), asserting what a person sees. The screenshot is kept under test-results/.

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
const ARTIFACTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;

/** Records a session through the CLI: a call a hook blocks, one a deny rule refuses, one that runs with a slow hook, a failing PostToolUse hook, and a hostile tool output. */
function recordSession(dir: string): void {
  writeJson(dir, 'guard.sh', '#!/bin/sh\necho "no deploys from agents" >&2\nexit 2\n');
  writeJson(dir, 'slow.sh', '#!/bin/sh\nsleep 0.3\necho "{}"\n');
  for (const script of ['guard.sh', 'slow.sh']) fs.chmodSync(path.join(dir, script), 0o755);
  writeJson(dir, 'settings.json', {
    permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(echo:*)'] },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: `${dir}/guard.sh`, if: 'Bash(deploy*)' },
            { type: 'command', command: `${dir}/slow.sh`, if: 'Bash(echo*)' },
          ],
        },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: 'echo "audit store down" >&2; exit 1' }] }],
    },
  });
  writeJson(dir, 'turns.json', [
    [
      toolUse('t1', 'Bash', { command: 'deploy prod' }),
      toolUse('t2', 'Bash', { command: `echo '${HOSTILE}'` }),
      toolUse('t3', 'Bash', { command: 'rm -rf build' }),
    ],
    [text('done')],
  ]);
  const run = runCli(['-p', 'ship it', '--settings', 'settings.json', '--model-script', 'turns.json'], dir);
  expect(run.status).toBe(0);
}

describe('the timeline page', () => {
  it('escapes every payload: a tool output cannot add markup or script to the page', () => {
    const t = 1_700_000_000_000;
    const page = renderTimelinePage(
      buildTimeline('s', [
        { t, type: 'tool_started', toolName: 'Bash', toolUseId: 'x', input: { command: HOSTILE } },
        {
          t: t + 5,
          type: 'tool_result',
          toolName: 'Bash',
          toolUseId: 'x',
          ran: true,
          isError: false,
          content: `${HOSTILE}</pre></div><script>alert(1)</script>`,
        },
      ]),
      t,
    );
    expect(page).not.toContain('<script>window.__pwned');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    // One script (the page's own) and a policy that forbids any request.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).toContain(`content="default-src 'none'`);
  });

  it("gives a subagent's hooks their own lane, and says when the session is still running", () => {
    const t = 1_700_000_000_000;
    const records = [
      { t, type: 'prompt_started', promptId: 'p', prompt: 'go' },
      {
        t: t + 9,
        type: 'hook_outcome',
        agentId: 'agent-7',
        event: 'PreToolUse',
        origin: { text: 'sub-guard' },
        status: 'ok',
        durationMs: 4,
      },
    ];
    const running = renderTimelinePage(buildTimeline('s', records), t + 10);
    expect(running).toContain('<h2>Main agent</h2>');
    expect(running).toContain('<h2>Subagent agent-7</h2>');
    expect(running).toContain('had not ended when the page was made');
    const ended = renderTimelinePage(
      buildTimeline('s', [...records, { t: t + 20, type: 'session_ended', reason: 'other' }]),
      t + 30,
    );
    expect(ended).not.toContain('had not ended');
  });

  it.skipIf(!HAS_CHROMIUM)(
    `shows who blocked what and why, durations as bars, filters and payloads (headless ${CHROMIUM}; skipped when it is not installed)`,
    async () => {
      const dir = tempProject();
      recordSession(dir);
      const timeline = runCli(['timeline', '--continue', '--out', 'timeline.html'], dir);
      expect(timeline.stderr).toBe('');
      expect(timeline.status).toBe(0);
      expect(timeline.stdout.trim()).toBe(path.join(dir, 'timeline.html'));

      const requests: string[] = [];
      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        const page = await browser.newPage();
        page.on('request', (request) => requests.push(request.url()));
        await page.setViewport({ width: 1280, height: 800 });
        await page.goto(`file://${path.join(dir, 'timeline.html')}`);

        const rows = await page.$$eval('.row', (elements) =>
          elements.map((element) => ({
            kind: (element as HTMLElement).dataset['kind'],
            outcome: (element as HTMLElement).dataset['outcome'],
            text: (element.querySelector('.label') as HTMLElement).innerText,
            duration: (element.querySelector('.dur') as HTMLElement).innerText,
            durationMs: Number((element as HTMLElement).dataset['durationMs']),
            startMs: Number((element as HTMLElement).dataset['startMs']),
            barWidth: (element.querySelector('.bar') as HTMLElement).getBoundingClientRect().width,
            child: element.classList.contains('child'),
          })),
        );
        const calls = rows.filter((row) => row.kind === 'tool');
        expect(calls.map((row) => row.outcome)).toEqual(['blocked', 'ok', 'denied']);
        // The blocked call names the hook that blocked it, where it is configured, and its reason.
        expect(calls[0]!.text).toMatch(
          /Blocked by PreToolUse hook .*guard\.sh \(.*settings\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]\): .*no deploys from agents/,
        );
        expect(calls[2]!.text).toMatch(/Denied by deny rule Bash\(rm:\*\) \(.*settings\.json\)/);
        const hooks = rows.filter((row) => row.kind === 'hook');
        expect(hooks.find((row) => row.text.includes('PostToolUse'))).toMatchObject({
          outcome: 'failed',
          text: expect.stringContaining('audit store down'),
        });
        // Durations: the slow hook took at least its sleep; longer durations have longer bars.
        const slow = hooks.find((row) => row.text.includes('slow.sh'))!;
        expect(slow.durationMs).toBeGreaterThanOrEqual(300);
        expect(slow.duration).toMatch(/^\d+ ms$|^\d+\.\d s$/);
        const byDuration = [...hooks].sort((a, b) => a.durationMs - b.durationMs);
        for (let index = 1; index < byDuration.length; index++)
          expect(byDuration[index]!.barWidth).toBeGreaterThanOrEqual(byDuration[index - 1]!.barWidth - 0.5);
        // Rows read top to bottom in the order things started.
        const topLevel = rows.filter((row) => !row.child).map((row) => row.startMs);
        expect(topLevel).toEqual([...topLevel].sort((a, b) => a - b));

        // The hostile output is shown as text, never run.
        expect(
          await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
        ).toBeUndefined();
        const echoRow = (await page.$$('.row.kind-tool'))[1]!;
        await echoRow.click();
        const payload = await echoRow.$eval('.payload', (element) => ({
          hidden: (element as HTMLElement).hidden,
          text: element.textContent ?? '',
        }));
        expect(payload.hidden).toBe(false);
        expect(payload.text).toContain('<script>window.__pwned=1</script>');

        fs.mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: path.join(ARTIFACTS, 'timeline.png'), fullPage: true });

        // Filter by outcome: only the blocked rows stay.
        await page.select('select[name="outcome"]', 'blocked');
        const visible = await page.$$eval('.row:not(.hidden)', (elements) =>
          elements.map((element) => (element as HTMLElement).dataset['outcome']),
        );
        expect(new Set(visible)).toEqual(new Set(['blocked']));
        expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    180_000,
  );

  it.skipIf(!HAS_CHROMIUM)(
    'gives an Agent subagent its own lane: its task, turns, the call a hook blocked and who blocked it (headless Chromium)',
    async () => {
      const dir = tempProject();
      writeJson(dir, 'guard.sh', '#!/bin/sh\necho "no deploys from subagents" >&2\nexit 2\n');
      fs.chmodSync(path.join(dir, 'guard.sh'), 0o755);
      writeJson(dir, 'settings.json', {
        permissions: { allow: ['Bash(echo:*)'] },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: `${dir}/guard.sh`, if: 'Bash(deploy*)' }],
            },
          ],
        },
      });
      writeJson(dir, 'turns.json', [
        [
          toolUse('toolu_1', 'Agent', {
            description: 'ship it',
            prompt: 'SUB-TASK: deploy the site',
            subagent_type: 'general-purpose',
          }),
        ],
        {
          match: 'SUB-TASK',
          content: [
            toolUse('toolu_1', 'Bash', { command: 'deploy prod' }),
            toolUse('toolu_2', 'Bash', { command: 'echo checked' }),
          ],
        },
        { match: 'SUB-TASK', content: [text('could not deploy')] },
        [text('done')],
      ]);
      expect(
        runCli(['-p', 'delegate', '--settings', 'settings.json', '--model-script', 'turns.json'], dir).status,
      ).toBe(0);
      expect(runCli(['timeline', '--continue', '--out', 'timeline.html'], dir).status).toBe(0);

      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        await page.goto(`file://${path.join(dir, 'timeline.html')}`);
        const lanes = await page.$$eval('section.lane', (sections) =>
          sections.map((section) => ({
            heading: (section.querySelector('h2') as HTMLElement).innerText,
            rows: Array.from(section.querySelectorAll('.row')).map((row) => ({
              kind: (row as HTMLElement).dataset['kind'],
              outcome: (row as HTMLElement).dataset['outcome'],
              event: (row as HTMLElement).dataset['event'],
              text: (row.querySelector('.label') as HTMLElement).innerText,
            })),
          })),
        );
        expect(lanes.map((lane) => lane.heading)).toEqual([
          'Main agent',
          expect.stringMatching(
            /^Subagent general-purpose · a[0-9a-f]{16} \(Agent SUB-TASK: deploy the site\)$/,
          ),
        ]);
        const [main, sub] = lanes as [(typeof lanes)[number], (typeof lanes)[number]];
        // The main lane has its own call only; the subagent's calls (whose ids repeat the main one's) are in its lane.
        expect(main.rows.filter((row) => row.kind === 'tool').map((row) => row.text)).toEqual([
          expect.stringMatching(/^ok\s*Agent SUB-TASK/),
        ]);
        expect(sub.rows[0]).toMatchObject({
          kind: 'prompt',
          outcome: 'ok',
          text: expect.stringContaining('Task (general-purpose): SUB-TASK: deploy the site'),
        });
        expect(sub.rows.filter((row) => row.kind === 'model')).toHaveLength(2);
        const calls = sub.rows.filter((row) => row.kind === 'tool');
        expect(calls.map((row) => row.outcome)).toEqual(['blocked', 'ok']);
        expect(calls[0]!.text).toMatch(
          /Bash deploy prod[\s\S]*Blocked by PreToolUse hook .*guard\.sh \(.*settings\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]\): .*no deploys from subagents/,
        );
        expect(calls[1]!.text).toMatch(/Bash echo checked[\s\S]*Allowed by allow rule Bash\(echo:\*\)/);
        expect(sub.rows.find((row) => row.kind === 'hook' && row.event === 'PreToolUse')).toMatchObject({
          outcome: 'blocked',
          text: expect.stringContaining('no deploys from subagents'),
        });

        // The outcome filter reaches into the subagent's lane.
        await page.select('select[name="outcome"]', 'blocked');
        const visible = await page.$$eval('.row:not(.hidden)', (rows) =>
          rows.map(
            (row) =>
              `${row.closest('section')!.getAttribute('data-lane') === 'main' ? 'main' : 'sub'}:${(row as HTMLElement).dataset['kind']}`,
          ),
        );
        expect(visible.sort()).toEqual(['sub:hook', 'sub:tool']);
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        await page.select('select[name="outcome"]', '');
        await page.screenshot({ path: path.join(ARTIFACTS, 'timeline-subagent.png'), fullPage: true });
      } finally {
        await browser.close();
      }
    },
    180_000,
  );

  it('--open without xdg-open on PATH prints the page path and says to open it', () => {
    const dir = tempProject();
    writeJson(dir, 'turns.json', [[text('hello')]]);
    expect(runCli(['-p', 'hi', '--model-script', 'turns.json'], dir).status).toBe(0);
    const emptyBin = path.join(dir, 'empty-bin');
    fs.mkdirSync(emptyBin);
    const run = runCli(['timeline', '--continue', '--open'], dir, { PATH: emptyBin });
    expect(run.status).toBe(0);
    const [page, note] = run.stdout.trim().split('\n');
    expect(page).toMatch(/\.timeline\.html$/);
    expect(fs.readFileSync(page!, 'utf8')).toContain('Prompt: hi');
    expect(note).toBe('hookloop: xdg-open is not available; open the file above in a browser');
  });

  it('says which session it cannot find, in one line', () => {
    const dir = tempProject();
    const run = runCli(['timeline', 'no-such-session'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^hookloop: timeline: no session "no-such-session" under .*projects$/);
  });
});
