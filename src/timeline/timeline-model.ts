import type { PermissionDecisionRecord } from '../loop/permission-decision/record.js';
import type { EventRecord } from '../transcript/events-writer.js';

/** What a row shows as its outcome (and what the outcome filter offers). */
export type RowOutcome = 'ok' | 'blocked' | 'denied' | 'error' | 'failed' | 'timeout' | 'running';

/**
 * One bar of the timeline: a prompt (or a subagent's task), a model request, a tool call or a hook handler. Times are ms
 * since the epoch; `end` is undefined while it is still running. `why` is the sentence a person
 * reads next to it (who blocked the call and the reason, a hook's failure); `payload` is shown on click.
 */
export interface TimelineRow {
  readonly id: string;
  readonly kind: 'prompt' | 'model' | 'tool' | 'hook';
  /** `main`, or the subagent's id: each gets its own lane. */
  readonly lane: string;
  readonly start: number;
  end: number | undefined;
  /** The measured duration when known exactly (a hook's own timing), else `end - start`. */
  durationMs: number | undefined;
  /** For a call: the tool and its input as it ran (after a hook's rewrite). */
  title: string;
  why: string | undefined;
  /** For a call whose input a hook rewrote: which hook, and what the model had written. */
  rewritten?: string;
  outcome: RowOutcome;
  readonly event?: string;
  readonly tool?: string;
  /** The tool call row a hook row belongs to. */
  readonly parent?: string;
  payload: Record<string, unknown>;
}

/** A session's timeline: its rows in start order, and its time span. `running`: no session end was recorded. */
export interface TimelineModel {
  readonly sessionId: string;
  readonly rows: readonly TimelineRow[];
  readonly start: number;
  readonly end: number;
  readonly running: boolean;
  /** True when the session has no events file (an old or foreign session): rows come from the transcript, without hook timings. */
  readonly fromTranscriptOnly: boolean;
  /** Each subagent lane's heading (`Subagent Explore · a1b2… (Agent call toolu_1)`), by agent id; a lane not named here is headed by its id. */
  readonly laneTitles?: Readonly<Record<string, string>>;
  /** The main agent's todo list as its last successful TodoWrite left it; absent when it never wrote one. */
  readonly todos?: readonly TimelineTodo[];
}

/** One item of a TodoWrite list (Claude Code's fields). */
export interface TimelineTodo {
  readonly content: string;
  readonly status: string;
  readonly activeForm?: string;
}

