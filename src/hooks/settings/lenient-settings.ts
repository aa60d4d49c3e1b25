import { ConfigError } from '../../errors.js';
import { parseRule } from '../../permissions/rule.js';
import { HOOK_EVENT_NAMES, isHookEventName, REFERENCE_ONLY_EVENTS } from '../event-names.js';
import { compileMatcher } from '../matcher.js';
import { closestName } from './closest-name.js';
import { describeValue, formatPath, valueAt } from './settings-path.js';
import { handlerConfigSchema, settingsFileSchema, type SettingsFile } from './settings-schema.js';

/**
 * How a run reads one settings file: as Claude Code 2.1.328 does, an entry it cannot read is left
 * out and the rest of the file still counts, so one stale rule in a published project does not
 * disable that project's hooks. `hooks validate` keeps reporting the same entries as errors.
 *
 * Measured on the reference (user, project and `--settings` files alike):
 * - left out alone: a permission rule that does not parse or is not a string; `hooks` that is not
 *   an object; an event that is unknown or whose value is not an array; a matcher group without a
 *   `hooks` array; a matcher that is not a valid regex; a handler that fails its schema (unknown
 *   `type`, no `command`, `timeout: "5"`, `once: "yes"`, not an object).
 * - the whole file left out: JSON that does not parse, a top level that is not an object, and a
 *   known key of the wrong type (`permissions` or one of its lists not an array, an unknown
 *   `defaultMode`, `disableAllHooks: "yes"`, `sandbox: "x"`, a matcher that is not a string).
 *
 * Deliberately stricter than the reference, because a deny or ask rule guards something: an
 * unreadable deny or ask rule whose tool name can still be read (`Write:*`, `Bash(rm -rf`) becomes
 * a rule for that whole tool; one that names no tool at all stops the run (ConfigError). The deny
 * and ask rules of a file left out as a whole still count, read the same way.
 */

/** One file read leniently: `settings` is undefined when the whole file is left out. */
export interface LenientSettings {
  readonly settings: SettingsFile | undefined;
  /** The readable deny/ask rules of a file left out as a whole (empty lists otherwise). */
  readonly guardRules: { readonly deny: readonly string[]; readonly ask: readonly string[] };
  /** One line per entry left out, each starting with the file label and the field. */
  readonly warnings: readonly string[];
  /**
   * `handlerIndexes[event][group][i]`: the index in the file of the i-th handler kept in that group,
   * so messages still name the handler's place in the file. A group left out stays as an empty group.
   */
  readonly handlerIndexes: Readonly<Record<string, readonly (readonly number[])[]>>;
}

const GUARD_LISTS = ['deny', 'ask'] as const;

/**
 * Reads parsed JSON `data` of the file labelled `fileLabel` (see the file comment for what is left out).
 *
 * @throws ConfigError when a deny or ask rule names no tool that could be refused instead.
 */
export function readSettingsLeniently(data: unknown, fileLabel: string): LenientSettings {
  const warnings: string[] = [];
  const warn: Warn = (segments, text, outcome = 'ignored') => {
    warnings.push(`${fileLabel}: ${formatPath(segments)}: ${text}; ${outcome}`);
  };
  if (!isObject(data)) {
    warnings.push(
      `${fileLabel}: expected a JSON object, got ${describeValue(data)}; the whole file is ignored`,
    );
    return { settings: undefined, guardRules: { deny: [], ask: [] }, warnings, handlerIndexes: {} };
  }
  const cleaned: Record<string, unknown> = { ...data };
  const permissions = cleaned['permissions'];
  if (isObject(permissions)) cleaned['permissions'] = cleanPermissions(permissions, fileLabel, warn);
  const handlerIndexes: Record<string, number[][]> = {};
  if ('hooks' in cleaned) {
    const hooks = cleanHooks(cleaned['hooks'], warn, handlerIndexes);
    if (hooks === undefined) delete cleaned['hooks'];
    else cleaned['hooks'] = hooks;
  }
  const parsed = settingsFileSchema.safeParse(cleaned);
  if (parsed.success)
    return { settings: parsed.data, guardRules: { deny: [], ask: [] }, warnings, handlerIndexes };
  const issue = parsed.error.issues[0];
  const field = issue === undefined ? '' : formatPath(issue.path);
  const got = issue === undefined ? '' : `, got ${describeValue(valueAt(cleaned, issue.path))}`;
  // A sandbox the user asked for but that cannot be read is not dropped: running without it would be
  // less safe than what the file asks for, so the run stops (fails closed) where the reference drops the file.
  if (issue?.path[0] === 'sandbox')
    throw new ConfigError(`${fileLabel}: ${field}: expected ${issue.message}${got}`, {
      file: fileLabel,
      field,
    });
  warnings.push(
    `${fileLabel}: ${field === '' ? '' : `${field}: `}expected ${issue?.message ?? 'valid settings'}${got}; the whole file is ignored (its deny and ask rules still count)`,
  );
  const kept = isObject(cleaned['permissions']) ? cleaned['permissions'] : {};
  const guardRules = { deny: stringList(kept['deny']), ask: stringList(kept['ask']) };
  return { settings: undefined, guardRules, warnings, handlerIndexes: {} };
}

type Warn = (segments: readonly PropertyKey[], text: string, outcome?: string) => void;

