import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher, ConfigError, matcherMatches } from '../../src/index.js';

// Every matcher form Claude Code documents, observed in Claude Code 2.1.328 (matcher-forms,
// mcp-tools-and-matchers and the event-level scenarios).
const rows: Array<{ matcher: string | undefined; matches: string[]; misses: string[] }> = [
  { matcher: 'Bash', matches: ['Bash'], misses: ['Write', 'Read', 'bash', 'BashOutput'] },
  { matcher: 'bash', matches: [], misses: ['Bash'] },
  { matcher: 'Edit|Write', matches: ['Write', 'Edit'], misses: ['Bash', 'Read'] },
  { matcher: 'Edit, Write', matches: ['Write', 'Edit'], misses: ['Bash', 'Read'] },
  { matcher: '^Wr', matches: ['Write'], misses: ['Bash', 'Read'] },
  { matcher: 'Write.*', matches: ['Write'], misses: ['Bash', 'Read'] },
  { matcher: '(Read)', matches: ['Read'], misses: ['Bash', 'Write'] },
  { matcher: '.*', matches: ['Bash', 'Write', 'Read'], misses: [] },
  { matcher: 'Wri', matches: [], misses: ['Write'] },
  { matcher: 'ead', matches: [], misses: ['Read'] },
  { matcher: 'Bash|Read', matches: ['Bash', 'Read'], misses: ['Write'] },
  { matcher: '*', matches: ['Bash', 'Write', 'Read', 'mcp__oracle__echo'], misses: [] },
  { matcher: '', matches: ['Bash', 'Write', 'Read', 'mcp__oracle__echo'], misses: [] },
  { matcher: undefined, matches: ['Bash', 'Write', 'Read', 'mcp__oracle__echo'], misses: [] },
  { matcher: 'mcp__oracle__.*', matches: ['mcp__oracle__echo'], misses: ['Bash', 'mcp__other__echo'] },
  {
    matcher: 'mcp__.*__echo',
    matches: ['mcp__oracle__echo', 'mcp__other__echo'],
    misses: ['mcp__oracle__fail'],
  },
  { matcher: 'mcp__oracle__echo', matches: ['mcp__oracle__echo'], misses: ['mcp__oracle__fail'] },
  { matcher: 'mcp__oracle', matches: [], misses: ['mcp__oracle__echo'] },
  // Event-level matchers (SessionStart source, PreCompact trigger, SubagentStart agent type,
  // StopFailure error, Elicitation server, UserPromptExpansion command, FileChanged file, Setup trigger).
  { matcher: 'compact', matches: ['compact'], misses: ['startup'] },
  { matcher: 'auto', matches: ['auto'], misses: ['manual'] },
  { matcher: 'general-purpose', matches: ['general-purpose'], misses: ['Explore'] },
  { matcher: 'unknown', matches: ['unknown'], misses: ['invalid_request'] },
  { matcher: 'invalid_request', matches: [], misses: ['unknown'] },
  { matcher: 'oracle', matches: ['oracle'], misses: ['other'] },
  { matcher: 'greet', matches: ['greet'], misses: ['greeting'] },
  { matcher: 'watched.txt', matches: ['watched.txt', '/ws/watched.txt'], misses: ['other.txt'] },
  { matcher: 'init', matches: ['init'], misses: ['maintenance'] },
];

describe('matcherMatches', () => {
  for (const row of rows) {
    it(`${JSON.stringify(row.matcher) ?? 'omitted'} matches ${JSON.stringify(row.matches)}, not ${JSON.stringify(row.misses)}`, () => {
      for (const value of row.matches) expect(matcherMatches(row.matcher, value), value).toBe(true);
      for (const value of row.misses) expect(matcherMatches(row.matcher, value), value).toBe(false);
    });
  }

  it('reads a matcher of name characters as exact names and anything else as an unanchored regex', () => {
    expect(compileMatcher('Edit, Write').kind).toBe('names');
    expect(compileMatcher('a-b_c 1').kind).toBe('names');
    expect(compileMatcher('a.h').kind).toBe('regex');
    expect(matcherMatches('a.h', 'Bash')).toBe(true);
    expect(compileMatcher('*').kind).toBe('all');
    expect(compileMatcher(undefined).kind).toBe('all');
  });

  it('trims list entries and ignores empty ones; a list without names matches nothing', () => {
    expect(matcherMatches(' Edit |Write,, ', 'Edit')).toBe(true);
    expect(matcherMatches(' Edit |Write,, ', '')).toBe(false);
    expect(matcherMatches(' ', 'Bash')).toBe(false);
  });

  it('treats a name-only matcher as equality, for any name', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);
    fc.assert(
      fc.property(name, name, (matcher, value) => matcherMatches(matcher, value) === (matcher === value)),
    );
  });

  it('caches compiled matchers', () => {
    expect(compileMatcher('Write.*')).toBe(compileMatcher('Write.*'));
    expect(compileMatcher('Edit|Write')).toBe(compileMatcher('Edit|Write'));
  });
});

describe('compileMatcher validation', () => {
  it('throws a ConfigError naming the matcher and the regex error', () => {
    expect(() => compileMatcher('(Read')).toThrow(ConfigError);
    expect(() => compileMatcher('(Read')).toThrow(
      /^invalid matcher "\(Read": Invalid regular expression: .*Unterminated group/,
    );
  });

  it('prefixes the file and field when given', () => {
    let caught: unknown;
    try {
      compileMatcher('Bash|*', { file: '/p/.claude/settings.json', field: 'hooks.PreToolUse[2].matcher' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.message).toMatch(
      /^\/p\/\.claude\/settings\.json: hooks\.PreToolUse\[2\]\.matcher: invalid matcher "Bash\|\*": Invalid regular expression/,
    );
    expect(error.message).not.toContain('\n');
    expect(error.file).toBe('/p/.claude/settings.json');
    expect(error.field).toBe('hooks.PreToolUse[2].matcher');
  });

  it('makes matcherMatches throw for an invalid regex instead of silently matching nothing', () => {
    expect(() => matcherMatches('[', 'Bash')).toThrow(ConfigError);
  });
});
