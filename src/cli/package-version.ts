import fs from 'node:fs';

/** This package's version, read from package.json next to the build output. */
export function packageVersion(): string {
  try {
    const url = new URL('../../../package.json', import.meta.url);
    return (JSON.parse(fs.readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
