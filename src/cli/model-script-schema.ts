import { z } from 'zod';

// What each content block of a scripted turn needs: the fields the scripted model reads. A block
// without them would silently answer `undefined` or call a tool with no id, so it is an error here.
const BLOCK_SCHEMAS = {
  text: z.looseObject({ text: z.string() }),
  tool_use: z.looseObject({
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
  }),
  thinking: z.looseObject({ thinking: z.string() }),
  redacted_thinking: z.looseObject({ data: z.string() }),
} as const;

const BLOCK_FIELDS: Record<keyof typeof BLOCK_SCHEMAS, string> = {
  text: '"text" (a string)',
  tool_use: '"id" (a string), "name" (a string) and "input" (an object)',
  thinking: '"thinking" (a string)',
  redacted_thinking: '"data" (a string)',
};

// The keys of the conformance runner's turn object; any other key (`contnet`) is a typo that would
// leave the turn silently empty.
const TURN_OBJECT = z.strictObject({
  content: z.array(z.unknown()).optional(),
  match: z.string().optional(),
  usage: z.record(z.string(), z.number()).optional(),
  stop_reason: z.string().optional(),
  error: z
    .looseObject({
      status: z.number().optional(),
      type: z.string().optional(),
      message: z.string().optional(),
    })
    .optional(),
  sticky: z.boolean().optional(),
  delay_ms: z.number().optional(),
});

const AUX_RULE = z.strictObject({
  match: z.string().optional(),
  text: z.string().optional(),
  content: z.array(z.unknown()).optional(),
});

/** The first thing wrong in a model script: the JSON path (`[2][0].input`) and what was expected there. */
export interface ScriptProblem {
  readonly path: string;
  readonly expected: string;
}

/**
 * Checks a parsed model script: a bare array of turns or a scenario `{model: [...], aux?: [...]}`;
 * each turn an array of content blocks or a turn object; each block with the fields its type needs.
 * Returns the first problem, or undefined when the script is valid. Never throws.
 */
export function findScriptProblem(value: unknown): ScriptProblem | undefined {
  if (Array.isArray(value)) return findTurnsProblem(value, '');
  if (!isObject(value) || !Array.isArray(value['model'])) {
    return {
      path: '(root)',
      expected: `an array of turns (arrays of content blocks) or a scenario with a "model" array, got ${describe(value)}`,
    };
  }
  const turnsProblem = findTurnsProblem(value['model'], '.model');
  if (turnsProblem) return turnsProblem;
  const aux = value['aux'];
  if (aux === undefined) return undefined;
  if (!Array.isArray(aux))
    return { path: '.aux', expected: `an array of rules {match, text, content}, got ${describe(aux)}` };
  for (const [index, rule] of aux.entries()) {
    const where = `.aux[${index}]`;
    const problem =
      firstIssue(AUX_RULE, rule, where) ??
      (isObject(rule) && Array.isArray(rule['content'])
        ? findBlocksProblem(rule['content'], `${where}.content`)
        : undefined);
    if (problem) return problem;
  }
  return undefined;
}

function findTurnsProblem(turns: readonly unknown[], prefix: string): ScriptProblem | undefined {
  for (const [index, turn] of turns.entries()) {
    const where = `${prefix}[${index}]`;
    if (Array.isArray(turn)) {
      const problem = findBlocksProblem(turn, where);
      if (problem) return problem;
      continue;
    }
    if (isObject(turn) && typeof turn['type'] === 'string') {
      // `[{"type":"text",…}]`: one level of [ ] is missing, so the block stands where a turn belongs.
      return {
        path: `${where}[0]`,
        expected: `a content block here, but ${where} is itself a "${turn['type']}" block: a turn is an array of content blocks, so wrap the block in [ ] ([[{"type": "${turn['type']}", …}]])`,
      };
    }
    const problem = firstIssue(
      TURN_OBJECT,
      turn,
      where,
      'an array of content blocks or a turn object {content, match, usage, stop_reason, error, sticky, delay_ms}',
    );
    if (problem) return problem;
    const content = (turn as { content?: unknown[] }).content;
    const blocksProblem = content ? findBlocksProblem(content, `${where}.content`) : undefined;
    if (blocksProblem) return blocksProblem;
  }
  return undefined;
}

function findBlocksProblem(blocks: readonly unknown[], prefix: string): ScriptProblem | undefined {
  for (const [index, block] of blocks.entries()) {
    const where = `${prefix}[${index}]`;
    if (Array.isArray(block))
      return {
        path: where,
        expected: `a content block {"type": …}, got an array (one level of [ ] too many)`,
      };
    if (!isObject(block))
      return { path: where, expected: `a content block {"type": …}, got ${describe(block)}` };
    const type = block['type'];
    if (typeof type !== 'string' || !(type in BLOCK_SCHEMAS)) {
      return {
        path: `${where}.type`,
        expected: `a content block type (${Object.keys(BLOCK_SCHEMAS).join(', ')}), got ${describe(type)}`,
      };
    }
    const known = type as keyof typeof BLOCK_SCHEMAS;
    const problem = firstIssue(
      BLOCK_SCHEMAS[known],
      block,
      where,
      `a "${known}" block with ${BLOCK_FIELDS[known]}`,
    );
    if (problem)
      return {
        path: problem.path,
        expected: `${problem.expected} (a "${known}" block needs ${BLOCK_FIELDS[known]})`,
      };
  }
  return undefined;
}

/** The first zod issue of `value` against `schema`, as a path under `prefix` and a short expectation. */
function firstIssue(
  schema: z.ZodType,
  value: unknown,
  prefix: string,
  whole?: string,
): ScriptProblem | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  if (!issue) return { path: prefix, expected: whole ?? 'a valid entry' };
  if (issue.path.length === 0 && issue.code === 'invalid_type')
    return { path: prefix, expected: `${whole ?? issue.expected}, got ${describe(value)}` };
  if (issue.code === 'unrecognized_keys')
    return {
      path: prefix,
      expected: `${whole ?? 'known keys only'}, got an unknown key "${issue.keys[0] ?? ''}"`,
    };
  const path =
    prefix + issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  let got: unknown = value;
  for (const key of issue.path)
    got = isObject(got) || Array.isArray(got) ? (got as Record<PropertyKey, unknown>)[key] : undefined;
  const expected =
    issue.code === 'invalid_type'
      ? (TYPE_NAMES[issue.expected] ?? issue.expected)
      : issue.code === 'too_small'
        ? 'a non-empty string'
        : issue.message;
  return { path, expected: `${expected}, got ${describe(got)}` };
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a JSON value for an error line: `"txt"`, `5`, `an array`, `nothing`. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
