import { ConfigError } from '../errors.js';

/**
 * One permission rule in Claude Code syntax, parsed: `Bash` → `{ toolName: 'Bash' }`,
 * `Bash(npm test)` → `{ toolName: 'Bash', specifier: 'npm test' }`. `text` is the rule as written.
 * A specifier of `*` or an empty one (`Bash(*)`, `Bash()`) means the whole tool, like `Bash`.
 */
export interface PermissionRule {
  readonly toolName: string;
  readonly specifier?: string;
  readonly text: string;
}

// MCP rules are taken as Claude Code takes them: any text after `mcp__` (a `*` in the tool part is
// a wildcard; other characters can never match a normalised name, so such a rule is inert, not an error).
const TOOL_NAME = /^(?:[A-Za-z0-9_-]+(?:__\*)?|mcp__[^\s()]+)$/;
const EXAMPLES =
  'Tool or Tool(specifier), e.g. Bash, Bash(npm test), Bash(git:*), Read(./secrets/**), mcp__server__tool';

/**
 * Parses one rule string: `Tool` or `Tool(specifier)`. Inside the specifier, `\(` and `\)` stand for
 * literal parentheses; unescaped ones must balance (parentheses inside quotes are not counted, so
 * `Bash(echo ")")` is fine). Tool names are letters, digits, `_` and `-`; an MCP server wildcard
 * ends in `__*` (`mcp__server__*`).
 *
 * @param field where the rule came from, for the error (e.g. `permissions.deny[0]`).
 * @throws ConfigError naming the rule and what was expected, for an empty tool name, unbalanced
 *   parentheses, text after the closing parenthesis, or a tool name with other characters.
 */
export function parseRule(rule: string, field?: string): PermissionRule {
  const text = rule.trim();
  const fail = (problem: string): never => {
    const where = field ? `${field}: ` : '';
    throw new ConfigError(
      `${where}invalid permission rule ${JSON.stringify(rule)}: ${problem}; expected ${EXAMPLES}`,
      field ? { field } : {},
    );
  };
  const open = findUnescaped(text, '(');
  if (open < 0) {
    if (findUnescaped(text, ')') >= 0) fail('")" without "("');
    if (text === '') fail('empty tool name');
    if (!TOOL_NAME.test(text))
      fail(`tool name ${JSON.stringify(text)} has characters other than letters, digits, "_" and "-"`);
    return { toolName: text, text };
  }
  const toolName = text.slice(0, open).trim();
  if (toolName === '') fail('empty tool name');
  if (!TOOL_NAME.test(toolName))
    fail(`tool name ${JSON.stringify(toolName)} has characters other than letters, digits, "_" and "-"`);
  if (!text.endsWith(')') || text.endsWith('\\)'))
    fail('unbalanced parentheses: the specifier must end with ")"');
  const inner = text.slice(open + 1, -1);
  if (!balanced(inner)) fail('unbalanced parentheses in the specifier');
  const specifier = inner.replace(/\\([()])/g, '$1').trim();
  if (specifier === '' || specifier === '*') return { toolName, text };
  return { toolName, specifier, text };
}

/**
 * The rule text for `toolName` with `specifier`, escaping parentheses so that `parseRule` gives the
 * specifier back; `*` is escaped too (`\*`), so a command like `ls *.txt` stays an exact rule.
 */
export function formatRule(toolName: string, specifier?: string): string {
  if (specifier === undefined) return toolName;
  return `${toolName}(${specifier.replace(/[()*]/g, (char) => `\\${char}`)})`;
}

function findUnescaped(text: string, char: string): number {
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === char) return index;
  }
  return -1;
}

/** True when the unescaped parentheses outside quotes balance. */
function balanced(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}
