// The programs hookloop runs without approval, and for each the complete list of flags that keep
// it read-only, spelled in full. A flag missing here (an abbreviation such as `sort --o`, an
// unknown flag, or one that writes a file or runs a program: `-o`, `--output`,
// `--compress-program`, `--pre`, `-exec`, `--open-files-in-pager` …) makes the command ask.
// Add to this table only flags that read, and only with their exact spelling.

/**
 * The flags of one program (GNU conventions unless said otherwise).
 * - `short`: letters that take no value; they may be combined (`-la`).
 * - `shortValue`: letters that take a value, attached (`-n5`) or as the next word (`-n 5`).
 * - `long`: `--name` flags without a value; `longValue`: `--name=value` or `--name value`;
 *   `longOptional`: `--name` or `--name=value` (never the next word).
 * - `numeric`: `-5` is accepted (head, tail, grep, git log: a count).
 * - `singleDash`: flags are whole words with one dash (`find -name`), never combined; values are the next word.
 * - `operands`: a check of the words that are not flags (default: any literal is fine).
 * - `optionsFirst`: flags are read only before the first operand (bash builtins, `echo`); later words are operands.
 */
export interface ProgramFlags {
  readonly short?: string;
  readonly shortValue?: string;
  readonly long?: string;
  readonly longValue?: string;
  readonly longOptional?: string;
  readonly numeric?: boolean;
  readonly singleDash?: boolean;
  readonly optionsFirst?: boolean;
  readonly operands?: (operands: readonly string[]) => boolean;
}

const atMost = (count: number) => (operands: readonly string[]) => operands.length <= count;
const none = atMost(0);

const GREP: ProgramFlags = {
  short: 'EFGPiyvwxclLoqsbHhnTZzUarRI',
  shortValue: 'efmABCdD',
  long: '--extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case --no-ignore-case --word-regexp --line-regexp --null-data --no-messages --invert-match --byte-offset --line-number --line-buffered --with-filename --no-filename --only-matching --quiet --silent --text --recursive --dereference-recursive --files-without-match --files-with-matches --count --initial-tab --null',
  longValue:
    '--regexp --file --max-count --label --binary-files --directories --devices --include --exclude --exclude-from --exclude-dir --before-context --after-context --context',
  longOptional: '--color --colour',
  numeric: true,
};

const HEAD_TAIL = {
  shortValue: 'nc',
  short: 'qvz',
  long: '--quiet --silent --verbose --zero-terminated',
  longValue: '--lines --bytes',
  numeric: true,
} as const;
const CHECKSUM: ProgramFlags = {
  short: 'bctwz',
  long: '--binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn',
};

// Shared by git log, show and whatchanged (and diff for the diff part).
const GIT_DIFF_OUTPUT = {
  short: 'pusRwbzM',
  shortValue: 'U',
  long: '--patch --no-patch --raw --patch-with-raw --patch-with-stat --numstat --shortstat --name-only --name-status --summary --full-index --binary --no-color --color-words --no-renames --ignore-all-space --ignore-space-change --ignore-space-at-eol --ignore-blank-lines --minimal --patience --histogram --no-ext-diff --no-textconv --text --check --exit-code --quiet --no-prefix --cumulative --compact-summary',
  longValue:
    '--unified --diff-filter --diff-algorithm --src-prefix --dst-prefix --line-prefix --stat-width --stat-count',
  longOptional:
    '--stat --dirstat --color --word-diff --word-diff-regex --find-renames --find-copies --abbrev --relative --color-moved --ws-error-highlight',
} as const;

