/** What the loop tells the outside: the events observers hear, who decided a call, and compaction's settings and outcome. */
export {
  compactionThresholds,
  PROMPT_TOO_LONG,
  type CompactionOptions,
  type CompactionOutcome,
} from './compaction.js';
export type { RunEvent, RunObserver } from './run-events.js';
export type { DecidingHook, PermissionDecisionRecord } from './permission-decision/record.js';
