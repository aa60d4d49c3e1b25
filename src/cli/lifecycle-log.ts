import type { PermissionDecisionRecord } from '../loop/permission-decision/record.js';
import type { RunEvent, RunObserver } from '../loop/run-events.js';

/**
 * The `--verbose` lifecycle log, one line per step on the given writer (stderr in the CLI):
 * `[Hook] PreToolUse: Bash -> deny ([.claude/hooks/guard.sh]: …)`, `[Permission] Bash: allow (rule Bash(echo:*))`,
 * `[Tool] Bash toolu_01 -> ok`; a subagent's own steps carry its name first:
 * `[Subagent Explore a1b2…] [Tool] Bash toolu_s1 -> error: …`. Warnings and hook `systemMessage`s are printed even when not verbose,
 * since they are meant for the user.
 */
export function lifecycleLog(write: (line: string) => void, verbose: boolean): RunObserver {
  return (event: RunEvent) => {
    const line = formatEvent(event, verbose);
    // A subagent's hooks are reported with its id, like its other steps.
    const agentId = event.type === 'hook_outcome' ? event.agentId : undefined;
    if (line !== undefined)
      write(agentId !== undefined && !line.startsWith('hookloop:') ? `[Subagent ${agentId}] ${line}` : line);
  };
}

function formatEvent(event: RunEvent, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'system_message':
      return `[Hook message] ${event.text}`;
    case 'warning':
      return `hookloop: warning: ${event.text}`;
    case 'hook_outcome': {
      const { outcome } = event;
      const where = `${event.event}${event.matchValue ? `: ${event.matchValue}` : ''}`;
      if (outcome.status === 'failed' || outcome.status === 'timeout') {
        const blocking = outcome.failClosed ? ' (blocking)' : ' (non-blocking)';
        return `[Hook] ${where} -> ${outcome.status}${blocking}: [${outcome.origin.text}]${outcome.origin.location ? ` (${outcome.origin.location})` : ''}: ${outcome.error ?? ''}`;
      }
      // `suppressOutput: true` hides a successful hook's line (its failures are always shown).
      if (!verbose || outcome.output['suppressOutput'] === true) return undefined;
      return `[Hook] ${where} -> ${describeOutcome(outcome.status, outcome.output, outcome.blockMessage)} [${outcome.origin.text}]`;
    }
    case 'permission':
      return verbose ? `[Permission] ${event.toolName}: ${event.behavior} (${event.source})` : undefined;
    case 'permission_decision':
      return verbose
        ? `[Decision] ${event.toolName} ${event.toolUseId}: ${describeDecision(event.record)}`
        : undefined;
    case 'input_rewritten':
      return verbose
        ? `[Hook] ${event.by}: ${event.toolName} ${event.by === 'PostToolUse' ? 'output' : 'input'} rewritten${event.hook ? ` by [${event.hook.name}]` : ''}`
        : undefined;
    case 'tool_result':
      return verbose
        ? `[Tool] ${event.toolName} ${event.toolUseId} -> ${event.result.isError ? `error: ${firstLine(event.result.content)}` : 'ok'}`
        : undefined;
    case 'model_request':
      return verbose ? `[Model] turn ${event.turn}` : undefined;
    case 'model_response':
      return verbose
        ? `[Model] turn ${event.turn}: ${event.toolCalls} tool call(s)${event.text ? `, text: ${firstLine(event.text)}` : ''}`
        : undefined;
    case 'mcp_notice':
      return verbose
        ? `[MCP] ${event.server}${event.kind === 'log' ? ` ${event.level ?? 'info'}` : ` progress${event.toolUseId ? ` ${event.toolUseId}` : ''}`}: ${firstLine(event.text)}`
        : undefined;
    case 'subagent_started':
      return verbose
        ? `[Subagent ${event.agentType} ${event.agentId}] started${event.toolUseId !== undefined ? ` by ${event.toolUseId}` : ''}: ${firstLine(event.prompt)}`
        : undefined;
    case 'subagent_finished':
      return verbose
        ? `[Subagent ${event.agentType} ${event.agentId}] finished: ${event.terminalReason}${event.isError ? ' (error)' : ''}`
        : undefined;
    case 'subagent_event': {
      // The subagent's own steps, under its name: every call it makes, refused ones too, is in the log.
      const line = formatEvent(event.event, verbose);
      return line === undefined ? undefined : `[Subagent ${event.agentType} ${event.agentId}] ${line}`;
    }
    case 'hook_started':
    case 'message':
    case 'model_stream':
      return undefined;
  }
}

function describeOutcome(
  status: string,
  output: Readonly<Record<string, unknown>>,
  blockMessage: string | undefined,
): string {
  if (status === 'blocked') return `block (exit 2: ${firstLine(blockMessage ?? '')})`;
  const specific = output['hookSpecificOutput'] as
    | {
        permissionDecision?: string;
        updatedInput?: unknown;
        updatedToolOutput?: unknown;
        additionalContext?: string;
      }
    | undefined;
  const parts: string[] = [];
  if (specific?.permissionDecision) parts.push(specific.permissionDecision);
  if (output['decision']) parts.push(String(output['decision']));
  if (specific?.updatedInput !== undefined) parts.push('rewrite input');
  if (specific?.updatedToolOutput !== undefined) parts.push('rewrite output');
  if (specific?.additionalContext) parts.push('context');
  if (output['continue'] === false) parts.push('stop');
  return parts.length > 0 ? parts.join(', ') : 'ok';
}

/** `deny by hook [guard.sh] (.claude/settings.json: hooks.PreToolUse[0].hooks[0]): no rm`, `allow by rule Bash(ls:*) (settings.json)`. */
function describeDecision(record: PermissionDecisionRecord): string {
  let by: string = record.decidedBy;
  if (record.hook)
    by = `${record.hook.event} hook [${record.hook.name}] (${record.hook.location ?? record.hook.source})`;
  else if (record.rule)
    by = `${record.decidedBy === 'rule' ? '' : `${record.decidedBy} after `}${record.rule.list} rule ${record.rule.text}${record.rule.file !== undefined ? ` (${record.rule.file})` : ''}`;
  else if (record.boundary)
    by = `${record.decidedBy === 'boundary' ? '' : `${record.decidedBy} at `}${record.boundary} boundary`;
  else if (record.decidedBy === 'mode' || record.decidedBy === 'approver')
    by = `${record.decidedBy} (mode ${record.mode})`;
  return `${record.decision} by ${by}${record.reason !== undefined ? `: ${firstLine(record.reason)}` : ''}`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