const GIT_LOG: ProgramFlags = {
  short: GIT_DIFF_OUTPUT.short + 'igm',
  shortValue: GIT_DIFF_OUTPUT.shortValue + 'nSGL',
  long: `${GIT_DIFF_OUTPUT.long} --oneline --all --graph --no-decorate --abbrev-commit --no-abbrev-commit --reverse --first-parent --merges --no-merges --follow --relative-date --topo-order --date-order --author-date-order --left-right --cherry-pick --cherry-mark --ancestry-path --simplify-by-decoration --source --walk-reflogs --full-history --boundary --parents --children --cc --regexp-ignore-case --all-match --invert-grep --fixed-strings --extended-regexp --basic-regexp --perl-regexp --no-walk --do-walk --use-mailmap --no-mailmap --no-notes --show-linear-break --dense --sparse --remove-empty --show-pulls --full-diff --log-size --expand-tabs --no-expand-tabs --combined-all-paths --mailmap --tags --branches --remotes`,
  longValue: `${GIT_DIFF_OUTPUT.longValue} --max-count --skip --since --until --after --before --author --committer --grep --format --date --min-parents --max-parents --since-as-filter --exclude --glob`,
  longOptional: `${GIT_DIFF_OUTPUT.longOptional} --pretty --decorate --notes`,
  numeric: true,
};

const GIT_DIFF: ProgramFlags = {
  short: GIT_DIFF_OUTPUT.short + 'aB',
  shortValue: GIT_DIFF_OUTPUT.shortValue,
  long: `${GIT_DIFF_OUTPUT.long} --cached --staged --merge-base --no-index --ita-invisible-in-index --ita-visible-in-index --irreversible-delete --ignore-cr-at-eol --indent-heuristic --no-indent-heuristic --function-context --anchored`,
  longValue: GIT_DIFF_OUTPUT.longValue,
  longOptional: GIT_DIFF_OUTPUT.longOptional,
};

/** `git` subcommands that only read, with their flags. Any other subcommand asks. */
export const READ_ONLY_GIT: Readonly<Record<string, ProgramFlags>> = {
  status: {
    short: 'sbvz',
    long: '--short --branch --long --verbose --show-stash --ahead-behind --no-ahead-behind --renames --no-renames --null',
    longOptional: '--porcelain --untracked-files --ignored --ignore-submodules --find-renames --column',
  },
  diff: GIT_DIFF,
  log: GIT_LOG,
  show: { ...GIT_LOG, long: `${GIT_LOG.long ?? ''} --no-patch` },
  whatchanged: GIT_LOG,
  shortlog: {
    short: 'nsec',
    long: '--numbered --summary --email --committer --all',
    longValue: '--format --group --since --until --author',
  },
  'rev-parse': {
    short: 'q',
    long: '--verify --quiet --show-toplevel --show-prefix --show-cdup --abbrev-ref --symbolic --symbolic-full-name --git-dir --absolute-git-dir --git-common-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --show-superproject-working-tree --all --branches --tags --remotes',
    longOptional: '--short',
  },
  'rev-list': {
    short: '',
    shortValue: 'n',
    long: '--count --all --reverse --first-parent --no-merges --merges --left-right --topo-order --date-order --objects --tags --branches --remotes --ancestry-path --boundary --parents --children',
    longValue: '--max-count --skip --since --until --after --before --author --grep',
    numeric: true,
  },
  describe: {
    long: '--tags --always --long --all --contains --exact-match --first-parent',
    longValue: '--match --exclude --candidates',
    longOptional: '--abbrev',
  },
  blame: {
    short: 'selwtfnpcb',
    shortValue: 'L',
    long: '--show-email --show-name --show-number --porcelain --line-porcelain --root --show-stats --incremental --minimal --no-progress',
    longValue: '--date --reverse --ignore-rev',
  },
  'ls-files': {
    short: 'cdmoisukvtz',
    shortValue: 'xX',
    long: '--cached --deleted --modified --others --ignored --stage --unmerged --killed --directory --no-empty-directory --exclude-standard --full-name --error-unmatch --recurse-submodules --eol --debug --deduplicate --sparse',
    longValue: '--exclude --exclude-per-directory --with-tree --format',
    longOptional: '--abbrev',
  },
  'ls-tree': {
    short: 'rtdlz',
    long: '--long --name-only --name-status --object-only --full-name --full-tree',
    longValue: '--format',
    longOptional: '--abbrev',
  },
  grep: {
    short: 'aiIwvhHEGPFlLcoqrnWzp',
    shortValue: 'eABCfm',
    long: '--cached --no-index --untracked --no-exclude-standard --exclude-standard --recurse-submodules --text --ignore-case --word-regexp --invert-match --full-name --extended-regexp --basic-regexp --perl-regexp --fixed-strings --line-number --column --files-with-matches --name-only --files-without-match --count --null --only-matching --heading --break --show-function --function-context --quiet --and --or --not --all-match --recursive --no-recursive',
    longValue: '--max-depth --after-context --before-context --context --threads --file --max-count',
    longOptional: '--color',
    numeric: true,
  },
  'cat-file': { short: 'tspe', long: '--allow-unknown-type' },
  'merge-base': { long: '--is-ancestor --all --octopus --independent --fork-point' },
  'name-rev': { long: '--name-only --tags --all --undefined --always' },
  'count-objects': { short: 'vH', long: '--verbose --human-readable' },
  branch: {
    short: 'arvl',
    long: '--all --remotes --verbose --list --show-current --no-color --ignore-case --omit-empty',
    longValue: '--sort --format',
    longOptional: '--color --abbrev',
  },
  tag: {
    short: 'l',
    long: '--list --ignore-case --omit-empty',
    longValue: '--sort --format',
    longOptional: '--color',
  },
  remote: { short: 'v', long: '--verbose' },
  stash: { short: 'p', long: '--patch --stat --name-only' },
  reflog: {
    shortValue: 'n',
    longValue: '--max-count --format --date',
    long: '--oneline --all',
    numeric: true,
  },
  // No `config`: git stops reading options at the first operand, so `git config NAME VALUE --get`
  // sets NAME (a program for core.fsmonitor, core.pager …): no spelling of it is provably read-only.
  version: { long: '--build-options' },
};

