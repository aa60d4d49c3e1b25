import { ConfigError } from '../errors.js';
import type { CliIo } from './cli-io.js';
import { causeOf } from './restate-ingress.js';
import { durableSessionOptions } from './durable-session-options.js';
import type { ServeCommandOptions } from './serve-args.js';

/**
 * Runs the worker until SIGINT or SIGTERM: listens, registers with `--register` when given, and
 * serves every session the server sends it with the options of `durableSessionOptions`. Prints
 * `hookloop serve: listening on URL` on stderr once it accepts work. Returns the exit code: 0 after
 * a signal, 1 when the registration fails, 2 for a port in use or a missing Restate SDK.
 * @throws ConfigError for flags that cannot apply (no model configured).
 */
export async function runServe(options: ServeCommandOptions, io: CliIo): Promise<number> {
  const sessionOptions = durableSessionOptions(options.run, io);
  // The SDK logs every invocation (each status poll of a waiting CLI) at INFO: only with --verbose.
  process.env['RESTATE_LOGGING'] ??= options.run.verbose ? 'INFO' : 'WARN';
  const restate = await importRestate();
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  let worker: Awaited<ReturnType<typeof restate.serveSessions>>;
  try {
    worker = await restate.serveSessions(sessionOptions, { port: options.port, host: options.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`--port ${options.port}: cannot listen on ${options.host} (${code})`, {
      field: '--port',
    });
  }
  io.stderr.write(`hookloop serve: listening on ${worker.url}\n`);
  try {
    if (options.register !== undefined) {
      const problem = await registerDeployment(options.register, worker.url);
      if (problem !== undefined) {
        io.stderr.write(`hookloop serve: ${problem}\n`);
        return 1;
      }
      io.stderr.write(`hookloop serve: registered with ${options.register}\n`);
    }
    await stopped;
    return 0;
  } finally {
    await worker.close();
  }
}

/** The Restate adapter, loaded only by `serve`: its SDK is an optional peer dependency. */
async function importRestate() {
  try {
    return await import('../restate/index.js');
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as Error).message.includes('@restatedev/restate-sdk')
    )
      throw new ConfigError(
        'hookloop serve needs the Restate SDK: npm install @restatedev/restate-sdk (an optional peer dependency)',
      );
    throw error;
  }
}

/** Registers `uri` as a deployment with the Restate admin API at `admin`; the problem as one line, or undefined. */
async function registerDeployment(admin: string, uri: string): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetch(`${admin}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri }),
    });
  } catch (error) {
    return `--register: cannot reach the Restate admin API at ${admin} (${causeOf(error)})`;
  }
  if (response.ok) return undefined;
  const text = (await response.text()).replace(/\s+/g, ' ').slice(0, 300);
  return `--register: ${admin} refused ${uri} (HTTP ${response.status}): ${text}`;
}
