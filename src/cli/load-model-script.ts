import fs from 'node:fs';
import { ConfigError } from '../errors.js';
import type { AuxRule, ScriptTurn } from '../model/scripted-model.js';
import { findScriptProblem } from './model-script-schema.js';

/**
 * Reads the turns of a scripted model from `file`: a bare array of turns (each an array of
 * Anthropic content blocks, or the conformance runner's object form) or a whole scenario.json
 * (its `model` array). `<ws>` in the text is replaced by `projectDir`, as the conformance runner does.
 * Each block must have the fields its type needs (`text`: text; `tool_use`: id, name, input object).
 * @throws ConfigError naming the file, the JSON path of the first invalid entry (`[0][0].input`) and what was expected.
 */
export function loadModelScript(file: string, projectDir: string): ScriptTurn[] {
  return loadModelScriptFile(file, projectDir).turns;
}

/**
 * Like `loadModelScript`, and also the scenario's `aux` rules (answers for requests without tools,
 * such as prompt hooks) when the file is a scenario that has them.
 * @throws ConfigError as `loadModelScript`.
 */
export function loadModelScriptFile(
  file: string,
  projectDir: string,
): { turns: ScriptTurn[]; aux?: AuxRule[] } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `--model-script: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code})`}: ${file}`,
      { file, field: '--model-script' },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text.split('<ws>').join(projectDir));
  } catch (error) {
    throw new ConfigError(`--model-script: ${file}: invalid JSON: ${(error as Error).message}`, {
      file,
      field: '--model-script',
    });
  }
  const problem = findScriptProblem(value);
  if (problem) {
    const where = problem.path.replace(/^\./, '');
    throw new ConfigError(`--model-script: ${file}: ${where}: expected ${problem.expected}`, {
      file,
      field: where,
    });
  }
  if (Array.isArray(value)) return { turns: value as ScriptTurn[] };
  const scenario = value as { model: ScriptTurn[]; aux?: AuxRule[] };
  return { turns: scenario.model, ...(scenario.aux ? { aux: scenario.aux } : {}) };
}
