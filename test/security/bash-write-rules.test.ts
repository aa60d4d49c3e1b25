import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, HookEngine, type PermissionMode } from '../../src/index.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Write and Edit rules are about files, whichever tool writes them: a Bash command that writes a
// path a Write/Edit deny rule covers is denied in every mode (bypassPermissions too), whatever
// allow rule, hook or mode would run it; an ask rule asks; a write whose path hookloop cannot
// prove asks a person. Allow rules inside the workspace are unchanged (Claude Code runs
// `echo x > f` under a Bash rule).

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'];

function hookAllowing(): HookEngine {
  const hooks = new HookEngine();
  hooks.on('PreToolUse', () => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
  }));
  hooks.on('PermissionRequest', () => ({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  }));
  return hooks;
}

function project(): string {
  return tempProject({ 'prod/f': 'original\n', 'a.txt': 'new\n', 'prod.tar': '' });
}

async function bash(
  dir: string,
  command: string,
  options: { mode?: PermissionMode; allow?: string[]; deny?: string[]; ask?: string[]; hooks?: boolean } = {},
) {
  const { result } = await scriptedRun([[toolUse('t1', 'Bash', { command })], [text('done')]], {
    projectDir: dir,
    tools: builtinTools(),
    transcript: false,
    ...(options.hooks ? { hooks: hookAllowing() } : {}),
    permissions: {
      mode: options.mode ?? 'default',
      rules: {
        allow: options.allow ?? ['Bash'],
        deny: options.deny ?? ['Write(./prod/**)'],
        ask: options.ask ?? [],
      },
    },
  });
  return toolResults(result.messages)[0]!;
}

// Every writer, every operand position, every redirection operator.
const WRITES_TO_PROD = [
  'echo x > prod/f',
  'echo x >> prod/f',
  'echo x >| prod/f',
  'echo x &> prod/f',
  'echo x 2> prod/f',
  'cat a.txt 1<>prod/f',
  'cp a.txt prod/f',
  'cp a.txt -t prod',
  'cp --target-directory=prod a.txt',
  'tee prod/f < a.txt',
  'tee -a /dev/null prod/f < a.txt',
  'sed -i s/original/x/ prod/f',
  'mv a.txt prod/f',
  'mv prod/f gone',
  'dd if=a.txt of=prod/f',
  'install a.txt prod/f',
  'truncate -s 0 prod/f',
  'rm -r prod',
  'touch prod/f',
  'ln -f a.txt prod/f',
  'timeout 5 tee prod/f < a.txt',
  'sh -c "echo x > prod/f"',
  'echo x > ./prod/../prod/f',
  'echo x > prod//f',
];

