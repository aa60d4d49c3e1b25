import { PAGE_CSS, PAGE_JS } from './page-assets.js';
import type { RowOutcome, TimelineModel, TimelineRow, TimelineTodo } from './timeline-model.js';

/** `<`, `>`, `&`, `"` and `'` as entities: every text from a session goes through it before it is in the page. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const OUTCOME_LABEL: Record<RowOutcome, string> = {
  ok: 'ok',
  blocked: 'blocked',
  denied: 'denied',
  error: 'error',
  failed: 'failed',
  timeout: 'timed out',
  running: 'running',
};

/**
 * One self-contained HTML page for a session's timeline: inline CSS and script, no request to
 * anything (a Content-Security-Policy of `default-src 'none'` enforces it), every session text
 * HTML-escaped. Lanes: the main agent, then one per subagent in the order they started (its task,
 * model requests, tool calls with who decided them, and hooks); above them, the todo list as the
 * last TodoWrite left it. A call whose input a hook rewrote shows what ran and which hook rewrote it. `generatedAt` (ms) is shown so a
 * reader of a running session knows how fresh the page is.
 */
export function renderTimelinePage(model: TimelineModel, generatedAt: number): string {
  const total = Math.max(1, model.end - model.start);
  // Rows are in start order, so a Set keeps the lanes in the order they started; main comes first.
  const lanes = [...new Set(['main', ...model.rows.map((row) => row.lane)])].filter((lane) =>
    model.rows.some((row) => row.lane === lane),
  );
  const tools = [...new Set(model.rows.flatMap((row) => (row.tool !== undefined ? [row.tool] : [])))].sort();
  const events = [...new Set(model.rows.flatMap((row) => (row.event ? [row.event] : [])))].sort();
  const outcomes = [...new Set(model.rows.map((row) => row.outcome))].sort();
  const calls = model.rows.filter((row) => row.kind === 'tool');
  const hooks = model.rows.filter((row) => row.kind === 'hook');
  const refused = calls.filter((row) => row.outcome === 'blocked' || row.outcome === 'denied').length;
  const failedHooks = hooks.filter((row) => row.outcome === 'failed' || row.outcome === 'timeout').length;
  const title = `hookloop timeline · ${model.sessionId}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${PAGE_CSS}</style></head>
<body>
<h1>Session ${escapeHtml(model.sessionId)}</h1>
<p class="meta">Started ${escapeHtml(new Date(model.start).toISOString())} · ${formatDuration(total)} · ${calls.length} tool call(s), ${refused} refused · ${hooks.length} hook run(s), ${failedHooks} failed</p>
${model.running ? `<p class="note">This session had not ended when the page was made (${escapeHtml(new Date(generatedAt).toISOString())}). Run <code>hookloop timeline ${escapeHtml(model.sessionId)}</code> again and reload to see more.</p>` : ''}
${model.fromTranscriptOnly ? '<p class="note">This session has no events file (it ran before hookloop wrote one, or elsewhere): only prompts and tool calls from its transcript are shown, without hook timings.</p>' : ''}
<p class="legend"><span><i class="swatch" style="background:#3f7fd8"></i>tool call</span><span><i class="swatch" style="background:#36a57b"></i>hook handler</span><span><i class="swatch" style="background:#8a63c9"></i>model request</span><span><i class="swatch" style="background:#d0443c"></i>blocked or denied</span><span><i class="swatch" style="background:#e08a1e"></i>failed or timed out</span> · click a row for its payload</p>
<form id="filters">
<label>Event ${select('event', events)}</label>
<label>Tool ${select('tool', tools)}</label>
<label>Outcome ${select('outcome', outcomes)}</label>
<label>Text <input name="text" type="search" placeholder="command, hook, reason…"></label>
</form>
${model.todos !== undefined ? todoHtml(model.todos) : ''}
${lanes
  .map((lane) =>
    laneHtml(
      lane,
      model.laneTitles?.[lane],
      model.rows.filter((row) => row.lane === lane),
      model.start,
      total,
    ),
  )
  .join('\n')}
<script>${PAGE_JS}</script>
</body></html>
`;
}

