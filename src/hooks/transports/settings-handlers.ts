import { eventSpec, type HookEventName } from '../event-table.js';
import type { HookEngine, Unregister } from '../hook-engine.js';
import type { HandlerOrigin, RegisteredHandler } from '../handler.js';
import { handlerIdentity } from '../settings/load-settings.js';
import type { HandlerConfig } from '../settings/settings-schema.js';
import { prepareSessionEnvFile } from '../session-env.js';
import { resolveConfigDir } from '../../session/paths.js';
import { runCommandProcess, hookEnvironment } from './command-process.js';
import { interpretCommandResult } from './command.js';
import { mcpToolHandler } from './mcp-tool.js';
import { PersistentHookPool } from './persistent-command.js';
import { handlerWarnings, remoteHandler, remoteLabel, timeoutSecondsFor } from './remote-handlers.js';

/** A handler from a settings file, as the settings loader returns it. */
export interface ExternalHandlerEntry {
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  readonly config: HandlerConfig;
  /** `plugin`: the name of the plugin that brought the handler, when one did. */
  readonly source: { readonly file: string; readonly plugin?: string };
  readonly groupIndex?: number;
  readonly handlerIndex?: number;
  /** Extra environment of this handler's process, e.g. a plugin's `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Registers the settings handlers on `engine`, in settings order, and returns one function that
 * removes them all plus warnings to print: one per setting that cannot work where it is (see `handlerWarnings`).
 * `http`, `prompt` and `agent` handlers are built by remote-handlers.ts, `mcp_tool` ones by mcp-tool.ts; prompt and agent hooks
 * get the session's model from each fire (`FireOptions.services`).
 *
 * A command hook gets the event JSON on stdin, runs in the event's `cwd` with the Claude Code
 * environment (`CLAUDE_PROJECT_DIR` = `projectDir`, session id and effort taken from the payload;
 * SessionStart hooks also `CLAUDE_ENV_FILE` under `<configDir>/session-env/`, `configDir` defaulting
 * to `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`; see session-env.ts), and is killed with its process
 * group after its `timeout` (seconds).
 */
export function registerSettingsHandlers(
  engine: HookEngine,
  entries: readonly ExternalHandlerEntry[],
  projectDir: string,
  options: { readonly configDir?: string } = {},
): { unregister: Unregister; warnings: string[] } {
  const configDir = resolveConfigDir(options.configDir);
  const removers: Unregister[] = [];
  const warnings: string[] = [];
  const envFileHooks = new Map<HookEventName, number>();
  let persistentHooks: PersistentHookPool | undefined;
  for (const entry of entries) {
    const location = `${entry.source.file}: hooks.${entry.event}[${entry.groupIndex ?? 0}].hooks[${entry.handlerIndex ?? 0}]`;
    const config = entry.config;
    if (config.type === 'mcp_tool') {
      const origin: HandlerOrigin = {
        transport: 'mcp_tool',
        text: `${config.server} ${config.tool}`,
        source: entry.source.file,
        location,
      };
      removers.push(
        engine.add(
          mcpToolHandler(engine.allocateId(), { event: entry.event, matcher: entry.matcher, config, origin }),
        ),
      );
      continue;
    }
    warnings.push(...handlerWarnings(entry.event, config, location));
    if (config.type !== 'command') {
      const origin: HandlerOrigin = {
        transport: config.type,
        text: remoteLabel(config),
        source: entry.source.file,
        location,
      };
      removers.push(
        engine.add(
          remoteHandler(engine.allocateId(), {
            event: entry.event,
            matcher: entry.matcher,
            config,
            origin,
            ...(entry.env ? { env: entry.env } : {}),
          }),
        ),
      );
      continue;
    }
    const origin: HandlerOrigin = {
      transport: 'command',
      text: config.command,
      source: entry.source.file,
      location,
      // Every plugin hookloop loads comes from --plugin-dir, which Claude Code files under `inline`.
      ...(entry.source.plugin !== undefined ? { plugin: `${entry.source.plugin}@inline` } : {}),
    };
    const event = entry.event;
    const timeoutSeconds = timeoutSecondsFor(event, config);
    // SessionStart hooks (the table's `envFile` events) each get their own CLAUDE_ENV_FILE, numbered in settings order as Claude Code does.
    const envFileIndex = eventSpec(event).envFile ? nextIndex(envFileHooks, event) : undefined;
    // hookloop extension: one process for the session, one event a line (persistent-command.ts).
    const persistent =
      config.persistent === true
        ? {
            pool: (persistentHooks ??= new PersistentHookPool(projectDir)),
            hook: {
              event,
              origin,
              config,
              identity: handlerIdentity(config),
              timeoutMs: timeoutSeconds * 1000,
              ...(entry.env ? { env: entry.env } : {}),
            },
          }
        : undefined;
    const handler: RegisteredHandler = {
      id: engine.allocateId(),
      event,
      matcher: entry.matcher,
      condition: config.if,
      origin,
      identity: handlerIdentity(config),
      background: config.async === true || config.asyncRewake === true,
      rewake: config.asyncRewake === true,
      run: async (input, signal, services) => {
        if (persistent) return persistent.pool.invoke(persistent.hook, input, signal);
        const payload = input as { cwd: string; session_id: string; effort?: { level?: string } };
        const result = await runCommandProcess(config, {
          stdin: JSON.stringify(input),
          cwd: payload.cwd,
          env: hookEnvironment(entry.env === undefined ? process.env : { ...process.env, ...entry.env }, {
            projectDir,
            sessionId: payload.session_id,
            cwd: payload.cwd,
            ...(payload.effort?.level ? { effort: payload.effort.level } : {}),
            ...(envFileIndex !== undefined
              ? { envFile: prepareSessionEnvFile(configDir, payload.session_id, event, envFileIndex) }
              : {}),
            ...(services?.traceparent !== undefined ? { traceparent: services.traceparent } : {}),
          }),
          timeoutMs: timeoutSeconds * 1000,
          signal,
        });
        return interpretCommandResult(event, origin, result, config.onFailure);
      },
    };
    removers.push(engine.add(handler));
  }
  return {
    unregister: () => {
      removers.forEach((remove) => remove());
      void persistentHooks?.close();
    },
    warnings,
  };
}

function nextIndex(counters: Map<HookEventName, number>, event: HookEventName): number {
  const index = counters.get(event) ?? 0;
  counters.set(event, index + 1);
  return index;
}
