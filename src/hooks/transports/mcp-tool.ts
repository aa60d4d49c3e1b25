import { describeError } from '../../errors.js';
import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, RegisteredHandler } from '../handler.js';
import { handlerIdentity } from '../settings/load-settings.js';
import type { McpToolHandlerConfig } from '../settings/settings-schema.js';
import type { CommandProcessResult } from './command-process.js';
import { interpretCommandResult } from './command.js';
import { timeoutSignal, untilAborted } from './deadline.js';
import { timeoutSecondsFor } from './remote-handlers.js';

/** What a settings entry gives this file. */
export interface McpToolEntry {
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  readonly config: McpToolHandlerConfig;
  readonly origin: HandlerOrigin;
}

/**
 * `${tool_input.text}`-style placeholders in an `mcp_tool` handler's `input`, replaced from the
 * event payload (any dotted path: `${tool_input.file_path}`, `${session_id}`, `${prompt}`).
 * Strings get the value as text (objects as JSON); a path the payload lacks becomes "".
 * Only string values are rewritten, at any depth; keys are left as written.
 */
export function substituteHookInput(value: unknown, payload: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][\w.]*)\}/g, (_whole, dotted: string) => {
      let found: unknown = payload;
      for (const key of dotted.split('.'))
        found =
          found !== null && typeof found === 'object' ? (found as Record<string, unknown>)[key] : undefined;
      if (found === undefined || found === null) return '';
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substituteHookInput(item, payload));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteHookInput(item, payload)]),
    );
  return value;
}

/**
 * The RegisteredHandler of an `mcp_tool` hook: calls `tool` on the session's MCP `server` with the
 * substituted `input`, and reads the tool's text like a command hook's stdout when it is a JSON
 * object; plain text counts as the stdout `<Event> completed`, as Claude Code reports it. A result
 * with `isError` is a failing hook (exit code 1, its text as stderr). On SessionStart (startup) it
 * fails without calling the server, since Claude Code's servers are not up yet then. The session supplies the connection through `HookServices.callMcpTool`;
 * without one (no such server) the hook fails and is reported, like a command that cannot start.
 * Timeout: the handler's `timeout`, default 600 s as for command hooks.
 */
export function mcpToolHandler(id: number, entry: McpToolEntry): RegisteredHandler {
  const { event, config, origin } = entry;
  const timeoutMs = timeoutSecondsFor(event, config) * 1000;
  return {
    id,
    event,
    matcher: entry.matcher,
    condition: config.if,
    origin,
    identity: handlerIdentity(config),
    background: false,
    run: async (input, signal, services) => {
      const started = performance.now();
      const result = (fields: Partial<CommandProcessResult>): CommandProcessResult => ({
        exitCode: 0,
        signal: null,
        stdout: '',
        stderr: '',
        stdoutTruncated: false,
        stderrTruncated: false,
        timedOut: false,
        aborted: false,
        durationMs: Math.round(performance.now() - started),
        pid: undefined,
        ...fields,
      });
      const onFailure = config.onFailure;
      if (!services?.callMcpTool)
        return interpretCommandResult(
          event,
          origin,
          result({ exitCode: null, spawnError: `no MCP server "${config.server}" in this session` }),
          onFailure,
        );
      // Claude Code runs SessionStart's startup hooks before its MCP servers are up: an mcp_tool
      // hook there reaches no server (the server sees no call, the model no context).
      if (event === 'SessionStart' && input['source'] === 'startup') {
        return interpretCommandResult(
          event,
          origin,
          result({
            exitCode: null,
            spawnError: `MCP server "${config.server}" is not connected yet when SessionStart (startup) fires`,
          }),
          onFailure,
        );
      }
      const deadline = timeoutSignal(signal, timeoutMs);
      try {
        const arguments_ = substituteHookInput(config.input ?? {}, input) as Record<string, unknown>;
        const answer = await untilAborted(
          services.callMcpTool({
            server: config.server,
            tool: config.tool,
            input: arguments_,
            signal: deadline.signal,
          }),
          deadline.signal,
        );
        // JSON output counts as a command's; plain text is not passed on: Claude Code reports the
        // hook as "<Event> completed" instead (x-mcp-tool-ups).
        const stdout = isJsonObject(answer.text) ? answer.text : `${event} completed`;
        return interpretCommandResult(
          event,
          origin,
          answer.isError ? result({ exitCode: 1, stderr: answer.text }) : result({ stdout }),
          onFailure,
        );
      } catch (error) {
        if (deadline.timedOut())
          return interpretCommandResult(event, origin, result({ exitCode: null, timedOut: true }), onFailure);
        if (signal.aborted)
          return interpretCommandResult(event, origin, result({ exitCode: null, aborted: true }), onFailure);
        return interpretCommandResult(
          event,
          origin,
          result({ exitCode: null, spawnError: describeError(error) }),
          onFailure,
        );
      } finally {
        deadline.dispose();
      }
    },
  };
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
