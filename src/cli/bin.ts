#!/usr/bin/env node
// The `hookloop` executable: everything happens in main(), which never throws. Exit once stdout is
// flushed, so a hook process left running in the background cannot keep the command alive.
import { prestartSpawner, stopSpawner } from '../process/spawner.js';

// Hook and Bash processes are forked by a small helper process (see spawner.ts); it is started
// first, while this process is still small (its own fork is cheaper) and so that it is ready by
// the first hook. `--version` and `--help` need none.
const argv = process.argv.slice(2);
if (!argv.some((arg) => ['--version', '-v', '--help', '-h'].includes(arg))) prestartSpawner();
const { main } = await import('./main.js');
const code = await main(argv);
await stopSpawner();
process.stdout.write('', () => process.exit(code));
