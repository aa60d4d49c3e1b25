import type { CliIo } from '../cli-io.js';
import type { RunCommandOptions } from '../parse-args.js';
import type { SessionServices } from './session-hooks.js';

/** Runs a session as `hookloop -p` does, with extra services (how `hooks record` reaches the run command). */
export type RunSession = (
  options: RunCommandOptions,
  io: CliIo,
  services: SessionServices,
) => Promise<number>;
