import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtinTools,
  GENERAL_PURPOSE,
  HookEngine,
  runAgent,
  loadSession,
  type ApprovalRequest,
  type Approver,
  type PermissionMode,
} from '../../src/index.js';
import { ScriptedModel, type ScriptTurn } from '../../src/testing.js';
import { runCli, writeJson } from '../support/cli.js';
import { scriptedRun, tempProject, text, toolResults, toolUse } from '../support/scripted-run.js';

// Session taint: a file the model wrote in this session that an allowed program reads as code
// turns the allow rule's approval into a question for a person, once. Headless (no person), that
// question is a refusal, as every ask is.

const PACKAGE = (test: string) => JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test } });

interface Options {
  readonly allow: readonly string[];
  readonly mode?: PermissionMode;
  readonly approver?: Approver;
}

/** Runs one scripted turn per call, each turn one tool call, then a final text. */
async function session(dir: string, calls: readonly [string, Record<string, unknown>][], options: Options) {
  const turns: ScriptTurn[] = calls.map(([tool, input], index) => [toolUse(`t${index}`, tool, input)]);
  turns.push([text('done')]);
  const run = await scriptedRun(turns, {
    projectDir: dir,
    tools: builtinTools(),
    transcript: false,
    ...(options.approver ? { approver: options.approver } : {}),
    permissions: { mode: options.mode ?? 'default', rules: { allow: [...options.allow] } },
  });
  return { ...run, results: toolResults(run.result.messages) };
}

const bash = (command: string): [string, Record<string, unknown>] => ['Bash', { command }];
const write = (dir: string, file: string, content: string): [string, Record<string, unknown>] => [
  'Write',
  { file_path: path.join(dir, file), content },
];

/** An approver that says yes and counts how often it was asked, remembering the questions. */
function countingApprover(): Approver & { readonly asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    approve: (request) => {
      asked.push(request);
      return Promise.resolve('allow');
    },
  };
}

