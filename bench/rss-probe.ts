/**
 * Preloaded with `node --import` when /usr/bin/time is missing: at exit, writes this process's peak
 * RSS in kilobytes to the file named by HOOKLOOP_RSS_FILE.
 */
import fs from 'node:fs';

const file = process.env['HOOKLOOP_RSS_FILE'];
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
