/** The streams and facts of the process the CLI runs in; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly cwd: string;
  readonly homeDir: string;
  /** The environment the model provider is chosen from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}
