import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Runs Bash commands inside a read-only bubblewrap sandbox and reports, per command, whether it
// wrote anything or started a program outside an allowed list. How each is detected:
// - Writes: `/` is bound read-only, so a write anywhere outside /tmp fails with EROFS (seen in
//   the command's output). /tmp is a writable throwaway directory (holding the case directory
//   and HOME) that is checked after every command: any path in it newer (mtime or ctime) than a
//   stamp written just before the command is a write. The fixture's `.git` is read-only
//   (git's optional index refresh is not a write of the command's making).
// - Programs: /usr/bin, /usr/sbin, /usr/local/bin and /usr/local/sbin (and so /bin, /sbin) are
//   replaced by empty directories in which only the allowed programs are bound back; every other
//   name there is a symlink to a tripwire script that records its name and exits 126. Bash and
//   the driver's own tools live under a hidden path, so `sh`, `bash`, `touch` … are tripwires.
// Commands run one after another in one sandbox per batch (start-up costs ~0.3 s), each in a
// fresh `bash -c` with stdin from /dev/null and a 2 s limit (a timeout is not a failure).

const MASKED = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];
const HIDDEN = '/tmp/.probe-bin';
const OUT = '/tmp/.probe-out';
const CASE_LIMIT_SECONDS = 2;

/** What one command did in the sandbox. */
export interface ProbeResult {
  readonly command: string;
  readonly output: string;
  /** Paths under /tmp it created, changed or removed (their directory), and `EROFS` when it hit the read-only root. */
  readonly writes: readonly string[];
  /** Programs outside the allowed list it tried to start. */
  readonly forbiddenPrograms: readonly string[];
}

/** Why bubblewrap cannot be used here, or undefined when it can. */
export function bwrapUnavailable(): string | undefined {
  if (!fs.existsSync('/usr/bin/bwrap'))
    return 'bubblewrap (/usr/bin/bwrap) is not installed: apt-get install bubblewrap';
  const probe = spawnSync(
    '/usr/bin/bwrap',
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '/usr/bin/true'],
    { encoding: 'utf8' },
  );
  return probe.status === 0 ? undefined : `bubblewrap cannot create a sandbox here: ${probe.stderr.trim()}`;
}

const TRIPWIRE = `#!${HIDDEN}/bash\nprintf '%s %s\\n' "$PROBE_CASE" "$0" >> "$PROBE_OUT/tripped"\nexit 126\n`;
const DRIVER = `i=0
while IFS= read -r -d '' command; do
  export PROBE_CASE=$i
  : > "$PROBE_OUT/stamp"
  cd /tmp/case
  ${HIDDEN}/timeout -s KILL ${CASE_LIMIT_SECONDS} ${HIDDEN}/bash -c "$command" < /dev/null > "$PROBE_OUT/$i.out" 2>&1
  cd /
  ${HIDDEN}/find /tmp -path ${OUT} -prune -o -path ${HIDDEN} -prune -o \\( -newer "$PROBE_OUT/stamp" -o -cnewer "$PROBE_OUT/stamp" \\) -print > "$PROBE_OUT/$i.changed"
  i=$((i + 1))
done < "$PROBE_OUT/cases"
`;

/**
 * A sandbox for `allowedPrograms` (names looked up in the masked directories; shell scripts among
 * them are left out, since they would start `sh`). `fixture(dir)` fills the case directory once.
 */
export class BwrapProbe {
  readonly root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-bwrap-')));
  readonly caseDir = path.join(this.root, 'tmp', 'case');
  /** The allowed programs actually bound into the sandbox. */
  readonly bound: string[] = [];
  private readonly mountArgs: string[] = [];
  private runs = 0;

  constructor(allowedPrograms: readonly string[], fixture: (dir: string) => void) {
    for (const dir of ['tmp/case', 'tmp/home', 'tmp/.probe-bin', 'tmp/.probe-out'])
      fs.mkdirSync(path.join(this.root, dir), { recursive: true });
    fixture(this.caseDir);
    fs.writeFileSync(path.join(this.root, 'tripwire'), TRIPWIRE, { mode: 0o755 });
    fs.writeFileSync(path.join(this.root, 'driver.sh'), DRIVER);
    const allowed = new Set(allowedPrograms);
    this.mountArgs.push('--ro-bind', '/', '/', '--bind', path.join(this.root, 'tmp'), '/tmp');
    if (fs.existsSync(path.join(this.caseDir, '.git')))
      this.mountArgs.push('--ro-bind', path.join(this.caseDir, '.git'), '/tmp/case/.git');
    for (const [name, source] of [
      ['bash', '/usr/bin/bash'],
      ['timeout', '/usr/bin/timeout'],
      ['find', '/usr/bin/find'],
    ])
      this.mountArgs.push('--ro-bind', source as string, `${HIDDEN}/${name}`);
    this.mountArgs.push(
      '--ro-bind',
      path.join(this.root, 'tripwire'),
      `${HIDDEN}/tripwire`,
      '--ro-bind',
      path.join(this.root, 'driver.sh'),
      `${HIDDEN}/driver.sh`,
    );
    for (const dir of MASKED) {
      if (!fs.existsSync(dir)) continue;
      this.mountArgs.push('--tmpfs', dir);
      for (const name of fs.readdirSync(dir)) {
        const file = path.join(dir, name);
        if (allowed.has(name) && isBinary(file)) {
          this.mountArgs.push('--ro-bind', file, file);
          this.bound.push(name);
        } else {
          this.mountArgs.push('--symlink', `${HIDDEN}/tripwire`, file);
        }
      }
    }
  }

