import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBashCommand, type ShellWord, type SimpleCommand } from './bash-command.js';
import {
  isReadOnlyCommandLine,
  isReadOnlySimpleCommandText,
  literalCommandCount,
} from './read-only-command.js';
import { directoryChange, programName, programsOf, type CommandPrograms } from './bash-programs.js';
import { protectedRemovals as removalsOf } from './bash-removals.js';
import { writesOfRun } from './bash-writes.js';
import { readsOfLine, type BashRead } from './bash-read-paths.js';
import { readLiteralCommandLine } from './bash-literal-line.js';
import { hereDocumentTexts, mentionedPaths, unreadProgramWrites } from './bash-mentions.js';
import { relocationOf } from './bash-relocation.js';
import type { PathResolver } from './path-resolver.js';
import { copiesLinks, linkDestination, linkMaking } from './bash-link-makers.js';
import { isSameOrInside } from './path-inside.js';

export type { BashRead } from './bash-read-paths.js';

/** Where a path a command writes lies: in the workspace, outside it, or not knowable before it runs. */
export type PathPlace = 'inside' | 'outside' | 'unknown';

/** What needs approval in a command, first found first. */
export interface BashWrite {
  /**
   * `redirect`: an output redirection; `filesystem`: a path written by rm, rmdir, unlink, mkdir,
   * touch, truncate, tee, cp, mv, ln, install, `sed -i`, `dd of=` or `find -fprint…` (also behind
   * wrappers, `xargs` and `find -exec`); `program`: anything else not known to be read-only, or more
   * than a plain file edit. A command has one `filesystem` entry per written path.
   */
  readonly kind: 'redirect' | 'filesystem' | 'program';
  /** The absolute path (redirect, filesystem); absent when the shell decides it at run time (`place: 'unknown'`). */
  readonly path?: string;
  readonly place?: PathPlace;
  /** True when anything below `path` may be written too (`cp -r`, `mv`, `rm -r`). */
  readonly tree?: boolean;
  /** The model-facing explanation, e.g. `Output redirection to '/ws/out.txt' needs approval. …`. */
  readonly message: string;
  /**
   * `program` entries of a command whose program is known: the absolute paths its words may name
   * (see `mentionedPaths`), any of which it may write — hookloop does not read what it does.
   */
  readonly mentions?: readonly string[];
  /** `program` entries: the program is computed when the command runs, or the line could not be read; it may write anything. */
  readonly computed?: boolean;
}

/**
 * The permission-relevant facts about one Bash command.
 * - `readOnly`: the command is proven read-only by `isReadOnlyCommandLine` (literal words, allowlisted
 *   programs and flags, output only to `/dev/null`): it runs without approval in default and plan modes.
 * - `reason`: why it is not read-only (the first `writes` message), Claude Code's wording where the
 *   reference's is known; undefined when read-only.
 * - `editsInsideWorkspace`: everything that is not read-only is a file edit (output redirection or
 *   a `filesystem` write, see `BashWrite`) whose every option is known, on known paths inside the
 *   workspace: what acceptEdits allows.
 * - `protectedRemovals`: what rm/rmdir/unlink/mv/`find -delete` (also behind wrappers) would remove
 *   and no hook or mode may approve: `/`, the home directory, a workspace root, a directory above
 *   one, or an operand that may be one of them (see `protectedRemovals` in bash-removals.ts).
 * - `reads`: every file the command's reading programs read (operands, `-f FILE` values, `<`
 *   redirections, `cd` targets), resolved against every directory the command may be in by then
 *   (see `readsOfLine`). `readOnly` needs each to be known; the policy checks them against Read
 *   rules and the working directories.
 * - `parsed`: false when the command is not valid Bash (it is then never read-only).
 */
export interface BashClassification {
  readonly parsed: boolean;
  readonly readOnly: boolean;
  readonly reason?: string;
  readonly writes: readonly BashWrite[];
  readonly editsInsideWorkspace: boolean;
  readonly protectedRemovals: readonly string[];
  readonly reads: readonly BashRead[];
}

/** The Claude Code text for a call that needs approval and has no more specific reason. */
export const GENERIC_BASH_REASON =
  "Claude requested permissions to use Bash, but you haven't granted it yet.";

