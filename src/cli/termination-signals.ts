import os from 'node:os';
import { killTrackedProcessGroups } from '../tools/builtin/process-groups.js';

/**
 * How the CLI ends a run on SIGINT, SIGTERM and SIGHUP: the same way for all three. The first
 * signal aborts the run — the loop pairs every open tool call with an interrupted result, the Bash
 * tool kills its command's process group, SessionEnd fires with `reason: "abort"`, the transcript
 * is complete — and the CLI then exits with 128 + the signal's number (130, 143, 129), the status a
 * shell reports for a process that signal ended. A second signal while that is under way exits at
 * once (after SIGKILL to every tool process group still alive).
 *
 * In an interactive session Ctrl-C interrupts only the current turn (interactive.ts listens for it),
 * so SIGINT is not taken here; SIGTERM and SIGHUP end the session (the prompt loop watches the same
 * abort signal: it stops reading, and SessionEnd says `abort`).
 */

/** The signals that end a run; SIGINT only outside interactive sessions. */
export type TerminationSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** What the CLI does when a termination signal arrives. */
export interface TerminationOptions {
  /** Interactive session: SIGINT is left to the prompt loop. */
  readonly interactive: boolean;
  /** Aborts the run (its AbortController). */
  readonly abort: () => void;
  /** One notice line on stderr. */
  readonly notify: (text: string) => void;
}

/** The installed handlers: which signal arrived first (undefined: none), and how to remove them. */
export interface TerminationWatch {
  readonly received: () => TerminationSignal | undefined;
  /** The exit code for the signal received, else `fallback`. */
  readonly exitCode: (fallback: number) => number;
  /** Removes the handlers; when a signal was received, also SIGKILLs every tool process group still alive. */
  readonly dispose: () => void;
}

/** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export function signalExitCode(signal: TerminationSignal): number {
  return 128 + os.constants.signals[signal];
}

/** Installs the handlers on `process` (see the module comment). Call `dispose` when the run is over. */
export function watchTerminationSignals(options: TerminationOptions): TerminationWatch {
  let first: TerminationSignal | undefined;
  const signals: TerminationSignal[] = options.interactive
    ? ['SIGTERM', 'SIGHUP']
    : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = new Map<TerminationSignal, () => void>();
  for (const signal of signals) {
    const handler = () => {
      if (first !== undefined) {
        killTrackedProcessGroups();
        process.exit(signalExitCode(first));
      }
      first = signal;
      // After a hangup the terminal is gone: a failed write to it must not crash the orderly end.
      if (signal === 'SIGHUP')
        for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreOutputError);
      const again = signal === 'SIGINT' ? 'press Ctrl-C again' : `send ${signal} again`;
      options.notify(
        `hookloop: ${signal === 'SIGINT' ? 'interrupted' : `received ${signal}`}; finishing the current step (${again} to quit now)`,
      );
      options.abort();
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  return {
    received: () => first,
    exitCode: (fallback) => (first === undefined ? fallback : signalExitCode(first)),
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      if (first !== undefined) killTrackedProcessGroups();
    },
  };
}

/** Output errors after SIGHUP (EIO, EPIPE on a closed terminal): nothing can be shown any more. */
function ignoreOutputError(): void {}
