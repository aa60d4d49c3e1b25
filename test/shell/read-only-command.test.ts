import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyBashCommand } from '../../src/shell/index.js';
import { Workspace } from '../../src/index.js';

// How the read-only rule reads words and flags (see docs/security.md): a command is
// read-only only when its text leaves Bash nothing to expand and every flag is listed in full.

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-roc-')));
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));
const workspace = new Workspace(ws);
const readOnly = async (command: string, cwd = ws) =>
  (await classifyBashCommand(command, { cwd, workspace, homeDir: path.join(ws, 'home') })).readOnly;

describe('the read-only rule', () => {
  it.each([
    ['combined short flags, each listed', 'ls -laht src'],
    ['ps with its default columns', 'ps && ps -e && ps -p 1'],
    ['a checksum of a named file', 'sha256sum f'],
    ['a value attached to a short flag', 'head -n5 f && tail -c 10 f && grep -A3 -e foo f'],
    ['long flags with = and with the next word', 'grep --max-count=2 --context 3 foo f'],
    ['optional values only with =', 'ls --color=never && git diff --stat=80'],
    ['a numeric count', 'git log -3 && head -5 f'],
    ['quoted words of every literal kind', `grep -e 'a b' -e "c d" -e e\\ f -- -x`],
    ['a # and a ~ inside a word', 'git show HEAD~2 && echo a#b'],
    ['a $ that cannot start an expansion, in single quotes', "grep -E 'x$|y$' f"],
    ['-- ends the flags', 'cat -- -o --output'],
    ['descriptor copies and /dev/null', 'ls 2>&1 >/dev/null | wc -l'],
    ['input from a file', 'wc -l < f'],
    ['wrappers around a read-only command', 'timeout 5 nice -n 2 command ls'],
    ['printenv of a name without secrets', 'printenv HOME PATH'],
    ['test with literal operands', '[ -f f ] && test 1 -eq 1'],
    ['newlines between commands', 'pwd\nls\n'],
  ])('%s: %s', async (_, command) => {
    expect(await readOnly(command)).toBe(true);
  });

  it.each([
    ['an abbreviated long flag (GNU would expand it)', 'sort --out=x f'],
    ['an abbreviation of a listed flag', 'grep --ignore foo f'],
    ['an unknown flag', 'ls --frobnicate'],
    ['a value given to a flag that takes none', 'ls --all=yes'],
    ['a combined short flag with one unlisted letter', 'sort -no x f'],
    ['a flag that writes, combined', 'sort -ro out f'],
    ['a flag after the operands (GNU permutes)', 'sort f -o out'],
    ['a flag that runs a program', 'git diff --ext-diff'],
    ['a tilde Bash expands', 'ls ~/x'],
    ['a tilde after = in an argument', 'echo a=~'],
    ['an unquoted glob', 'ls *.ts'],
    ['brace expansion', 'echo {a,b}'],
    ['a $ in double quotes', 'echo "$HOME"'],
    ['a $ that starts an expansion in single quotes', "grep '$(id)' f"],
    ['a backquote even in single quotes', "echo '`id`'"],
    ['ANSI-C quoting', "echo $'a'"],
    ['a carriage return', 'ls\r'],
    ['a control character in quotes', "echo 'a\u0001'"],
    ['a line continuation', 'ls \\\n-la'],
    ['a comment', 'ls # x'],
    ['a subshell', '(ls)'],
    ['a group', '{ ls; }'],
    ['a background command', 'ls & pwd'],
    ['a here-string', 'cat <<< x'],
    ['an assignment', 'x=1'],
    ['an assignment that changes a program', 'PAGER=sh git log'],
    ['an output file', 'ls > out'],
    ['/dev/tcp', 'cat < /dev/tcp/127.0.0.1/80'],
    ['a program by path', '/bin/ls'],
    ['env and xargs', 'env ls'],
    ['xargs', 'xargs ls'],
    ['printenv of everything', 'printenv'],
    ['printenv of another name', 'printenv AWS_SECRET_ACCESS_KEY'],
    ['jq reading the environment', 'jq -n env'],
    ['echo after a trailing operator', 'ls &&'],
    ['uniq with an output operand', 'uniq a b'],
    ['date setting the clock', 'date 0101000000'],
    ['git with -C', 'git -C .. status'],
    ['git after cd', 'cd .. && git status'],
    ['git branch creating a branch', 'git branch x'],
    ['a git format that verifies signatures (starts gpg)', 'git log --format=%G?'],
    ['ps showing the environments of processes', 'ps e'],
    ['ps showing every command line (what /proc/*/cmdline holds)', 'ps aux'],
    ['ps -ef (full format: arguments)', 'ps -ef'],
    ['ps -o args', 'ps -o pid,args'],
    ['sha256sum -c reading the files its list names', 'sha256sum -c sums.txt'],
  ])('%s is not read-only: %s', async (_, command) => {
    expect(await readOnly(command)).toBe(false);
  });

  it('git is not read-only in a directory that is itself a bare repository', async () => {
    const bare = path.join(ws, 'bare');
    for (const dir of ['objects', 'refs']) fs.mkdirSync(path.join(bare, dir), { recursive: true });
    fs.writeFileSync(path.join(bare, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(bare, 'config'), '[core]\n\tfsmonitor = touch pwned\n');
    expect(await readOnly('git status', bare)).toBe(false);
    expect(await readOnly('ls', bare)).toBe(true);
  });
});