// Writes that change no file. The standard streams only while no `<` redirection on the line could
// have put a file on a descriptor: `cat 2<f 2>/dev/stderr` reopens `f` for writing.
const DISCARD_TARGETS = new Set(['/dev/null']);
const STREAM_TARGETS = new Set(['/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2']);
// Paths that lead wherever a process's descriptors or directories lead (`/proc/self/cwd`,
// `/proc/<pid>/root`, `/dev/fd/3`, `/dev/stdin`): resolved by the shell that opens them, not by hookloop.
const PROCESS_RELATIVE = /^\/(?:proc|dev\/fd|dev\/std(?:in|out|err))(?:\/|$)/;
/**
 * Classifies a Bash command for the permission policy (see `BashClassification`). Relative paths
 * resolve against `cwd`; after a `cd`/`pushd`/`popd` in the same command the paths it writes are
 * `unknown`. Never throws.
 */
export async function classifyBashCommand(
  command: string,
  context: { cwd: string; workspace: PathResolver; homeDir?: string },
): Promise<BashClassification> {
  const parsed = await parseBashCommand(command);
  const homeDir = context.homeDir ?? os.homedir();
  if (!parsed.ok) {
    // Nobody knows how Bash splits an unreadable line (`cat x 1<>.claude/settings.json`): any path
    // its text names, as written or with quotes and backslashes dropped (`.clau""de`), may be written.
    const texts = [command, command.replace(/["'\\]/g, '')].map((value) => ({
      value,
      source: value,
      dynamic: true,
    }));
    const mentions = mentionedPaths(texts, [context.cwd], homeDir);
    return {
      parsed: false,
      readOnly: false,
      reason: GENERIC_BASH_REASON,
      writes: [{ kind: 'program', message: GENERIC_BASH_REASON, computed: true, mentions }],
      editsInsideWorkspace: false,
      protectedRemovals: [],
      reads: [],
    };
  }
  const changesDirectory = parsed.commands.some((simple) => directoryChange(simple.argv) !== undefined);
  const locate = (word: ShellWord): { path?: string; place: PathPlace } => {
    const resolved = resolveWord(word, context.cwd, homeDir);
    if (resolved === undefined || (changesDirectory && !path.isAbsolute(word.value)))
      return { place: 'unknown' };
    if (PROCESS_RELATIVE.test(resolved) || PROCESS_RELATIVE.test(context.workspace.realPath(resolved)))
      return { place: 'unknown' };
    return { path: resolved, place: context.workspace.contains(resolved) ? 'inside' : 'outside' };
  };
  const where = (place: PathPlace): string => describePlace(place, context.workspace);

  const writes: BashWrite[] = [];
  const protectedRemovals: string[] = [];
  // Read-only is decided by read-only-command.ts alone (fail closed: proven, or it asks).
  const lineReadOnly = isReadOnlyCommandLine(command, context.cwd);
  const streamsAreStreams = parsed.inputs.length === 0;
  // Below these paths an earlier part of the line may have made links (see bash-link-makers.ts),
  // per simple command: what was made before it runs.
  const linkBases: string[] = [];
  const linkBasesBefore: (readonly string[])[] = [];
  const throughMadeLink = (index: number, file: string | undefined) =>
    file !== undefined && (linkBasesBefore[index] ?? []).some((base) => isSameOrInside(file, base));
  const madeLinkMessage = (what: string) =>
    `${what} needs approval: an earlier part of this command makes symbolic links, and hookloop cannot tell before it runs where a write through them would land.`;
  const removalContext = { cwd: context.cwd, homeDir, workspace: context.workspace, changesDirectory };
  const bases = [context.cwd, ...directoriesVisited(parsed.commands, context.cwd, homeDir)];
  // Here-documents and here-strings may be a program's code (`python3 - <<EOF`): their text counts as its words.
  const fedText = hereDocumentTexts(command);
  for (const [index, simple] of parsed.commands.entries()) {
    const programs = programsOf(simple.argv);
    linkBasesBefore[index] = [...linkBases];
    // Removals are judged behind every wrapper, whatever else the command is.
    for (const run of programs.runs) protectedRemovals.push(...removalsOf(run, removalContext));
    if (lineReadOnly || isReadOnlySimpleCommandText(simple.text, context.cwd)) continue;
    const { files, plain } = fileWrites(simple, programs.runs, programs.unknown === undefined);
    const located = files.map((file) => {
      const at = file.word === undefined ? { place: 'unknown' as const } : locate(file.word);
      const full =
        at.path !== undefined && file.child !== undefined ? path.join(at.path, file.child) : at.path;
      const place =
        full !== undefined && at.place !== 'unknown'
          ? context.workspace.contains(full)
            ? 'inside'
            : 'outside'
          : at.place;
      const shown = full ?? file.word?.source;
      const message =
        shown !== undefined
          ? `${file.program} in '${shown}' needs approval. ${where(place)}`
          : `${file.program} needs approval. ${where(place)}`;
      return {
        kind: 'filesystem' as const,
        ...(full !== undefined ? { path: full } : {}),
        place,
        ...(file.tree ? { tree: true } : {}),
        message,
      };
    });
    // The first path shown is one that leaves the workspace, if any.
    const placed = located.map((write) =>
      throughMadeLink(index, write.path)
        ? {
            kind: 'filesystem' as const,
            place: 'unknown' as const,
            message: madeLinkMessage(`Writing '${write.path}'`),
          }
        : write,
    );
    writes.push(
      ...placed.filter((write) => write.place !== 'inside'),
      ...placed.filter((write) => write.place === 'inside'),
    );
    if (!plain) writes.push(programWrite(simple, programs, { cwd: context.cwd, homeDir, bases, fedText }));
    for (const run of programs.runs) {
      const making = linkMaking(run);
      if (making === 'data') linkBases.push(...bases);
      if (making !== 'known' || !copiesLinks(run, context.cwd, (file) => throughMadeLink(index, file)))
        continue;
      // Relative words after a `cd` are unknown places: then anything may be below a new link.
      const destination = changesDirectory ? undefined : linkDestination(run, context.cwd);
      linkBases.push(destination ?? path.parse(context.cwd).root);
      // A copied or moved link keeps its target text: a relative one now leads somewhere else.
      const program = programName(run.argv[0] as ShellWord);
      if (program !== 'ln')
        writes.push({
          kind: 'program',
          message: `${program} needs approval: it copies or moves symbolic links, whose targets change meaning where they land.`,
        });
    }
  }
  const redirects: BashWrite[] = [];
  for (const redirection of parsed.redirections) {
    if (
      !redirection.dynamic &&
      (DISCARD_TARGETS.has(redirection.target) ||
        (streamsAreStreams && STREAM_TARGETS.has(redirection.target)))
    )
      continue;
    const target = locate({
      value: redirection.target,
      source: redirection.target,
      dynamic: redirection.dynamic,
    });
    const owner = parsed.commands.findIndex((simple) =>
      simple.redirections.some((own) => own.target === redirection.target),
    );
    if (owner >= 0 && throughMadeLink(owner, target.path)) {
      redirects.push({
        kind: 'redirect',
        place: 'unknown',
        message: madeLinkMessage(`Output redirection to '${target.path}'`),
      });
      continue;
    }
    redirects.push({
      kind: 'redirect',
      ...target,
      message: `Output redirection to '${target.path ?? redirection.target}' needs approval. ${where(target.place)}`,
    });
  }
  writes.unshift(...redirects);
  // What the literal reader cannot read (or reads differently from tree-sitter-bash) may hide a
  // command neither sees, e.g. `(( x ))`: it is never read-only and never a mere file edit.
  if (!lineReadOnly && (writes.length === 0 || literalCommandCount(command) !== parsed.commands.length))
    writes.push({ kind: 'program', message: GENERIC_BASH_REASON });
  const editsInsideWorkspace = writes.every((write) => write.kind !== 'program' && write.place === 'inside');
  const literal = readLiteralCommandLine(command);
  const joins =
    literal.ok && literal.commands.length === parsed.commands.length
      ? literal.commands.map((simple) => simple.next)
      : undefined;
  const reads = readsOfLine(parsed, {
    cwd: context.cwd,
    homeDir,
    workspace: context.workspace,
    ...(joins ? { joins } : {}),
  });
  // A file read whose path is only known at run time, or only guessed (options not read with
  // confidence), may be anything: never provably harmless to run unasked.
  const readsKnown = reads.every((read) => read.path !== undefined && read.guessed !== true);
  const readOnly =
    lineReadOnly &&
    writes.length === 0 &&
    readsKnown &&
    programsFromTrustedPath(parsed.commands, context.workspace);
  const reason = writes[0]?.message ?? (readOnly ? undefined : GENERIC_BASH_REASON);
  return {
    parsed: true,
    readOnly,
    ...(reason !== undefined ? { reason } : {}),
    writes,
    editsInsideWorkspace: editsInsideWorkspace && readsKnown,
    protectedRemovals,
    reads,
  };
}

