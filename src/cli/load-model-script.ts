import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { AuxRule, ScriptTurn } from '../model/scripted-model.js';

const block = z.looseObject({ type: z.string() });
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
    throw new ConfigError(`${file}: invalid JSON: ${(error as Error).message}`, { file });
  }
  const parsed = script.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${file}: ${issue.path.join('.') || '(root)'}: expected an array of turns (arrays of content blocks) or a scenario with a "model" array`, { file, field: issue.path.join('.') });
  }
  if (Array.isArray(parsed.data)) return { turns: parsed.data as ScriptTurn[] };
  return { turns: parsed.data.model as ScriptTurn[], ...(parsed.data.aux ? { aux: parsed.data.aux as AuxRule[] } : {}) };
}
