import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSessionHooks, type SessionHooks } from '../../src/cli/hooks-command/session-hooks.js';
import {
  HookEngine,
  type HookEventName,
  type HookPayload,
  type PhaseFire,
  registerSettingsHandlers,
} from '../../src/index.js';
import { SessionState } from '../../src/loop/session-state.js';
import { loadHookSetup } from '../../src/hooks/plugins/hook-setup.js';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

const sessions: SessionHooks[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

const logTo = (file: string) => ({
  type: 'command',
  command: `cat >> "$CLAUDE_PROJECT_DIR/${file}"; echo >> "$CLAUDE_PROJECT_DIR/${file}"`,
});
const settings = (hooks: Record<string, unknown>) => JSON.stringify({ hooks });

/**
 * A session's hook services over a project whose local settings the test edits. The test plays
 * the loop: its session state gives payloads their common fields, and its boundaries pass the
 * loop's `fire`, as `phaseBoundary` does (SessionState stands in for the run; it is not exported).
 */
function session(initial: Record<string, unknown>) {
  const dir = tempProject({ '.claude/settings.local.json': settings(initial) });
  const home = tempProject();
  const setupOptions = { projectDir: dir, homeDir: home };
  const engine = new HookEngine();
  const notices: string[] = [];
  sessions.push(
    startSessionHooks({
      engine,
      setup: loadHookSetup(setupOptions),
      setupOptions,
      register: (handlers) => registerSettingsHandlers(engine, handlers, dir),
      warn: (text) => notices.push(`warning: ${text}`),
      notify: (line) => notices.push(line),
    }),
  );
  const state = new SessionState({
    sessionId: 'session-1',
    transcriptPath: '/t.jsonl',
    projectDir: dir,
    cwd: dir,
    mode: 'default',
  });
  const fire = <E extends HookEventName>(event: E, fields: HookPayload<E>) =>
    engine.fire(event, state.payload(event, fields));
  const loopFire: PhaseFire = fire;
  const preToolUse = (command: string): Promise<unknown> => {
    state.promptId = 'prompt-1';
    return fire('PreToolUse', { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
  };
  return {
    dir,
    notices,
    installed: () => engine.list().map((handler) => handler.origin.text),
    start: () => fire('SessionStart', { source: 'startup' }),
    preToolUse,
    /** The loop reaching a phase boundary, where changes are applied (or held, after a tool). */
    boundary: (phase: 'before-tool' | 'after-tool' = 'before-tool') =>
      engine.boundary(phase, { toolName: 'Bash', toolUseId: 'toolu_1', fire: loopFire }),
    edit: (hooks: Record<string, unknown> | string) =>
      fs.writeFileSync(
        path.join(dir, '.claude/settings.local.json'),
        typeof hooks === 'string' ? hooks : settings(hooks),
      ),
    read: (file: string) =>
      fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : '',
  };
}

describe('hot reload', () => {
  it('fires ConfigChange with the old hooks, then swaps in the new ones', async () => {
    const run = session({
      ConfigChange: [{ hooks: [logTo('config.log')] }],
      PreToolUse: [{ hooks: [logTo('old.log')] }],
    });
    await run.start();
    run.edit({
      ConfigChange: [{ hooks: [logTo('config.log')] }],
      PreToolUse: [{ hooks: [logTo('new.log')] }],
    });
    await run.preToolUse('ls');
    expect(run.read('config.log')).toBe(''); // not while an event is dispatched: only at a boundary
    expect(run.read('old.log')).not.toBe('');
    fs.rmSync(path.join(run.dir, 'old.log'));
    await run.boundary();
    expect(JSON.parse(run.read('config.log'))).toEqual({
      session_id: 'session-1',
      transcript_path: '/t.jsonl',
      cwd: run.dir,
      prompt_id: 'prompt-1',
      hook_event_name: 'ConfigChange',
      source: 'local_settings',
      file_path: path.join(run.dir, '.claude/settings.local.json'),
    });
    expect(run.installed().some((text) => text.includes('new.log'))).toBe(true);
    expect(run.installed().some((text) => text.includes('old.log'))).toBe(false);
    await run.preToolUse('ls');
    expect(run.read('new.log')).not.toBe('');
    expect(run.read('old.log')).toBe('');
    expect(run.notices).toEqual([]);
  });

  it('reports the prompt_id and cwd of the latest event', async () => {
    const run = session({ ConfigChange: [{ hooks: [logTo('config.log')] }] });
    await run.start();
    await run.preToolUse('ls');
    run.edit({ ConfigChange: [{ hooks: [logTo('config.log')] }], Stop: [] });
    await run.boundary();
    expect(run.read('config.log')).toContain('"prompt_id":"prompt-1"');
  });

  it('keeps the previous hooks when the new file is invalid, and says why', async () => {
    const run = session({ PreToolUse: [{ hooks: [logTo('old.log')] }] });
    await run.start();
    // Most unreadable entries are only left out (as when a run starts); a deny rule naming no tool cannot be.
    run.edit(
      '{"permissions": {"deny": ["(rm"]}, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
    );
    const file = path.join(run.dir, '.claude/settings.local.json');
    await run.boundary();
    expect(run.notices).toEqual([
      `hookloop: ${file} changed but cannot be used; keeping the previous hooks: ${file}: permissions.deny[0]: cannot read "(rm" as a rule, and a deny rule is not ignored; expected Tool or Tool(specifier), e.g. Bash(rm:*)`,
    ]);
    await run.preToolUse('ls');
    expect(run.read('old.log')).not.toBe('');
  });

  it('keeps the previous hooks when a ConfigChange hook blocks the change', async () => {
    const guard = {
      type: 'command',
      command: `cat > /dev/null; echo '{"decision":"block","reason":"settings are frozen"}'`,
    };
    const run = session({
      ConfigChange: [{ matcher: 'local_settings', hooks: [guard] }],
      PreToolUse: [{ hooks: [logTo('old.log')] }],
    });
    await run.start();
    run.edit({});
    const file = path.join(run.dir, '.claude/settings.local.json');
    await run.boundary();
    expect(run.notices).toEqual([
      `hookloop: a ConfigChange hook blocked the change of ${file}; keeping the previous hooks: settings are frozen`,
    ]);
    await run.preToolUse('ls');
    expect(run.read('old.log')).not.toBe('');
  });
});

describe('a settings change made while a tool ran', () => {
  it('is held: not applied, with one warning naming the file and the tool, and never applied later', async () => {
    const run = session({
      ConfigChange: [{ hooks: [logTo('config.log')] }],
      PreToolUse: [{ hooks: [logTo('old.log')] }],
    });
    await run.start();
    await run.boundary('before-tool');
    run.edit({ PreToolUse: [{ hooks: [logTo('evil.log')] }] }); // what the tool process did
    await run.boundary('after-tool');
    await run.boundary('before-tool');
    await run.preToolUse('ls');
    expect(run.read('evil.log')).toBe('');
    expect(run.read('old.log')).not.toBe('');
    expect(run.read('config.log')).toBe('');
    const file = path.join(run.dir, '.claude/settings.local.json');
    expect(run.notices).toEqual([
      `hookloop: warning: ${file} changed while Bash (toolu_1) ran; not applied: a settings change made by a tool needs a person's approval (start a new session to use it)`,
    ]);
  });

  it('through the CLI: a Bash call that rewrites the local settings does not install its hooks', () => {
    const dir = tempProject({ '.claude/settings.local.json': '{}\n' });
    const evil = JSON.stringify({
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: 'cat > /dev/null; touch "$CLAUDE_PROJECT_DIR/pwned"' }] },
        ],
      },
    });
    // The test stands in for any way past the write protections: the tool itself is allowed here.
    fs.writeFileSync(path.join(dir, 'evil.json'), evil);
    writeJson(dir, 'settings.json', { permissions: { allow: ['Bash'] } });
    writeJson(dir, 'turns.json', [
      [
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'Bash',
          input: { command: 'cat evil.json > .claude/settings.local.json' },
        },
      ],
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'true' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const result = runCli(
      [
        '-p',
        'go',
        '--settings',
        'settings.json',
        '--model-script',
        'turns.json',
        '--permission-mode',
        'bypassPermissions',
      ],
      dir,
      { IS_SANDBOX: '1' },
    );
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
    if (fs.readFileSync(path.join(dir, '.claude/settings.local.json'), 'utf8') !== '{}\n')
      expect(result.stderr).toContain('changed while Bash (toolu_01) ran; not applied');
  });
});