// Read-only commands run by bash itself, never looked up on PATH.
const BUILTINS = new Set([
  'echo',
  'printf',
  'pwd',
  'cd',
  'true',
  'false',
  ':',
  'test',
  '[',
  'type',
  'command',
]);

/**
 * Whether every program the command runs is found where the model cannot have put another one:
 * bash builtins always; for the others, every `PATH` entry bash looks in before it finds the
 * program must be absolute and outside the working directories, or hold no such name (a workspace
 * `node_modules/.bin` on PATH is fine until an `ls` appears in it, which an acceptEdits copy could
 * have made executable). A relative or empty entry (the cwd) is never trusted. Reads the `PATH`
 * hookloop runs with (the Bash tool inherits it).
 */
function programsFromTrustedPath(commands: readonly SimpleCommand[], workspace: PathResolver): boolean {
  const entries = (process.env['PATH'] ?? '').split(':');
  const names = commands.flatMap((simple) =>
    programsOf(simple.argv).runs.map((run) => run.argv[0]?.value ?? ''),
  );
  return names.every((name) => BUILTINS.has(name) || foundOnTrustedPath(name, entries, workspace));
}

function foundOnTrustedPath(name: string, entries: readonly string[], workspace: PathResolver): boolean {
  for (const entry of entries) {
    if (!path.isAbsolute(entry)) return false;
    const candidate = path.join(entry, name);
    const exists = fs.existsSync(candidate) || isLink(candidate);
    if (workspace.contains(entry)) {
      if (exists) return false;
      continue;
    }
    if (exists) return true;
  }
  return true; // not found: bash reports "command not found"
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function describePlace(place: PathPlace, workspace: PathResolver): string {
  const roots = workspace.roots.map((root) => `'${root}'`).join(', ');
  if (place === 'inside') {
    // Claude Code's own words (trace permission-request-print-mode), kept so transcripts compare.
    return `The path is inside the working directories for this session (${roots}), and Claude Code asks before a shell command creates, changes or removes files there.`;
  }
  if (place === 'outside') return `The path is outside the working directories for this session (${roots}).`;
  return 'hookloop cannot tell before the command runs which path this is.';
}

/**
 * The paths the runs of one simple command write, and whether the command is nothing but plain
 * file edits (every run a known writer or a transparent wrapper, no assignments, no unknown program).
 */
function fileWrites(
  simple: SimpleCommand,
  runs: ReturnType<typeof programsOf>['runs'],
  known: boolean,
): {
  files: { program: string; word: ShellWord | undefined; child?: string; tree?: boolean }[];
  plain: boolean;
} {
  const files: { program: string; word: ShellWord | undefined; child?: string; tree?: boolean }[] = [];
  let plain = known && simple.unknown === undefined && simple.assignments.length === 0 && runs.length > 0;
  let moved: 'directory' | 'root' | undefined;
  runs.forEach((run, index) => {
    const found = writesOfRun(run);
    // Behind `env -C DIR` or `chroot DIR` the program's paths are not resolved from here.
    const relocated = moved;
    moved = relocationOf(run) ?? moved;
    if (relocated !== undefined) plain = false;
    const program = run.argv[0] ? programName(run.argv[0]) : '';
    if (found === undefined) {
      if (!(run.transparent && index < runs.length - 1)) plain = false;
      return;
    }
    if (found.notPlain !== undefined) plain = false;
    for (const written of found.written) {
      const stays =
        written.word === undefined ||
        relocated === undefined ||
        (relocated === 'directory' && path.isAbsolute(written.word.value) && !written.word.dynamic);
      files.push({ program, ...written, ...(stays ? {} : { word: undefined }) });
    }
  });
  return { files, plain };
}

/**
 * The `program` entry of a simple command that is more than a plain file edit: what its words may
 * name, or `computed` when its program is not known before it runs (see `unreadProgramWrites`).
 */
function programWrite(
  simple: SimpleCommand,
  programs: CommandPrograms,
  context: { cwd: string; homeDir: string; bases: readonly string[]; fedText: readonly ShellWord[] },
): BashWrite {
  return { kind: 'program', message: GENERIC_BASH_REASON, ...unreadProgramWrites(simple, programs, context) };
}

/** The literal `cd`/`pushd` targets of a line, resolved from `cwd` (where later relative words may lead). */
function directoriesVisited(commands: readonly SimpleCommand[], cwd: string, homeDir: string): string[] {
  const visited: string[] = [];
  for (const simple of commands) {
    const change = directoryChange(simple.argv);
    const target = change?.argv[1];
    if ((change?.name === 'cd' || change?.name === 'pushd') && target && !target.dynamic)
      visited.push(resolveWord(target, cwd, homeDir) ?? cwd);
  }
  return visited;
}

/** The absolute path a word names, or undefined when the shell decides it at run time. */
function resolveWord(word: ShellWord, cwd: string, homeDir: string): string | undefined {
  if (/^~(\/[^$`*?[{]*)?$/.test(word.source)) return path.join(homeDir, word.source.slice(1));
  if (word.dynamic) return undefined;
  return path.resolve(cwd, word.value);
}
