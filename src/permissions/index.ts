/** Permissions: Claude Code rule syntax, Bash command reading, the policy that orders rules, hooks and modes, and approvers. */
export { parseRule, formatRule, type PermissionRule } from './rule.js';
export { parseBashCommand, readBashCommand, type ParsedBashCommand, type SimpleCommand, type ShellWord, type OutputRedirection } from '../shell/index.js';
export { matchesRule, matchesAny, matchesAll, matchesCondition, matchCommandPattern, toolNameMatches, type MatchFlavour, type MatchOptions } from './match-rule.js';
export { classifyBashCommand, GENERIC_BASH_REASON, type BashClassification, type BashWrite, type PathPlace } from '../shell/index.js';
export { isReadOnlyCommandLine } from '../shell/index.js';
export { READ_ONLY_PROGRAMS, READ_ONLY_GIT, type ProgramFlags } from '../shell/index.js';
export { PermissionPolicy, ruleForCall, type PermissionPolicyOptions } from './policy.js';
export { headlessApprover, callbackApprover, ttyApprover, renderInput } from './approvers.js';
export * from './types.js';
