import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { AuxRule, ScriptTurn } from '../model/scripted-model.js';

// Block types a scripted turn may hold; a typo (`"txt"`) is an error, not a silently empty turn.
const block = z.looseObject({ type: z.enum(['text', 'tool_use', 'thinking', 'redacted_thinking']) });
const turn = z.union([
  z.array(block),
  z.looseObject({
    content: z.array(block).optional(),
    match: z.string().optional(),
    usage: z.looseObject({}).optional(),
    stop_reason: z.string().optional(),
    error: z.looseObject({}).optional(),
    sticky: z.boolean().optional(),
    delay_ms: z.number().optional(),
  }),
]);
const auxRule = z.looseObject({ match: z.string().optional(), text: z.string().optional(), content: z.array(block).optional() });
const script = z.union([z.array(turn), z.looseObject({ model: z.array(turn), aux: z.array(auxRule).optional() })]);

/**
 * Reads the turns of a scripted model from `file`: a bare array of turns (each an array of
 * Anthropic content blocks, or the conformance runner's object form) or a whole scenario.json
 * (its `model` array). `<ws>` in the text is replaced by `projectDir`, as the conformance runner does.
 * @throws ConfigError naming the file, and the JSON path of the first invalid entry.
 */
export function loadModelScript(file: string, projectDir: string): ScriptTurn[] {
  return loadModelScriptFile(file, projectDir).turns;
}

/**
 * Like `loadModelScript`, and also the scenario's `aux` rules (answers for requests without tools,
 * such as prompt hooks) when the file is a scenario that has them.
 * @throws ConfigError as `loadModelScript`.
 */
export function loadModelScriptFile(file: string, projectDir: string): { turns: ScriptTurn[]; aux?: AuxRule[] } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`--model-script: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code})`}: ${file}`, { file, field: '--model-script' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text.split('<ws>').join(projectDir));
  } catch (error) {
    throw new ConfigError(`--model-script: ${file}: invalid JSON: ${(error as Error).message}`, { file, field: '--model-script' });
  }
  const parsed = script.safeParse(value);
  if (!parsed.success) throw scriptError(file, value);
  if (Array.isArray(parsed.data)) return { turns: parsed.data as ScriptTurn[] };
  return { turns: parsed.data.model as ScriptTurn[], ...(parsed.data.aux ? { aux: parsed.data.aux as AuxRule[] } : {}) };
}

/**
 * The error for a script that does not parse, naming the first bad entry: `[2][0].type` for a
 * block type typo, `[2]` for a malformed turn, or the root. Checked turn by turn because a union
 * schema would only blame the root.
 */
function scriptError(file: string, value: unknown): ConfigError {
  const turns = Array.isArray(value) ? value : (value as { model?: unknown } | null)?.model;
  if (!Array.isArray(turns)) {
    return new ConfigError(`--model-script: ${file}: expected an array of turns (arrays of content blocks) or a scenario with a "model" array`, { file });
  }
  for (const [index, entry] of turns.entries()) {
    if (turn.safeParse(entry).success) continue;
    const blocks: unknown = Array.isArray(entry) ? entry : (entry as { content?: unknown } | null)?.content;
    const badBlock = Array.isArray(blocks) ? blocks.findIndex((candidate) => !block.safeParse(candidate).success) : -1;
    if (badBlock >= 0) {
      const where = `[${index}]${Array.isArray(entry) ? '' : '.content'}[${badBlock}].type`;
      const got = JSON.stringify(((blocks as unknown[])[badBlock] as { type?: unknown } | null)?.type);
      return new ConfigError(`--model-script: ${file}: ${where}: expected a content block type (text, tool_use, thinking, redacted_thinking), got ${got}`, { file, field: where });
    }
    return new ConfigError(`--model-script: ${file}: [${index}]: expected an array of content blocks or a turn object {content, usage, error, …}`, { file, field: `[${index}]` });
  }
  return new ConfigError(`--model-script: ${file}: expected an array of turns or a scenario with a "model" array`, { file });
}