describe('a Write/Edit deny rule covers what Bash writes', () => {
  it.each(MODES)('in %s with allow: [Bash] and allowing hooks, no writer reaches prod/', async (mode) => {
    const dir = project();
    for (const command of WRITES_TO_PROD) {
      const result = await bash(dir, command, { mode, hooks: true });
      expect(result.isError, command).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8'), command).toBe('original\n');
      expect(fs.existsSync(path.join(dir, 'a.txt')), command).toBe(true);
    }
  });

  it('an Edit deny rule does the same, and so does a symlinked alias, a link made earlier and /proc/self/root', async () => {
    const dir = project();
    fs.symlinkSync(path.join(dir, 'prod'), path.join(dir, 'alias'));
    fs.symlinkSync(path.join(dir, 'prod', 'f'), path.join(dir, 'dangling-free'));
    for (const command of [
      'echo x > alias/f',
      'echo x > dangling-free',
      `echo x > /proc/self/root${dir}/prod/f`,
      'echo x > /proc/self/cwd/prod/f',
      'cp a.txt alias/',
    ]) {
      const result = await bash(dir, command, { mode: 'bypassPermissions', deny: ['Edit(./prod/**)'] });
      expect(result.isError, command).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
  });

  it('a hard link to a covered file, made before, is a second name: writing it asks', async () => {
    const dir = project();
    fs.linkSync(path.join(dir, 'prod', 'f'), path.join(dir, 'second-name'));
    const result = await bash(dir, 'echo x > second-name', { mode: 'bypassPermissions' });
    expect(result.isError).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
  });

  it('a link made in the same command, a computed path, a glob or a path after cd ask (fail closed)', async () => {
    const dir = project();
    for (const command of [
      'ln -s prod p && echo x > p/f',
      'ln prod/f h && echo x > h',
      'd=prod; echo x > "$d/f"',
      'echo x > pro*/f',
      'cd prod && echo x > f',
      'env -C prod tee f < a.txt',
      'r=tee; $r prod/f < a.txt',
    ]) {
      const result = await bash(dir, command, { mode: 'bypassPermissions' });
      expect(result.isError, command).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
  });

  it('programs whose writes hookloop does not read ask when a word names a covered path', async () => {
    const dir = project();
    for (const command of [
      'sort -o prod/f a.txt',
      'sort --output=prod/f a.txt',
      'tar -C prod -xf prod.tar',
      'awk \'{ print > "prod/f" }\' a.txt',
      "python3 -c \"open('prod/f', 'w').write('x')\"",
      'python3 - <<EOF\nopen("prod/f", "w").write("x")\nEOF',
      'python3 <<< \'open("prod/f", "w").write("x")\'',
    ]) {
      const result = await bash(dir, command, { mode: 'bypassPermissions', hooks: true });
      expect(result.isError, command).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
  });

  it('a Write ask rule asks for a Bash write (refused headless, refused in dontAsk)', async () => {
    for (const mode of ['default', 'acceptEdits', 'dontAsk'] as const) {
      const dir = project();
      const result = await bash(dir, 'echo x > prod/f', { mode, deny: [], ask: ['Write(./prod/**)'] });
      expect(result.isError).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
    }
  });

  it('legitimate: writes beside the denied folder still run under allow: [Bash], in acceptEdits and in bypassPermissions', async () => {
    for (const mode of MODES) {
      const dir = project();
      for (const command of [
        'echo x > out.txt',
        'cp a.txt b.txt',
        'tee c.txt < a.txt',
        'sed -i s/new/newer/ a.txt',
        'mkdir -p build && touch build/x',
        'echo x > /dev/null',
        'cat prod/f > copy.txt',
        'sort -o sorted.txt a.txt',
      ]) {
        const result = await bash(dir, command, { mode });
        expect(result.isError, `${mode}: ${command}: ${JSON.stringify(result.content)}`).toBe(false);
      }
      expect(fs.readFileSync(path.join(dir, 'copy.txt'), 'utf8')).toBe('original\n');
      expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('newer\n');
    }
  });
});

describe('trees written under a floating rule', () => {
  it('Edit(**/*.lock): rm -r of a folder holding a lock file asks; mv of a file and rm -r of a fresh folder run', async () => {
    const dir = tempProject({ 'a.txt': 'a\n', 'deps/pkg/yarn.lock': 'lock\n' });
    const rules = { mode: 'bypassPermissions' as const, deny: ['Edit(**/*.lock)'] };
    expect(await bash(dir, 'rm -r deps', rules)).toMatchObject({ isError: true });
    expect(fs.existsSync(path.join(dir, 'deps/pkg/yarn.lock'))).toBe(true);
    expect(await bash(dir, 'rm yarn.lock deps/pkg/yarn.lock', rules)).toMatchObject({ isError: true });
    for (const command of ['mv a.txt b.txt', 'mkdir -p build && rm -r build'])
      expect(await bash(dir, command, rules), command).toMatchObject({ isError: false });
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(true);
  });
});

describe('writes outside the workspace', () => {
  it("neither a program's allow rule nor a PreToolUse allow lets cp, tee or a redirection write outside; bypassPermissions does (a bare `Bash` rule does too: attack-sweep-3)", async () => {
    const outside = tempProject();
    const dir = project();
    for (const command of [
      `cp a.txt ${outside}/c1`,
      `echo x > ${outside}/c2`,
      `tee ${outside}/c3 < a.txt`,
      `cp a.txt -t${outside}`,
    ]) {
      const result = await bash(dir, command, {
        deny: [],
        hooks: false,
        allow: ['Bash(cp:*)', 'Bash(echo:*)', 'Bash(tee:*)'],
      });
      expect(result.isError, command).toBe(true);
      const hooked = await scriptedRun([[toolUse('t1', 'Bash', { command })], [text('done')]], {
        projectDir: dir,
        tools: builtinTools(),
        transcript: false,
        hooks: (() => {
          const hooks = new HookEngine();
          hooks.on('PreToolUse', () => ({
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
          }));
          return hooks;
        })(),
      });
      expect(toolResults(hooked.result.messages)[0]!.isError, command).toBe(true);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    const bypass = await bash(dir, `cp a.txt ${outside}/ok`, { deny: [], mode: 'bypassPermissions' });
    expect(bypass.isError).toBe(false);
    expect(fs.existsSync(path.join(outside, 'ok'))).toBe(true);
  });
});

describe('descriptor paths reopen what the line opened', () => {
  it('`2<FILE 2>/dev/stderr` and `<FILE >/dev/stdin` are writes of FILE: they ask for protected configuration', async () => {
    const dir = tempProject({ '.claude/settings.json': '{}\n' });
    for (const command of [
      'echo x 2<.claude/settings.json 2>/dev/stderr',
      'echo x <.claude/settings.json >/dev/stdin',
      'echo x 3<.claude/settings.json >/dev/fd/3',
    ]) {
      const result = await bash(dir, command, { mode: 'bypassPermissions', deny: [] });
      expect(result.isError, command).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, '.claude/settings.json'), 'utf8')).toBe('{}\n');
    // legitimate: the standard streams with no `<` on the line are not asked for (the tool's own
    // streams may be sockets that cannot be reopened, so only the permission is asserted)
    expect(String((await bash(dir, 'echo ok 2> /dev/stderr', { deny: [] })).content)).not.toMatch(
      /approval|denied/,
    );
  });
});

describe('hookloop -p: deny: [Write(./prod/**)] with allow: [Bash]', () => {
  it('refuses echo/cp/tee/sed -i/mv/dd into prod/ in bypassPermissions and runs the write beside it', () => {
    const dir = project();
    writeJson(dir, 'settings.json', { permissions: { allow: ['Bash'], deny: ['Write(./prod/**)'] } });
    const commands = [
      'echo x > prod/f',
      'cp a.txt prod/f',
      'tee prod/f < a.txt',
      'sed -i s/o/x/ prod/f',
      'mv a.txt prod/f',
      'dd if=a.txt of=prod/f',
    ];
    writeJson(dir, 'turns.json', [
      ...commands.map((command, index) => [
        { type: 'tool_use', id: `t${index}`, name: 'Bash', input: { command } },
      ]),
      [{ type: 'tool_use', id: 'ok', name: 'Bash', input: { command: 'echo fine > out.txt' } }],
      [{ type: 'text', text: 'done' }],
    ]);
    const run = runCli(
      [
        '-p',
        'go',
        '--settings',
        'settings.json',
        '--permission-mode',
        'bypassPermissions',
        '--model-script',
        'turns.json',
        '--output-format',
        'json',
      ],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission_denials: { tool_use_id: string }[] };
    expect(result.permission_denials.map((denial) => denial.tool_use_id)).toEqual(
      commands.map((_, index) => `t${index}`),
    );
    expect(fs.readFileSync(path.join(dir, 'prod/f'), 'utf8')).toBe('original\n');
    expect(fs.readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('fine\n');
  });
});
