import { ConfigError } from '../errors.js';
import { isHookEventName, type HookEventName } from '../hooks/event-names.js';
import type { HookInput } from '../hooks/event-schemas.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import { readExternalOutput } from '../hooks/read-external-output.js';
import type { HookCallback, HookCallbackMatcher, HookInput as SdkHookInput } from './sdk-types.js';

/**
 * Registers the Agent SDK's `hooks` option on `engine`, one in-process hook per callback, in the
 * option's order (events, then matchers, then callbacks), so that they fire where every other hook
 * of the session fires. Each callback gets Claude Code's event payload, the call's `tool_use_id`
 * (undefined outside tool events) and `{ signal }`; its answer is read as Claude Code reads a
 * hook's JSON (fields it does not know are dropped, as Claude Code ignores them; `{ async: true }`
 * is no opinion). A callback that throws or answers something unreadable fails as an in-process
 * hook does: closed at PreToolUse, PermissionRequest and UserPromptSubmit, reported elsewhere.
 * @throws ConfigError naming `hooks.<Event>` for an event hookloop does not fire, and
 *   `hooks.<Event>[i]` for a matcher without a `hooks` array of functions or with a bad `timeout`.
 */
export function registerSdkHooks(
  engine: HookEngine,
  hooks: Readonly<Record<string, readonly HookCallbackMatcher[] | undefined>>,
): void {
  for (const [event, matchers] of Object.entries(hooks)) {
    if (matchers === undefined) continue;
    if (!isHookEventName(event))
      throw new ConfigError(`query() options.hooks.${event}: hookloop does not fire ${event} hooks`, {
        field: `hooks.${event}`,
      });
    if (!Array.isArray(matchers))
      throw new ConfigError(`query() options.hooks.${event}: expected an array of matchers`, {
        field: `hooks.${event}`,
      });
    matchers.forEach((group, index) => registerMatcher(engine, event, group, `hooks.${event}[${index}]`));
  }
}

function registerMatcher(
  engine: HookEngine,
  event: HookEventName,
  group: HookCallbackMatcher,
  field: string,
): void {
  const callbacks: unknown = group?.hooks;
  if (!Array.isArray(callbacks) || callbacks.some((callback) => typeof callback !== 'function'))
    throw new ConfigError(`query() options.${field}.hooks: expected an array of functions`, { field });
  if (group.timeout !== undefined && !(typeof group.timeout === 'number' && group.timeout > 0))
    throw new ConfigError(`query() options.${field}.timeout: expected a positive number of seconds`, {
      field,
    });
  for (const callback of callbacks as HookCallback[]) {
    engine.on(
      event,
      {
        ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
        ...(group.timeout !== undefined ? { timeout: group.timeout } : {}),
        name: callback.name || 'agent-sdk hook',
      },
      async (input: Readonly<HookInput<typeof event>>, { signal }) => {
        const toolUseId = (input as { tool_use_id?: unknown }).tool_use_id;
        const answer: unknown = await callback(
          input as SdkHookInput,
          typeof toolUseId === 'string' ? toolUseId : undefined,
          { signal },
        );
        if (answer === undefined || answer === null) return undefined;
        if (typeof answer === 'object' && (answer as { async?: unknown }).async === true) return undefined;
        const read = readExternalOutput(event, answer);
        if (!read.ok) throw new Error(read.error);
        return read.output;
      },
    );
  }
}
