import fs from 'node:fs';
import path from 'node:path';

/** A program to exec in place of `/bin/sh -c`: its path, its arguments and the argv[0] the shell would give it. */
export interface DirectCommand {
  readonly file: string;
  readonly args: string[];
  readonly argv0: string;
}

/**
 * The environment `sh -c` gives the programs it runs in `cwd`: `env` with `PWD` set, as dash always
 * exports it — the inherited `PWD` when it names `cwd`, else `cwd`'s real path.
 */
export function shellEnvironment(env: Readonly<Record<string, string>>, cwd: string): Record<string, string> {
  const inherited = env['PWD'];
  let pwd: string;
  try {
    const here = fs.statSync(cwd);
    const named =
      inherited !== undefined && path.isAbsolute(inherited)
        ? fs.statSync(inherited, { throwIfNoEntry: false })
        : undefined;
    pwd =
      named !== undefined && named.ino === here.ino && named.dev === here.dev
        ? inherited!
        : fs.realpathSync(cwd);
  } catch {
    pwd = cwd;
  }
  return { ...env, PWD: pwd };
}

/**
 * A command line that `/bin/sh -c` would run as one plain program: what to exec instead, so the
 * shell's own start-up (a second process image, its fork of the program) is saved.
 *
 * Returns `{ file, args, argv0 }` only when the shell could do nothing but split the line on blanks
 * and look the first word up in `PATH`: every character is a letter, a digit, a blank or one of
 * `_ @ % + = : , . / -` (so no quoting, expansion, globbing, tilde, comment, redirection, pipe,
 * list, subshell or background job); the first word holds no `=` (an assignment) and is no shell
 * keyword or builtin (`exit 2`, `echo`, `test`… behave as the shell's own); and it names, through
 * `env.PATH` or as an absolute path, an executable file that starts with `#!` or is an ELF binary
 * (a file without either would be run by the shell as a script). `file` is the path found, `args`
 * the other words, `argv0` the first word as written — what the shell passes. Otherwise (any
 * doubt, a relative path, a program not found, an empty or relative `PATH` entry before the
 * match) returns undefined, and the caller runs `/bin/sh -c` as usual, with the shell's own
 * messages and exit codes. Never throws.
 */
export function directCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
): DirectCommand | undefined {
  if (!PLAIN.test(command)) return undefined;
  const words = command.split(/[ \t]+/).filter((word) => word !== '');
  const [first, ...args] = words;
  if (first === undefined || first.includes('=') || SHELL_WORDS.has(first)) return undefined;
  const file = first.includes('/')
    ? path.isAbsolute(first)
      ? first
      : undefined
    : lookUp(first, env['PATH']);
  if (file === undefined || !startsAsProgram(file)) return undefined;
  return { file, args, argv0: first };
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./ \t-]+$/;

// Keywords and builtins of sh (dash) and bash: the shell runs these itself, not a program of that name.
const SHELL_WORDS = new Set(
  (
    '! [ [[ ]] { } . : alias bg bind break builtin caller case cd chdir command compgen complete continue declare dirs disown do done echo ' +
    'elif else enable esac eval exec exit export false fc fg fi for function getopts hash help history if in jobs kill let local logout ' +
    'mapfile popd printf pushd pwd read readarray readonly return select set shift shopt source suspend test then time times trap true ' +
    'type typeset ulimit umask unalias unset until wait while'
  ).split(' '),
);

function lookUp(name: string, searchPath: string | undefined): string | undefined {
  if (searchPath === undefined) return undefined;
  for (const directory of searchPath.split(':')) {
    // The shell would search the working directory here: rare, and not worth reproducing.
    if (!path.isAbsolute(directory)) return undefined;
    const candidate = path.join(directory, name);
    try {
      if (!fs.statSync(candidate).isFile()) continue;
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      continue; // not here, or not executable: the shell looks on, too
    }
  }
  return undefined;
}

function startsAsProgram(file: string): boolean {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(file, 'r');
    const head = Buffer.alloc(4);
    const read = fs.readSync(descriptor, head, 0, 4, 0);
    return (read >= 2 && head[0] === 0x23 && head[1] === 0x21) || (read === 4 && head.equals(ELF));
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}

const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
