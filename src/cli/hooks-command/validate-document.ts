import fs from 'node:fs';
import { ConfigError, describeError } from '../../errors.js';
import {
  EXTENSION_EVENTS,
  HOOK_EVENT_NAMES,
  isHookEventName,
  REFERENCE_ONLY_EVENTS,
  TOOL_EVENTS,
} from '../../hooks/event-names.js';
import { compileMatcher } from '../../hooks/matcher.js';
import { closestName } from '../../hooks/settings/closest-name.js';
import { describeValue, formatPath, parseJson, valueAt } from '../../hooks/settings/load-settings.js';
import {
  agentHandlerSchema,
  commandHandlerSchema,
  httpHandlerSchema,
  mcpToolHandlerSchema,
  promptHandlerSchema,
  settingsFileSchema,
  type CommandHandlerConfig,
  type HandlerConfig,
} from '../../hooks/settings/settings-schema.js';
import { handlerWarnings } from '../../hooks/transports/remote-handlers.js';
import { parseRule } from '../../permissions/rule.js';
import { checkCommand, type CommandContext } from './check-command.js';
import { KNOWN_TOOL_NAMES } from './known-tools.js';
import type { ValidationProblem } from './validation-problem.js';
import { httpUrlProblem, settingsProblems } from './validate-settings.js';

// The location handlerWarnings prefixes its lines with; validate gives the path separately.
const RUN_LABEL = 'handler';

/**
 * `hooks validate`'s checks of one settings-format document (a settings file, a plugin's hooks
 * file, a manifest's inline hooks): all its problems, not only the first.
 */

const HANDLER_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  [
    commandHandlerSchema,
    httpHandlerSchema,
    promptHandlerSchema,
    agentHandlerSchema,
    mcpToolHandlerSchema,
  ].map((schema) => [schema.shape.type.value, new Set(Object.keys(schema.shape))]),
);

/** Reads and checks one file (a missing or unreadable file is one error). */
export async function validateFile(file: string, context: CommandContext): Promise<ValidationProblem[]> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return [
      {
        severity: 'error',
        file,
        path: '',
        message:
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'no such file'
            : `cannot read: ${describeError(error)}`,
      },
    ];
  }
  return validateText(text, file, context);
}

/** Parses and checks one document's text; `file` labels its problems. */
export async function validateText(
  text: string,
  file: string,
  context: CommandContext,
): Promise<ValidationProblem[]> {
  let data: unknown;
  try {
    data = parseJson(text, file);
  } catch (error) {
    return [{ severity: 'error', file, path: '', message: describeError(error).replace(`${file}: `, '') }];
  }
  return validateData(data, file, context);
}

/** Every check of one settings-format document (settings file, hooks file, or a manifest's inline hooks wrapped as `{hooks}`). */
export async function validateData(
  data: unknown,
  file: string,
  context: CommandContext,
): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  const add = (
    severity: ValidationProblem['severity'],
    segments: readonly PropertyKey[],
    message: string,
    extra: { expected?: string; got?: string } = {},
  ) => problems.push({ severity, file, path: formatPath(segments), message, ...extra });

  const parsed = settingsFileSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const got = describeValue(valueAt(data, issue.path));
      add('error', issue.path, `expected ${issue.message}, got ${got}`, { expected: issue.message, got });
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return problems;
  const root = data as Record<string, unknown>;
  for (const key of Object.keys(root)) {
    if (isHookEventName(key) || (REFERENCE_ONLY_EVENTS as readonly string[]).includes(key)) {
      add('error', [key], `hook events belong under a top-level "hooks" key: {"hooks": {"${key}": [...]}}`);
    }
  }
  problems.push(...settingsProblems(root, file));
  const hooks = root['hooks'];
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return problems;
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if ((REFERENCE_ONLY_EVENTS as readonly string[]).includes(event)) {
      add('warning', ['hooks', event], `hookloop does not fire ${event}; its handlers are ignored`);
    } else if (isHookEventName(event) && EXTENSION_EVENTS.has(event)) {
      add(
        'warning',
        ['hooks', event],
        `${event} is a hookloop extension (docs/hooks.md): Claude Code does not fire it, so under Claude Code these handlers never run`,
      );
    } else if (!isHookEventName(event)) {
      const close = closestName(event, [...HOOK_EVENT_NAMES, ...REFERENCE_ONLY_EVENTS]);
      const expected = `one of ${HOOK_EVENT_NAMES.join(', ')}`;
      add(
        'error',
        ['hooks', event],
        `unknown hook event ${JSON.stringify(event)}${close === undefined ? '' : ` (did you mean ${close}?)`}; expected ${expected}`,
        { expected, got: JSON.stringify(event) },
      );
      continue;
    }
    if (!Array.isArray(groups)) continue;
    for (const [groupIndex, group] of groups.entries()) {
      if (group === null || typeof group !== 'object') continue;
      const at = ['hooks', event, groupIndex];
      problems.push(...checkMatcher((group as Record<string, unknown>)['matcher'], event, file, at));
      const handlers = (group as Record<string, unknown>)['hooks'];
      if (!Array.isArray(handlers)) continue;
      for (const [handlerIndex, handler] of handlers.entries()) {
        if (handler !== null && typeof handler === 'object')
          problems.push(
            ...(await checkHandler(
              handler as Record<string, unknown>,
              event,
              file,
              [...at, 'hooks', handlerIndex],
              context,
            )),
          );
      }
    }
  }
  return problems;
}

