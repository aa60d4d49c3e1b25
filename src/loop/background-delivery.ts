import { fromLabel } from '../hooks/handler.js';
import { systemMessage } from '../messages/messages.js';
import { backgroundBlock } from './hook-text.js';
import { appendMessage, type RunContext } from './run-context.js';

/**
 * Background (`async`) hooks reach the model only through these two phases (async-hook):
 * their answers wait in `run.background` and are delivered before the next model request.
 */

/**
 * Appends what background hooks left since the last request as one system message: each
 * `additionalContext` as bare text (no label, as the reference), each `asyncRewake` block as
 * `<Event>[:<Tool>] hook blocking error from command: "<cmd>": <reason>`, then each background
 * subagent's `<task-notification>`. Nothing when there is nothing.
 */
export function deliverBackground(run: RunContext): void {
  const texts: string[] = [];
  for (const delivery of run.background.take()) {
    if (delivery.context !== undefined) texts.push(delivery.context);
    if (delivery.block !== undefined)
      texts.push(
        backgroundBlock(
          delivery.event,
          delivery.toolName,
          `${fromLabel(delivery.origin)}: ${delivery.block}`,
        ),
      );
  }
  // Background subagents' results, each in its own notification.
  texts.push(...run.background.takeNotices());
  if (texts.length > 0) appendMessage(run, systemMessage(texts.join('\n\n')));
}

/**
 * When the model has stopped: waits for `asyncRewake` hooks still running (each bounded by its own
 * timeout). True when one of them blocked: its text is delivered and the model takes another turn.
 */
export async function wokenByBackground(run: RunContext): Promise<boolean> {
  if (!run.background.rewakePending && !run.background.wakeupPending) return false;
  await run.background.waitForRewake(run.signal);
  if (!run.background.wakeupPending || run.signal.aborted) return false;
  deliverBackground(run);
  return true;
}
