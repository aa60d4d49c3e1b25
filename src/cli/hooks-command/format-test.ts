import path from 'node:path';
import type { HandlerAnswer, HookTestReport, TestedHandler } from './test-event.js';

/**
 * The text form of `hooks test`: the event and its payload, each configured handler (what it
 * answered, raw and as read, or why it did not run), then the merged decision.
 */
export function formatTestReport(report: HookTestReport, cwd: string): string {
  const lines: string[] = [];
  const subject =
    report.matchValue === undefined
      ? report.event
      : `${report.event} for ${report.matchField === 'tool_name' ? 'tool' : report.matchField} ${report.matchValue}`;
  lines.push(subject, `payload: ${JSON.stringify(report.payload)}`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  for (const handler of report.handlers) lines.push('', ...formatHandler(handler, cwd));
  if (report.nothingMatched !== undefined) lines.push('', report.nothingMatched);
  lines.push('', ...formatVerdict(report));
  return `${lines.join('\n')}\n`;
}

function formatHandler(handler: TestedHandler, cwd: string): string[] {
  const relative = path.relative(cwd, handler.source.file);
  const file = relative.startsWith('..') || path.isAbsolute(relative) ? handler.source.file : relative;
  const from = handler.source.plugin !== undefined ? `plugin ${handler.source.plugin}: ${file}` : file;
  const head = `#${handler.index} ${handler.handler}${handler.async ? ' (async)' : ''}  [${from} ${handler.location}]`;
  if (handler.status === 'skipped') return [head, `   not run: ${handler.why ?? ''}`];
  if (handler.answer === undefined) return [head, '   ran, no answer recorded'];
  return [head, ...formatAnswer(handler.answer, handler.async).map((line) => `   ${line}`)];
}

function formatAnswer(answer: HandlerAnswer, async: boolean): string[] {
  const lines: string[] = [];
  const ended =
    answer.exitCode !== undefined && answer.exitCode !== null
      ? `exit code ${answer.exitCode}`
      : answer.signal
        ? `killed by ${answer.signal}`
        : answer.outcome;
  lines.push(`${ended} in ${answer.durationMs} ms`);
  if (answer.stdout !== undefined) lines.push(...block('stdout', answer.stdout));
  if (answer.stderr !== undefined) lines.push(...block('stderr', answer.stderr));
  lines.push(
    `read as: ${describeReading(answer)}${async ? ' (async: not part of the merged decision)' : ''}`,
  );
  if (answer.warning !== undefined) lines.push(`warning: ${answer.warning}`);
  return lines;
}

function describeReading(answer: HandlerAnswer): string {
  switch (answer.outcome) {
    case 'blocked':
      return `blocking error (exit 2): ${(answer.blockMessage ?? '').trimEnd()}${Object.keys(answer.output).length > 0 ? `; JSON kept: ${JSON.stringify(answer.output)}` : ''}`;
    case 'failed':
    case 'timeout':
      return `${answer.outcome === 'timeout' ? 'timed out' : 'failed'}, ${answer.failClosed ? 'blocking (fails closed)' : 'non-blocking'}: ${answer.error ?? ''}${Object.keys(answer.output).length > 0 ? `; its JSON output still counts: ${JSON.stringify(answer.output)}` : ''}`;
    case 'ok':
      if (Object.keys(answer.output).length > 0) return `JSON output ${JSON.stringify(answer.output)}`;
      return answer.plainText !== undefined
        ? `plain text (context for SessionStart/UserPromptSubmit only): ${JSON.stringify(answer.plainText)}`
        : 'no opinion';
  }
}

function block(name: string, text: string): string[] {
  if (text === '') return [`${name}: (empty)`];
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const shown = body.length > 4000 ? `${body.slice(0, 4000)}… (${body.length} characters)` : body;
  const [first, ...rest] = shown.split('\n');
  return [`${name}: ${first ?? ''}`, ...rest.map((line) => `${' '.repeat(name.length + 2)}${line}`)];
}

function formatVerdict(report: HookTestReport): string[] {
  const { verdict } = report;
  const lines = [
    `merged decision: ${verdict.decision}${verdict.decision === 'none' ? ' (no hook decided anything)' : ''}`,
  ];
  if (verdict.reason !== undefined) lines.push(...block('reason', verdict.reason));
  const merged = verdict.merged as {
    updatedInput?: unknown;
    updatedToolOutput?: { value: unknown };
    contexts?: string[];
    stop?: { reason?: string };
    systemMessages?: string[];
    plainTexts?: string[];
  };
  if (merged.updatedInput !== undefined) lines.push(`updatedInput: ${JSON.stringify(merged.updatedInput)}`);
  if (merged.updatedToolOutput !== undefined)
    lines.push(`updatedToolOutput: ${JSON.stringify(merged.updatedToolOutput.value)}`);
  for (const context of merged.contexts ?? []) lines.push(...block('additionalContext', context));
  if (merged.stop !== undefined)
    lines.push(
      `continue: false — the run stops${merged.stop.reason !== undefined ? ` (stopReason: ${merged.stop.reason})` : ''}`,
    );
  for (const message of merged.systemMessages ?? []) lines.push(...block('systemMessage', message));
  return lines;
}