/** Builds the rows of an events file (see EventRecord). Tolerates a file cut mid-session: what never ended is `running`. */
export function buildTimeline(sessionId: string, records: readonly EventRecord[]): TimelineModel {
  const rows: TimelineRow[] = [];
  const tools = laneTools();
  const hooks = new Map<string, TimelineRow>();
  // A subagent's rows are its own: its task (the lane's first row) and its open model request.
  const prompts = new Map<string, TimelineRow>();
  const models = new Map<string, TimelineRow>();
  const laneTitles: Record<string, string> = {};
  let ended = false;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  for (const record of records) {
    const lane = typeof record['agentId'] === 'string' ? record['agentId'] : 'main';
    const prompt = prompts.get(lane);
    const model = models.get(lane);
    switch (record.type) {
      case 'prompt_started':
      case 'subagent_started': {
        const subagent = record.type === 'subagent_started';
        const entry = row({
          id: `prompt-${rows.length}`,
          kind: 'prompt',
          lane,
          start: record.t,
          title: `${subagent ? `Task (${text(record['agentType'])})` : 'Prompt'}: ${oneLine(text(record['prompt']))}`,
          payload: pick(record, ['prompt', 'agentType', 'agentId', 'toolUseId']),
        });
        if (subagent) laneTitles[lane] = laneTitle(record, tools);
        prompts.set(lane, entry);
        rows.push(entry);
        break;
      }
      case 'prompt_finished':
      case 'subagent_finished':
        if (prompt)
          finish(
            prompt,
            record.t,
            record['isError'] === true ? 'error' : 'ok',
            `ended: ${text(record['terminalReason'])}`,
          );
        break;
      case 'model_request': {
        const entry = row({
          id: `model-${rows.length}`,
          kind: 'model',
          lane,
          start: record.t,
          title: `Model turn ${String(record['turn'])}${record['model'] ? ` (${text(record['model'])})` : ''}`,
          payload: {},
        });
        models.set(lane, entry);
        rows.push(entry);
        break;
      }
      case 'model_response':
        if (model) {
          const usage = record['usage'] as { inputTokens?: number; outputTokens?: number } | undefined;
          finish(
            model,
            record.t,
            'ok',
            `${usage?.inputTokens ?? 0} tokens in, ${usage?.outputTokens ?? 0} out; ${String(record['toolCalls'])} tool call(s); stop: ${text(record['stopReason'])}`,
          );
          model.payload = { text: record['text'], usage, stopReason: record['stopReason'] };
          models.delete(lane);
        }
        break;
      case 'tool_started': {
        const id = text(record['toolUseId']);
        const tool = row({
          id: lane === 'main' ? `tool-${id}` : `tool-${lane}-${id}`,
          kind: 'tool',
          lane,
          start: record.t,
          title: `${text(record['toolName'])} ${oneLine(inputSummary(record['input']))}`.trim(),
          tool: text(record['toolName']),
          payload: { tool_use_id: id, input: record['input'] },
        });
        tools.set(lane, id, tool);
        rows.push(tool);
        break;
      }
      case 'permission_decision': {
        const tool = tools.get(lane, record['toolUseId']);
        const decision = record['record'] as PermissionDecisionRecord;
        if (tool) {
          tool.payload = { ...tool.payload, decision };
          if (decision.decision === 'deny') {
            tool.outcome = decision.decidedBy === 'hook' ? 'blocked' : 'denied';
            tool.why = describeDecision(decision);
          } else tool.why = describeDecision(decision);
        }
        break;
      }
      case 'input_rewritten': {
        const tool = tools.get(lane, record['toolUseId']);
        if (!tool) break;
        tool.payload = {
          ...tool.payload,
          rewrittenBy: [...((tool.payload['rewrittenBy'] as string[] | undefined) ?? []), record['by']],
        };
        if (record['input'] === undefined) break;
        // The row shows what ran; the model's own input stays in the note and the payload.
        const hook = record['hook'] as { name?: string; location?: string; source?: string } | undefined;
        const by =
          hook?.name !== undefined
            ? `${text(record['by'])} hook ${hook.name} (${hook.location ?? hook.source ?? ''})`
            : `a ${text(record['by'])} hook`;
        tool.rewritten = `Input rewritten by ${by}; the model wrote: ${oneLine(inputSummary(tool.payload['modelInput'] ?? tool.payload['input']))}`;
        tool.payload = {
          ...tool.payload,
          modelInput: tool.payload['modelInput'] ?? tool.payload['input'],
          input: record['input'],
        };
        tool.title = `${tool.tool ?? ''} ${oneLine(inputSummary(record['input']))}`.trim();
        break;
      }
      case 'tool_result': {
        const tool = tools.get(lane, record['toolUseId']) ?? settledBeforeStart(record, lane, tools, rows);
        const outcome =
          tool.outcome === 'running' ? (record['isError'] === true ? 'error' : 'ok') : tool.outcome;
        finish(tool, record.t, outcome, tool.why);
        tool.payload = { ...tool.payload, result: record['content'], ran: record['ran'] };
        break;
      }
      case 'hook_started': {
        const origin = record['origin'] as
          { text?: string; location?: string; source?: string; transport?: string } | undefined;
        const call = tools.get(lane, record['toolUseId']);
        const hook = row({
          id: `hook-${text(record['invocation'])}`,
          kind: 'hook',
          lane,
          start: record.t,
          title: `${text(record['event'])} · ${origin?.text ?? ''}`,
          event: text(record['event']),
          ...(call !== undefined
            ? { parent: call.id, tool: call.tool! }
            : matchTool(record, tools.open(lane))),
          payload: {
            matcher: record['matcher'],
            type: origin?.transport,
            source: origin?.location ?? origin?.source,
          },
        });
        hooks.set(text(record['invocation']), hook);
        rows.push(hook);
        break;
      }
      case 'hook_outcome': {
        const duration = typeof record['durationMs'] === 'number' ? record['durationMs'] : 0;
        let hook = hooks.get(text(record['invocation']));
        if (!hook) {
          const origin = record['origin'] as { text?: string } | undefined;
          hook = row({
            id: `hook-${rows.length}`,
            kind: 'hook',
            lane,
            start: record.t - duration,
            title: `${text(record['event'])} · ${origin?.text ?? ''}`,
            event: text(record['event']),
            payload: {},
          });
          rows.push(hook);
        }
        const { outcome, why } = hookOutcome(record);
        finish(hook, record.t, outcome, why);
        hook.durationMs = duration;
        hook.payload = {
          ...hook.payload,
          ...pick(record, [
            'status',
            'decision',
            'exitCode',
            'httpStatus',
            'failClosed',
            'error',
            'blockMessage',
            'output',
            'stdout',
            'stderr',
          ]),
        };
        break;
      }
      case 'session_ended':
        ended = true;
        break;
    }
  }
  const times = rows.flatMap((entry) => [entry.start, entry.end ?? entry.start]);
  const start = times.length > 0 ? Math.min(...times) : 0;
  const end = times.length > 0 ? Math.max(...times, start + 1) : 1;
  const todos = lastTodoList(rows);
  return {
    sessionId,
    rows: orderRows(rows),
    start,
    end,
    running: !ended,
    fromTranscriptOnly: false,
    laneTitles,
    ...(todos ? { todos } : {}),
  };
}

