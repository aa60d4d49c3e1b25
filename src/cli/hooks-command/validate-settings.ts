import { ConfigError, describeError } from '../../errors.js';
import { isHookEventName, REFERENCE_ONLY_EVENTS } from '../../hooks/event-names.js';
import { closestName } from '../../hooks/settings/closest-name.js';
import { formatPath } from '../../hooks/settings/load-settings.js';
import { parseRule } from '../../permissions/rule.js';
import { KNOWN_SETTINGS_KEYS } from './settings-keys.js';
import type { ValidationProblem } from './validation-problem.js';

/**
 * `hooks validate`'s checks of a settings document outside `hooks`: top-level keys that are not
 * settings keys (a warning, with the likely name), every permission rule a run would refuse (an
 * error naming `permissions.<list>[i]`), and the settings a run accepts with a warning
 * (`defaultMode: "auto"`, a `hookConcurrency` limit for an event hookloop does not fire).
 * `root` is the parsed document; `file` labels the problems. Never throws.
 */
export function settingsProblems(root: Readonly<Record<string, unknown>>, file: string): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const add = (severity: ValidationProblem['severity'], segments: readonly PropertyKey[], message: string) =>
    problems.push({ severity, file, path: formatPath(segments), message });
  for (const key of Object.keys(root)) {
    // Event names at the top level already have their own error (they belong under "hooks").
    if (
      KNOWN_SETTINGS_KEYS.includes(key) ||
      isHookEventName(key) ||
      (REFERENCE_ONLY_EVENTS as readonly string[]).includes(key)
    )
      continue;
    const close = closestName(key, KNOWN_SETTINGS_KEYS);
    add(
      'warning',
      [key],
      `not a settings key${close === undefined ? '' : ` (did you mean ${close}?)`}; it is ignored`,
    );
  }
  const permissions = root['permissions'];
  if (isObject(permissions)) {
    for (const list of ['allow', 'ask', 'deny'] as const) {
      const rules = permissions[list];
      if (!Array.isArray(rules)) continue;
      rules.forEach((rule, index) => {
        if (typeof rule !== 'string') return; // the schema check reports it
        try {
          parseRule(rule, `permissions.${list}[${index}]`);
        } catch (error) {
          add(
            'error',
            ['permissions', list, index],
            error instanceof ConfigError
              ? error.message.replace(`permissions.${list}[${index}]: `, '')
              : describeError(error),
          );
        }
      });
    }
    if (permissions['defaultMode'] === 'auto')
      add(
        'warning',
        ['permissions', 'defaultMode'],
        'hookloop has no "auto" mode (it needs Claude Code\'s classifier); ignored',
      );
  }
  const concurrency = root['hookConcurrency'];
  if (isObject(concurrency)) {
    for (const event of Object.keys(concurrency)) {
      if (!isHookEventName(event))
        add(
          'warning',
          ['hookConcurrency', event],
          `hookloop does not fire ${JSON.stringify(event)}; its limit is ignored`,
        );
    }
  }
  return problems;
}

/** An http hook's `url` that cannot work: not a URL, or not http(s). Undefined when it is fine. */
export function httpUrlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined; // the schema check reports it
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL; expected an absolute http(s) URL such as http://127.0.0.1:8080/hooks`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${JSON.stringify(url)} is not an http(s) URL; expected one such as http://127.0.0.1:8080/hooks`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
