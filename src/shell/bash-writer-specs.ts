import type { OptionSpec } from './bash-options.js';

const f = 'flag' as const;
const v = 'value' as const;
const o = 'optional' as const;

/** The GNU options of the programs whose written paths hookloop reads (any other option: the place is unknown). */
export const WRITER_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  rm: {
    short: { f, i: f, I: f, r: f, R: f, d: f, v: f },
    long: {
      force: f,
      interactive: o,
      'one-file-system': f,
      'no-preserve-root': f,
      'preserve-root': o,
      recursive: f,
      dir: f,
      verbose: f,
    },
  },
  rmdir: { short: { p: f, v: f }, long: { 'ignore-fail-on-non-empty': f, parents: f, verbose: f } },
  unlink: {},
  mkdir: { short: { p: f, v: f, m: v, Z: f }, long: { mode: v, parents: f, verbose: f, context: o } },
  touch: {
    short: { a: f, c: f, d: v, f, h: f, m: f, r: v, t: v },
    long: { time: v, date: v, 'no-create': f, 'no-dereference': f, reference: v },
  },
  truncate: {
    short: { c: f, o: f, r: v, s: v },
    long: { 'no-create': f, 'io-blocks': f, reference: v, size: v },
  },
  tee: { short: { a: f, i: f, p: f }, long: { append: f, 'ignore-interrupts': f, 'output-error': o } },
  cp: {
    short: {
      a: f,
      b: f,
      d: f,
      f,
      i: f,
      H: f,
      l: f,
      L: f,
      n: f,
      P: f,
      p: f,
      R: f,
      r: f,
      s: f,
      S: v,
      t: v,
      T: f,
      u: f,
      v: f,
      x: f,
      Z: f,
    },
    long: {
      archive: f,
      'attributes-only': f,
      backup: o,
      'copy-contents': f,
      debug: f,
      dereference: f,
      force: f,
      interactive: f,
      link: f,
      'no-dereference': f,
      'no-clobber': f,
      preserve: o,
      'no-preserve': v,
      parents: f,
      recursive: f,
      reflink: o,
      'remove-destination': f,
      sparse: v,
      'strip-trailing-slashes': f,
      'symbolic-link': f,
      suffix: v,
      'target-directory': v,
      'no-target-directory': f,
      update: o,
      verbose: f,
      'one-file-system': f,
      context: o,
      'keep-directory-symlink': f,
    },
  },
  mv: {
    short: { b: f, f, i: f, n: f, S: v, t: v, T: f, u: f, v: f, Z: f },
    long: {
      backup: o,
      force: f,
      interactive: f,
      'no-clobber': f,
      'strip-trailing-slashes': f,
      suffix: v,
      'target-directory': v,
      'no-target-directory': f,
      update: o,
      verbose: f,
      context: f,
      exchange: f,
      'no-copy': f,
    },
  },
  ln: {
    short: { b: f, d: f, F: f, f, i: f, L: f, n: f, P: f, r: f, s: f, S: v, t: v, T: f, v: f },
    long: {
      backup: o,
      directory: f,
      force: f,
      interactive: f,
      logical: f,
      'no-dereference': f,
      physical: f,
      relative: f,
      symbolic: f,
      suffix: v,
      'target-directory': v,
      'no-target-directory': f,
      verbose: f,
    },
  },
  install: {
    short: { b: f, c: f, C: f, d: f, D: f, g: v, m: v, o: v, p: f, s: f, S: v, t: v, T: f, v: f, Z: f },
    long: {
      backup: o,
      compare: f,
      directory: f,
      group: v,
      mode: v,
      owner: v,
      'preserve-timestamps': f,
      strip: f,
      'strip-program': v,
      suffix: v,
      'target-directory': v,
      'no-target-directory': f,
      verbose: f,
      'preserve-context': f,
      context: o,
    },
  },
  sed: {
    short: { n: f, e: v, f: v, i: o, l: v, E: f, r: f, s: f, u: f, z: f },
    long: {
      quiet: f,
      silent: f,
      expression: v,
      file: v,
      'in-place': o,
      'line-length': v,
      'null-data': f,
      'zero-terminated': f,
      posix: f,
      'regexp-extended': f,
      separate: f,
      sandbox: f,
      unbuffered: f,
      debug: f,
      'follow-symlinks': f,
    },
  },
};

/** `dd` operands that only read or tune (any other, and `of=`, are looked at). */
export const DD_OPERANDS: ReadonlySet<string> = new Set([
  'bs',
  'cbs',
  'conv',
  'count',
  'ibs',
  'if',
  'iflag',
  'obs',
  'oflag',
  'seek',
  'skip',
  'status',
  'iseek',
  'oseek',
  'of',
]);

/**
 * Whether a sed script only substitutes (`s/a/b/g`, several joined by `;` or newlines), without
 * the `e` (execute), `w` (write a file) flags or commands, `r`/`R`/`W`: what acceptEdits may run.
 */
export function isPlainSedScript(script: string): boolean {
  return script.split(/[;\n]/).every((command) => {
    const trimmed = command.trim();
    if (trimmed === '') return true;
    const match = /^(?:\d+|\$)?(?:,(?:\d+|\$))?s(.)/.exec(trimmed);
    const delimiter = match?.[1];
    if (!match || delimiter === undefined || /[\\\n\w\s]/.test(delimiter)) return false;
    const escaped = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const body = new RegExp(
      `^(?:\\\\.|[^\\\\${escaped}])*${escaped}(?:\\\\.|[^\\\\${escaped}])*${escaped}([gpiIm0-9]*)$`,
    ).exec(trimmed.slice(match[0].length));
    return body !== null;
  });
}
