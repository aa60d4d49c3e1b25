import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBashCommand } from '../../src/shell/bash-command.js';

async function commands(command: string): Promise<string[][]> {
  const parsed = await parseBashCommand(command);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.commands.map((simple) => [...simple.words]);
}

describe('parseBashCommand', () => {
  it('splits lists, pipes and subshells into simple commands', async () => {
    expect(await commands('echo hi && git --version')).toEqual([
      ['echo', 'hi'],
      ['git', '--version'],
    ]);
    expect(await commands('a || b; c & d | e |& f')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f']]);
    expect(await commands('ls | grep x; (cd a && rm -rf b)')).toEqual([
      ['ls'],
      ['grep', 'x'],
      ['cd', 'a'],
      ['rm', '-rf', 'b'],
    ]);
    expect(await commands('{ echo a; echo b; }\necho c')).toEqual([
      ['echo', 'a'],
      ['echo', 'b'],
      ['echo', 'c'],
    ]);
  });

  it('finds the commands inside $(…), backticks, process substitution, ${…} and $((…))', async () => {
    expect(await commands('echo $(rm -f x)')).toEqual([
      ['rm', '-f', 'x'],
      ['echo', '$(rm -f x)'],
    ]);
    expect(await commands('echo `touch y` "$(id)"')).toEqual([
      ['touch', 'y'],
      ['id'],
      ['echo', '`touch y`', '$(id)'],
    ]);
    expect(await commands('diff <(ls a) >(tee b)')).toEqual([
      ['ls', 'a'],
      ['tee', 'b'],
      ['diff', '<(ls a)', '>(tee b)'],
    ]);
    // The output of `$(seq 1)` is evaluated as arithmetic (it could name `a[$(cmd)]`): a stand-in with a computed program comes first.
    expect(await commands('echo ${x:-$(date)} $((1 + $(seq 1)))')).toEqual([
      ['date'],
      ['$((1 + $(seq 1)))'],
      ['seq', '1'],
      ['echo', '${x:-$(date)}', '$((1 + $(seq 1)))'],
    ]);
  });

  it('does not look inside single quotes or quoted here-documents, but does inside unquoted ones', async () => {
    expect(await commands("echo '$(rm x)'")).toEqual([['echo', '$(rm x)']]);
    expect(await commands("cat <<'EOF'\n$(rm x)\nEOF")).toEqual([['cat']]);
    expect(await commands('cat <<EOF\n$(rm x)\nEOF\necho after')).toEqual([
      ['cat'],
      ['rm', 'x'],
      ['echo', 'after'],
    ]);
  });

  it('reads compound commands and function bodies', async () => {
    expect(await commands('if [ -f x ]; then rm x; elif true; then :; else touch z; fi')).toEqual([
      ['[', '-f', 'x', ']'],
      ['rm', 'x'],
      ['true'],
      [':'],
      ['touch', 'z'],
    ]);
    expect(await commands('for f in *.txt; do mv "$f" b; done')).toEqual([['mv', '$f', 'b']]);
    expect(await commands('while read l; do echo "$l"; done < in.txt')).toEqual([
      ['read', 'l'],
      ['echo', '$l'],
    ]);
    expect(await commands('case $x in a|b) rm a;; *) echo no;; esac')).toEqual([
      ['rm', 'a'],
      ['echo', 'no'],
    ]);
    expect(await commands('f() { rm -rf /tmp/x; }; f')).toEqual([['rm', '-rf', '/tmp/x'], ['f']]);
    expect(await commands('[[ -n "$(id)" && $x =~ ^(a|b)$ ]] && echo ok')).toEqual([['id'], ['echo', 'ok']]);
  });

  it('reads the script of bash -c and eval', async () => {
    expect(await commands('bash -c "rm -rf x && echo y"')).toEqual([
      ['bash', '-c', 'rm -rf x && echo y'],
      ['rm', '-rf', 'x'],
      ['echo', 'y'],
    ]);
    expect(await commands("eval 'touch a'")).toEqual([
      ['eval', 'touch a'],
      ['touch', 'a'],
    ]);
  });

  it('removes quotes from words, keeps the source, and separates assignments', async () => {
    const parsed = await parseBashCommand('FOO=1 git commit -m "fix: a (b)" # comment');
    expect(parsed.ok && parsed.commands[0]).toMatchObject({
      words: ['git', 'commit', '-m', 'fix: a (b)'],
      assignments: ['FOO=1'],
      text: 'FOO=1 git commit -m "fix: a (b)"',
    });
    expect(parsed.ok && parsed.commands[0]?.argv[3]).toEqual({
      value: 'fix: a (b)',
      source: '"fix: a (b)"',
      dynamic: false,
    });
  });

  it('reports output redirections with their targets, skipping fd duplication and input', async () => {
    const parsed = await parseBashCommand(
      'echo hi 2>&1 >&2 < in.txt &> all.log >> "app log" 2>/dev/null; { echo a; } > group.txt',
    );
    expect(parsed.ok && parsed.redirections).toEqual([
      { operator: '>', target: 'all.log', dynamic: false },
      { operator: '>>', target: 'app log', dynamic: false },
      { operator: '>', target: '/dev/null', dynamic: false },
      { operator: '>', target: 'group.txt', dynamic: false },
    ]);
    const dynamic = await parseBashCommand('echo > "$HOME/x"');
    expect(dynamic.ok && dynamic.redirections[0]).toEqual({
      operator: '>',
      target: '$HOME/x',
      dynamic: true,
    });
  });

  it('marks words the shell expands', async () => {
    const parsed = await parseBashCommand('rm *.txt {a,b} ~/x [ab] plain "q*"');
    expect(parsed.ok && parsed.commands[0]?.argv.map((word) => word.dynamic)).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('reports unparsable input instead of throwing', async () => {
    for (const command of ['echo "unterminated', 'if then', 'a &&', 'echo $(']) {
      const parsed = await parseBashCommand(command);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.error).toMatch(/^not valid Bash: /);
    }
  });

  it('gives no commands for an empty or comment-only line', async () => {
    expect(await commands('')).toEqual([]);
    expect(await commands('# just a comment')).toEqual([]);
  });
});

describe('parseBashCommand properties', () => {
  const simple = fc.constantFrom('ls', 'git status', 'rm -rf x', 'echo "a b"', "touch 'c d'", 'npm test');
  const wrap = (inner: fc.Arbitrary<string>) =>
    fc
      .tuple(
        inner,
        fc.constantFrom(
          '$(%)',
          '`%`',
          '(%)',
          '{ %; }',
          'echo $(%)',
          'if true; then %; fi',
          'for x in 1; do %; done',
          '<(%)',
        ),
      )
      .map(([command, shape]) => shape.replace('%', command));
  const joined = fc.array(fc.oneof(simple, wrap(simple)), { minLength: 1, maxLength: 4 }).chain((parts) =>
    fc
      .array(fc.constantFrom(' && ', ' || ', '; ', ' | ', '\n'), {
        minLength: parts.length - 1,
        maxLength: parts.length - 1,
      })
      .map((operators) =>
        parts.map((part, index) => (index === 0 ? part : `${operators[index - 1] ?? ''}${part}`)).join(''),
      ),
  );

  it('finds every simple command of a generated compound command', async () => {
    await fc.assert(
      fc.asyncProperty(joined, async (command) => {
        const parsed = await parseBashCommand(command);
        expect(parsed.ok).toBe(true);
        const found = parsed.ok ? parsed.commands.map((entry) => entry.words.join(' ')) : [];
        for (const expected of ['ls', 'git status', 'rm -rf x', 'echo a b', 'touch c d', 'npm test']) {
          if (command.includes(expected.replace('a b', '"a b"').replace('c d', "'c d'")))
            expect(found).toContain(expected);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads whatever sh-syntax accepts, and never throws', async () => {
    const token = fc.constantFrom(
      'echo',
      'x',
      '"q $(id) q"',
      "'s'",
      '$(',
      ')',
      '(',
      '`',
      '{',
      '}',
      ';',
      '&&',
      '|',
      '>',
      '>>',
      '2>&1',
      '<<<',
      'if',
      'then',
      'fi',
      'do',
      'done',
      'case',
      'in',
      'esac',
      ';;',
      '$x',
      '${y:-z}',
      '$((1+2))',
      '[[',
      ']]',
      '\n',
      '#c',
      '\\\n',
      'a=(1 2)',
      'f()',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(token, { maxLength: 12 }).map((tokens) => tokens.join(' ')),
        async (command) => {
          const parsed = await parseBashCommand(command);
          if (!parsed.ok) expect(parsed.error).toMatch(/^not valid Bash: /);
        },
      ),
      { numRuns: 250 },
    );
  });
});
