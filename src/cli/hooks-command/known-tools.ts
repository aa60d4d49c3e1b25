/**
 * Tool names a matcher may mean: hookloop's built-in tools plus the other tools of Claude Code
 * 2.1.328 (and the tool lists of its traces), so that `bash` or `write` in a matcher
 * can be reported as the case typo it is. Matchers naming other tools are not questioned.
 */
export const KNOWN_TOOL_NAMES: readonly string[] = [
  'Bash',
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'LS',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Task',
  'TodoWrite',
  'TaskCreate',
  'TaskUpdate',
  'ExitPlanMode',
  'Skill',
  'ToolSearch',
  'StructuredOutput',
];
