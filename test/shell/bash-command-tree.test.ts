import { describe, expect, it } from 'vitest';
import { parseBashCommand, readBashCommand } from '../../src/shell/bash-command.js';

// Where tree-sitter-bash's tree differs from how Bash reads a command, parseBashCommand must
// still find every command and output redirection Bash would, or report the command unreadable.

async function commands(command: string): Promise<string[][]> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.commands.map((simple) => [...simple.words]);
}

async function failure(command: string): Promise<string> {
  const parsed = await parseBashCommand(command);
  return parsed.ok ? 'parsed' : parsed.error;
}

describe('parseBashCommand where tree-sitter-bash differs from Bash', () => {
  it('ends a backquoted command at the first unescaped backquote', async () => {
    expect(await commands('echo `a` `b`')).toEqual([['a'], ['b'], ['echo', '`a`', '`b`']]);
    expect(await commands('`ls`\n`rm x`')).toEqual([['ls'], ['`ls`'], ['rm', 'x'], ['`rm x`']]);
    expect(await commands('echo ` rm x`; echo `id # note` y')).toEqual([
      ['rm', 'x'],
      ['echo', '` rm x`'],
      ['id'],
      ['echo', '`id # note`', 'y'],
    ]);
    expect(await commands('echo `echo \\`rm x\\``')).toEqual([
      ['rm', 'x'],
      ['echo', '`rm x`'],
      ['echo', '`echo \\`rm x\\``'],
    ]);
    expect(await failure('echo `id')).toMatch(/^not valid Bash: /);
  });

  it('reads backquoted commands in unquoted here-documents', async () => {
    expect(await commands('cat <<EOF\n`rm y` $(id)\nEOF')).toEqual([['cat'], ['id'], ['rm', 'y']]);
    expect(await commands("cat <<'EOF'\n`rm y`\nEOF")).toEqual([['cat']]);
  });

  it('takes > in [ … ] as a redirection', async () => {
    const parsed = await parseBashCommand('[ a > b ] && [ "$x" >>log ]');
    expect(parsed.ok && parsed.commands.map((simple) => simple.words)).toEqual([
      ['[', 'a', ']'],
      ['[', '$x', ']'],
    ]);
    expect(parsed.ok && parsed.redirections).toEqual([
      { operator: '>', target: 'b', dynamic: false },
      { operator: '>>', target: 'log', dynamic: false },
    ]);
  });

  it('gives a redirection after a pipeline or list to its last command', async () => {
    const parsed = await parseBashCommand('git log | head -5 > log.txt 2>&1');
    expect(parsed.ok && parsed.commands[1]).toMatchObject({
      text: 'head -5 > log.txt 2>&1',
      redirections: [{ operator: '>', target: 'log.txt', dynamic: false }],
    });
  });

  it('keeps the words after a redirection target and the - before a here-document', async () => {
    const parsed = await parseBashCommand('echo > a b');
    expect(parsed.ok && parsed.commands[0]).toMatchObject({
      words: ['echo', 'b'],
      redirections: [{ operator: '>', target: 'a', dynamic: false }],
    });
    expect(await commands("python3 - <<'EOF'\nprint(1)\nEOF")).toEqual([['python3', '-']]);
  });

  it('splits words tree-sitter-bash joins across a blank', async () => {
    expect(await commands('echo ] { x')).toEqual([['echo', ']', '{', 'x']]);
  });

  it('reads time and coproc as reserved words', async () => {
    expect(await commands('time -p git status; coproc rm -rf x')).toEqual([
      ['git', 'status'],
      ['rm', '-rf', 'x'],
    ]);
    expect(await commands('time time ls; time ! coproc rm y')).toEqual([['ls'], ['rm', 'y']]);
    expect(await commands('FOO=1 time ls')).toEqual([['time', 'ls']]);
    expect(await failure('time { rm x; }')).toMatch(/^hookloop could not read this command: /);
  });

  it('rejects what Bash rejects: a reserved word as program, ;; outside case', async () => {
    for (const command of ['fi', 'echo a; then rm x', 'x ;;', 'bash -c x; done']) {
      expect(await failure(command)).toMatch(/^not valid Bash: /);
    }
    // Inside `bash -c`, an unreadable script adds a stand-in whose program is computed (every deny rule matches it).
    expect(await commands('bash -c "fi"')).toEqual([['bash', '-c', 'fi'], ['bash -c "fi"']]);
  });

  it('reads assignments with redirections, declarations and translated strings', async () => {
    const parsed = await parseBashCommand('OUT=$(make) 2>/dev/null');
    expect(parsed.ok && parsed.commands.map((simple) => [simple.words, simple.assignments])).toEqual([
      [['make'], []],
      [[], ['OUT=$(make)']],
    ]);
    expect(await commands('export A="b c" PATH=/x; declare -a arr=(1 $(date))')).toEqual([
      ['export', 'A=b c', 'PATH=/x'],
      ['date'],
      ['declare', '-a', 'arr=(1 $(date))'],
    ]);
    const words = await parseBashCommand('echo $"hi $USER" $\'a\\tb\'');
    expect(words.ok && words.commands[0]?.argv.slice(1)).toEqual([
      { value: 'hi $USER', source: '$"hi $USER"', dynamic: true },
      { value: 'a\tb', source: "$'a\\tb'", dynamic: false },
    ]);
  });
});

describe('readBashCommand', () => {
  it('reads synchronously once parseBashCommand has loaded the parser', async () => {
    await parseBashCommand('true');
    const parsed = readBashCommand('ls && rm -f x');
    expect(parsed.ok && parsed.commands.map((simple) => simple.words)).toEqual([['ls'], ['rm', '-f', 'x']]);
  });
});
