/**
 * Hook setups in every style the ecosystem uses (test/fixtures/hook-setups/*: a bash guard that
 * exits 2, python3 and node scripts printing JSON decisions, a plugin with ${CLAUDE_PLUGIN_ROOT},
 * relative and unquoted $CLAUDE_PROJECT_DIR command paths, ten handlers on one event), each run
 * unchanged through `hookloop hooks test` and through a scripted `hookloop -p` session. Both must
 * decide as Claude Code does, and the same way as each other: the
 * tool result the model sees for a refused call is `PreToolUse:<Tool> hook error: <merged reason>`
 * on every tool (measured again on 2.1.328: scenarios pre-deny-file-tools, pre-block-write-legacy).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const SETUPS = fileURLToPath(new URL('../fixtures/hook-setups/', import.meta.url));

interface Call {
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly decision: 'deny' | 'allow' | 'none';
  readonly reason?: string;
  readonly creates?: string;
  readonly context?: string;
  readonly handlersRan?: number;
}

interface Case {
  readonly about: string;
  readonly pluginDirs?: readonly string[];
  readonly calls: readonly Call[];
}

interface TestReport {
  readonly handlers: { status: string }[];
  readonly verdict: { decision: string; reason?: string; merged: { contexts?: string[] } };
}

/** A private copy of the setup (scripts keep their mode), with a `build/` directory a delete would remove. */
function copySetup(name: string): { dir: string; spec: Case; sources: string[] } {
  const dir = tempProject({ 'build/keep.txt': 'keep\n' });
  fs.cpSync(path.join(SETUPS, name), dir, { recursive: true });
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as Case;
  const sources = [
    '--settings',
    'settings.json',
    ...(spec.pluginDirs ?? []).flatMap((plugin) => ['--plugin-dir', plugin]),
  ];
  return { dir, spec, sources };
}

const names = fs.readdirSync(SETUPS).filter((name) => fs.existsSync(path.join(SETUPS, name, 'case.json')));

describe('ecosystem hook setups', () => {
  it('cover every style the issue names', () => {
    expect(names.sort()).toEqual([
      'bash-guard-exit2',
      'if-tool-names',
      'node-json-decision',
      'plugin-layout',
      'python-json-decision',
      'relative-and-unquoted',
      'ten-handlers',
    ]);
  });

  for (const name of names) {
    it(`${name}: hooks test and a -p session decide alike`, () => {
      const { dir, spec, sources } = copySetup(name);
      const reasons = new Map<string, string>();
      for (const [index, call] of spec.calls.entries()) {
        const run = runCli(
          [
            'hooks',
            'test',
            'PreToolUse',
            '--tool',
            call.tool,
            '--input',
            JSON.stringify(call.input),
            ...sources,
            '--json',
          ],
          dir,
        );
        expect(run.stderr).toBe('');
        const report = JSON.parse(run.stdout) as TestReport;
        expect(report.verdict.decision, `${name} call ${index}`).toBe(call.decision);
        expect(run.status).toBe(call.decision === 'deny' ? 1 : 0);
        if (call.reason !== undefined) expect(report.verdict.reason).toMatch(new RegExp(call.reason));
        if (call.context !== undefined) expect(report.verdict.merged.contexts).toContain(call.context);
        if (call.handlersRan !== undefined)
          expect(report.handlers.filter((handler) => handler.status === 'ran')).toHaveLength(
            call.handlersRan,
          );
        if (call.decision === 'deny') reasons.set(`toolu_0${index + 1}`, report.verdict.reason ?? '');
        if (call.creates !== undefined)
          expect(fs.existsSync(path.join(dir, call.creates)), 'hooks test must not run the tool').toBe(false);
      }

      const turns = [
        ...spec.calls.map((call, index) => [
          { type: 'tool_use', id: `toolu_0${index + 1}`, name: call.tool, input: call.input },
        ]),
        [{ type: 'text', text: 'done' }],
      ];
      writeJson(dir, 'turns.json', turns);
      const session = runCli(
        [
          '-p',
          'go',
          ...sources,
          '--model-script',
          'turns.json',
          '--output-format',
          'json',
          '--record-requests',
          'requests.jsonl',
        ],
        dir,
      );
      expect(session.status, session.stderr).toBe(0);
      const result = JSON.parse(session.stdout) as {
        result: string;
        permission_denials: { tool_use_id: string }[];
      };
      expect(result.result).toBe('done');
      expect(result.permission_denials.map((denial) => denial.tool_use_id)).toEqual([...reasons.keys()]);
      const results = toolResults(dir);
      for (const [index, call] of spec.calls.entries()) {
        const id = `toolu_0${index + 1}`;
        const reason = reasons.get(id);
        if (reason !== undefined)
          expect(results.get(id)).toEqual({ content: refusalText(call.tool, reason), is_error: true });
        else expect(results.get(id)?.is_error).toBeUndefined();
        if (call.creates !== undefined) expect(fs.existsSync(path.join(dir, call.creates))).toBe(true);
      }
      expect(fs.readFileSync(path.join(dir, 'build/keep.txt'), 'utf8')).toBe('keep\n');
    });
  }

  it('plugin-layout: the plugin hooks get CLAUDE_PLUGIN_ROOT and a persistent CLAUDE_PLUGIN_DATA', () => {
    const { dir, sources } = copySetup('plugin-layout');
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo hi' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    expect(runCli(['-p', 'go', ...sources, '--model-script', 'turns.json'], dir).status).toBe(0);
    const audit = path.join(dir, '.test-home/.claude/plugins/data/audit-plugin-inline/audit.jsonl');
    const lines = fs
      .readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { hook_event_name: string; tool_input: unknown });
    expect(lines).toMatchObject([{ hook_event_name: 'PostToolUse', tool_input: { command: 'echo hi' } }]);
  });

  it('ten-handlers: every handler sees every call exactly once', () => {
    const { dir, sources } = copySetup('ten-handlers');
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo one' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    expect(runCli(['-p', 'go', ...sources, '--model-script', 'turns.json'], dir).status).toBe(0);
    const votes = fs.readFileSync(path.join(dir, 'votes.log'), 'utf8').trim().split('\n').map(Number);
    expect(votes.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

/** What the model reads for a refused call, on every tool: `PreToolUse:<Tool> hook error: <reason>`. */
function refusalText(tool: string, reason: string): string {
  return `PreToolUse:${tool} hook error: ${reason}`;
}

/** The tool results of the session's last model request, by tool_use_id. */
function toolResults(dir: string): Map<string, { content: unknown; is_error?: boolean }> {
  const lines = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8').trim().split('\n');
  const last = JSON.parse(lines.at(-1)!) as { messages: { content: unknown }[] };
  const results = new Map<string, { content: unknown; is_error?: boolean }>();
  for (const message of last.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as {
      type: string;
      tool_use_id?: string;
      content?: unknown;
      is_error?: boolean;
    }[]) {
      if (block.type === 'tool_result' && block.tool_use_id !== undefined)
        results.set(block.tool_use_id, {
          content: block.content,
          ...(block.is_error ? { is_error: true } : {}),
        });
    }
  }
  return results;
}