/** Programs that only read, with their flags (see `ProgramFlags`). Wrappers and `git` are handled in read-only-command.ts. */
export const READ_ONLY_PROGRAMS: Readonly<Record<string, ProgramFlags>> = {
  ls: {
    short: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    shortValue: 'IwT',
    long: '--all --almost-all --author --escape --directory --dired --classify --file-type --full-time --group-directories-first --no-group --human-readable --si --dereference-command-line --dereference-command-line-symlink-to-dir --hide-control-chars --show-control-chars --inode --kibibytes --literal --numeric-uid-gid --dereference --reverse --recursive --size --context --zero --ignore-backups',
    longValue:
      '--block-size --format --hide --ignore --indicator-style --quoting-style --sort --time --time-style --tabsize --width',
    longOptional: '--color --hyperlink',
  },
  cat: {
    short: 'AbeEnstTuv',
    long: '--show-all --number-nonblank --number --squeeze-blank --show-ends --show-tabs --show-nonprinting',
  },
  head: HEAD_TAIL,
  tail: {
    ...HEAD_TAIL,
    short: 'qvzfF',
    long: `${HEAD_TAIL.long} --retry`,
    longValue: `${HEAD_TAIL.longValue} --pid --sleep-interval --max-unchanged-stats`,
    longOptional: '--follow',
  },
  wc: { short: 'cmlLw', long: '--bytes --chars --lines --max-line-length --words', longValue: '--total' },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    // Never -z/--search-zip or --pre (they start decompressors or any program).
    short: 'iSswxvnNlcoFuULHI0qP',
    shortValue: 'egtTABCmMjdr',
    long: '--ignore-case --case-sensitive --smart-case --word-regexp --line-regexp --invert-match --line-number --no-line-number --files-with-matches --files-without-match --count --count-matches --only-matching --fixed-strings --hidden --no-hidden --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-parent --no-ignore-global --no-ignore-exclude --follow --files --heading --no-heading --with-filename --no-filename --stats --trim --multiline --multiline-dotall --pcre2 --type-list --unrestricted --column --no-messages --null --null-data --text --binary --no-config --json --vimgrep --quiet --crlf --passthru --no-unicode --one-file-system --byte-offset --sort-files --invert-match --max-columns-preview --glob-case-insensitive --no-require-git --auto-hybrid-regex --engine-default',
    longValue:
      '--regexp --glob --iglob --type --type-not --max-count --max-depth --max-columns --context --after-context --before-context --color --sort --sortr --replace --threads --max-filesize --colors --context-separator --field-match-separator --field-context-separator --path-separator --encoding --engine',
  },
  find: {
    singleDash: true,
    // Tests, options and the actions that print to standard output; never -exec, -execdir, -ok,
    // -okdir, -delete, -fprint, -fprint0, -fprintf, -fls.
    long: '-print -print0 -ls -prune -quit -not -a -and -o -or -true -false -follow -xdev -mount -depth -empty -readable -writable -executable -nouser -nogroup -daystart -noleaf -ignore_readdir_race -noignore_readdir_race -L -P -H',
    longValue:
      '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth -newer -anewer -cnewer -mtime -mmin -atime -amin -ctime -cmin -size -perm -user -group -uid -gid -links -inum -samefile -printf -regextype -lname -ilname -fstype -used -newermt -newerct -newerat -newermm -newerBt -newermB',
  },
  diff: {
    short: 'uqrNwbBiyaspteEZn',
    shortValue: 'UCWxX',
    long: '--brief --recursive --new-file --unidirectional-new-file --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-case --ignore-tab-expansion --ignore-trailing-space --side-by-side --text --report-identical-files --show-c-function --expand-tabs --initial-tab --strip-trailing-cr --suppress-common-lines --left-column --normal --minimal --speed-large-files --no-dereference --ignore-file-name-case --no-ignore-file-name-case --suppress-blank-empty --ed --rcs',
    longValue:
      '--width --exclude --exclude-from --label --ignore-matching-lines --starting-file --show-function-line --tabsize --horizon-lines --palette',
    longOptional: '--unified --context --color',
  },
  cmp: {
    short: 'bls',
    shortValue: 'in',
    long: '--print-bytes --verbose --quiet --silent',
    longValue: '--ignore-initial --bytes',
  },
  comm: {
    short: '123iz',
    long: '--check-order --nocheck-order --total --zero-terminated',
    longValue: '--output-delimiter',
  },
  sort: {
    // Never -o/--output, -T/--temporary-directory, --compress-program, --random-source, --files0-from,
    // nor -S/--buffer-size (a small buffer spills into temporary files).
    short: 'bdfgiMhnRrVcCmsuz',
    shortValue: 'kt',
    long: '--ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --merge --stable --unique --zero-terminated --debug',
    longValue: '--key --field-separator --parallel --sort',
    longOptional: '--check',
  },
  // `uniq IN OUT` writes OUT: one operand at most.
  uniq: {
    short: 'cdDiuz',
    shortValue: 'fsw',
    long: '--count --repeated --ignore-case --unique --zero-terminated',
    longValue: '--skip-fields --skip-chars --check-chars',
    longOptional: '--all-repeated --group',
    operands: atMost(1),
  },
  cut: {
    short: 'snz',
    shortValue: 'bcfd',
    long: '--complement --only-delimited --zero-terminated',
    longValue: '--bytes --characters --fields --delimiter --output-delimiter',
  },
  tr: { short: 'cCdst', long: '--complement --delete --squeeze-repeats --truncate-set1' },
  nl: {
    short: 'p',
    shortValue: 'bdfhilnsvw',
    long: '--no-renumber',
    longValue:
      '--body-numbering --section-delimiter --footer-numbering --header-numbering --line-increment --join-blank-lines --number-format --number-separator --starting-line-number --number-width',
  },
  fold: { short: 'bs', shortValue: 'w', long: '--bytes --spaces', longValue: '--width' },
  expand: { short: 'i', shortValue: 't', long: '--initial', longValue: '--tabs' },
  unexpand: { short: 'a', shortValue: 't', long: '--all --first-only', longValue: '--tabs' },
  paste: { short: 'sz', shortValue: 'd', long: '--serial --zero-terminated', longValue: '--delimiters' },
  // Not tac: it copies a piped input into a temporary file.
  rev: {},
  column: {
    short: 'tnexLJ',
    shortValue: 'scoNRHWdl',
    long: '--table --fillrows --json --keep-empty-lines --table-noextreme --table-noheadings',
    longValue:
      '--separator --output-separator --columns --table-columns --table-right --table-hide --table-wrap --table-name --table-order',
  },
  od: {
    short: 'bcdfiloxsv',
    shortValue: 'AjNtSw',
    long: '--output-duplicates --traditional',
    longValue: '--address-radix --skip-bytes --read-bytes --format --strings',
    longOptional: '--width',
  },
  hexdump: {
    short: 'bcCdovx',
    shortValue: 'ens',
    long: '--one-byte-octal --one-byte-char --canonical --two-bytes-decimal --two-bytes-octal --no-squeezing --two-bytes-hex',
    longValue: '--format --length --skip',
  },
  strings: {
    short: 'adfw',
    shortValue: 'ntTe',
    long: '--all --data --print-file-name --include-all-whitespace',
    longValue: '--bytes --radix --encoding --target',
  },
  base64: { short: 'di', shortValue: 'w', long: '--decode --ignore-garbage', longValue: '--wrap' },
  base32: { short: 'di', shortValue: 'w', long: '--decode --ignore-garbage', longValue: '--wrap' },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha224sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha384sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: { ...CHECKSUM, shortValue: 'l', longValue: '--length' },
  cksum: {
    ...CHECKSUM,
    shortValue: 'al',
    longValue: '--algorithm --length',
    long: `${CHECKSUM.long ?? ''} --raw --untagged --base64`,
  },
  basename: { short: 'az', shortValue: 's', long: '--multiple --zero', longValue: '--suffix' },
  dirname: { short: 'z', long: '--zero' },
  realpath: {
    short: 'emLPqsz',
    long: '--canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero',
    longValue: '--relative-to --relative-base',
  },
  readlink: {
    short: 'femnqsvz',
    long: '--canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero',
  },
  stat: {
    short: 'Lft',
    shortValue: 'c',
    long: '--dereference --file-system --terse',
    longValue: '--format --printf',
  },
  du: {
    short: 'abchklmsxDHLSP0',
    shortValue: 'dBt',
    long: '--all --apparent-size --bytes --total --human-readable --si --count-links --dereference --dereference-args --no-dereference --separate-dirs --summarize --one-file-system --null --inodes',
    longValue: '--max-depth --block-size --threshold --exclude --time-style',
    longOptional: '--time',
  },
  df: {
    short: 'ahHiklPTx',
    shortValue: 'Bt',
    long: '--all --human-readable --si --inodes --local --portability --print-type --total --no-sync --sync',
    longValue: '--block-size --type --exclude-type',
  },
  free: {
    short: 'bkmghltwv',
    shortValue: 'sc',
    long: '--bytes --kibi --mebi --gibi --tebi --pebi --kilo --mega --giga --tera --peta --human --si --lohi --total --wide --committed',
    longValue: '--seconds --count',
  },
  uname: {
    short: 'asnrvmpio',
    long: '--all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system',
  },
  id: { short: 'ugGnrzZa', long: '--user --group --groups --name --real --zero --context' },
  groups: {},
  whoami: { operands: none },
  hostname: {
    short: 'sfdiIaAy',
    long: '--short --fqdn --long --domain --ip-address --all-ip-addresses --alias --all-fqdns --yp --nis',
    operands: none,
  },
  // Only `date +FORMAT`: `date STRING`, `--set`, `--date`, `--file` are not read-only here.
  date: {
    short: 'uR',
    long: '--utc --universal --rfc-email --debug',
    longOptional: '--iso-8601 --rfc-3339',
    operands: (operands) => operands.every((operand) => operand.startsWith('+')),
  },
  seq: { short: 'w', shortValue: 'fs', long: '--equal-width', longValue: '--format --separator' },
  sleep: {},
  nproc: { long: '--all', longValue: '--ignore' },
  uptime: { short: 'ps', long: '--pretty --since' },
  arch: { operands: none },
  tty: { short: 's', long: '--silent --quiet' },
  locale: { short: 'akcv', long: '--all-locales --category-name --keyword-name --verbose' }, // never -m: it starts gzip
  which: { short: 'a' },
  whereis: { short: 'bmsul' },
  // Only the UNIX-style selections with the default columns (PID TTY TIME CMD, the program's name):
  // `-f`, `-o args`, BSD `aux` … print every process's command line, which holds what /proc/*/cmdline
  // does (tokens given as arguments). BSD `e` prints environments.
  ps: {
    short: 'AedNTa',
    shortValue: 'puUgGtCq',
    long: '--no-headers --headers',
    longValue: '--pid --ppid --user --group --sort',
    operands: none,
  },
  tree: {
    short: 'adfilhsDCFnNpugQrtvxJ',
    shortValue: 'LPI',
    long: '--noreport --dirsfirst --gitignore --du --prune --matchdirs --ignore-case --inodes --device --si',
    longValue: '--charset --sort --filelimit --timefmt',
  },
  // Never -p/--preserve-date (sets access times back), -C (compiles a magic file), -z/-Z (may start decompressors).
  file: {
    short: 'bchiklLNnrsS0',
    long: '--brief --mime --mime-type --mime-encoding --keep-going --list --dereference --no-dereference --no-pad --no-buffer --raw --special-files --print0 --extension --apple',
    longValue: '--separator --parameter',
  },
  // The names of variables that hold no credentials; `printenv` of anything else (or of everything) asks.
  printenv: {
    operands: (operands) => operands.length > 0 && operands.every((operand) => PUBLIC_VARIABLES.has(operand)),
  },
  // Bash builtins: options only before the first operand.
  echo: { optionsFirst: true, short: 'neE' },
  printf: { optionsFirst: true }, // never -v: it assigns, and evaluates a subscript in the name
  pwd: { short: 'LP', operands: none },
  cd: { short: 'LP', operands: atMost(1) },
  true: {},
  false: {},
  ':': {},
  type: { short: 'afptP' },
  // `test`/`[`: never -v (evaluates an array subscript) or -R; see testOperands in read-only-command.ts.
  test: { optionsFirst: true },
  '[': { optionsFirst: true },
  jq: {
    short: 'rjcnseSCMaR',
    shortValue: '',
    long: '--raw-output --join-output --compact-output --null-input --slurp --exit-status --sort-keys --color-output --monochrome-output --ascii-output --tab --raw-input --seq --stream',
    longValue: '--indent',
  },
};

/** Variables `printenv NAME` may print: none of them holds a credential. */
export const PUBLIC_VARIABLES: ReadonlySet<string> = new Set([
  'HOME',
  'PATH',
  'PWD',
  'OLDPWD',
  'SHELL',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'TZ',
  'HOSTNAME',
  'SHLVL',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'COLUMNS',
  'LINES',
]);

/** Prefix assignments allowed before a read-only command (`LC_ALL=C sort`): they change how text is read, never what runs. */
export const READ_ONLY_ASSIGNMENTS: ReadonlySet<string> = new Set([
  'LC_ALL',
  'LANG',
  'LANGUAGE',
  'LC_COLLATE',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'NO_COLOR',
  'COLUMNS',
]);