describe('ConfigChange in a -p session', () => {
  it('fires when a hook edits .claude/settings.local.json mid-session, and the new hooks apply to later calls', () => {
    // The conformance scenario file-and-config-changed, with a later call that shows the reload.
    const dir = tempProject({
      '.claude/settings.local.json': '{}\n',
      '.claude/hooks/post.sh': `#!/bin/bash\ncat > /dev/null\n[ -f "$CLAUDE_PROJECT_DIR/.edited" ] && exit 0\ntouch "$CLAUDE_PROJECT_DIR/.edited"\necho '${JSON.stringify({ permissions: { allow: ['Read'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [logTo('added.log')] }] } })}' > "$CLAUDE_PROJECT_DIR/.claude/settings.local.json"\n`,
    });
    fs.chmodSync(path.join(dir, '.claude/hooks/post.sh'), 0o755);
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: {
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/post.sh' }],
          },
        ],
        ConfigChange: [{ matcher: 'local_settings', hooks: [logTo('config.log')] }],
      },
    });
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo one' } }],
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'sleep 1; echo two' } }],
      [{ type: 'tool_use', id: 'toolu_03', name: 'Bash', input: { command: 'echo three' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'], dir);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const change = JSON.parse(fs.readFileSync(path.join(dir, 'config.log'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(change)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'hook_event_name',
      'source',
      'file_path',
    ]);
    expect(change).toMatchObject({
      cwd: dir,
      hook_event_name: 'ConfigChange',
      source: 'local_settings',
      file_path: path.join(dir, '.claude/settings.local.json'),
    });
    const added = fs
      .readFileSync(path.join(dir, 'added.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { tool_use_id: string }).tool_use_id);
    expect(added).toEqual(['toolu_03']);
  });

  it('goes through the run like any event: the events file and the lifecycle log see ConfigChange after a settings edit', () => {
    const dir = tempProject({ '.claude/settings.local.json': '{}\n' });
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Bash'] },
      hooks: {
        // A hook (not a tool) edits the settings, so the change is applied at the next boundary.
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `cat > /dev/null; echo '{"hooks":{}}' > "$CLAUDE_PROJECT_DIR/.claude/settings.local.json"`,
              },
            ],
          },
        ],
        ConfigChange: [
          { matcher: 'local_settings', hooks: [{ type: 'command', command: 'cat > /dev/null' }] },
        ],
      },
    });
    writeJson(dir, 'turns.json', [
      [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'echo one' } }],
      [{ type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'echo two' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      ['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json', '--verbose'],
      dir,
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('ConfigChange');
    const eventsFiles = findFiles(path.join(dir, '.test-home'), '.events.ndjson');
    expect(eventsFiles).toHaveLength(1);
    const lines = fs
      .readFileSync(eventsFiles[0]!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; event?: string; matchValue?: string });
    expect(
      lines.filter((line) => line.event === 'ConfigChange').map((line) => [line.type, line.matchValue]),
    ).toEqual([
      ['hook_started', 'local_settings'],
      ['hook_outcome', 'local_settings'],
    ]);
  });
});

/** Every file under `dir` whose name ends with `suffix`. */
function findFiles(dir: string, suffix: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(dir, name));
}