function cleanPermissions(
  permissions: Record<string, unknown>,
  fileLabel: string,
  warn: Warn,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...permissions };
  for (const list of ['allow', ...GUARD_LISTS] as const) {
    const rules = permissions[list];
    if (rules === undefined) continue;
    // A guard list the reference cannot read drops the whole file there; here it stops the run.
    if (!Array.isArray(rules) && list !== 'allow')
      throw unreadableGuard(fileLabel, ['permissions', list], describeValue(rules));
    if (!Array.isArray(rules)) continue;
    const kept: string[] = [];
    rules.forEach((rule: unknown, index) => {
      const segments = ['permissions', list, index];
      const guard = list !== 'allow';
      if (typeof rule !== 'string') {
        if (guard) throw unreadableGuard(fileLabel, segments, describeValue(rule));
        warn(segments, `expected a rule string, got ${describeValue(rule)}`);
        return;
      }
      if (rule.trim() === '') {
        warn(segments, 'an empty rule names no tool');
        return;
      }
      try {
        parseRule(rule);
        kept.push(rule);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        if (!guard) {
          warn(segments, `${JSON.stringify(rule)} is not a valid rule`);
          return;
        }
        const tool = readableToolName(rule);
        if (tool === undefined) throw unreadableGuard(fileLabel, segments, JSON.stringify(rule));
        const instead =
          list === 'deny' ? `every ${tool} call is refused instead` : `every ${tool} call asks instead`;
        warn(
          segments,
          `${JSON.stringify(rule)} is not a valid rule`,
          `not ignored, since it guards: ${instead}`,
        );
        kept.push(tool);
      }
    });
    out[list] = kept;
  }
  return out;
}

/** The tool name at the start of a rule that does not parse (`Write:*` → `Write`), when it is one. */
function readableToolName(rule: string): string | undefined {
  const name = /^\s*([A-Za-z0-9_-]+)/.exec(rule)?.[1];
  if (name === undefined) return undefined;
  try {
    return parseRule(name).toolName;
  } catch {
    return undefined;
  }
}

function unreadableGuard(fileLabel: string, segments: readonly PropertyKey[], got: string): ConfigError {
  const field = formatPath(segments);
  return new ConfigError(
    `${fileLabel}: ${field}: cannot read ${got} as a rule, and a ${String(segments[1])} rule is not ignored; expected Tool or Tool(specifier), e.g. Bash(rm:*)`,
    { file: fileLabel, field },
  );
}

/** `hooks` with every unreadable event, group and handler left out; undefined when `hooks` itself is unreadable. */
function cleanHooks(
  hooks: unknown,
  warn: Warn,
  handlerIndexes: Record<string, number[][]>,
): Record<string, unknown> | undefined {
  if (!isObject(hooks)) {
    warn(['hooks'], `expected an object mapping event names to matcher groups, got ${describeValue(hooks)}`);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const known = isHookEventName(event) || (REFERENCE_ONLY_EVENTS as readonly string[]).includes(event);
    if (!known) {
      const close = closestName(event, [...HOOK_EVENT_NAMES, ...REFERENCE_ONLY_EVENTS]);
      warn(
        ['hooks', event],
        `unknown hook event ${JSON.stringify(event)}${close === undefined ? '' : ` (did you mean ${close}?)`}`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      warn(['hooks', event], `expected an array of matcher groups, got ${describeValue(groups)}`);
      continue;
    }
    const indexes: number[][] = [];
    out[event] = groups.map((group: unknown, groupIndex) => {
      const kept = cleanGroup(group, [event, groupIndex], warn);
      indexes.push(kept.indexes);
      return kept.group;
    });
    handlerIndexes[event] = indexes;
  }
  return out;
}

/** The group with its unreadable handlers left out (an unreadable group becomes an empty one), and the kept handlers' indexes. */
function cleanGroup(
  group: unknown,
  at: readonly PropertyKey[],
  warn: Warn,
): { group: unknown; indexes: number[] } {
  const empty = { group: { hooks: [] }, indexes: [] };
  const segments = ['hooks', ...at];
  if (!isObject(group) || !Array.isArray(group['hooks'])) {
    warn(
      isObject(group) ? [...segments, 'hooks'] : segments,
      `expected ${isObject(group) ? 'an array of hook handlers' : 'an object with "hooks"'}, got ${describeValue(isObject(group) ? group['hooks'] : group)}`,
    );
    return empty;
  }
  // A matcher that is not a string fails the whole file (as in the reference): the schema reports it.
  const matcher = group['matcher'];
  if (typeof matcher === 'string') {
    try {
      compileMatcher(matcher);
    } catch (error) {
      warn([...segments, 'matcher'], error instanceof Error ? error.message : String(error));
      return empty;
    }
  }
  const handlers: unknown[] = [];
  const indexes: number[] = [];
  (group['hooks'] as unknown[]).forEach((handler, handlerIndex) => {
    const parsed = handlerConfigSchema.safeParse(handler);
    if (parsed.success) {
      handlers.push(handler);
      indexes.push(handlerIndex);
      return;
    }
    const issue = parsed.error.issues[0];
    const where = [...segments, 'hooks', handlerIndex, ...(issue?.path ?? [])];
    warn(
      where,
      `expected ${issue?.message ?? 'a hook handler'}, got ${describeValue(valueAt(handler, issue?.path ?? []))}`,
    );
  });
  return { group: { ...group, hooks: handlers }, indexes };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
