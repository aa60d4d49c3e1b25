/**
 * Typed access to the reference's conformance tools, used exactly as copied into
 * `test/fixtures/conformance/tools/` (plain ESM JavaScript, loaded at run time).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Root of the copied conformance material. */
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/conformance');
/** The repository root (for the built CLI). */
export const REPO_ROOT = path.resolve(FIXTURES, '../../..');

/** A trace as `tools/run.mjs` writes it (SCENARIOS.md, "Trace"); only the fields the suite reads are typed. */
export interface Trace {
  scenario: string;
  agent: string;
  exitCode: number | string | null;
  hookCalls: {
    event: string;
    input: Record<string, unknown>;
    env?: Record<string, string>;
    hookCwd?: string;
  }[];
  modelRequests: ModelRequestView[];
  result: string | null;
  files: Record<string, unknown>;
  output: Record<string, unknown> | null;
  compareHints?: Record<string, unknown>;
  tools?: string[];
  stderr?: string;
  [key: string]: unknown;
}

/** What one model request added after the last assistant message (run.mjs `newUserContent`). */
export interface ModelRequestView {
  turn: number;
  thread?: string;
  scriptTurn?: number | null;
  toolResults: { tool_use_id: string; is_error: boolean; content: unknown }[];
  extraText: string[];
  systemText?: string[];
}

/** Options of `compareTraces` (compare.mjs `parseArgs` shape). */
export interface CompareOptions {
  skip: Set<string>;
  events: Set<string> | null;
  ignoreEvents: Set<string>;
  ignoreFields: Set<string>;
  unordered: boolean;
  quiet: boolean;
  hints: boolean;
}

interface RunModule {
  runScenario(
    scenarioDir: string,
    agent: { name: string; command: string; shell: boolean },
    options: { outDir: string; keep?: boolean; agentLabel?: string; timeout?: number },
  ): Promise<{ runDir: string | null; exitCode: unknown; wallMs: number }>;
  ALL_EVENTS: readonly string[];
}
interface CompareModule {
  compareTraces(a: Trace, b: Trace, options: CompareOptions): string[];
}
interface Normalizer {
  collect(value: unknown): void;
  norm<T>(value: T): T;
  str(value: string): string;
}
interface NormalizeModule {
  makeNormalizer(options: { paths: [string, string][] }): Normalizer;
  collapseSystemText(text: string): string;
  collapseUserText(text: string): string;
}

async function load<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(FIXTURES, 'tools', file)).href)) as T;
}

/** The reference runner, compare and normalize modules. */
export const referenceTools = {
  run: () => load<RunModule>('run.mjs'),
  compare: () => load<CompareModule>('compare.mjs'),
  normalize: () => load<NormalizeModule>('normalize.mjs'),
};

/** Reads a trace.json (or the trace.json inside a folder). */
export function readTrace(file: string): Trace {
  const target = fs.statSync(file).isDirectory() ? path.join(file, 'trace.json') : file;
  return JSON.parse(fs.readFileSync(target, 'utf8')) as Trace;
}

/** The scenarios INDEX.md puts in `tier`, in the index's order. */
export function scenariosOfTier(tier: string): string[] {
  const index = fs.readFileSync(path.join(FIXTURES, 'INDEX.md'), 'utf8');
  return index
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells[1] === tier && cells[2])
    .map((cells) => cells[2]!);
}
