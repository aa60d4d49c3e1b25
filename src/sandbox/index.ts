/** Claude Code's OS sandbox for Bash: the run's option and the settings it is read from. */
export type { SandboxOptions } from './run-sandbox.js';
export type { SandboxSettings } from './sandbox-settings.js';
