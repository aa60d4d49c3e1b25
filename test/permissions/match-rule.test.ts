import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  matchCommandPattern,
  matchesAll,
  matchesAny,
  matchesCondition,
  matchesRule,
} from '../../src/permissions/match-rule.js';

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-match-')));
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

const bash = (command: string) => ({ command });
const file = (relative: string) => ({ file_path: path.join(ws, relative), content: 'x' });

describe('hook `if` conditions', () => {
  const rows: [string, string[], string[]][] = [
    ['Bash(git *)', ['echo hi && git --version'], ['ls', 'echo $(rm -f nothing.txt)']],
    ['Bash(echo *)', ['echo hi && git --version', 'echo $(rm -f nothing.txt)'], ['ls']],
    ['Bash(rm *)', ['echo $(rm -f nothing.txt)'], ['ls', 'echo hi && git --version']],
  ];
  for (const [rule, ran, skipped] of rows) {
    for (const command of ran)
      it(`${rule} matches ${command}`, async () =>
        expect(await matchesAny(rule, 'Bash', bash(command), ws, ws)).toBe(true));
    for (const command of skipped)
      it(`${rule} does not match ${command}`, async () =>
        expect(await matchesAny(rule, 'Bash', bash(command), ws, ws)).toBe(false));
  }

  it.each([
    ['Write(*.md)', 'notes.md', true],
    ['Write(*.md)', 'src/x.ts', false],
    ['Write(src/**)', 'src/x.ts', true],
    ['Write(src/**)', 'notes.md', false],
    ['Write', 'notes.md', true],
    ['Write', 'src/x.ts', true],
  ])('%s on a Write of %s → %s', async (rule, relative, expected) => {
    expect(await matchesAny(rule, 'Write', file(relative), ws, ws)).toBe(expected);
  });

  it('matchesCondition is the any flavour, and a malformed condition lets the hook run', async () => {
    expect(await matchesCondition('Bash(git *)', 'Bash', bash('echo hi && git --version'), ws, ws)).toBe(
      true,
    );
    expect(await matchesCondition('Bash(git *)', 'Bash', bash('ls'), ws, ws)).toBe(false);
    expect(await matchesCondition('Bash(git *', 'Bash', bash('ls'), ws, ws)).toBe(true);
    expect(await matchesCondition('Write', 'Bash', bash('ls'), ws, ws)).toBe(false);
  });

  it('an unparsable command matches any rule of its tool (the hook runs), and no allow rule', async () => {
    expect(await matchesAny('Bash(git *)', 'Bash', bash('echo "unterminated'), ws, ws)).toBe(true);
    expect(await matchesAll('Bash(echo *)', 'Bash', bash('echo "unterminated'), ws, ws)).toBe(false);
    // A bare `Bash` allow rule no longer covers an unparsable command: only a person or bypassPermissions runs it.
    expect(await matchesAll('Bash', 'Bash', bash('echo "unterminated'), ws, ws)).toBe(false);
  });
});

