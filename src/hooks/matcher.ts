import { ConfigError, describeError } from '../errors.js';

/**
 * Matchers of Claude Code hook settings: the `matcher` of a matcher group, tested against
 * the tool name (tool events) or the event's own value (SessionStart `source`, StopFailure `error`, …).
 *
 * Forms, decided by the characters the matcher contains:
 * - omitted, `""` or `"*"`: matches every value;
 * - only ASCII letters, digits, `_`, `-`, space, `,` and `|`: a list of exact names split on `|`
 *   and `,`, each trimmed; case-sensitive (`Bash` ≠ `bash`; `Wri` does not match `Write`;
 *   `mcp__oracle` does not match `mcp__oracle__echo`); a list with no names (`" "`) matches nothing;
 * - anything else: a JavaScript regular expression without flags, tested anywhere in the value
 *   (`^Wr`, `Write.*`, `(Read)`, `.*`, `mcp__.*__echo`).
 */

/** A matcher turned into a predicate; `kind` says which form it was read as (for `hooks list`). */
export interface CompiledMatcher {
  readonly source: string | undefined;
  readonly kind: 'all' | 'names' | 'regex';
  test(value: string): boolean;
}

/** Where a matcher came from, so a ConfigError can name it (e.g. file + `hooks.PreToolUse[0].matcher`). */
export interface MatcherLocation {
  readonly file?: string;
  readonly field?: string;
}

const EXACT_NAMES = /^[A-Za-z0-9_\- ,|]+$/;
// Matchers come from a handful of settings files, so the cache stays small; the cap only guards
// against a caller that builds matchers from data.
const CACHE_LIMIT = 1000;
const cache = new Map<string, CompiledMatcher>();

const MATCH_ALL: CompiledMatcher = { source: undefined, kind: 'all', test: () => true };

/**
 * Compiles `matcher` once (results are cached by matcher text).
 *
 * @throws ConfigError when the matcher is read as a regex and JavaScript rejects it; the one-line
 * message names the matcher and the regex error, prefixed with `location` when given
 * (`<file>: <field>: invalid matcher "(": Invalid regular expression: /(/: Unterminated group`).
 */
export function compileMatcher(matcher: string | undefined, location: MatcherLocation = {}): CompiledMatcher {
  if (matcher === undefined || matcher === '' || matcher === '*')
    return matcher === undefined ? MATCH_ALL : { ...MATCH_ALL, source: matcher };
  const cached = cache.get(matcher);
  if (cached) return cached;
  const compiled = EXACT_NAMES.test(matcher) ? compileNames(matcher) : compileRegex(matcher, location);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(matcher, compiled);
  return compiled;
}

/**
 * True when `matcher` selects `value` (see the forms above).
 *
 * @throws ConfigError for an invalid regex; settings loaded by `loadSettings` were already checked,
 * so this only throws for matchers that skipped `compileMatcher`.
 */
export function matcherMatches(matcher: string | undefined, value: string): boolean {
  return compileMatcher(matcher).test(value);
}

function compileNames(matcher: string): CompiledMatcher {
  const names = new Set(
    matcher
      .split(/[|,]/)
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
  return { source: matcher, kind: 'names', test: (value) => names.has(value) };
}

function compileRegex(matcher: string, location: MatcherLocation): CompiledMatcher {
  let regex: RegExp;
  try {
    regex = new RegExp(matcher);
  } catch (error) {
    const where = [location.file, location.field].filter((part) => part !== undefined).join(': ');
    const message = `invalid matcher ${JSON.stringify(matcher)}: ${describeError(error)}`;
    throw new ConfigError(where === '' ? message : `${where}: ${message}`, { ...location, cause: error });
  }
  // No `g`/`y` flag, so `test` keeps no state between calls and one RegExp can be shared.
  return { source: matcher, kind: 'regex', test: (value) => regex.test(value) };
}
