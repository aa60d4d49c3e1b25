/**
 * What the Bash tool needs from the OS sandbox of its run, so that tools never import the run or
 * the runtime: whether a call runs sandboxed, and the wrapped script when it does.
 */

/** The Bash input fields that decide whether a call runs in the sandbox. */
export interface SandboxedCallInput {
  readonly command: string;
  /** Claude Code's Bash parameter: run this command outside the sandbox (needs approval). */
  readonly dangerouslyDisableSandbox?: boolean | undefined;
}

/**
 * The OS sandbox of one run (see RunSandbox).
 *
 * Contract:
 * - `runsSandboxed(input)` is pure and stable for one input: the policy (auto-allow) and the
 *   handler (wrap) see the same answer for the same frozen input.
 * - `wrap(script, input)` returns the shell text to run with `/bin/bash -c` instead of `script`
 *   when the call runs sandboxed, else `undefined` (the script runs as is). It throws an Error
 *   whose message is fit for the model when the runtime cannot wrap (the call fails, unrun).
 * - `scratchDir`: a directory writable inside the sandbox that belongs to the session (Bash keeps
 *   its cwd-tracking file there).
 */
export interface BashSandbox {
  runsSandboxed(input: SandboxedCallInput): boolean;
  wrap(script: string, input: SandboxedCallInput): Promise<string | undefined>;
  readonly scratchDir: string;
}