describe('Bash specifiers', () => {
  it.each([
    ['npm test', 'npm test', true],
    ['npm test', 'npm  test', true],
    ['npm test', 'npm test --watch', false],
    ['git:*', 'git', true],
    ['git:*', 'git status', true],
    ['git:*', 'gitk', false],
    ['npm run test:*', 'npm run test --grep x', true],
    ['npm run test:*', 'npm run testing', false],
    ['git commit *', 'git commit -m x', true],
    ['git commit *', 'git commit', true],
    ['git commit *', 'git push', false],
    ['ls *', 'lsof', false],
    ['ls*', 'lsof', true],
    ['git * main', 'git push origin main', true],
    ['git * main', 'git push origin dev', false],
    ['* --version', 'node --version', true],
    ['echo \\*', 'echo *', true],
    ['echo \\*', 'echo x', false],
  ])('%s vs %s → %s', (specifier, text, expected) => {
    expect(matchCommandPattern(specifier, text)).toBe(expected);
  });

  it('compares words with and without their quotes', async () => {
    expect(
      await matchesAny('Bash(git commit -m "fix it")', 'Bash', bash('git commit -m "fix it"'), ws, ws),
    ).toBe(true);
    expect(await matchesAny('Bash(rm -rf *)', 'Bash', bash('"rm" -rf x'), ws, ws)).toBe(true);
  });

  it('an allow rule must match every subcommand; deny/ask match any', async () => {
    expect(await matchesAll('Bash(git:*)', 'Bash', bash('git status && rm -rf x'), ws, ws)).toBe(false);
    expect(await matchesAll('Bash(git:*)', 'Bash', bash('git status && git diff'), ws, ws)).toBe(true);
    expect(await matchesAll('Bash(echo *)', 'Bash', bash('echo $(rm x)'), ws, ws)).toBe(false);
    expect(await matchesAny('Bash(rm:*)', 'Bash', bash('git status && rm -rf x'), ws, ws)).toBe(true);
  });

  it('matches with output redirections left out', async () => {
    expect(await matchesAll('Bash(python:*)', 'Bash', bash('python script.py > output.txt'), ws, ws)).toBe(
      true,
    );
  });

  it('looks through wrappers; deny rules also through env, sudo, xargs and assignments', async () => {
    expect(await matchesAll('Bash(npm test)', 'Bash', bash('timeout 60 npm test'), ws, ws)).toBe(true);
    expect(await matchesAny('Bash(rm:*)', 'Bash', bash('sudo rm -rf x'), ws, ws)).toBe(true);
    expect(await matchesAny('Bash(rm:*)', 'Bash', bash('find . | xargs -0 rm'), ws, ws)).toBe(true);
    expect(await matchesAny('Bash(rm:*)', 'Bash', bash('FOO=1 rm x'), ws, ws)).toBe(true);
    expect(
      await matchesAll('Bash(npm test)', 'Bash', bash('NODE_OPTIONS=--require=evil npm test'), ws, ws),
    ).toBe(false);
    expect(await matchesAny('Bash(rm:*)', 'Bash', bash('bash -c "rm x"'), ws, ws)).toBe(true);
  });
});