  /** Runs `commands` one by one in one sandbox (see the comment at the top of this file). */
  async run(commands: readonly string[]): Promise<ProbeResult[]> {
    const name = `run-${(this.runs += 1)}`;
    const out = path.join(this.root, 'tmp', '.probe-out', name);
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'cases'), commands.map((command) => `${command}\0`).join(''));
    const args = [
      ...this.mountArgs,
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
      '--setenv',
      'PATH',
      '/usr/local/bin:/usr/bin:/bin',
      '--setenv',
      'HOME',
      '/tmp/home',
      '--setenv',
      'PROBE_SECRET',
      OUTSIDE_CANARY,
      '--setenv',
      'LANG',
      'C.UTF-8',
      '--setenv',
      'PROBE_OUT',
      `${OUT}/${name}`,
      '--chdir',
      '/tmp/case',
      `${HIDDEN}/bash`,
      `${HIDDEN}/driver.sh`,
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn('/usr/bin/bwrap', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`bwrap exited ${code}: ${stderr}`)),
      );
    });
    const tripped = readOr(path.join(out, 'tripped'))
      .split('\n')
      .filter(Boolean)
      .map((line) => [Number(line.slice(0, line.indexOf(' '))), line.slice(line.indexOf(' ') + 1)] as const);
    return commands.map((command, index) => {
      const output = readOr(path.join(out, `${index}.out`));
      const changed = readOr(path.join(out, `${index}.changed`))
        .split('\n')
        .filter(Boolean);
      const writes = [...changed, ...(/Read-only file system/.test(output) ? ['EROFS'] : [])];
      return {
        command,
        output,
        writes,
        forbiddenPrograms: tripped.filter(([at]) => at === index).map(([, name]) => name),
      };
    });
  }

  /**
   * `run` in batches of `batch`, two sandboxes at a time (they share the throwaway /tmp: a write by
   * one shows in whichever command of either batch runs then — still reported, never missed).
   */
  async runAll(commands: readonly string[], batch = 60): Promise<ProbeResult[]> {
    const batches: string[][] = [];
    for (let start = 0; start < commands.length; start += batch)
      batches.push(commands.slice(start, start + batch));
    const results: ProbeResult[][] = [];
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const index = next++;
        results[index] = await this.run(batches[index] as string[]);
      }
    };
    await Promise.all([worker(), worker()]);
    return results.flat();
  }

  /** Removes the sandbox's files. */
  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** A real executable, not a `#!` script (scripts start `sh`, a tripwire). */
function isBinary(file: string): boolean {
  try {
    const real = fs.realpathSync(file);
    const head = Buffer.alloc(2);
    const fd = fs.openSync(real, 'r');
    try {
      fs.readSync(fd, head, 0, 2, 0);
    } finally {
      fs.closeSync(fd);
    }
    return fs.statSync(real).isFile() && head.toString() !== '#!';
  } catch {
    return false;
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Text that lives only outside the case directory (in `/tmp/outside/canary.txt`, reached from
 * inside through the links `link-out` and `docs/out-dir`, and in the environment as
 * `PROBE_SECRET`, so in `/proc/self/environ`): a read-only command must never print it.
 */
export const OUTSIDE_CANARY = 'OUTSIDE-CANARY-5e1d';

/** A small git repository with text files, for commands to read, and links that lead out of it. */
export function readOnlyFixture(dir: string): void {
  fs.mkdirSync(path.join(dir, '..', 'outside'), { recursive: true });
  fs.writeFileSync(path.join(dir, '..', 'outside', 'canary.txt'), `${OUTSIDE_CANARY}\n`);
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  fs.symlinkSync('../outside/canary.txt', path.join(dir, 'link-out'));
  fs.symlinkSync('../../outside', path.join(dir, 'docs', 'out-dir'));
  const files: Record<string, string> = {
    file: 'foo\nbar\n',
    f: 'b\na\n',
    a: 'same\n',
    b: 'other\n',
    'notes.txt': 'end$\n',
    'src/x.ts': 'export const x = 1;\n',
    'data.json': '{"a":1}\n',
  };
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  fs.appendFileSync(path.join(dir, 'file'), 'changed\n');
}
