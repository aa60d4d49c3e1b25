import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { ScriptTurn } from '../model/scripted-model.js';

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
const script = z.union([z.array(turn), z.looseObject({ model: z.array(turn) })]);

/**
 * Reads the turns of a scripted model from `file`: a bare array of turns (each an array of
 * Anthropic content blocks, or the conformance runner's object form) or a whole scenario.json
 * (its `model` array). `<ws>` in the text is replaced by `projectDir`, as the conformance runner does.
 * @throws ConfigError naming the file, and the JSON path of the first invalid entry.
 */
export function loadModelScript(file: string, projectDir: string): ScriptTurn[] {
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
  return (Array.isArray(parsed.data) ? parsed.data : parsed.data.model) as ScriptTurn[];
}
