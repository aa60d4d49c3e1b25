import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../errors.js';
import { findTranscript, latestTranscript, resolveConfigDir } from '../session/paths.js';
import { readSessionTimeline } from '../timeline/read-session.js';
import { renderTimelinePage } from '../timeline/render-page.js';
import { makeDirectorySync } from '../files/make-directory.js';

/** `hookloop timeline [SESSION_ID|--continue] [--open] [--out FILE]`. */
export interface TimelineOptions {
  readonly command: 'timeline';
  /** The session to show; undefined (or `--continue`) = the latest session of this directory. */
  readonly sessionId: string | undefined;
  readonly open: boolean;
  readonly out: string | undefined;
}

/** Adds `hookloop timeline` to the program; `onParsed` receives the options. */
export function addTimelineCommand(program: Command, onParsed: (options: TimelineOptions) => void): void {
  program
    .command('timeline')
    .description(
      "write one self-contained HTML page showing a session's turns, tool calls, hook handlers, decisions and durations",
    )
    .argument('[session-id]', 'the session to show (default: the latest of this directory)')
    .option('-c, --continue', 'the latest session of this directory (the default)', false)
    .option('--open', 'open the page (xdg-open when present; otherwise its path is printed)', false)
    .option(
      '--out <file>',
      'where to write the page (default: next to the transcript, <session>.timeline.html)',
    )
    .action((sessionId: string | undefined, flags: { continue: boolean; open: boolean; out?: string }) => {
      if (sessionId !== undefined && flags.continue)
        throw new ConfigError('timeline: give a session id or --continue, not both', { field: '--continue' });
      onParsed({ command: 'timeline', sessionId, open: flags.open, out: flags.out });
    });
}

/**
 * Runs `hookloop timeline`: finds the session's transcript (by id in this project or any other,
 * or the latest of this directory), builds its timeline from the events file the run wrote next to
 * it, writes the page and prints its path; `--open` hands it to xdg-open. Works for a session that
 * is still running (the page shows what happened so far). Exit 0; a session that cannot be found
 * is a ConfigError (exit 2).
 */
export async function runTimelineCommand(
  options: TimelineOptions,
  io: {
    readonly stdout: NodeJS.WritableStream;
    readonly cwd: string;
    readonly homeDir: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<number> {
  const configDir = resolveConfigDir(undefined, io.env ?? process.env, io.homeDir);
  const transcript =
    options.sessionId !== undefined
      ? findTranscript(configDir, io.cwd, options.sessionId)
      : latestTranscript(configDir, io.cwd);
  if (transcript === undefined) {
    const what =
      options.sessionId !== undefined
        ? `no session ${JSON.stringify(options.sessionId)} under ${configDir}/projects`
        : `no session of ${io.cwd} under ${configDir}/projects yet`;
    throw new ConfigError(`timeline: ${what}`, {
      field: options.sessionId !== undefined ? 'SESSION_ID' : '--continue',
    });
  }
  const model = readSessionTimeline(transcript);
  const out =
    options.out !== undefined
      ? path.resolve(io.cwd, options.out)
      : path.join(path.dirname(transcript), `${model.sessionId}.timeline.html`);
  makeDirectorySync(path.dirname(out));
  fs.writeFileSync(out, renderTimelinePage(model, Date.now()));
  io.stdout.write(`${out}\n`);
  if (options.open && !openWithSystem(out, io.env ?? process.env))
    io.stdout.write('hookloop: xdg-open is not available; open the file above in a browser\n');
  return 0;
}

/** Starts xdg-open on `file`, detached; false when there is no xdg-open on PATH. */
function openWithSystem(file: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const found = spawnSync('/bin/sh', ['-c', 'command -v xdg-open'], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });
  if (found.status !== 0 || found.stdout.trim() === '') return false;
  const child = spawn(found.stdout.trim(), [file], {
    detached: true,
    stdio: 'ignore',
    env: env as NodeJS.ProcessEnv,
  });
  child.on('error', () => undefined);
  child.unref();
  return true;
}