/** The todos of the main agent's last TodoWrite that ran; items without text are left out. */
function lastTodoList(rows: readonly TimelineRow[]): TimelineTodo[] | undefined {
  const last = rows
    .filter(
      (entry) =>
        entry.kind === 'tool' &&
        entry.tool === 'TodoWrite' &&
        entry.lane === 'main' &&
        entry.outcome === 'ok',
    )
    .at(-1);
  const todos = (last?.payload['input'] as { todos?: unknown } | undefined)?.todos;
  if (!Array.isArray(todos)) return undefined;
  return todos.flatMap((todo: unknown) => {
    const item = todo as Partial<Record<keyof TimelineTodo, unknown>> | null;
    if (typeof item?.content !== 'string') return [];
    return [
      {
        content: item.content,
        status: typeof item.status === 'string' ? item.status : 'pending',
        ...(typeof item.activeForm === 'string' ? { activeForm: item.activeForm } : {}),
      },
    ];
  });
}

/**
 * The row of a call settled before its pipeline started (an unknown or unavailable tool, input that
 * fails the schema): it has a result and nothing else, and is still one of the session's calls.
 * Refused when the tool was not available to the model, an error otherwise.
 */
function settledBeforeStart(
  record: EventRecord,
  lane: string,
  tools: ReturnType<typeof laneTools>,
  rows: TimelineRow[],
): TimelineRow {
  const id = typeof record['toolUseId'] === 'string' ? record['toolUseId'] : `unknown-${rows.length}`;
  const name = typeof record['toolName'] === 'string' ? record['toolName'] : '';
  const content = typeof record['content'] === 'string' ? record['content'] : '';
  const tool = row({
    id: lane === 'main' ? `tool-${id}` : `tool-${lane}-${id}`,
    kind: 'tool',
    lane,
    start: record.t,
    title: name,
    tool: name,
    payload: { tool_use_id: id },
  });
  tool.outcome = /No such tool available/.test(content) ? 'denied' : 'error';
  tool.why = `Refused before any hook ran: ${oneLine(content.replace(/<\/?tool_use_error>/g, ''))}`;
  tools.set(lane, id, tool);
  rows.push(tool);
  return tool;
}

/** Tool call rows by lane and call id: a subagent's call ids are its own (they may repeat the main agent's). */
function laneTools() {
  const byLane = new Map<string, Map<string, TimelineRow>>();
  return {
    get: (lane: string, id: unknown) => (typeof id === 'string' ? byLane.get(lane)?.get(id) : undefined),
    set: (lane: string, id: string, entry: TimelineRow) =>
      byLane.set(lane, (byLane.get(lane) ?? new Map<string, TimelineRow>()).set(id, entry)),
    open: (lane: string): TimelineRow[] =>
      [...(byLane.get(lane)?.values() ?? [])].filter((entry) => entry.end === undefined),
  };
}

/** `Subagent Explore · a1b2c3 (Agent call toolu_1: "look around")`: the lane of a subagent_started record. */
function laneTitle(record: EventRecord, tools: ReturnType<typeof laneTools>): string {
  const type = typeof record['agentType'] === 'string' ? record['agentType'] : 'agent';
  const call = tools.get('main', record['toolUseId']);
  const from =
    call !== undefined
      ? ` (${call.title})`
      : typeof record['toolUseId'] === 'string'
        ? ` (Agent call ${record['toolUseId']})`
        : '';
  return `Subagent ${type} · ${String(record['agentId'])}${from}`;
}

