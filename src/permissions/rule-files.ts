import type { PermissionRule } from './rule.js';
import type { PolicyCause } from './types.js';

type Behavior = 'allow' | 'ask' | 'deny';

/**
 * Where each rule of a policy came from — a settings file, `--allowedTools`, `session` for a rule
 * added during the session — so a verdict can name the file of the rule that decided it (the
 * PermissionDecision event's `rule.file`). Keyed by the parsed rule object, so two rules with the
 * same text from two files are told apart.
 */
export class RuleFiles {
  private readonly files = new Map<PermissionRule, string>();

  /** Records `sources[list][i]` as the file of `lists[list][i]`; missing entries are simply not recorded. */
  constructor(
    lists: Readonly<Record<Behavior, readonly PermissionRule[]>>,
    sources: Partial<Record<Behavior, readonly (string | undefined)[]>> | undefined,
  ) {
    for (const list of ['allow', 'ask', 'deny'] as const) {
      lists[list].forEach((rule, index) => {
        const file = sources?.[list]?.[index];
        if (file !== undefined) this.files.set(rule, file);
      });
    }
  }

  /** Records `file` as the origin of `rule` (a session rule: `session`). */
  set(rule: PermissionRule, file: string): void {
    this.files.set(rule, file);
  }

  /** The `rule` cause of a verdict that `rule` of `list` decided, with its file when known. */
  cause(list: Behavior, rule: PermissionRule): PolicyCause {
    const file = this.files.get(rule);
    return { kind: 'rule', list, rule: rule.text, ...(file !== undefined ? { file } : {}) };
  }
}