const TODO_MARK: Record<string, string> = { completed: '✓', in_progress: '▶', pending: '○' };

/** The session's todo list (its last TodoWrite): each item with its status; the one in progress by its `activeForm`. */
function todoHtml(todos: readonly TimelineTodo[]): string {
  const items = todos.map((todo) => {
    const label =
      todo.status === 'in_progress' && todo.activeForm !== undefined ? todo.activeForm : todo.content;
    return `<li class="todo todo-${escapeHtml(todo.status)}" data-status="${escapeHtml(todo.status)}"><span class="mark">${TODO_MARK[todo.status] ?? '?'}</span> ${escapeHtml(label)}</li>`;
  });
  return `<section class="todos"><h2>Todo list</h2><ul>${items.join('')}</ul></section>`;
}

function select(name: string, values: readonly string[]): string {
  return `<select name="${name}"><option value="">all</option>${values.map((value) => `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`).join('')}</select>`;
}

function laneHtml(
  lane: string,
  title: string | undefined,
  rows: readonly TimelineRow[],
  start: number,
  total: number,
): string {
  const heading = lane === 'main' ? 'Main agent' : (title ?? `Subagent ${lane}`);
  return `<section class="lane" data-lane="${escapeHtml(lane)}"><h2>${escapeHtml(heading)}</h2>\n${rows.map((row) => rowHtml(row, start, total)).join('\n')}\n</section>`;
}

function rowHtml(row: TimelineRow, start: number, total: number): string {
  const duration = row.durationMs ?? (row.end !== undefined ? row.end - row.start : undefined);
  const left = ((row.start - start) / total) * 100;
  const width =
    duration !== undefined ? Math.max(0.15, (duration / total) * 100) : Math.max(0.15, 100 - left);
  const attributes = [
    `class="row kind-${row.kind} outcome-${row.outcome}${row.parent !== undefined ? ' child' : ''}${row.rewritten !== undefined ? ' rewritten' : ''}"`,
    `data-kind="${row.kind}"`,
    `data-outcome="${row.outcome}"`,
    row.event ? `data-event="${escapeHtml(row.event)}"` : '',
    row.tool !== undefined ? `data-tool="${escapeHtml(row.tool)}"` : '',
    `data-start-ms="${Math.round(row.start - start)}"`,
    duration !== undefined ? `data-duration-ms="${duration.toFixed(1)}"` : '',
    'tabindex="0"',
  ].filter(Boolean);
  const durationText = duration !== undefined ? formatDuration(duration) : 'running';
  return `<div ${attributes.join(' ')}>
<div class="label"><span class="title"><span class="badge">${OUTCOME_LABEL[row.outcome]}</span>${escapeHtml(row.title)}</span>${row.rewritten !== undefined ? `<span class="rewritten">${escapeHtml(row.rewritten)}</span>` : ''}${row.why !== undefined ? `<span class="why">${escapeHtml(row.why)}</span>` : ''}</div>
<div class="track"><div class="bar" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%"></div><span class="dur" style="${durationPlace(left, width)}">${durationText}</span></div>
<pre class="payload" hidden>${escapeHtml(JSON.stringify(row.payload, null, 2))}</pre>
</div>`;
}

/** The duration label goes right of its bar, or left of it (inside it, for a long bar) when the bar reaches the right edge. */
function durationPlace(left: number, width: number): string {
  if (left + width <= 88) return `left:${(left + width + 0.5).toFixed(3)}%`;
  // A bar that starts early and reaches the edge carries its label inside, at its end.
  return left > 12
    ? `right:${(100 - left + 0.5).toFixed(3)}%`
    : `right:${(Math.max(0, 100 - left - width) + 0.8).toFixed(3)}%;color:#fff`;
}

/** `12 ms`, `1.4 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
