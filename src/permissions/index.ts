/**
 * The permission policy's face: Claude Code rule syntax, the policy that orders rules, hooks and
 * modes, and the headless and callback approvers. The Bash reader it judges lives in `src/shell/`;
 * the terminal approver in `src/cli/`.
 */
export { parseRule, formatRule, type PermissionRule } from './rule.js';
export {
  matchesRule,
  matchesAny,
  matchesAll,
  matchesCondition,
  matchCommandPattern,
  toolNameMatches,
  type MatchFlavour,
  type MatchOptions,
} from './match-rule.js';
export { PermissionPolicy, ruleForCall, type PermissionPolicyOptions } from './policy.js';
export { headlessApprover, callbackApprover } from './plain-approvers.js';
export * from './types.js';
