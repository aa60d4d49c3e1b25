#!/usr/bin/env node
// The `hookloop` executable: everything happens in main(), which never throws. Exit once stdout is
// flushed, so a hook process left running in the background cannot keep the command alive.
//
// The helper process that forks hook and Bash processes (see process/spawner.ts) starts at the
// first command, not here: most runs of a session start no process at all. Nor is its exit awaited:
// our exit closes its pipe, and it then ends the commands whose output nobody reads any more.
const { main } = await import('./main.js');
const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.exit(code));
