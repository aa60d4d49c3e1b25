import os from 'node:os';
import type { HookEventName } from '../event-names.js';
import type { HookEngine, Unregister } from '../hook-engine.js';
import type { HandlerOrigin, RegisteredHandler } from '../handler.js';
import { handlerIdentity } from '../settings/load-settings.js';
import type { CommandHandlerConfig } from '../settings/settings-schema.js';
import { prepareSessionEnvFile } from '../session-env.js';
import { runCommandProcess, hookEnvironment } from './command-process.js';
import { interpretCommandResult } from './command.js';

/** A handler from a settings file, as the settings loader returns it. */
export interface ExternalHandlerEntry {
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  readonly config: { readonly type: string; readonly if?: string | undefined; readonly timeout?: number | undefined };
  readonly source: { readonly file: string };
  readonly groupIndex?: number;
  readonly handlerIndex?: number;
  /** Extra environment of this handler's process, e.g. a plugin's `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Default timeouts in seconds (Claude Code docs): 600 for command hooks, 30 for UserPromptSubmit, 1.5 for SessionEnd. */
export function defaultTimeoutSeconds(event: HookEventName): number {
  if (event === 'SessionEnd') return 1.5;
  if (event === 'UserPromptSubmit') return 30;
  return 600;
}

/**
 * Registers the settings handlers hookloop can run (command hooks) on `engine`, in settings order,
 * and returns one function that removes them all plus a warning per handler it had to skip
 * (http, prompt, agent and mcp_tool handlers are not run yet).
 *
 * A command hook gets the event JSON on stdin, runs in the event's `cwd` with the Claude Code
 * environment (`CLAUDE_PROJECT_DIR` = `projectDir`, session id and effort taken from the payload;
 * SessionStart hooks also `CLAUDE_ENV_FILE`, see session-env.ts), and is killed with its process
 * group after its `timeout` (seconds).
 */
export function registerSettingsHandlers(engine: HookEngine, entries: readonly ExternalHandlerEntry[], projectDir: string): { unregister: Unregister; warnings: string[] } {
  const removers: Unregister[] = [];
  const warnings: string[] = [];
  let sessionStartHooks = 0;
  for (const entry of entries) {
    if (entry.config.type !== 'command') {
      warnings.push(`${entry.source.file}: hooks.${entry.event}: "${entry.config.type}" handlers are not supported yet; this one is skipped`);
      continue;
    }
    const config = entry.config as CommandHandlerConfig;
    const origin: HandlerOrigin = {
      transport: 'command',
      text: config.command,
      source: entry.source.file,
      location: `${entry.source.file}: hooks.${entry.event}[${entry.groupIndex ?? 0}].hooks[${entry.handlerIndex ?? 0}]`,
    };
    const event = entry.event;
    const timeoutSeconds = event === 'SessionEnd' ? Math.min(Math.max(config.timeout ?? 1.5, 1.5), 60) : (config.timeout ?? defaultTimeoutSeconds(event));
    // SessionStart hooks each get their own CLAUDE_ENV_FILE, numbered in settings order as Claude Code does.
    const envFileIndex = event === 'SessionStart' ? sessionStartHooks++ : undefined;
    const handler: RegisteredHandler = {
      id: engine.allocateId(),
      event,
      matcher: entry.matcher,
      condition: config.if,
      origin,
      identity: handlerIdentity(config),
      background: config.async === true,
      run: async (input, signal) => {
        const payload = input as { cwd: string; session_id: string; effort?: { level?: string } };
        const result = await runCommandProcess(config, {
          stdin: JSON.stringify(input),
          cwd: payload.cwd,
          env: hookEnvironment(entry.env === undefined ? process.env : { ...process.env, ...entry.env }, {
            projectDir,
            sessionId: payload.session_id,
            cwd: payload.cwd,
            ...(payload.effort?.level ? { effort: payload.effort.level } : {}),
            ...(envFileIndex !== undefined ? { envFile: prepareSessionEnvFile(os.homedir(), payload.session_id, event, envFileIndex) } : {}),
          }),
          timeoutMs: timeoutSeconds * 1000,
          signal,
        });
        return interpretCommandResult(event, origin, result, config.onFailure);
      },
    };
    removers.push(engine.add(handler));
  }
  return { unregister: () => removers.forEach((remove) => remove()), warnings };
}
