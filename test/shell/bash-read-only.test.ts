import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyBashCommand, GENERIC_BASH_REASON } from '../../src/shell/index.js';
import { Workspace } from '../../src/index.js';

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-ro-')));
const home = path.join(ws, '..', 'home-of-test');
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));
const workspace = new Workspace(ws);
const classify = (command: string, cwd = ws) =>
  classifyBashCommand(command, { cwd, workspace, homeDir: home });
const inside = `The path is inside the working directories for this session ('${ws}'), and Claude Code asks before a shell command creates, changes or removes files there.`;

describe('classifyBashCommand', () => {
  it.each([
    'echo hi',
    'ls -la | grep x | wc -l',
    'cat a.txt && head -n 3 b.txt; pwd',
    'git status',
    'git log --oneline -5 && git diff HEAD~1',
    'git --no-pager show HEAD',
    'git branch',
    'git branch -a --list',
    'find . -name "*.ts" -type f',
    'echo hi > /dev/null 2>&1',
    'rg foo src',
    'sort a.txt | uniq -c',
    'date +%Y',
    'timeout 5 ls',
    'cd src && ls',
    "grep -n 'end$' notes.txt",
    'LC_ALL=C sort -k2 -n a.txt',
    'git log --oneline -5 HEAD~3',
  ])('%s is read-only', async (command) => {
    const result = await classify(command);
    expect(result.readOnly).toBe(true);
    expect(result.reason).toBeUndefined();
  });

  it.each([
    'npm install',
    'git commit -m x',
    'git branch new-feature',
    'git branch -D old',
    'git -c core.pager=evil log',
    'git diff --output=x.patch',
    'find . -exec rm {} ;',
    'sort -o out.txt in.txt',
    'env FOO=1 node x.js',
    'rg --pre ./evil foo',
    'echo $(npm install)',
    'PATH=. ls',
    './ls',
    '$CMD arg',
    'date -s 2020-01-01',
    // Not provable from the text alone (fail closed): expansions, [[ ]], the environment, git elsewhere.
    'x=1; echo $x',
    '[[ -f x ]] && echo yes',
    'env',
    'printenv',
    'git -C sub --no-pager show HEAD',
    'cd sub && git status',
  ])('%s needs approval', async (command) => {
    const result = await classify(command);
    expect(result.readOnly).toBe(false);
    expect(result.reason).toBe(GENERIC_BASH_REASON);
  });

  // These now name the path they write (sed -i edits x; find -delete removes .), so the reason is specific.
  it.each(['sed -i s/a/b/ x', 'find . -delete'])(
    '%s needs approval and names what it writes',
    async (command) => {
      const result = await classify(command);
      expect(result.readOnly).toBe(false);
      expect(result.reason).toMatch(/^(sed|rm) in '.*' needs approval/);
    },
  );

  it('explains an output redirection as Claude Code does (trace permission-request-print-mode)', async () => {
    const result = await classify('echo hi > out.txt');
    expect(result.reason).toBe(
      `Output redirection to '${path.join(ws, 'out.txt')}' needs approval. ${inside}`,
    );
    expect(result.editsInsideWorkspace).toBe(true);
  });

  it('explains mkdir as Claude Code does (trace rule-allow-vs-permission-request)', async () => {
    const result = await classify('mkdir newdir');
    expect(result.reason).toBe(`mkdir in '${path.join(ws, 'newdir')}' needs approval. ${inside}`);
    expect(result.editsInsideWorkspace).toBe(true);
  });

  it('resolves relative paths against cwd and tells an outside path', async () => {
    const result = await classify('touch ../elsewhere.txt');
    expect(result.reason).toBe(
      `touch in '${path.join(path.dirname(ws), 'elsewhere.txt')}' needs approval. The path is outside the working directories for this session ('${ws}').`,
    );
    expect(result.editsInsideWorkspace).toBe(false);
  });

  it('does not know where a path goes after cd, or through an expansion', async () => {
    expect((await classify('cd /tmp && touch x')).editsInsideWorkspace).toBe(false);
    expect((await classify('echo x > "$OUT"')).reason).toBe(
      "Output redirection to '$OUT' needs approval. hookloop cannot tell before the command runs which path this is.",
    );
    expect((await classify('rm *.log {a,b}')).editsInsideWorkspace).toBe(false);
  });

  it('counts file edits and read-only programs together for acceptEdits, but not other programs', async () => {
    expect((await classify('mkdir -p a/b && touch a/b/c && ls a')).editsInsideWorkspace).toBe(true);
    expect((await classify('mkdir a && npm install')).editsInsideWorkspace).toBe(false);
  });

  it('flags rm of a protected directory', async () => {
    expect((await classify('rm -rf /')).protectedRemovals).toEqual(['/']);
    expect((await classify('rm -rf ~')).protectedRemovals).toEqual([home]);
    expect((await classify('rm -rf $HOME/')).protectedRemovals).toEqual([home]);
    expect((await classify('rm -rf ./*')).protectedRemovals).toEqual([ws]);
    expect((await classify('rm -rf ..')).protectedRemovals).toEqual([path.dirname(ws)]);
    expect((await classify('rm -rf build')).protectedRemovals).toEqual([]);
  });

  it('an unparsable command is never read-only', async () => {
    expect(await classify('echo "unterminated')).toMatchObject({
      parsed: false,
      readOnly: false,
      reason: GENERIC_BASH_REASON,
    });
  });
});