/** "Blocked by PreToolUse hook guard.sh (settings.json: hooks.PreToolUse[0].hooks[0]): no deploys", "Denied by deny rule Bash(rm:*) (settings.json)". */
export function describeDecision(record: PermissionDecisionRecord): string {
  const verb = record.decision === 'allow' ? 'Allowed' : record.decidedBy === 'hook' ? 'Blocked' : 'Denied';
  let by: string;
  if (record.hook)
    by = `${record.hook.event} hook ${record.hook.name} (${record.hook.location ?? record.hook.source})`;
  else if (record.rule)
    by = `${record.decidedBy === 'approver' ? 'the approver, asked by ' : ''}${record.rule.list} rule ${record.rule.text}${record.rule.file !== undefined ? ` (${record.rule.file})` : ''}`;
  else if (record.boundary)
    by = `${record.decidedBy === 'approver' ? 'the approver at ' : 'the '}${record.boundary.replace('_', ' ')} boundary`;
  else if (record.decidedBy === 'approver') by = `the approver (${record.mode} mode asked)`;
  else if (record.decidedBy === 'mode') by = `${record.mode} mode`;
  else by = record.decidedBy.replace('_', '-');
  return `${verb} by ${by}${record.reason !== undefined ? `: ${record.reason}` : ''}`;
}

function hookOutcome(record: EventRecord): { outcome: RowOutcome; why: string | undefined } {
  const status = record['status'];
  const decision = record['decision'];
  const reason = (
    record['output'] as
      { hookSpecificOutput?: { permissionDecisionReason?: string }; reason?: string } | undefined
  )?.hookSpecificOutput?.permissionDecisionReason;
  if (status === 'timeout')
    return { outcome: 'timeout', why: `timed out${record['failClosed'] === true ? '; failed closed' : ''}` };
  if (status === 'failed')
    return {
      outcome: 'failed',
      why: `${typeof record['error'] === 'string' ? record['error'] : 'failed'}${record['failClosed'] === true ? ' (failed closed: the call was refused)' : ' (non-blocking)'}`,
    };
  if (status === 'blocked')
    return {
      outcome: 'blocked',
      why: `exit 2: ${typeof record['blockMessage'] === 'string' ? record['blockMessage'] : ''}`,
    };
  if (decision === 'deny' || decision === 'block')
    return { outcome: 'blocked', why: `${String(decision)}${reason !== undefined ? `: ${reason}` : ''}` };
  const rewrote =
    (record['output'] as { hookSpecificOutput?: { updatedInput?: unknown } } | undefined)?.hookSpecificOutput
      ?.updatedInput !== undefined;
  const said = [
    typeof decision === 'string' ? decision : undefined,
    rewrote ? 'rewrote the input' : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  return {
    outcome: 'ok',
    why: said !== '' ? `${said}${reason !== undefined ? `: ${reason}` : ''}` : undefined,
  };
}

/** Tool calls in start order, each followed by its hooks; other rows in start order. */
function orderRows(rows: TimelineRow[]): TimelineRow[] {
  const byStart = [...rows].sort((a, b) => a.start - b.start);
  const children = new Map<string, TimelineRow[]>();
  for (const entry of byStart)
    if (entry.parent !== undefined)
      children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  return byStart
    .filter((entry) => entry.parent === undefined)
    .flatMap((entry) => [entry, ...(children.get(entry.id) ?? [])]);
}

/** PermissionRequest carries no tool_use_id: it belongs to the open call (of its lane) of the tool it matched. */
function matchTool(record: EventRecord, tools: readonly TimelineRow[]): { parent?: string; tool?: string } {
  if (record['event'] !== 'PermissionRequest') return {};
  const open = [...tools].reverse().find((tool) => tool.tool === record['matchValue']);
  return open ? { parent: open.id, tool: open.tool! } : {};
}

function row(fields: Omit<TimelineRow, 'end' | 'durationMs' | 'why' | 'outcome'>): TimelineRow {
  return { ...fields, end: undefined, durationMs: undefined, why: undefined, outcome: 'running' };
}

function finish(entry: TimelineRow, end: number, outcome: RowOutcome, why: string | undefined): void {
  entry.end = end;
  entry.durationMs ??= Math.max(0, end - entry.start);
  entry.outcome = outcome;
  entry.why = why;
}

function pick(record: EventRecord, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
}

function inputSummary(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const fields = input as Record<string, unknown>;
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'prompt'])
    if (typeof fields[key] === 'string') return fields[key];
  return JSON.stringify(input);
}

function oneLine(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
