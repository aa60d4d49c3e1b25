/**
 * The texts of a compaction: what the summarizer is asked, and how its summary opens the new
 * conversation. hookloop's own wording, shaped like Claude Code's:
 * extra instructions follow `Additional Instructions:`, the summary is taken from `<summary>` tags,
 * and the continuation starts with the sentence the reference's model sees.
 */

/**
 * The user text that asks the model for a summary. `instructions` (a manual compaction's own, then
 * the plain stdout of PreCompact hooks) are appended under `Additional Instructions:`.
 */
export function summaryRequest(instructions: readonly string[]): string {
  const base = `Your task is to create a detailed summary of the conversation so far. The summary replaces the conversation: the work will go on from it alone, so it must hold everything needed to continue without asking the user again.

Respond with text only. Do not call any tools.

First think it through inside <analysis> tags: go through the conversation in order and note each request of the user, what was done about it, the files, commands and code involved, the errors met and how they were fixed.

Then write the summary inside <summary> tags, with these sections:
1. Primary request and intent: what the user asked for, in detail.
2. Key technical concepts: technologies, frameworks and conventions that matter.
3. Files and code: every file read, created or changed, why it matters, and the snippets needed to continue.
4. Errors and fixes: each error and how it was resolved, with the user's feedback on it.
5. Problem solving: what was solved and what is still being investigated.
6. All user messages: every message of the user that is not a tool result.
7. Pending tasks: what was asked for and is not done yet.
8. Current work: precisely what was being done right before this summary.
9. Next step: the next step, only if it follows directly from the latest request; quote the request.`;
  const extra = instructions.map((text) => text.trim()).filter((text) => text.length > 0);
  return extra.length > 0 ? `${base}\n\nAdditional Instructions:\n${extra.join('\n\n')}` : base;
}

/** The summary in a summarizer's answer: the text inside `<summary>` tags, else the answer without its `<analysis>` part. */
export function extractSummary(answer: string): string {
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(answer)?.[1];
  const text = tagged ?? answer.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/, '');
  return text.trim();
}

/**
 * The user message that opens the compacted conversation. After an automatic compaction the
 * model is also told to carry on (nobody is there to say so); after a manual one the user speaks next.
 */
export function continuationMessage(summary: string, trigger: 'auto' | 'manual'): string {
  const opening = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n${summary}`;
  return trigger === 'auto'
    ? `${opening}\n\nContinue from where the conversation left off without asking the user any further questions: go on with the task that was in progress.`
    : opening;
}