describe('tool names', () => {
  it('Edit(...) covers every edit tool and Read(...) every read tool', async () => {
    expect(await matchesAny('Edit(src/**)', 'Write', file('src/a.ts'), ws, ws)).toBe(true);
    expect(await matchesAny('Edit', 'MultiEdit', file('a.ts'), ws, ws)).toBe(true);
    expect(
      await matchesAny(
        'Read(./secrets/**)',
        'Grep',
        { pattern: 'x', path: path.join(ws, 'secrets/keys') },
        ws,
        ws,
      ),
    ).toBe(true);
    expect(
      await matchesAny('Read(./secrets/**)', 'Glob', { pattern: '*' }, path.join(ws, 'secrets'), ws),
    ).toBe(true);
    expect(await matchesAny('Write(*.md)', 'Edit', file('a.md'), ws, ws)).toBe(false);
    expect(await matchesAny('Edit(*.md)', 'Read', file('a.md'), ws, ws)).toBe(false);
  });

  it('a custom tool takes its kind from the options', async () => {
    expect(
      await matchesAny('Edit(*.md)', 'Scribble', { target: 'x' }, ws, ws, {
        kind: 'edit',
        filePaths: [path.join(ws, 'a.md')],
      }),
    ).toBe(true);
  });

  it('mcp__server and mcp__server__* cover the server; mcp__server__tool is exact', async () => {
    expect(await matchesAny('mcp__oracle', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('mcp__oracle__*', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('mcp__oracle__echo', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('mcp__oracle__echo', 'mcp__oracle__other', {}, ws, ws)).toBe(false);
    expect(await matchesAny('mcp__oracle', 'mcp__oraclex__echo', {}, ws, ws)).toBe(false);
  });

  it('a * in the tool part of an MCP rule is a wildcard; the server part is literal and regex text is inert (Claude Code 2.1.328)', async () => {
    expect(await matchesAny('mcp__oracle__ech*', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('mcp__oracle__*o', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('mcp__oracle__ech*', 'mcp__oracle__fetch', {}, ws, ws)).toBe(false);
    expect(await matchesAny('mcp__*', 'mcp__oracle__echo', {}, ws, ws)).toBe(false);
    expect(await matchesAny('mcp__oracle__.*', 'mcp__oracle__echo', {}, ws, ws)).toBe(false);
    // mcp__x__t(*) allows nothing, as in Claude Code, but still denies.
    expect(await matchesAll('mcp__oracle__echo(*)', 'mcp__oracle__echo', {}, ws, ws)).toBe(false);
    expect(await matchesAny('mcp__oracle__echo(*)', 'mcp__oracle__echo', {}, ws, ws)).toBe(true);
    expect(await matchesAny('Bash', 'BashOutput', {}, ws, ws)).toBe(false);
  });

  it('WebFetch(domain:…) matches the URL host', async () => {
    expect(
      await matchesAny('WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com/a' }, ws, ws),
    ).toBe(true);
    expect(
      await matchesAny(
        'WebFetch(domain:example.com)',
        'WebFetch',
        { url: 'https://evil.com/example.com' },
        ws,
        ws,
      ),
    ).toBe(false);
    expect(
      await matchesAny(
        'WebFetch(domain:*.example.com)',
        'WebFetch',
        { url: 'https://docs.example.com/' },
        ws,
        ws,
      ),
    ).toBe(true);
    expect(await matchesAny('WebFetch(domain:example.com)', 'WebFetch', { url: 'not a url' }, ws, ws)).toBe(
      false,
    );
    // As Claude Code 2.1.328 reads them: a wildcard covers subdomains only, case and a trailing dot do not count, `*` is every host.
    expect(
      await matchesAny('WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://example.com/' }, ws, ws),
    ).toBe(false);
    expect(
      await matchesAny(
        'WebFetch(domain:*.example.com)',
        'WebFetch',
        { url: 'https://evilexample.com/' },
        ws,
        ws,
      ),
    ).toBe(false);
    expect(
      await matchesAny('WebFetch(domain:Example.COM)', 'WebFetch', { url: 'https://example.com./a' }, ws, ws),
    ).toBe(true);
    expect(
      await matchesAny('WebFetch(domain:*)', 'WebFetch', { url: 'https://anything.example.org/' }, ws, ws),
    ).toBe(true);
    expect(await matchesAll('KillShell', 'TaskStop', { task_id: 'b1' }, ws, ws)).toBe(true);
  });
});

describe('path specifiers', () => {
  const home = path.join(ws, 'home');
  const at = (specifier: string, target: string, cwd = ws) =>
    matchesRule(`Read(${specifier})`, 'Read', { file_path: target }, cwd, ws, { homeDir: home });

  it('anchors //abs, ~/x, /x (project dir) and ./x or x/y (cwd or project dir)', async () => {
    expect(await at(`/${ws}/secrets/**`, path.join(ws, 'secrets/a'))).toBe(true);
    expect(await at('~/notes/**', path.join(home, 'notes/a.txt'))).toBe(true);
    expect(await at('~/notes/**', path.join(ws, 'notes/a.txt'))).toBe(false);
    expect(await at('/src/**/*.ts', path.join(ws, 'src/deep/a.ts'), path.join(ws, 'other'))).toBe(true);
    expect(await at('./src/*.ts', path.join(ws, 'sub/src/a.ts'), path.join(ws, 'sub'))).toBe(true);
    expect(await at('src/*.ts', path.join(ws, 'src/a.ts'))).toBe(true);
    expect(await at('src/*.ts', '/elsewhere/src/a.ts')).toBe(false);
  });

  it('a name without a slash matches anywhere, and a matched directory covers its contents', async () => {
    expect(await at('.env', path.join(ws, 'deep/dir/.env'))).toBe(true);
    expect(await at('*.env', '/tmp/x.env')).toBe(true);
    expect(await at('./secrets', path.join(ws, 'secrets/deep/key.pem'))).toBe(true);
    expect(await at('secrets/', path.join(ws, 'a/secrets/key.pem'))).toBe(true);
  });

  it('follows symlinks: a link into a denied directory is caught', async () => {
    fs.mkdirSync(path.join(ws, 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'secrets/key'), 'k');
    fs.symlinkSync(path.join(ws, 'secrets/key'), path.join(ws, 'innocent'));
    expect(await at('./secrets/**', path.join(ws, 'innocent'))).toBe(true);
    expect(
      await matchesAll('Read(./innocent)', 'Read', { file_path: path.join(ws, 'innocent') }, ws, ws),
    ).toBe(false);
  });
});
