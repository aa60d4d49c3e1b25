import type { Command } from 'commander';
import { ConfigError } from '../errors.js';
import { declareRunFlags } from './run-flag-declarations.js';
import { httpUrl, readRunFlags } from './run-flags.js';
import type { RunCommandOptions } from './run-command-types.js';

/**
 * `hookloop serve [--port N] [--host H] [--register ADMIN_URL] [run flags]` (hookloop's): a worker
 * for durable sessions. `run` holds the run flags (settings, model, permissions, tools, MCP,
 * agents) every session of the worker runs with; it never has a prompt (the server sends them).
 */
export interface ServeCommandOptions {
  readonly command: 'serve';
  /** The port the worker listens on (0: a free one); default 9080, Restate's usual deployment port. */
  readonly port: number;
  /** The address it listens on; default 127.0.0.1. */
  readonly host: string;
  /** A Restate admin URL to register the worker with (`POST <admin>/deployments`) once it listens. */
  readonly register?: string;
  readonly run: RunCommandOptions;
}

/** Adds `serve` to `program`; `onParsed` receives the checked options. */
export function addServeCommand(program: Command, onParsed: (options: ServeCommandOptions) => void): void {
  const serve = program
    .command('serve')
    .description(
      'start a worker for durable sessions on a Restate server (hookloop extension; see docs/durable.md)',
    )
    .option('--port <port>', 'the port to listen on (0: any free port)', '9080')
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--register <admin-url>', 'register the worker with the Restate server of this admin URL');
  // A worker takes no words (the `hookloop` program allows extra ones to report them itself).
  serve.allowExcessArguments(false);
  declareRunFlags(serve, { prompt: false }).action((flags: Record<string, unknown>, command: Command) => {
    const run = readRunFlags(undefined, flags, command);
    const refused =
      run.durable !== undefined
        ? '--durable (a worker is what --durable reaches)'
        : run.resume !== undefined || run.continue || run.decisions !== undefined
          ? '--resume/--continue/--approve/--deny (send them with --durable URL)'
          : undefined;
    if (refused !== undefined) throw new ConfigError(`hookloop serve takes no ${refused}`, { field: 'argv' });
    const register = flags['register'] as string | undefined;
    onParsed({
      command: 'serve',
      port: port(flags['port'] as string),
      host: flags['host'] as string,
      ...(register !== undefined ? { register: httpUrl('--register', register) } : {}),
      run,
    });
  });
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535)
    throw new ConfigError(`--port: expected a port number from 0 to 65535, got "${value}"`, {
      field: '--port',
    });
  return number;
}