describe('session taint: an allow rule does not run what the model wrote', () => {
  it('asks (headless: refuses) for npm test after the model edited package.json scripts', async () => {
    const dir = tempProject({ 'package.json': PACKAGE('echo fine') });
    const { results } = await session(
      dir,
      [write(dir, 'package.json', PACKAGE('touch pwned')), bash('npm test')],
      { allow: ['Write', 'Bash(npm test)'] },
    );
    expect(results[1]!.isError).toBe(true);
    expect(results[1]!.content).toContain('npm runs package.json, which this session wrote; approve once');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('follows a package.json script to the file it runs', async () => {
    const dir = tempProject({ 'package.json': PACKAGE('node scripts/check.js'), 'scripts/check.js': '' });
    const { results } = await session(
      dir,
      [write(dir, 'scripts/check.js', 'require("fs").writeFileSync("pwned", "")'), bash('npm test')],
      { allow: ['Write', 'Bash(npm test)'] },
    );
    expect(results[1]!.content).toContain('scripts/check.js, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('asks for make after the model edited the Makefile, or a file it includes', async () => {
    const dir = tempProject({ Makefile: 'include rules.mk\nall:\n\ttrue\n', 'rules.mk': '' });
    for (const file of ['Makefile', 'rules.mk']) {
      const { results } = await session(dir, [write(dir, file, 'all:\n\ttouch pwned\n'), bash('make')], {
        allow: ['Write', 'Bash(make:*)'],
      });
      expect(results[1]!.content).toContain(`make runs ${file}, which this session wrote`);
    }
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('asks for make -C sub after the model wrote sub/Makefile, and for make behind a wrapper', async () => {
    const dir = tempProject({ 'sub/Makefile': 'all:\n\ttrue\n' });
    const { results } = await session(
      dir,
      [
        write(dir, 'sub/Makefile', 'all:\n\ttouch pwned\n'),
        bash('make -C sub'),
        bash('timeout 60 make -C sub'),
      ],
      { allow: ['Write', 'Bash(make:*)', 'Bash(timeout:*)'] },
    );
    expect(results[1]!.content).toContain('sub/Makefile, which this session wrote');
    expect(results[2]!.content).toContain('sub/Makefile, which this session wrote');
  });

  it('asks for pytest after the model wrote a conftest.py below the directory', async () => {
    const dir = tempProject({ 'tests/test_a.py': 'def test_a():\n    pass\n' });
    const { results } = await session(
      dir,
      [write(dir, 'tests/conftest.py', 'open("pwned", "w")\n'), bash('pytest -q')],
      { allow: ['Write', 'Bash(pytest:*)'] },
    );
    expect(results[1]!.content).toContain('pytest runs tests/conftest.py, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('counts what a Bash command wrote: echo … > Makefile, then make', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const { results } = await session(
      dir,
      [bash("printf 'all:\\n\\ttouch pwned\\n' > Makefile"), bash('make')],
      { allow: ['Bash(printf:*)', 'Bash(make)'] },
    );
    expect(results[0]!.isError).toBe(false);
    expect(results[1]!.content).toContain('make runs Makefile, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('counts a write whose destination the shell computed: any file may be the one make runs', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const approver = countingApprover();
    await session(dir, [bash('f=Makefile; printf \'all:\\n\\ttouch ran\\n\' > "$f"'), bash('make')], {
      allow: ['Bash'],
      approver,
    });
    // A person approved the write (its destination is not known before it runs), then is asked about make.
    expect(approver.asked.at(-1)!.message).toBe(
      'make may run a file this session wrote (an earlier command wrote files hookloop could not name before it ran); approve once to trust it.',
    );
    expect(approver.asked).toHaveLength(2);
  });

  it('counts what a program writes from its data: git apply of a patch the model wrote, then make', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const patch = '--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,2 @@\n all:\n-\ttrue\n+\ttouch pwned\n';
    const { results } = await session(
      dir,
      [write(dir, 'fix.diff', patch), bash('git apply fix.diff'), bash('make')],
      {
        allow: ['Write', 'Bash(git apply:*)', 'Bash(make)'],
      },
    );
    expect(results[1]!.isError, String(results[1]!.content)).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'Makefile'), 'utf8')).toContain('touch pwned');
    expect(results[2]!.content).toContain('make may run a file this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('follows a Makefile recipe to the script it runs', async () => {
    const dir = tempProject({ Makefile: 'all:\n\t@./build.sh\n', 'build.sh': '#!/bin/sh\n' });
    const { results } = await session(
      dir,
      [write(dir, 'build.sh', '#!/bin/sh\ntouch pwned\n'), bash('make')],
      {
        allow: ['Write', 'Bash(make)'],
      },
    );
    expect(results[1]!.content).toContain('make runs build.sh, which this session wrote');
  });

  it('remembers across a resume what the model wrote before', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const sessionId = randomUUID();
    const transcriptPath = path.join(tempProject(), `${sessionId}.jsonl`);
    await scriptedRun(
      [
        [toolUse('t1', 'Write', { file_path: path.join(dir, 'Makefile'), content: 'all:\n\ttouch pwned\n' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        tools: builtinTools(),
        sessionId,
        transcriptPath,
        permissions: { mode: 'default', rules: { allow: ['Write'] } },
      },
    );
    const { result } = await scriptedRun([[toolUse('t2', 'Bash', { command: 'make' })], [text('done')]], {
      projectDir: dir,
      tools: builtinTools(),
      resume: loadSession(transcriptPath),
      permissions: { mode: 'default', rules: { allow: ['Bash(make)'] } },
    });
    const last = toolResults(result.messages).at(-1)!;
    expect(last.content).toContain('make runs Makefile, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it("counts a subagent's writes for its session, in this run and after a resume", async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const sessionId = randomUUID();
    const transcriptPath = path.join(tempProject(), `${sessionId}.jsonl`);
    const options = {
      projectDir: dir,
      tools: builtinTools(),
      agents: [GENERAL_PURPOSE],
      permissions: { mode: 'default' as const, rules: { allow: ['Write', 'Bash(make)'] } },
    };
    const model = new ScriptedModel([
      [toolUse('a1', 'Agent', { description: 'edit', prompt: 'SUB edit', subagent_type: 'general-purpose' })],
      {
        match: 'SUB',
        content: [
          toolUse('s1', 'Write', { file_path: path.join(dir, 'Makefile'), content: 'all:\n\ttouch pwned\n' }),
        ],
      },
      { match: 'SUB', content: [text('edited')] },
      [toolUse('t1', 'Bash', { command: 'make' })],
      [text('done')],
    ]);
    const first = await runAgent('go', { ...options, model, sessionId, transcriptPath });
    expect(toolResults(first.messages).at(-1)!.content).toContain(
      'make runs Makefile, which this session wrote',
    );
    const { result } = await scriptedRun([[toolUse('t2', 'Bash', { command: 'make' })], [text('done')]], {
      ...options,
      resume: loadSession(transcriptPath),
    });
    expect(toolResults(result.messages).at(-1)!.content).toContain(
      'make runs Makefile, which this session wrote',
    );
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('refuses in dontAsk with the same words', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const { results } = await session(dir, [write(dir, 'Makefile', 'all:\n\ttouch pwned\n'), bash('make')], {
      allow: ['Write', 'Bash(make)'],
      mode: 'dontAsk',
    });
    expect(results[1]!.content).toContain('make runs Makefile, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('is not lifted by a PermissionRequest hook: only a person has read the file', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const hooks = new HookEngine();
    hooks.on('PermissionRequest', () => ({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    }));
    const { results } = await scriptedRun(
      [
        [toolUse('t1', 'Write', { file_path: path.join(dir, 'Makefile'), content: 'all:\n\ttouch pwned\n' })],
        [toolUse('t2', 'Bash', { command: 'make' })],
        [text('done')],
      ],
      {
        projectDir: dir,
        tools: builtinTools(),
        transcript: false,
        hooks,
        permissions: { mode: 'default', rules: { allow: ['Write', 'Bash(make)'] } },
      },
    ).then((run) => ({ results: toolResults(run.result.messages) }));
    expect(results[1]!.content).toContain('make runs Makefile, which this session wrote');
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });
});

describe('session taint: each program of the table, after the model wrote what it runs', () => {
  // [file the model writes, command, the allow rule, the program named in the question]
  const CASES: readonly [string, string, string, string][] = [
    ['build.sh', 'bash build.sh', 'Bash(bash build.sh)', 'bash'],
    ['run.sh', './run.sh', 'Bash(./run.sh)', './run.sh'],
    ['src/a.test.ts', 'npx vitest run', 'Bash(npx vitest:*)', 'npx'],
    ['vitest.config.ts', 'npm run test:unit', 'Bash(npm run:*)', 'npm'],
    ['tests/conftest.py', 'python3 -m pytest', 'Bash(python3 -m pytest)', 'python3'],
    ['setup.py', 'pip install -e .', 'Bash(pip install:*)', 'pip'],
    ['build.rs', 'cargo test', 'Bash(cargo test:*)', 'cargo'],
    ['pkg/a_test.go', 'go test ./...', 'Bash(go test:*)', 'go'],
    ['lib/x.js', 'node --require ./lib/x.js main.js', 'Bash(node:*)', 'node'],
    ['rules.mk', 'cd sub && make', 'Bash', 'make'],
  ];
  it.each(CASES)('%s, then %s', async (file, command, rule, program) => {
    const dir = tempProject({
      'package.json': JSON.stringify({ scripts: { 'test:unit': 'vitest run' } }),
      'sub/Makefile': 'include ../rules.mk\n',
    });
    const { results } = await session(dir, [write(dir, file, 'touch pwned\n'), bash(command)], {
      allow: ['Write', rule, 'Bash(make)'],
    });
    expect(results[1]!.content).toContain(`${program} runs ${file}, which this session wrote`);
    expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
  });
});

describe('session taint: what keeps working', () => {
  it('runs npm test when the model did not edit what it runs', async () => {
    const dir = tempProject({ 'package.json': PACKAGE('touch ran') });
    const { results } = await session(dir, [write(dir, 'notes.md', 'hello'), bash('npm test')], {
      allow: ['Write', 'Bash(npm test)'],
    });
    expect(results[1]!.isError).toBe(false);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
  });

  it('after a person approves once, runs again without asking until the file is written again', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const approver = countingApprover();
    const { results } = await session(
      dir,
      [
        write(dir, 'Makefile', 'all:\n\ttouch ran\n'),
        bash('make'),
        bash('make'),
        write(dir, 'Makefile', 'all:\n\ttouch again\n'),
        bash('make'),
      ],
      { allow: ['Write', 'Bash(make)'], approver },
    );
    expect(results.map((result) => result.isError)).toEqual([false, false, false, false, false]);
    expect(approver.asked.map((request) => request.message)).toEqual([
      'make runs Makefile, which this session wrote; approve once to trust it.',
      'make runs Makefile, which this session wrote; approve once to trust it.',
    ]);
    expect(fs.existsSync(path.join(dir, 'again'))).toBe(true);
  });

  it('runs an allowed script twice: running a program is not writing the files it names', async () => {
    const dir = tempProject({ 'check.js': 'require("fs").appendFileSync("ran", "x")' });
    const approver = countingApprover();
    const { results } = await session(dir, [bash('node check.js'), bash('node check.js')], {
      allow: ['Bash(node check.js)'],
      approver,
    });
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(approver.asked).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'ran'), 'utf8')).toBe('xx');
  });

  it('is off in bypassPermissions, where every command runs', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttrue\n' });
    const { results } = await session(dir, [write(dir, 'Makefile', 'all:\n\ttouch ran\n'), bash('make')], {
      allow: ['Bash(make)'],
      mode: 'bypassPermissions',
    });
    expect(results[1]!.isError).toBe(false);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
  });

  it('does not count a file the program does not read: make after editing a source file', async () => {
    const dir = tempProject({ Makefile: 'all:\n\ttouch ran\n' });
    const { results } = await session(dir, [write(dir, 'src/main.c', 'int main(){}'), bash('make')], {
      allow: ['Write', 'Bash(make)'],
    });
    expect(results[1]!.isError).toBe(false);
    expect(fs.existsSync(path.join(dir, 'ran'))).toBe(true);
  });
});

describe('session taint: command hooks that run what the model wrote', () => {
  // The scripts a hook names are hookloop configuration, which the model cannot write; the workspace
  // tooling a hook runs (`make check`, `npm run lint`) is not, and is reported.
  it('are named on the PermissionDecision event, and still run', () => {
    const dir = tempProject({ Makefile: 'check:\n\ttrue\n', 'src/a.txt': 'a\n' });
    writeJson(dir, 'settings.json', {
      permissions: { allow: ['Write'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'make -s -C "$CLAUDE_PROJECT_DIR" check' }],
          },
        ],
        PermissionDecision: [{ hooks: [{ type: 'command', command: '(cat; echo) >> decisions.jsonl' }] }],
      },
    });
    writeJson(dir, 'turns.json', [
      [
        toolUse('t1', 'Write', {
          file_path: path.join(dir, 'Makefile'),
          content: 'check:\n\ttouch hook-ran\n',
        }),
      ],
      [toolUse('t2', 'Bash', { command: 'cat src/a.txt' })],
      [text('done')],
    ]);
    const run = runCli(['-p', 'go', '--settings', 'settings.json', '--model-script', 'turns.json'], dir);
    expect(run.status, run.stderr).toBe(0);
    const decisions = fs
      .readFileSync(path.join(dir, 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const bashDecision = decisions.find((decision) => decision['tool_use_id'] === 't2');
    expect(bashDecision).toMatchObject({
      decision: 'allow',
      hook_tainted_files: [
        { hook: 'make -s -C "$CLAUDE_PROJECT_DIR" check', files: [path.join(dir, 'Makefile')] },
      ],
    });
    expect(decisions.find((decision) => decision['tool_use_id'] === 't1')).not.toHaveProperty(
      'hook_tainted_files',
    );
    expect(fs.existsSync(path.join(dir, 'hook-ran'))).toBe(true);
  });
});
