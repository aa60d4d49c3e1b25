import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ConfigError, describeError } from '../../errors.js';
import {
  HOOK_EVENT_NAMES,
  isHookEventName,
  REFERENCE_ONLY_EVENTS,
  type HookEventName,
} from '../../hooks/event-names.js';
import type { HookPayload } from '../../hooks/event-schemas.js';
import { eventSpec, matchValueOf } from '../../hooks/event-table.js';
import { defaultTranscriptPath } from '../../run/run-agent.js';
import { SessionState } from '../../loop/session-state.js';
import { requireSessionId } from '../../session/session-id.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { builtinTools } from '../../tools/builtin/index.js';
import type { HooksTestOptions } from './parse-hooks-args.js';

/**
 * The payload `hooks test` sends: built as the loop builds it (SessionState's common fields in the
 * reference's order, the event's own fields as the event table's `example` makes them up, a
 * built-in tool's input normalized as the model's would be: absolute paths, defaults), then
 * overridden field by field by `--payload`. The matcher value is read as `fire` reads it.
 */

/** The payload, the value matchers test, and what the user should know about them. */
export interface TestPayload {
  readonly event: HookEventName;
  readonly payload: Record<string, unknown>;
  readonly matchValue: string | undefined;
  /** Which payload field `matchValue` comes from (`tool_name`, `source`, …), for messages. */
  readonly matchField: string | undefined;
  readonly notes: readonly string[];
}

/**
 * The payloads `hooks test` sends, one per test: without `--payload`, the one payload of
 * `options.event`; with it, the recorded payload(s) chosen by `--line` / `--all` (see
 * `chooseRecords`), each tested as its own `hook_event_name` unless EVENT is given.
 * @throws ConfigError for an unknown event, a missing event, a tool event without `--tool`,
 * unreadable JSON, or a `--line` / `--all` that picks nothing.
 */
export async function buildTestPayloads(
  options: HooksTestOptions,
  projectDir: string,
  stdin: NodeJS.ReadableStream,
): Promise<TestPayload[]> {
  if (options.payload === undefined) {
    if (options.line !== undefined || options.all)
      throw new ConfigError('hooks test: --line and --all pick lines of --payload FILE; pass --payload', {
        field: options.all ? '--all' : '--line',
      });
    if (options.event === undefined)
      throw new ConfigError(
        'hooks test: name the event (e.g. hooks test PreToolUse), or pass --payload FILE, whose payloads name theirs',
        { field: 'EVENT' },
      );
    return [buildTestPayload(options.event, undefined, options, projectDir)];
  }
  const records = await readRecords(options.payload, stdin);
  return chooseRecords(records, options).map(({ event, record, note }) => {
    const built = buildTestPayload(event, record, options, projectDir);
    return note === undefined ? built : { ...built, notes: [note, ...built.notes] };
  });
}

/** One JSON object of the `--payload` input, with the 1-based line it starts on. */
interface PayloadRecord {
  readonly line: number;
  readonly value: Record<string, unknown>;
  readonly label: string;
}

/**
 * Which records are tested, and as which event: `--line N` that line; `--all` every line (of EVENT
 * when given); otherwise the first line (of EVENT when given), with a note when there are others.
 * A single payload without `hook_event_name` is tested as EVENT.
 */
function chooseRecords(
  records: readonly PayloadRecord[],
  options: HooksTestOptions,
): { event: string; record: Record<string, unknown>; note?: string }[] {
  const label = records[0]?.label ?? 'the payload';
  const eventOf = (record: PayloadRecord): string => {
    const named = record.value['hook_event_name'];
    if (typeof named === 'string' && named !== '') {
      if (options.event !== undefined && options.event !== named)
        throw new ConfigError(
          `--payload ${label}: line ${record.line} is a ${named} payload, not ${options.event}`,
          { file: label },
        );
      return named;
    }
    if (options.event !== undefined) return options.event;
    throw new ConfigError(
      `--payload ${label}: line ${record.line} has no hook_event_name; name the event: hooks test EVENT --payload ${label}`,
      { file: label },
    );
  };
  if (options.line !== undefined) {
    const record = records.find((entry) => entry.line === options.line);
    if (record === undefined)
      throw new ConfigError(
        `--payload ${label}: no JSON object on line ${options.line} (lines with one: ${records.map((entry) => entry.line).join(', ') || 'none'})`,
        { file: label, field: '--line' },
      );
    return [{ event: eventOf(record), record: record.value }];
  }
  const wanted =
    options.event === undefined
      ? records
      : records.filter(
          (entry) =>
            entry.value['hook_event_name'] === options.event ||
            (records.length === 1 && entry.value['hook_event_name'] === undefined),
        );
  if (wanted.length === 0) {
    const found =
      records.map((entry) => String(entry.value['hook_event_name'])).join(', ') || 'no JSON object';
    throw new ConfigError(`--payload ${label}: no ${options.event ?? ''} payload in it (found: ${found})`, {
      file: label,
    });
  }
  if (options.all)
    return wanted.map((record) => ({
      event: eventOf(record),
      record: record.value,
      note: `line ${record.line} of ${label}`,
    }));
  const first = wanted[0]!;
  const note =
    wanted.length > 1
      ? `replayed line ${first.line} of ${label}, the first of ${wanted.length}${options.event !== undefined ? ` ${options.event} payloads` : ''}; --line N picks another, --all replays every one`
      : undefined;
  return [{ event: eventOf(first), record: first.value, ...(note !== undefined ? { note } : {}) }];
}

