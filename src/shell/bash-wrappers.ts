import type { OptionSpec } from './bash-options.js';

/**
 * How a wrapper program runs the program named after it.
 * - `options`: the wrapper's own options (an option not listed makes the wrapped program unknown).
 * - `transparent`: it changes nothing an allow rule is about (timing, priority, buffering, session):
 *   `timeout 5 npm test` is allowed by `Bash(npm test)`. Given any option in `opaqueOptions`, or
 *   `NAME=value` words (`env`), it is not.
 * - `operandsBefore`: operands between the options and the program (`timeout DURATION`, `chroot DIR`, `flock FILE`).
 * - `assignments`: `NAME=value` words may come before the program (`env`, `sudo`).
 * - `noProgram`: options after which nothing is run (`command -v`, `ionice -p`).
 * - `script`: options whose value is a shell script (`flock -c`, `su -c`); `su` reads its options
 *   anywhere and, without `-c`, starts a shell.
 * - `defaultProgram`: what runs when no program is named (`xargs` runs `echo`); `shell` when
 *   that is an interactive shell (unknown commands).
 */
export interface WrapperSpec {
  readonly options: OptionSpec;
  readonly transparent?: boolean;
  readonly opaqueOptions?: readonly string[];
  readonly operandsBefore?: number;
  readonly assignments?: boolean;
  readonly noProgram?: readonly string[];
  readonly script?: readonly string[];
  readonly defaultProgram?: 'echo' | 'shell' | 'none';
}

const f = 'flag' as const;
const v = 'value' as const;
const o = 'optional' as const;

const KNOWN_WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    options: {
      stopAtOperand: true,
      short: { i: f, '0': f, u: v, C: v, S: v, v: f },
      long: {
        'ignore-environment': f,
        null: f,
        unset: v,
        chdir: v,
        'split-string': v,
        'block-signal': o,
        'default-signal': o,
        'ignore-signal': o,
        'list-signal-handling': f,
        debug: f,
      },
    },
    transparent: true,
    opaqueOptions: [
      '-i',
      '--ignore-environment',
      '-u',
      '--unset',
      '-C',
      '--chdir',
      '-S',
      '--split-string',
      '-0',
      '--null',
    ],
    assignments: true,
    defaultProgram: 'none',
  },
  xargs: {
    options: {
      stopAtOperand: true,
      short: {
        '0': f,
        a: v,
        d: v,
        E: v,
        e: o,
        I: v,
        i: o,
        L: v,
        l: o,
        n: v,
        o: f,
        P: v,
        p: f,
        r: f,
        s: v,
        t: f,
        x: f,
      },
      long: {
        null: f,
        'arg-file': v,
        delimiter: v,
        eof: o,
        replace: o,
        'max-lines': o,
        'max-args': v,
        'open-tty': f,
        'max-procs': v,
        interactive: f,
        'process-slot-var': v,
        'no-run-if-empty': f,
        'max-chars': v,
        'show-limits': f,
        verbose: f,
        exit: f,
      },
    },
    defaultProgram: 'echo',
  },
  setsid: {
    options: { stopAtOperand: true, short: { c: f, f: f, w: f }, long: { ctty: f, fork: f, wait: f } },
    transparent: true,
  },
  stdbuf: {
    options: { stopAtOperand: true, short: { i: v, o: v, e: v }, long: { input: v, output: v, error: v } },
    transparent: true,
  },
  nice: {
    options: { stopAtOperand: true, numeric: true, short: { n: v }, long: { adjustment: v } },
    transparent: true,
    defaultProgram: 'none',
  },
  ionice: {
    options: {
      stopAtOperand: true,
      short: { c: v, n: v, p: f, P: f, u: f, t: f },
      long: { class: v, classdata: v, pid: f, pgid: f, uid: f, ignore: f },
    },
    transparent: true,
    noProgram: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'],
    defaultProgram: 'none',
  },
  timeout: {
    options: {
      stopAtOperand: true,
      short: { f: f, k: v, p: f, s: v, v: f },
      long: { foreground: f, 'kill-after': v, 'preserve-status': f, signal: v, verbose: f },
    },
    transparent: true,
    operandsBefore: 1,
  },
  nohup: { options: { stopAtOperand: true }, transparent: true },
  time: {
    options: {
      stopAtOperand: true,
      short: { f: v, p: f, o: v, a: f, v: f, q: f },
      long: { format: v, portability: f, output: v, append: f, verbose: f, quiet: f },
    },
    transparent: true,
    opaqueOptions: ['-o', '--output'],
  },
  command: {
    options: { stopAtOperand: true, short: { p: f, v: f, V: f } },
    transparent: true,
    noProgram: ['-v', '-V'],
  },
  builtin: { options: { stopAtOperand: true }, transparent: true },
  exec: {
    options: { stopAtOperand: true, short: { c: f, l: f, a: v } },
    transparent: true,
    opaqueOptions: ['-c', '-l', '-a'],
    defaultProgram: 'none',
  },
  sudo: {
    options: {
      stopAtOperand: true,
      short: {
        A: f,
        b: f,
        E: f,
        H: f,
        i: f,
        K: f,
        k: f,
        n: f,
        P: f,
        S: f,
        s: f,
        C: v,
        D: v,
        g: v,
        h: o,
        p: v,
        R: v,
        r: v,
        t: v,
        T: v,
        U: v,
        u: v,
      },
      long: {
        askpass: f,
        background: f,
        'close-from': v,
        chdir: v,
        'preserve-env': o,
        group: v,
        'set-home': f,
        host: v,
        login: f,
        'remove-timestamp': f,
        'reset-timestamp': f,
        'non-interactive': f,
        'preserve-groups': f,
        prompt: v,
        chroot: v,
        role: v,
        stdin: f,
        shell: f,
        type: v,
        'command-timeout': v,
        'other-user': v,
        user: v,
      },
    },
    assignments: true,
    noProgram: ['-K', '-k'],
    defaultProgram: 'shell',
  },
  doas: {
    options: { stopAtOperand: true, short: { n: f, s: f, u: v, C: v, L: f } },
    defaultProgram: 'shell',
  },
  chroot: {
    options: { stopAtOperand: true, long: { userspec: v, groups: v, 'skip-chdir': f } },
    operandsBefore: 1,
    defaultProgram: 'shell',
  },
  watch: {
    options: {
      stopAtOperand: true,
      short: { d: o, n: v, p: f, t: f, b: f, e: f, g: f, c: f, x: f, w: f, q: v, r: f },
      long: {
        differences: o,
        interval: v,
        precise: f,
        'no-title': f,
        beep: f,
        errexit: f,
        chgexit: f,
        color: f,
        exec: f,
        'no-wrap': f,
        equexit: v,
        'no-rerun': f,
      },
    },
  },
  flock: {
    options: {
      stopAtOperand: true,
      short: { s: f, x: f, e: f, u: f, n: f, w: v, E: v, o: f, F: f, c: v },
      long: {
        shared: f,
        exclusive: f,
        unlock: f,
        nonblock: f,
        timeout: v,
        'conflict-exit-code': v,
        close: f,
        'no-fork': f,
        command: v,
        verbose: f,
      },
    },
    operandsBefore: 1,
    script: ['-c', '--command'],
    defaultProgram: 'none',
  },
  unbuffer: { options: { stopAtOperand: true, short: { p: f } }, transparent: true },
  busybox: { options: { stopAtOperand: true } },
  su: {
    options: {
      short: { c: v, l: f, m: f, p: f, s: v, g: v, G: v, P: f, w: v },
      long: {
        command: v,
        login: f,
        'preserve-environment': f,
        shell: v,
        group: v,
        'supp-group': v,
        pty: f,
        'whitelist-environment': v,
        'session-command': v,
      },
    },
    script: ['-c', '--command', '--session-command'],
    defaultProgram: 'shell',
  },
  // util-linux `script [options] [file]`: `-c CMD` runs CMD with the shell; without it, an
  // interactive shell that reads its commands from standard input. Options anywhere, as `su`.
  script: {
    options: {
      short: { a: f, c: v, E: v, e: f, f: f, I: v, O: v, B: v, T: v, m: v, o: v, q: f, t: o },
      long: {
        append: f,
        command: v,
        echo: v,
        return: f,
        flush: f,
        force: f,
        'log-in': v,
        'log-out': v,
        'log-io': v,
        'log-timing': v,
        'logging-format': v,
        'output-limit': v,
        quiet: f,
        timing: o,
      },
    },
    script: ['-c', '--command'],
    defaultProgram: 'shell',
  },
};