function checkMatcher(
  matcher: unknown,
  event: string,
  file: string,
  at: readonly PropertyKey[],
): ValidationProblem[] {
  if (typeof matcher !== 'string') return [];
  const where = formatPath([...at, 'matcher']);
  let kind: string;
  try {
    kind = compileMatcher(matcher).kind;
  } catch (error) {
    return [{ severity: 'error', file, path: where, message: describeError(error) }];
  }
  if (kind !== 'names' || !TOOL_EVENTS.has(event)) return [];
  const problems: ValidationProblem[] = [];
  for (const name of matcher
    .split(/[|,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    if (KNOWN_TOOL_NAMES.includes(name) || name.startsWith('mcp__')) continue;
    const close = KNOWN_TOOL_NAMES.find((tool) => tool.toLowerCase() === name.toLowerCase());
    if (close !== undefined)
      problems.push({
        severity: 'warning',
        file,
        path: where,
        message: `"${name}" never matches: matchers are case-sensitive (did you mean ${close}?)`,
      });
  }
  return problems;
}

async function checkHandler(
  handler: Record<string, unknown>,
  event: string,
  file: string,
  at: readonly PropertyKey[],
  context: CommandContext,
): Promise<ValidationProblem[]> {
  const problems: ValidationProblem[] = [];
  const add = (severity: ValidationProblem['severity'], field: string, message: string) =>
    problems.push({ severity, file, path: formatPath([...at, field]), message });
  const known = HANDLER_FIELDS[String(handler['type'])];
  if (known !== undefined) {
    for (const key of Object.keys(handler))
      if (!known.has(key))
        add('warning', key, `unknown field of a "${String(handler['type'])}" handler; it is ignored`);
  }
  const condition = handler['if'];
  if (typeof condition === 'string') {
    try {
      parseRule(condition);
      if (!TOOL_EVENTS.has(event))
        add(
          'warning',
          'if',
          `this handler never runs: "if" is evaluated on tool events only (${[...TOOL_EVENTS].join(', ')})`,
        );
    } catch (error) {
      add('error', 'if', error instanceof ConfigError ? error.message : describeError(error));
    }
  }
  const url = handler['type'] === 'http' ? httpUrlProblem(handler['url']) : undefined;
  if (url !== undefined) add('error', 'url', url);
  // What a run warns about when it registers the handler (e.g. onFailure "block" on an event that cannot block).
  if (isHookEventName(event) && known !== undefined) {
    for (const warning of handlerWarnings(event, handler as unknown as HandlerConfig, RUN_LABEL)) {
      const message = warning.slice(`${RUN_LABEL}: `.length);
      add(
        'warning',
        message.startsWith('"model"') ? 'model' : message.startsWith('onFailure') ? 'onFailure' : 'type',
        message,
      );
    }
  }
  if (handler['type'] === 'command' && typeof handler['command'] === 'string' && handler['command'] !== '') {
    for (const problem of await checkCommand(handler as unknown as CommandHandlerConfig, context))
      add(problem.severity, 'command', problem.message);
  }
  return problems;
}
