import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, ConfigError, defineTool, Workspace } from '../../src/index.js';
import { matchesAny } from '../../src/permissions/match-rule.js';
import { PermissionPolicy, ruleForCall } from '../../src/permissions/policy.js';
import type { PermissionMode, PermissionQuery, PermissionRules } from '../../src/permissions/types.js';

const run = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-policy-')));
const ws = path.join(run, 'ws');
fs.mkdirSync(ws);
afterAll(() => fs.rmSync(run, { recursive: true, force: true }));

const filePath = z.object({ file_path: z.string(), content: z.string().optional() });
const tools = {
  Bash: defineTool({
    name: 'Bash',
    description: 'shell',
    inputSchema: z.object({ command: z.string() }),
    kind: 'bash',
    handler: () => '',
  }),
  Write: defineTool({
    name: 'Write',
    description: 'write',
    inputSchema: filePath,
    kind: 'edit',
    filePaths: (input) => [input.file_path],
    handler: () => '',
  }),
  Read: defineTool({
    name: 'Read',
    description: 'read',
    inputSchema: filePath,
    kind: 'read',
    readOnly: true,
    filePaths: (input) => [input.file_path],
    handler: () => '',
  }),
  Echo: defineTool({
    name: 'mcp__oracle__echo',
    description: 'mcp',
    inputSchema: z.object({ text: z.string() }),
    handler: () => '',
  }),
} satisfies Record<string, AnyTool>;

function policy(mode: PermissionMode = 'default', rules: Partial<PermissionRules> = {}): PermissionPolicy {
  return new PermissionPolicy({
    rules: { allow: [], ask: [], deny: [], ...rules },
    mode,
    workspace: new Workspace(ws),
    projectDir: ws,
    homeDir: path.join(run, 'home'),
  });
}
const bash = (command: string, extra: Partial<PermissionQuery> = {}): PermissionQuery => ({
  tool: tools.Bash,
  input: { command },
  cwd: ws,
  ...extra,
});
const write = (file: string, extra: Partial<PermissionQuery> = {}): PermissionQuery => ({
  tool: tools.Write,
  input: { file_path: path.resolve(ws, file), content: 'x' },
  cwd: ws,
  ...extra,
});
const read = (file: string, extra: Partial<PermissionQuery> = {}): PermissionQuery => ({
  tool: tools.Read,
  input: { file_path: path.resolve(ws, file) },
  cwd: ws,
  ...extra,
});
const inside = `The path is inside the working directories for this session ('${ws}'), and Claude Code asks before a shell command creates, changes or removes files there.`;

