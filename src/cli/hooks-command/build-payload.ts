import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ConfigError, describeError } from '../../errors.js';
import { HOOK_EVENT_NAMES, isHookEventName, REFERENCE_ONLY_EVENTS, type HookEventName } from '../../hooks/event-names.js';
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
 * Builds the payload of `options.event`, reading `--payload` (a JSON object, or JSON lines whose
 * first line of this event is used, e.g. the output of `hooks record`; `-` = `stdin`).
 * @throws ConfigError for an unknown event, a tool event without `--tool`, or unreadable JSON.
 */
export async function buildTestPayload(options: HooksTestOptions, projectDir: string, stdin: NodeJS.ReadableStream): Promise<TestPayload> {
  const event = options.event;
  if (!isHookEventName(event)) {
    const why = (REFERENCE_ONLY_EVENTS as readonly string[]).includes(event) ? 'hookloop does not fire it' : 'unknown event';
    throw new ConfigError(`hooks test ${event}: ${why}; expected one of ${HOOK_EVENT_NAMES.join(', ')}`, { field: 'EVENT' });
  }
  const override = options.payload === undefined ? undefined : await readPayload(options.payload, event, stdin);
  const notes: string[] = [];
  const sessionId = options.sessionId !== undefined ? requireSessionId(options.sessionId, '--session-id') : randomUUID();
  const state = new SessionState({ sessionId, transcriptPath: defaultTranscriptPath(projectDir, sessionId), projectDir, cwd: projectDir, mode: options.permissionMode ?? 'default' });
  if (event !== 'SessionStart') state.promptId = randomUUID();

  const toolName = options.tool ?? (typeof override?.['tool_name'] === 'string' ? override['tool_name'] : undefined);
  const spec = eventSpec(event);
  if (spec.acceptsIf && toolName === undefined) throw new ConfigError(`hooks test ${event}: name the tool with --tool NAME (and its input with --input JSON), or pass --payload FILE`, { field: '--tool' });
  const toolInput = toolName === undefined ? undefined : normalizedInput(toolName, parseJsonOption('--input', options.input) ?? override?.['tool_input'] ?? {}, projectDir, notes);
  const fields = spec.example({ toolName, toolInput: toolInput ?? {}, response: parseJsonOption('--response', options.response), prompt: options.prompt, projectDir, toolUseId: `toolu_${randomBytes(12).toString('hex')}`, agentId: randomBytes(8).toString('hex'), tools: new ToolRegistry(builtinTools()).specs() });
  const payload: Record<string, unknown> = { ...(state.payload(event, fields as HookPayload<typeof event>) as Record<string, unknown>), ...override, hook_event_name: event };
  if (toolInput !== undefined && options.input !== undefined && 'tool_input' in payload) payload['tool_input'] = toolInput;

  const checked = spec.input.safeParse(payload);
  if (!checked.success) notes.push(`the payload is not what hookloop sends for ${event}: ${checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  return { event, payload, matchValue: matchValueOf(event, payload), matchField: spec.matchField, notes };
}

/** A built-in tool's input as hooks see it (absolute paths, defaults); other tools' inputs as given. */
function normalizedInput(toolName: string, input: unknown, projectDir: string, notes: string[]): Record<string, unknown> {
  const value = (input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const registry = new ToolRegistry(builtinTools());
  const tool = registry.get(toolName);
  if (tool === undefined) return value;
  const checked = registry.check(tool, value, { cwd: projectDir, projectDir });
  if (checked.ok) return structuredClone(checked.input) as Record<string, unknown>;
  notes.push(`${toolName} would reject this input before any hook ran (${checked.error.split('\n').slice(1).join('; ')}); the hooks get it as given`);
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

async function readPayload(source: string, event: string, stdin: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  const label = source === '-' ? 'stdin' : source;
  let text: string;
  try {
    text = source === '-' ? await readAll(stdin) : fs.readFileSync(source, 'utf8');
  } catch (error) {
    throw new ConfigError(`--payload ${label}: cannot read: ${describeError(error)}`, { file: source });
  }
  const candidates: unknown[] = [];
  try {
    candidates.push(JSON.parse(text));
  } catch {
    // Not one JSON document: read it as JSON lines (the output of `hooks record`).
    for (const line of text.split('\n').filter((entry) => entry.trim() !== '')) {
      try {
        candidates.push(JSON.parse(line));
      } catch (error) {
        throw new ConfigError(`--payload ${label}: neither a JSON object nor JSON lines: ${describeError(error)}`, { file: source });
      }
    }
  }
  const objects = candidates.filter((value): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value));
  const chosen = objects.find((value) => value['hook_event_name'] === event) ?? (objects.length === 1 && objects[0]?.['hook_event_name'] === undefined ? objects[0] : undefined);
  if (chosen === undefined) {
    const found = objects.map((value) => String(value['hook_event_name'])).join(', ') || 'no JSON object';
    throw new ConfigError(`--payload ${label}: no ${event} payload in it (found: ${found})`, { file: source });
  }
  return chosen;
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}
