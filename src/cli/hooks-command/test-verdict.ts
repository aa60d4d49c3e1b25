import { mergePostModelResponse, mergePreModelRequest, mergePreToolSelection, mergePromptRewrite } from '../../hooks/extension-merge.js';
import type { HandlerOutcome } from '../../hooks/handler.js';
import { mergeBlocking, mergeCommon, mergePermissionRequest, mergePostToolUse, mergePreToolUse, mergeSessionStart } from '../../hooks/merge.js';

/**
 * The merged decision `hooks test` reports: the event's own reduction from merge.ts (the one the
 * loop applies), plus one word for it and whether it refuses what the event is about.
 */

/**
 * - `decision`: PreToolUse `deny`/`defer`/`ask`/`allow`, PermissionRequest `deny`/`allow`, `block`
 *   for events that block, `none` when no hook decided anything.
 * - `refuses`: the decision blocks or denies (`hooks test` then exits 1).
 * - `merged`: the reduction itself (contexts, updatedInput, blocks, stop, systemMessages, …).
 */
export interface TestVerdict {
  readonly decision: string;
  readonly reason?: string;
  readonly refuses: boolean;
  readonly merged: Readonly<Record<string, unknown>>;
}

/** Events whose hooks can block (exit 2 or `decision: "block"`), per spec §3–§4. */
const BLOCKING_EVENTS: ReadonlySet<string> = new Set(['UserPromptSubmit', 'PostToolBatch', 'Stop', 'SubagentStop', 'ConfigChange', 'TaskCompleted', 'PreCompact', 'UserPromptExpansion']);

/** Reduces `outcomes` (in merge order) as the loop does for `event`. */
export function mergeForTest(event: string, outcomes: readonly HandlerOutcome[]): TestVerdict {
  if (event === 'PreToolUse') {
    const merged = mergePreToolUse(outcomes);
    return { decision: merged.decision ?? 'none', ...(merged.reason !== undefined ? { reason: merged.reason } : {}), refuses: merged.decision === 'deny', merged: { ...merged } };
  }
  if (event === 'PermissionRequest') {
    const merged = mergePermissionRequest(outcomes);
    return { decision: merged.behavior ?? 'none', ...(merged.message !== undefined ? { reason: merged.message } : {}), refuses: merged.behavior === 'deny', merged: { ...merged } };
  }
  if (event === 'PostToolUse' || BLOCKING_EVENTS.has(event)) {
    const merged = event === 'PostToolUse' ? mergePostToolUse(outcomes) : mergeBlocking(outcomes, event);
    const first = merged.blocks[0];
    // UserPromptSubmit's hookloop extension: `updatedPrompt` (and Claude Code's suppressOriginalPrompt).
    const rewrite = event === 'UserPromptSubmit' ? mergePromptRewrite(outcomes) : undefined;
    const decision = first !== undefined ? 'block' : rewrite?.updatedPrompt !== undefined ? 'rewrite' : 'none';
    return { decision, ...(first !== undefined ? { reason: merged.blocks.map((block) => block.reason).join('\n') } : {}), refuses: first !== undefined, merged: { ...merged, ...rewrite } };
  }
  const model = modelCallVerdict(event, outcomes);
  if (model !== undefined) return model;
  const merged = event === 'SessionStart' ? mergeSessionStart(outcomes) : mergeCommon(outcomes);
  return { decision: 'none', refuses: false, merged: { ...merged } };
}

/**
 * hookloop's model-call events: `answer` (a synthetic response: no request), `rewrite` (the
 * request or the answer changed), `narrow` (fewer tools offered), else `none`. They never refuse.
 */
function modelCallVerdict(event: string, outcomes: readonly HandlerOutcome[]): TestVerdict | undefined {
  if (event === 'PreModelRequest') {
    const merged = mergePreModelRequest(outcomes);
    const rewrites = merged.updatedSystem !== undefined || merged.updatedMessages !== undefined || merged.updatedModel !== undefined || merged.updatedMaxTokens !== undefined || merged.contexts.length > 0;
    return { decision: merged.syntheticResponse !== undefined ? 'answer' : rewrites ? 'rewrite' : 'none', refuses: false, merged: { ...mergeCommon(outcomes), ...merged } };
  }
  if (event === 'PreToolSelection') {
    const merged = mergePreToolSelection(outcomes);
    return { decision: merged.allowedTools !== undefined ? 'narrow' : 'none', refuses: false, merged: { ...mergeCommon(outcomes), ...merged, ...(merged.allowedTools ? { allowedTools: [...merged.allowedTools] } : {}) } };
  }
  if (event === 'PostModelResponse') {
    const merged = mergePostModelResponse(outcomes);
    const changes = merged.updatedText !== undefined || merged.dropToolCalls.size > 0;
    return { decision: changes ? 'rewrite' : 'none', refuses: false, merged: { ...mergeCommon(outcomes), ...merged, dropToolCalls: [...merged.dropToolCalls] } };
  }
  return undefined;
}