describe('conformance traces', () => {
  it("rule-deny-beats-hook-allow: a deny rule beats a hook allow, with Claude Code's text", async () => {
    expect(
      await policy('default', { deny: ['Bash(touch *)'] }).evaluate(
        bash('touch denied.txt', { hookDecision: 'allow' }),
      ),
    ).toMatchObject({
      behavior: 'deny',
      message: 'Permission to use Bash with command touch denied.txt has been denied.',
      source: 'rule Bash(touch *)',
    });
  });

  it('rule-allow-vs-permission-request: an allow rule runs touch; mkdir without a rule asks', async () => {
    const subject = policy('default', { allow: ['Bash(touch *)'] });
    expect(await subject.evaluate(bash('touch allowed.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'rule Bash(touch *)',
    });
    expect(await subject.evaluate(bash('mkdir newdir'))).toMatchObject({
      behavior: 'ask',
      message: `mkdir in '${ws}/newdir' needs approval. ${inside}`,
      source: 'mode default',
      hookMayDecide: true,
      suggestions: [
        { type: 'addDirectories', directories: [ws], destination: 'session' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      ],
    });
  });

  it("permission-request-print-mode: an output redirection asks with Claude Code's text", async () => {
    expect(await policy().evaluate(bash('echo hi > out.txt'))).toMatchObject({
      behavior: 'ask',
      message: `Output redirection to '${ws}/out.txt' needs approval. ${inside}`,
      source: 'mode default',
      hookMayDecide: true,
      suggestions: [{ type: 'addDirectories', directories: [ws], destination: 'session' }],
    });
  });

  it('mode-accept-edits: Write inside and touch run; Write outside asks and no hook may decide', async () => {
    const subject = policy('acceptEdits');
    expect(await subject.evaluate(write('inside.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'mode acceptEdits',
    });
    expect(await subject.evaluate(bash('touch touched.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'mode acceptEdits',
    });
    expect(await subject.evaluate(write('../outside-accept.txt'))).toMatchObject({
      behavior: 'ask',
      message: `Claude requested permissions to write to ${run}/outside-accept.txt, but you haven't granted it yet.`,
      source: 'workspace boundary',
      hookMayDecide: false,
      suggestions: [{ type: 'addDirectories', directories: [run], destination: 'session' }],
    });
  });

  it('mode-plan: Write and a Bash write are refused, even with a hook allow; read-only Bash runs', async () => {
    const subject = policy('plan');
    // Plan mode asks with nobody allowed to approve: PermissionRequest hooks see the call (as in the reference), only a denial counts.
    const refused = { behavior: 'ask', source: 'mode plan', hookMayDecide: false, humanMayDecide: false };
    expect(await subject.evaluate(write('plan-write.txt', { hookDecision: 'allow' }))).toMatchObject({
      ...refused,
      message: `Cannot write to ${ws}/plan-write.txt while in plan mode.`,
    });
    expect(await subject.evaluate(bash('echo hi > plan-bash.txt', { hookDecision: 'allow' }))).toMatchObject({
      ...refused,
      message: expect.stringMatching(/^Cannot run `echo hi > plan-bash.txt` while in plan mode/),
    });
    expect(await subject.evaluate(bash('echo read-only'))).toMatchObject({
      behavior: 'allow',
      source: 'read-only',
    });
    expect(await subject.evaluate(read('a.txt'))).toMatchObject({ behavior: 'allow', source: 'read-only' });
    expect(await subject.evaluate({ tool: tools.Echo, input: { text: 'x' }, cwd: ws })).toMatchObject({
      ...refused,
      message: 'Cannot use mcp__oracle__echo while in plan mode.',
    });
  });

  it('mode-bypass-permissions: writes run; a hook ask is refused with the bare reason', async () => {
    const subject = policy('bypassPermissions');
    expect(await subject.evaluate(bash('echo plain > plain.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'mode bypassPermissions',
    });
    expect(
      await subject.evaluate(
        bash('echo x > hook-ask.txt', { hookDecision: 'ask', hookReason: 'BYPASS-HOOK-ASK' }),
      ),
    ).toMatchObject({ behavior: 'ask', message: 'BYPASS-HOOK-ASK', source: 'hook', hookMayDecide: false });
    expect(await subject.evaluate(write('../outside.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'mode bypassPermissions',
    });
  });

  it('pre-json-allow: a hook allow skips the approval default mode would ask for a Bash write', async () => {
    expect(
      await policy().evaluate(
        bash('echo allowed > allowed.txt', { hookDecision: 'allow', hookReason: 'ALLOW-REASON' }),
      ),
    ).toMatchObject({ behavior: 'allow', source: 'hook' });
  });

  it('pre-json-ask-print-mode: a hook ask beats an allow rule and no PermissionRequest hook may decide', async () => {
    expect(
      await policy('default', { allow: ['Bash'] }).evaluate(
        bash('echo ran > ran.txt', { hookDecision: 'ask', hookReason: 'ASK-REASON' }),
      ),
    ).toMatchObject({
      behavior: 'ask',
      message: 'ASK-REASON',
      source: 'hook',
      hookMayDecide: false,
    });
  });
});

describe('precedence', () => {
  it('an ask rule beats a hook allow and an allow rule, and PermissionRequest hooks may decide', async () => {
    expect(
      await policy('default', { ask: ['Bash(git push:*)'], allow: ['Bash'] }).evaluate(
        bash('git push origin main', { hookDecision: 'allow' }),
      ),
    ).toMatchObject({
      behavior: 'ask',
      message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
      source: 'rule Bash(git push:*)',
      hookMayDecide: true,
    });
  });

  it('a deny rule on any subcommand denies the whole command, even one an allow rule covers', async () => {
    const subject = policy('bypassPermissions', { deny: ['Bash(rm *)'], allow: ['Bash(echo *)'] });
    expect(await subject.evaluate(bash('echo $(rm -rf build)'))).toMatchObject({
      behavior: 'deny',
      source: 'rule Bash(rm *)',
    });
  });

  it('Edit(...) rules cover Write; deny text names the tool', async () => {
    expect(
      await policy('bypassPermissions', { deny: ['Edit(src/**)'] }).evaluate(write('src/x.ts')),
    ).toMatchObject({
      behavior: 'deny',
      message: 'Permission to use Write has been denied.',
      source: 'rule Edit(src/**)',
    });
  });

  it('a Read deny rule blocks a read inside the workspace', async () => {
    expect(await policy('default', { deny: ['Read(./.env)'] }).evaluate(read('.env'))).toMatchObject({
      behavior: 'deny',
      message: 'Permission to use Read has been denied.',
    });
  });

  it('the workspace boundary beats a hook allow and an allow rule', async () => {
    expect(
      await policy('acceptEdits', { allow: ['Write'] }).evaluate(
        write('../escape.txt', { hookDecision: 'allow' }),
      ),
    ).toMatchObject({ behavior: 'ask', hookMayDecide: false, source: 'workspace boundary' });
    expect(
      await policy('default', { allow: ['Read'] }).evaluate(read('/etc/hostname', { hookDecision: 'allow' })),
    ).toMatchObject({
      behavior: 'ask',
      message: "Claude requested permissions to read from /etc/hostname, but you haven't granted it yet.",
      hookMayDecide: false,
    });
  });

  it('a symlink that leaves the workspace is caught by the boundary', async () => {
    const outside = path.join(run, 'outside-dir');
    fs.mkdirSync(outside, { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'link'));
    expect(
      await policy('acceptEdits').evaluate(write('link/new.txt', { hookDecision: 'allow' })),
    ).toMatchObject({ behavior: 'ask', hookMayDecide: false, source: 'workspace boundary' });
    expect(await policy('default').evaluate(read('link/secret.txt'))).toMatchObject({
      behavior: 'ask',
      hookMayDecide: false,
    });
  });

  it('rm of a protected directory asks in every mode and no hook may approve it', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'] as const) {
      expect(
        await policy(mode, { allow: ['Bash'] }).evaluate(bash('rm -rf ~', { hookDecision: 'allow' })),
      ).toMatchObject({ behavior: 'ask', hookMayDecide: false, source: 'protected path' });
    }
  });

  it('an allow rule does not cover a redirection out of the workspace', async () => {
    const subject = policy('default', { allow: ['Bash(echo *)'] });
    expect(await subject.evaluate(bash('echo x > inside.txt'))).toMatchObject({
      behavior: 'allow',
      source: 'rule Bash(echo *)',
    });
    expect(await subject.evaluate(bash('echo x > /tmp/outside.txt'))).toMatchObject({
      behavior: 'ask',
      message: `Output redirection to '/tmp/outside.txt' needs approval. The path is outside the working directories for this session ('${ws}').`,
    });
  });

  it('an allow rule must cover every subcommand', async () => {
    const subject = policy('default', { allow: ['Bash(git:*)'] });
    expect(await subject.evaluate(bash('git add . && git commit -m x'))).toMatchObject({ behavior: 'allow' });
    expect(await subject.evaluate(bash('git add . && npm publish'))).toMatchObject({ behavior: 'ask' });
  });
});

describe('modes', () => {
  it('default: read-only Bash and reads inside run; writes and edits ask', async () => {
    const subject = policy();
    expect(await subject.evaluate(bash('ls -la && git status'))).toMatchObject({
      behavior: 'allow',
      source: 'read-only',
    });
    expect(await subject.evaluate(read('a.txt'))).toMatchObject({ behavior: 'allow', source: 'read-only' });
    expect(await subject.evaluate(write('a.txt'))).toMatchObject({
      behavior: 'ask',
      message: `Claude requested permissions to write to ${ws}/a.txt, but you haven't granted it yet.`,
      source: 'mode default',
      hookMayDecide: true,
      suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    });
    expect(await subject.evaluate(bash('npm install'))).toMatchObject({
      behavior: 'ask',
      message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
      hookMayDecide: true,
    });
    expect(await subject.evaluate({ tool: tools.Echo, input: { text: 'x' }, cwd: ws })).toMatchObject({
      behavior: 'ask',
      message: "Claude requested permissions to use mcp__oracle__echo, but you haven't granted it yet.",
    });
  });

  it('acceptEdits: Bash commands other than file edits still ask', async () => {
    expect(await policy('acceptEdits').evaluate(bash('npm install'))).toMatchObject({ behavior: 'ask' });
    expect(await policy('acceptEdits').evaluate(bash('touch ../outside.txt'))).toMatchObject({
      behavior: 'ask',
      hookMayDecide: true,
    });
  });

  it('dontAsk: what would ask is denied without a request; a hook allow or an allow rule lets it run', async () => {
    const subject = policy('dontAsk', { allow: ['Bash(npm test)'] });
    expect(await subject.evaluate(bash('touch x'))).toMatchObject({
      behavior: 'deny',
      // Claude Code's full text, with the agent's name.
      message:
        "Permission to use Bash has been denied because hookloop is running in don't ask mode. IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious ways, e.g. do not use your ability to run tests to execute non-test actions. You should only try to work around this restriction in reasonable ways that do not attempt to bypass the intent behind this denial. If you believe this capability is essential to complete the user's request, STOP and explain to the user what you were trying to do and why you need this permission. Let the user decide how to proceed.",
      source: 'mode dontAsk',
    });
    expect(await subject.evaluate(bash('touch x', { hookDecision: 'allow' }))).toMatchObject({
      behavior: 'allow',
      source: 'hook',
    });
    expect(await subject.evaluate(bash('npm test'))).toMatchObject({
      behavior: 'allow',
      source: 'rule Bash(npm test)',
    });
    expect(await subject.evaluate(bash('cat README.md'))).toMatchObject({
      behavior: 'allow',
      source: 'read-only',
    });
  });

  it('setMode changes the mode of later calls', async () => {
    const subject = policy();
    subject.setMode('acceptEdits');
    expect(subject.mode).toBe('acceptEdits');
    expect(await subject.evaluate(write('a.txt'))).toMatchObject({ behavior: 'allow' });
    expect(() => subject.setMode('auto' as PermissionMode)).toThrow(ConfigError);
  });
});

describe('rules', () => {
  it('malformed rules fail at construction with a ConfigError naming the list entry', () => {
    expect(() => policy('default', { allow: ['Bash', 'Bash(npm test'] })).toThrow(
      /^permissions\.allow\[1\]: invalid permission rule "Bash\(npm test": unbalanced parentheses/,
    );
  });

  it('addSessionRule applies to later calls; ruleForCall builds an exact rule', async () => {
    const subject = policy();
    const command = 'python -c "print(1)" > out.txt';
    expect(await subject.evaluate(bash(command))).toMatchObject({ behavior: 'ask' });
    subject.addSessionRule('allow', ruleForCall(tools.Bash, { command }));
    expect(await subject.evaluate(bash(command))).toMatchObject({ behavior: 'allow' });
    expect(await subject.evaluate(bash('python -c "print(2)" > out.txt'))).toMatchObject({ behavior: 'ask' });
    subject.addSessionRule('deny', 'Write(*.lock)');
    expect(await subject.evaluate(write('yarn.lock', { hookDecision: 'allow' }))).toMatchObject({
      behavior: 'deny',
    });
    expect(subject.rules.deny).toEqual(['Write(*.lock)']);
    expect(() => subject.addSessionRule('allow', 'Bash(')).toThrow(ConfigError);
  });
});

describe('property: deny > ask > hook allow', () => {
  const rulePool = [
    'Bash',
    'Bash(git:*)',
    'Bash(git status)',
    'Bash(rm *)',
    'Bash(echo *)',
    'Bash(touch *)',
    'Write',
    'Write(*.md)',
    'Edit(src/**)',
    'Read',
    'Read(./secret/**)',
  ];
  const calls: PermissionQuery[] = [
    bash('git status'),
    bash('rm -rf x'),
    bash('echo hi > out.txt'),
    bash('touch a && git diff'),
    bash('echo $(rm x)'),
    bash('ls'),
    write('notes.md'),
    write('src/x.ts'),
    write('../outside.md'),
    read('secret/key'),
    read('a.txt'),
  ];
  const arbitraryRules = fc.subarray(rulePool, { maxLength: 4 });

  it('holds for random rules, modes, calls and hook decisions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          allow: arbitraryRules,
          ask: arbitraryRules,
          deny: arbitraryRules,
          mode: fc.constantFrom<PermissionMode>(
            'default',
            'acceptEdits',
            'plan',
            'bypassPermissions',
            'dontAsk',
          ),
          call: fc.constantFrom(...calls),
          hook: fc.constantFrom<'allow' | 'ask' | undefined>(undefined, 'allow', 'ask'),
        }),
        async ({ allow, ask, deny, mode, call, hook }) => {
          const verdict = await policy(mode, { allow, ask, deny }).evaluate({
            ...call,
            hookDecision: hook,
            hookReason: 'HOOK',
          });
          const matches = async (rules: string[]) => {
            for (const rule of rules)
              if (await matchesAny(rule, call.tool.name, call.input, ws, ws, { kind: call.tool.kind }))
                return true;
            return false;
          };
          const denyMatches = await matches(deny);
          const askMatches = await matches(ask);
          if (denyMatches) expect(verdict.behavior).toBe('deny');
          if (askMatches) expect(verdict.behavior).not.toBe('allow');
          if (hook === 'allow' && (denyMatches || askMatches)) expect(verdict.behavior).not.toBe('allow');
          if (hook === 'ask') expect(verdict.behavior).not.toBe('allow');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('hook configuration is protected from the model', () => {
  it('a write to .claude/ settings asks with nobody but a human able to approve, whatever the rules, mode or hooks say', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      const verdict = await policy(mode, { allow: ['Write', 'Bash'] }).evaluate(
        write('.claude/settings.local.json', { hookDecision: 'allow' }),
      );
      expect(verdict).toMatchObject({ behavior: 'ask', source: 'hook configuration', hookMayDecide: false });
    }
    expect(
      await policy('bypassPermissions', { allow: ['Bash'] }).evaluate(
        bash('echo {} > .claude/settings.json', { hookDecision: 'allow' }),
      ),
    ).toMatchObject({
      behavior: 'ask',
      source: 'hook configuration',
    });
  });

  it('leaves other project files alone', async () => {
    expect(await policy('acceptEdits').evaluate(write('src/settings.json'))).toMatchObject({
      behavior: 'allow',
    });
  });
});
