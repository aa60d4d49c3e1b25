import { assistantMessage, type AssistantMessage } from '../messages/messages.js';

/**
 * One assistant message whose tool calls all have distinct ids, and which of them repeated an id.
 *
 * Why: every tool call gets exactly one paired result, found by its id — in the loop, in the
 * transcript `--resume` rebuilds from, and in the providers' APIs (Anthropic refuses a request whose
 * tool_use ids repeat). A model that sends two calls with one id would get its second call paired
 * with the first call's result on resume, a different conversation. So the message is made distinct
 * before it joins the conversation (and the transcript): the first call keeps its id, each later
 * call with the same id gets a fresh one and never runs (its result is an error saying why).
 */
export interface DistinctCalls {
  /** The message itself when no id repeats, else a copy with the repeats renamed. */
  readonly message: AssistantMessage;
  /** Each renamed call's new id → the id it repeated. Empty when none repeats. */
  readonly repeated: ReadonlyMap<string, string>;
}

/**
 * Renames every call whose id an earlier call of `message` already has to `<id>_duplicate<n>`
 * (n = 2, 3, … skipping any id the message already uses). Pure; never throws.
 */
export function distinctCallIds(message: AssistantMessage): DistinctCalls {
  const taken = new Set(message.toolCalls.map((call) => call.id));
  if (taken.size === message.toolCalls.length) return { message, repeated: new Map() };
  const seen = new Set<string>();
  const repeated = new Map<string, string>();
  const calls = message.toolCalls.map((call) => {
    if (!seen.has(call.id)) {
      seen.add(call.id);
      return call;
    }
    let suffix = 2;
    while (taken.has(`${call.id}_duplicate${suffix}`)) suffix++;
    const id = `${call.id}_duplicate${suffix}`;
    taken.add(id);
    repeated.set(id, call.id);
    return { ...call, id };
  });
  return { message: assistantMessage(message.text, calls), repeated };
}