/** Builds the payload of `event`, its fields overridden by `override` (a recorded payload). */
function buildTestPayload(
  event: string,
  override: Record<string, unknown> | undefined,
  options: HooksTestOptions,
  projectDir: string,
): TestPayload {
  if (!isHookEventName(event)) {
    const why = (REFERENCE_ONLY_EVENTS as readonly string[]).includes(event)
      ? 'hookloop does not fire it'
      : 'unknown event';
    throw new ConfigError(`hooks test ${event}: ${why}; expected one of ${HOOK_EVENT_NAMES.join(', ')}`, {
      field: 'EVENT',
    });
  }
  const notes: string[] = [];
  const sessionId =
    options.sessionId !== undefined ? requireSessionId(options.sessionId, '--session-id') : randomUUID();
  const state = new SessionState({
    sessionId,
    transcriptPath: defaultTranscriptPath(projectDir, sessionId),
    projectDir,
    cwd: projectDir,
    mode: options.permissionMode ?? 'default',
  });
  if (event !== 'SessionStart') state.promptId = randomUUID();

  const toolName =
    options.tool ?? (typeof override?.['tool_name'] === 'string' ? override['tool_name'] : undefined);
  const spec = eventSpec(event);
  if (spec.acceptsIf && toolName === undefined)
    throw new ConfigError(
      `hooks test ${event}: name the tool with --tool NAME (and its input with --input JSON), or pass --payload FILE`,
      { field: '--tool' },
    );
  const toolInput =
    toolName === undefined
      ? undefined
      : normalizedInput(
          toolName,
          parseJsonOption('--input', options.input) ?? override?.['tool_input'] ?? {},
          projectDir,
          notes,
        );
  const fields = spec.example({
    toolName,
    toolInput: toolInput ?? {},
    response: parseJsonOption('--response', options.response),
    prompt: options.prompt,
    projectDir,
    toolUseId: `toolu_${randomBytes(12).toString('hex')}`,
    agentId: randomBytes(8).toString('hex'),
    tools: new ToolRegistry(builtinTools()).specs(),
  });
  const payload: Record<string, unknown> = {
    ...(state.payload(event, fields as HookPayload<typeof event>) as Record<string, unknown>),
    ...override,
    hook_event_name: event,
  };
  if (toolInput !== undefined && options.input !== undefined && 'tool_input' in payload)
    payload['tool_input'] = toolInput;

  const checked = spec.input.safeParse(payload);
  if (!checked.success)
    notes.push(
      `the payload is not what hookloop sends for ${event}: ${checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
    );
  return { event, payload, matchValue: matchValueOf(event, payload), matchField: spec.matchField, notes };
}

/** A built-in tool's input as hooks see it (absolute paths, defaults); other tools' inputs as given. */
function normalizedInput(
  toolName: string,
  input: unknown,
  projectDir: string,
  notes: string[],
): Record<string, unknown> {
  const value = (input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<
    string,
    unknown
  >;
  const registry = new ToolRegistry(builtinTools());
  const tool = registry.get(toolName);
  if (tool === undefined) return value;
  const checked = registry.check(tool, value, { cwd: projectDir, projectDir });
  if (checked.ok) return structuredClone(checked.input) as Record<string, unknown>;
  notes.push(
    `${toolName} would reject this input before any hook ran (${checked.error.split('\n').slice(1).join('; ')}); the hooks get it as given`,
  );
  return value;
}

function parseJsonOption(flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${flag}: not valid JSON: ${describeError(error)}`, { field: flag });
  }
}

/** The JSON objects of `source` (one JSON document, or JSON lines such as `hooks record` writes; `-` = stdin). */
async function readRecords(source: string, stdin: NodeJS.ReadableStream): Promise<PayloadRecord[]> {
  const label = source === '-' ? 'stdin' : source;
  let text: string;
  try {
    text = source === '-' ? await readAll(stdin) : fs.readFileSync(source, 'utf8');
  } catch (error) {
    throw new ConfigError(`--payload ${label}: cannot read: ${describeError(error)}`, { file: source });
  }
  const candidates: { line: number; value: unknown }[] = [];
  try {
    const leading = text.slice(0, text.length - text.trimStart().length);
    candidates.push({ line: leading.split('\n').length, value: JSON.parse(text) });
  } catch {
    // Not one JSON document: read it as JSON lines (the output of `hooks record`).
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        candidates.push({ line: index + 1, value: JSON.parse(line) });
      } catch (error) {
        throw new ConfigError(
          `--payload ${label}: line ${index + 1}: neither a JSON object nor JSON lines: ${describeError(error)}`,
          { file: source },
        );
      }
    }
  }
  return candidates
    .filter(
      (entry): entry is { line: number; value: Record<string, unknown> } =>
        entry.value !== null && typeof entry.value === 'object' && !Array.isArray(entry.value),
    )
    .map((entry) => ({ ...entry, label }));
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer | string) =>
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}
