import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/index.js';
import { formatRule, parseRule } from '../../src/permissions/rule.js';

describe('parseRule', () => {
  it.each([
    ['Bash', { toolName: 'Bash' }],
    ['Bash(npm test)', { toolName: 'Bash', specifier: 'npm test' }],
    ['Bash(git:*)', { toolName: 'Bash', specifier: 'git:*' }],
    ['Bash(git commit *)', { toolName: 'Bash', specifier: 'git commit *' }],
    ['Read(./secrets/**)', { toolName: 'Read', specifier: './secrets/**' }],
    ['Edit(src/**)', { toolName: 'Edit', specifier: 'src/**' }],
    ['Write', { toolName: 'Write' }],
    ['Write(*.md)', { toolName: 'Write', specifier: '*.md' }],
    ['mcp__server__tool', { toolName: 'mcp__server__tool' }],
    ['mcp__server', { toolName: 'mcp__server' }],
    ['mcp__server__*', { toolName: 'mcp__server__*' }],
    ['WebFetch(domain:example.com)', { toolName: 'WebFetch', specifier: 'domain:example.com' }],
    ['Bash(echo $(date))', { toolName: 'Bash', specifier: 'echo $(date)' }],
    ['Bash(echo ")")', { toolName: 'Bash', specifier: 'echo ")"' }],
    ['Bash(echo \\( x)', { toolName: 'Bash', specifier: 'echo ( x' }],
    ['  Bash(npm test)  ', { toolName: 'Bash', specifier: 'npm test' }],
  ])('parses %s', (text, expected) => {
    expect(parseRule(text)).toMatchObject(expected);
  });

  it('treats Bash(*) and Bash() as the whole tool', () => {
    expect(parseRule('Bash(*)').specifier).toBeUndefined();
    expect(parseRule('Bash()').specifier).toBeUndefined();
  });

  it('keeps the text as written', () => {
    expect(parseRule('Bash(git:*)').text).toBe('Bash(git:*)');
  });

  it.each([
    ['Bash(npm test', 'unbalanced parentheses'],
    ['Bash npm test)', '")" without "("'],
    ['(npm test)', 'empty tool name'],
    ['', 'empty tool name'],
    ['Bash(a))', 'unbalanced parentheses'],
    ['Bash(a) b', 'unbalanced parentheses'],
    ['Ba sh', 'has characters other than'],
  ])('rejects %j with a ConfigError naming the rule and what was expected', (text, problem) => {
    let error: unknown;
    try {
      parseRule(text, 'permissions.deny[0]');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(`permissions.deny[0]: invalid permission rule ${JSON.stringify(text)}`);
    expect(message).toContain(problem);
    expect(message).toContain('expected Tool or Tool(specifier)');
    expect((error as ConfigError).field).toBe('permissions.deny[0]');
  });
});

describe('formatRule', () => {
  it('escapes parentheses and stars so parseRule gives the command back', () => {
    const text = formatRule('Bash', 'echo "(" *.txt');
    expect(text).toBe('Bash(echo "\\(" \\*.txt)');
    expect(parseRule(text).specifier).toBe('echo "(" \\*.txt');
  });
});
