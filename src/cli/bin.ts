#!/usr/bin/env node
// The `hookloop` executable: everything happens in main(), which never throws. Exit once stdout is
// flushed, so a hook process left running in the background cannot keep the command alive.
import { main } from './main.js';

const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.exit(code));