// Programs that run a command string with a shell, or read commands from standard input or a
// terminal (`sg GROUP CMD` is `sh -c CMD`; `at`, `batch` read a script; `tmux`, `screen`, `expect`
// start shells or scripts): what they run is never known, so deny rules match them and no allow rule does.
const SHELL_RUNNERS = ['sg', 'newgrp', 'at', 'batch', 'tmux', 'screen', 'expect', 'dtach', 'abduco'];

// Programs that run the program named after them, whose own options hookloop does not read: any
// option makes the program they run unknown; without options the next word is the program.
const OPAQUE_WRAPPERS = [
  'parallel',
  'strace',
  'ltrace',
  'valgrind',
  'numactl',
  'fakeroot',
  'pkexec',
  'runuser',
  'nsenter',
  'firejail',
  'proxychains',
  'proxychains4',
  'torsocks',
  'systemd-run',
  'caffeinate',
  'catchsegv',
  'cgexec',
  'sandbox-exec',
  'unshare',
  'prlimit',
  'faketime',
  'setpriv',
  'eatmydata',
  'chpst',
  'nocache',
  'rlwrap',
  'xvfb-run',
  'dbus-run-session',
  'ssh-agent',
  'with-lock-ex',
  'daemonize',
  'nq',
  'tsp',
  'sem',
  'linux32',
  'linux64',
  'bwrap',
  'systemd-inhibit',
  'schroot',
  'cpulimit',
  'trickle',
  'chronic',
  'ifne',
];

/** The wrappers hookloop looks through, by program name (a path's basename). */
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  ...Object.fromEntries(
    OPAQUE_WRAPPERS.map((name): [string, WrapperSpec] => [name, { options: { stopAtOperand: true } }]),
  ),
  ...Object.fromEntries(
    SHELL_RUNNERS.map((name): [string, WrapperSpec] => [name, { options: {}, defaultProgram: 'shell' }]),
  ),
  taskset: { options: { stopAtOperand: true }, operandsBefore: 1 },
  // `gosu USER CMD`, `su-exec USER CMD`, `setarch ARCH CMD`: one operand, then the program.
  gosu: { options: { stopAtOperand: true }, operandsBefore: 1 },
  'su-exec': { options: { stopAtOperand: true }, operandsBefore: 1 },
  setarch: { options: { stopAtOperand: true }, operandsBefore: 1 },
  chrt: { options: { stopAtOperand: true }, operandsBefore: 1 },
  ...KNOWN_WRAPPERS,
};

/** Shells whose `-c STRING` is a script, and which read a script from standard input when given none. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);
