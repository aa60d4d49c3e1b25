/**
 * Puts a reference trace and a hookloop trace in the shape `compareTraces` should judge:
 * Claude Code's own model-visible text is left out (only hook-labelled text and the prompt are
 * hookloop's business), and the placeholders the recorded traces use for Claude Code's own wording
 * (`<claude-code text>`, `<machine-path>`) match whatever hookloop put in their place.
 */
import type { ModelRequestView, Trace } from './reference-tools.js';

/** Paragraphs that stand for Claude Code's own text in a recorded trace. */
const OWN_TEXT_PARAGRAPHS = new Set([
  '<environment preamble>',
  '<attribution reminder>',
  '<claude-code text>',
  "Today's date is <date>.",
]);

/**
 * Whole text blocks Claude Code adds on its own that the recording left unredacted: the "keep the
 * user updated" nudge (tools-read-write-edit) and the working-directory notice after a `cd`
 * (hook-env-cwd-stdin). hookloop sends neither.
 */
const OWN_TEXT_BLOCKS = [/^The user hasn't heard from you in a while\./, /^# Environment update\n/];

/** A paragraph a hook caused, in the labels Claude Code gives them (`PreToolUse:Bash hook additional context: …`, `Stop hook feedback:\n…`). */
const HOOK_LABELLED =
  /^(?:<system-reminder>\n)?[A-Z][A-Za-z]*(?::\S+)? hook (?:additional context|success|error|blocking error|feedback)\b|^The PermissionDenied hook indicated/;

/** Placeholders that stand for any text at their position (the rest of the string must match literally). */
const WILDCARDS = ['<claude-code text>', '<machine-path>'];

/**
 * The model-visible text of one request as the comparison sees it. A block that holds any
 * Claude Code placeholder was composed by Claude Code: only its hook-labelled paragraphs are kept.
 * Known Claude Code blocks are dropped; every other block (the prompt, hookloop's own hook text) stays.
 */
export function hookTextOnly(texts: readonly string[] | undefined): string[] {
  const kept: string[] = [];
  for (const text of texts ?? []) {
    if (OWN_TEXT_BLOCKS.some((pattern) => pattern.test(text))) continue;
    const memory = memoryFiles(text);
    if (memory !== undefined) {
      kept.push(memory);
      continue;
    }
    const paragraphs = text.split('\n\n');
    if (!paragraphs.some((paragraph) => OWN_TEXT_PARAGRAPHS.has(paragraph))) {
      kept.push(text);
      continue;
    }
    const labelled = paragraphs.filter((paragraph) => HOOK_LABELLED.test(paragraph));
    if (labelled.length > 0) kept.push(labelled.join('\n\n'));
  }
  return kept;
}

/**
 * The memory reminder (CLAUDE.md and the rest) as compared: the `Contents of <path> (<kind>):`
 * sections and the files' text, without the opening sentence, which is each agent's own (Claude
 * Code's is recorded as `<claude-code text>`). Undefined for any other block.
 */
function memoryFiles(text: string): string | undefined {
  const start = text.indexOf('\n\nContents of ');
  if (
    start < 0 ||
    !text.endsWith('\n</system-reminder>') ||
    !/^(<system-reminder>\n|<claude-code text>\n\n)/.test(text)
  )
    return undefined;
  return `<memory>\n${text.slice(start + 2, -'\n</system-reminder>'.length)}`;
}

function textView(request: ModelRequestView): ModelRequestView {
  return {
    ...request,
    extraText: hookTextOnly(request.extraText),
    systemText: hookTextOnly(request.systemText),
  };
}

/** A reference string with placeholders as a pattern; undefined when it holds none. */
function wildcardPattern(text: string): RegExp | undefined {
  if (!WILDCARDS.some((wildcard) => text.includes(wildcard))) return undefined;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = WILDCARDS.reduce((pattern, wildcard) => pattern.split(wildcard).join('[\\s\\S]*'), escaped);
  return new RegExp(`^${source}$`);
}

/** Walks reference and hookloop values side by side; a reference string whose placeholders match the hookloop string is replaced by it. */
function reconcile(reference: unknown, ours: unknown): unknown {
  if (typeof reference === 'string') {
    const pattern = wildcardPattern(reference);
    return pattern && typeof ours === 'string' && pattern.test(ours) ? ours : reference;
  }
  if (Array.isArray(reference))
    return reference.map((item, index) => reconcile(item, Array.isArray(ours) ? ours[index] : undefined));
  if (reference && typeof reference === 'object') {
    const other =
      ours && typeof ours === 'object' && !Array.isArray(ours) ? (ours as Record<string, unknown>) : {};
    return Object.fromEntries(
      Object.entries(reference).map(([key, value]) => [key, reconcile(value, other[key])]),
    );
  }
  return reference;
}

/** Hook calls of the reference with placeholders reconciled against hookloop's call of the same event and position (compare.mjs pairs them so). */
function reconcileHookCalls(reference: Trace['hookCalls'], ours: Trace['hookCalls']): Trace['hookCalls'] {
  const seen = new Map<string, number>();
  const ourByEvent = new Map<string, Trace['hookCalls']>();
  for (const call of ours) ourByEvent.set(call.event, [...(ourByEvent.get(call.event) ?? []), call]);
  return reference.map((call) => {
    const position = seen.get(call.event) ?? 0;
    seen.set(call.event, position + 1);
    const counterpart = ourByEvent.get(call.event)?.[position];
    return counterpart ? (reconcile(call, counterpart) as Trace['hookCalls'][number]) : call;
  });
}

/** The two traces as compared: text views on both sides, placeholders reconciled on the reference side. */
export function comparableTraces(reference: Trace, ours: Trace): { reference: Trace; ours: Trace } {
  const oursView: Trace = { ...ours, modelRequests: ours.modelRequests.map(textView) };
  const referenceView: Trace = {
    ...reference,
    hookCalls: reconcileHookCalls(reference.hookCalls, ours.hookCalls),
    modelRequests: reference.modelRequests
      .map(textView)
      .map((request, index) => reconcile(request, oursView.modelRequests[index]) as ModelRequestView),
  };
  return { reference: referenceView, ours: oursView };
}
