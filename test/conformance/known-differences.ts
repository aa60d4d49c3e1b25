/**
 * The allow-list of documented differences (`known-differences.json`, mirroring
 * docs/compatibility.md) and the classification of a scenario's differences against it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The sections a difference can be in: compare.mjs's five, plus `output` (the JSON result's fields). */
export const SECTIONS = ['hooks', 'sequence', 'model', 'files', 'outcome', 'output'] as const;

const entrySchema = z.strictObject({
  section: z.enum(SECTIONS),
  /** A regular expression tested against the difference text (the compare line without its `[section] ` prefix). */
  pattern: z.string().min(1),
  /** Why hookloop differs, in words a user would accept. */
  reason: z.string().min(20),
  /** The heading id in docs/compatibility.md that explains this difference. */
  doc: z.string().regex(/^[a-z0-9_-]+$/),
  /** True when the difference depends on timing and may not show in every run. */
  optional: z.boolean().optional(),
});

/** One documented difference. */
export type KnownDifference = z.infer<typeof entrySchema>;

const sequenceIgnoreSchema = z.strictObject({
  /** An event hookloop fires in other situations than the reference, so its position in the run is not compared. */
  event: z.string().min(1),
  reason: z.string().min(20),
  doc: z.string().regex(/^[a-z0-9_-]+$/),
});

const fileSchema = z.strictObject({
  $comment: z.string().optional(),
  ignoreSequenceOf: z.array(sequenceIgnoreSchema),
  scenarios: z.record(z.string(), z.array(entrySchema)),
});

/** The allow-list: documented differences per scenario, and events the `sequence` section leaves out. */
export interface KnownDifferences {
  /** scenario name → its documented differences; the key `*` applies to every scenario. */
  readonly scenarios: ReadonlyMap<string, readonly KnownDifference[]>;
  /** Events left out of the `sequence` section of every scenario; their calls are still compared in `hooks`. */
  readonly ignoreSequenceOf: readonly z.infer<typeof sequenceIgnoreSchema>[];
}

/** Loads and validates `known-differences.json`. @throws Error naming the path of the first invalid entry. */
export function loadKnownDifferences(file = path.join(HERE, 'known-differences.json')): KnownDifferences {
  const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return {
    scenarios: new Map(Object.entries(parsed.data.scenarios)),
    ignoreSequenceOf: parsed.data.ignoreSequenceOf,
  };
}

/** One difference line with the entry that documents it (if any). */
export interface ClassifiedDifference {
  readonly section: string;
  readonly text: string;
  readonly documentedBy?: KnownDifference;
}

/** How a scenario compares: `match` (no difference), `documented` (all differences allow-listed), `fail`. */
export interface Classification {
  readonly status: 'match' | 'documented' | 'fail';
  readonly differences: readonly ClassifiedDifference[];
  /** Non-optional entries of this scenario that matched no difference: the allow-list is out of date. */
  readonly stale: readonly KnownDifference[];
}

/** Matches `[section] text` lines against the scenario's entries and the `*` entries. */
export function classify(
  scenario: string,
  lines: readonly string[],
  known: KnownDifferences,
): Classification {
  const own = known.scenarios.get(scenario) ?? [];
  const entries = [...own, ...(known.scenarios.get('*') ?? [])];
  const used = new Set<KnownDifference>();
  const differences = lines.map((line): ClassifiedDifference => {
    const [, section = '', text = line] = /^\[(\w+)\] ([\s\S]*)$/.exec(line) ?? [];
    const entry = entries.find(
      (candidate) => candidate.section === section && new RegExp(candidate.pattern).test(text),
    );
    if (entry) used.add(entry);
    return { section, text, ...(entry ? { documentedBy: entry } : {}) };
  });
  const stale = own.filter((entry) => !entry.optional && !used.has(entry));
  const unexplained = differences.some((difference) => !difference.documentedBy);
  const status = unexplained || stale.length > 0 ? 'fail' : differences.length > 0 ? 'documented' : 'match';
  return { status, differences, stale };
}
