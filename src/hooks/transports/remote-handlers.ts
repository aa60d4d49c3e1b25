import { eventSpec, FAIL_CLOSED_EVENTS, type HookEventName } from '../event-table.js';
import type { HandlerOrigin, RegisteredHandler } from '../handler.js';
import { handlerIdentity } from '../settings/load-settings.js';
import type {
  AgentHandlerConfig,
  HandlerConfig,
  HttpHandlerConfig,
  PromptHandlerConfig,
} from '../settings/settings-schema.js';
import { runAgentHook } from './agent.js';
import { interpretHttpResult, postHttpHook } from './http.js';
import { runPromptHook } from './prompt.js';

/**
 * Settings handlers that are not processes: `http`, `prompt` and `agent`. Each becomes a
 * RegisteredHandler with the same dedupe identity, `if`, matcher and timeout rules as a command hook.
 */

/** The handler types this file builds. */
export type RemoteHandlerConfig = HttpHandlerConfig | PromptHandlerConfig | AgentHandlerConfig;

/** What a settings entry gives this file (see `ExternalHandlerEntry`). */
export interface RemoteEntry {
  readonly event: HookEventName;
  readonly matcher: string | undefined;
  readonly config: RemoteHandlerConfig;
  readonly origin: HandlerOrigin;
  /** Extra environment (a plugin's variables); http headers may interpolate from it. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Default timeouts in seconds (Claude Code docs): command and http 600, UserPromptSubmit command
 * hooks 30, prompt 30, agent 60; SessionEnd hooks share a 1.5 s budget unless one asks for more (≤ 60).
 */
export function timeoutSecondsFor(
  event: HookEventName,
  config: Pick<HandlerConfig, 'type' | 'timeout'>,
): number {
  const timeouts = eventSpec(event).timeouts;
  const fallback =
    config.type === 'prompt'
      ? 30
      : config.type === 'agent'
        ? 60
        : config.type === 'command'
          ? (timeouts.command ?? 600)
          : 600;
  if (timeouts.clamp)
    return Math.min(Math.max(config.timeout ?? timeouts.clamp.min, timeouts.clamp.min), timeouts.clamp.max);
  return config.timeout ?? fallback;
}

/**
 * Events whose merge honours `onFailure: "block"`: a failing handler there blocks (refuses the call,
 * the prompt, the stop…); the event table's `failClosed` entries. On the other events nothing can
 * block, so the setting has no effect.
 */
export { FAIL_CLOSED_EVENTS };

/** One line per setting of `entry` that cannot work where it is (to print at registration). */
export function handlerWarnings(event: HookEventName, config: HandlerConfig, where: string): string[] {
  const warnings: string[] = [];
  if ('onFailure' in config && config.onFailure === 'block' && !FAIL_CLOSED_EVENTS.has(event)) {
    warnings.push(
      `${where}: onFailure "block" has no effect on ${event}, which cannot block; a failure there is reported and ignored`,
    );
  }
  if ((config.type === 'prompt' || config.type === 'agent') && config.model !== undefined) {
    warnings.push(
      `${where}: "model" is not used: hookloop asks the session's model for ${config.type} hooks`,
    );
  }
  return warnings;
}

/** The RegisteredHandler for an http, prompt or agent entry. */
export function remoteHandler(id: number, entry: RemoteEntry): RegisteredHandler {
  const { event, config, origin } = entry;
  const timeoutMs = timeoutSecondsFor(event, config) * 1000;
  const common = {
    id,
    event,
    matcher: entry.matcher,
    condition: config.if,
    origin,
    identity: handlerIdentity(config),
    background: false,
  };
  switch (config.type) {
    case 'http':
      return {
        ...common,
        run: async (input, signal, services) => {
          const env = entry.env === undefined ? process.env : { ...process.env, ...entry.env };
          const result = await postHttpHook(config, JSON.stringify(input), {
            signal,
            timeoutMs,
            env,
            ...(services?.traceparent !== undefined ? { traceparent: services.traceparent } : {}),
          });
          return interpretHttpResult(event, origin, result, config.onFailure);
        },
      };
    case 'prompt':
      return {
        ...common,
        run: (input, signal, services) =>
          runPromptHook(event, config, origin, input, { signal, timeoutMs, services }),
      };
    case 'agent':
      return {
        ...common,
        run: (input, signal, services) =>
          runAgentHook(event, config, origin, input, { signal, timeoutMs, services }),
      };
  }
}

/** The text a handler is named by in labels: the URL of an http hook, the prompt of a prompt or agent hook. */
export function remoteLabel(config: RemoteHandlerConfig): string {
  return config.type === 'http' ? config.url : config.prompt;
}
