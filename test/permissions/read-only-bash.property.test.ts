import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinTools, PermissionPolicy, Workspace } from '../../src/index.js';
import { READ_ONLY_GIT, READ_ONLY_PROGRAMS } from '../../src/shell/read-only-programs.js';
import { bashCommandLine, externalPrograms, HOSTILE_FLAGS } from '../support/bash-command-arbitrary.js';
import { BwrapProbe, bwrapUnavailable, OUTSIDE_CANARY, readOnlyFixture } from '../support/bwrap-probe.js';

// Property: every command the classifier calls read-only, run for real
// with bash in a read-only bubblewrap sandbox, neither writes nor starts a program outside the
// read-only list (see test/support/bwrap-probe.ts for how both are detected), nor prints what lies
// only outside the workspace (a canary reached by paths, `cd`, links and /proc/self/environ).
// HOOKLOOP_BASH_FUZZ_RUNS sets how many commands are generated (default 400; the bench uses
// thousands), HOOKLOOP_BASH_FUZZ_SEED replays a failing seed.

const RUNS = Number(process.env['HOOKLOOP_BASH_FUZZ_RUNS'] ?? 400);
const SEED = Number(process.env['HOOKLOOP_BASH_FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const unavailable = bwrapUnavailable();
if (unavailable) console.warn(`read-only Bash property skipped: ${unavailable}`);

// The wrappers and git run for real; every other name in the program directories is a tripwire.
const ALLOWED = [...Object.keys(READ_ONLY_PROGRAMS), 'git', 'timeout', 'nice'];
const BASH = builtinTools().find((tool) => tool.name === 'Bash');

/** Whether the policy runs `command` unasked in default mode with no rules: what the property is about. */
async function autoAllowed(command: string, caseDir: string, workspace: Workspace): Promise<boolean> {
  if (!BASH) throw new Error('no Bash tool');
  const policy = new PermissionPolicy({
    rules: { allow: [], ask: [], deny: [] },
    mode: 'default',
    workspace,
    projectDir: caseDir,
    homeDir: '/tmp/home',
  });
  return (await policy.evaluate({ tool: BASH, input: { command }, cwd: caseDir })).behavior === 'allow';
}

describe.skipIf(unavailable !== undefined)('read-only Bash, run in a read-only bubblewrap sandbox', () => {
  let probe: BwrapProbe | undefined;
  afterAll(() => probe?.dispose());

  it('the sandbox itself catches writes (also swallowed ones) and forbidden programs', async () => {
    probe ??= new BwrapProbe(ALLOWED, readOnlyFixture);
    const [sortOutput, touch, hidden, readOnly, erofs] = await probe.run([
      'sort -o out.txt f 2>/dev/null',
      'touch x 2>/dev/null',
      'find . -maxdepth 0 -exec sh -c true \\;',
      'git status && ls -la && grep -rn foo .',
      'echo x > /etc/hookloop-probe',
    ]);
    expect(sortOutput?.writes).toContain('/tmp/case/out.txt');
    expect(touch?.forbiddenPrograms).toEqual(['/usr/bin/touch']);
    expect(hidden?.forbiddenPrograms).toEqual(['/usr/bin/sh']);
    expect(erofs?.writes).toContain('EROFS');
    expect(readOnly).toMatchObject({ writes: [], forbiddenPrograms: [] });
    expect(readOnly?.output).toContain('file:1:foo');
  }, 60_000);

  it('every program of the list with every flag that writes or executes: what is read-only stays so when run', async () => {
    probe ??= new BwrapProbe(ALLOWED, readOnlyFixture);
    const workspace = new Workspace(probe.caseDir);
    const programs = [
      ...externalPrograms(new Set(probe.bound)).map(([name]) => name),
      ...Object.keys(READ_ONLY_GIT).map((sub) => `git ${sub}`),
    ];
    // A value-taking flag gets `pwn` as its value; `--long=value` spellings carry their own.
    const commands = programs.flatMap((program) =>
      HOSTILE_FLAGS.map((flag) =>
        flag.startsWith('--') && !flag.includes('=')
          ? `${program} ${flag}=pwn f`
          : `${program} ${flag} pwn f`,
      ),
    );
    const readOnly: string[] = [];
    for (const command of commands) {
      if (await autoAllowed(command, probe.caseDir, workspace)) readOnly.push(command);
    }
    const results = await probe.runAll(readOnly);
    const violations = results.filter(
      (result) => result.writes.length > 0 || result.forbiddenPrograms.length > 0,
    );
    expect(
      violations.map(({ command, writes, forbiddenPrograms }) => ({ command, writes, forbiddenPrograms })),
    ).toEqual([]);
  }, 300_000);

  it(`no command classified read-only writes or starts another program (${RUNS} generated, seed ${SEED})`, async () => {
    probe ??= new BwrapProbe(ALLOWED, readOnlyFixture);
    const workspace = new Workspace(probe.caseDir);
    const usable = new Set(probe.bound);
    const commands = fc.sample(bashCommandLine(usable), { numRuns: RUNS, seed: SEED });
    const readOnly: string[] = [];
    for (const command of commands) {
      if (await autoAllowed(command, probe.caseDir, workspace)) readOnly.push(command);
    }
    const results = await probe.runAll(readOnly);
    console.info(
      `read-only Bash property: ${readOnly.length} of ${RUNS} generated commands were read-only and ran in the sandbox (seed ${SEED})`,
    );
    const violations = results.filter(
      (result) =>
        result.writes.length > 0 ||
        result.forbiddenPrograms.length > 0 ||
        result.output.includes(OUTSIDE_CANARY),
    );
    expect(
      violations.map(({ command, writes, forbiddenPrograms, output }) => ({
        command,
        writes,
        forbiddenPrograms,
        output: output.slice(0, 300),
      })),
      `seed ${SEED}`,
    ).toEqual([]);
    // The grammar must reach the read-only side often enough for the property to mean something.
    expect(
      readOnly.length,
      `only ${readOnly.length} of ${RUNS} generated commands were read-only`,
    ).toBeGreaterThan(RUNS / 10);
  }, 600_000);
});
