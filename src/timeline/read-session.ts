import fs from 'node:fs';
import path from 'node:path';
import { eventsPathFor, type EventRecord } from '../transcript/events-writer.js';
import { buildTimeline, type TimelineModel, type TimelineRow } from './timeline-model.js';

/**
 * The timeline of the session whose transcript is `transcriptPath`: from its events file when the
 * run wrote one (every hook, decision and duration), else from the transcript alone (prompts and
 * tool calls at the times they were written, no hook timings). Lines that are not JSON (a line
 * being written right now) are skipped. @throws Error when neither file can be read.
 */
export function readSessionTimeline(transcriptPath: string): TimelineModel {
  const sessionId = path.basename(transcriptPath, '.jsonl');
  const eventsFile = eventsPathFor(transcriptPath);
  if (fs.existsSync(eventsFile))
    return buildTimeline(sessionId, jsonLines(fs.readFileSync(eventsFile, 'utf8')) as EventRecord[]);
  return fromTranscript(sessionId, jsonLines(fs.readFileSync(transcriptPath, 'utf8')));
}

function jsonLines(text: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        lines.push(value as Record<string, unknown>);
    } catch {
      // the last line of a running session may be half written
    }
  }
  return lines;
}

type Block = {
  type?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  text?: string;
};

/** Prompts and tool calls of a Claude Code style transcript, timed by each line's `timestamp`. */
function fromTranscript(sessionId: string, lines: readonly Record<string, unknown>[]): TimelineModel {
  const rows: TimelineRow[] = [];
  const calls = new Map<string, TimelineRow>();
  for (const line of lines) {
    const t = Date.parse(typeof line['timestamp'] === 'string' ? line['timestamp'] : '');
    if (Number.isNaN(t)) continue;
    const message = line['message'] as { content?: unknown } | undefined;
    const content = message?.content;
    if (line['type'] === 'user' && typeof content === 'string') {
      rows.push({
        id: `prompt-${rows.length}`,
        kind: 'prompt',
        lane: 'main',
        start: t,
        end: t,
        durationMs: undefined,
        title: `Prompt: ${content.slice(0, 120)}`,
        why: undefined,
        outcome: 'ok',
        payload: { prompt: content },
      });
      continue;
    }
    for (const block of Array.isArray(content) ? (content as Block[]) : []) {
      if (block.type === 'tool_use' && block.id !== undefined) {
        const entry: TimelineRow = {
          id: `tool-${block.id}`,
          kind: 'tool',
          lane: 'main',
          start: t,
          end: undefined,
          durationMs: undefined,
          title: `${block.name ?? 'tool'}`,
          tool: block.name ?? 'tool',
          why: undefined,
          outcome: 'running',
          payload: { tool_use_id: block.id, input: block.input },
        };
        calls.set(block.id, entry);
        rows.push(entry);
      } else if (block.type === 'tool_result' && block.tool_use_id !== undefined) {
        const entry = calls.get(block.tool_use_id);
        if (!entry) continue;
        entry.end = t;
        entry.durationMs = t - entry.start;
        entry.outcome = block.is_error === true ? 'error' : 'ok';
        entry.payload = { ...entry.payload, result: block.content };
      }
    }
  }
  const times = rows.flatMap((entry) => [entry.start, entry.end ?? entry.start]);
  const start = times.length > 0 ? Math.min(...times) : 0;
  return {
    sessionId,
    rows,
    start,
    end: times.length > 0 ? Math.max(...times, start + 1) : 1,
    running: false,
    fromTranscriptOnly: true,
  };
}
