import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFiles, type FileWatch } from '../../src/hooks/settings/watch-settings.js';
import { tempProject } from '../support/scripted-run.js';

const watches: FileWatch[] = [];
afterEach(() => watches.splice(0).forEach((watch) => watch.close()));

/** Watches `files` and collects change reports. */
function watch(
  files: string[],
  debounceMs = 50,
): { changes: string[]; settled: (ms?: number) => Promise<string[]> } {
  const changes: string[] = [];
  watches.push(
    watchFiles(files, {
      debounceMs,
      onChange: (file) => changes.push(path.basename(path.dirname(file)) + '/' + path.basename(file)),
    }),
  );
  return {
    changes,
    settled: (ms = 400) => new Promise((resolve) => setTimeout(() => resolve([...changes]), ms)),
  };
}

describe('watchFiles', () => {
  it('reports one change per save, however many events the save fires', async () => {
    const dir = tempProject({ '.claude/settings.json': '{}' });
    const file = path.join(dir, '.claude/settings.json');
    const { settled } = watch([file]);
    fs.writeFileSync(file, '{"a":1}');
    fs.appendFileSync(file, ' ');
    fs.appendFileSync(file, '\n');
    expect(await settled()).toEqual(['.claude/settings.json']);
  });

  it('sees a file replaced by rename, as editors save, and keeps watching the new file', async () => {
    const dir = tempProject({ '.claude/settings.local.json': '{}' });
    const file = path.join(dir, '.claude/settings.local.json');
    const { settled } = watch([file]);
    fs.writeFileSync(`${file}.tmp`, '{"v":2}');
    fs.renameSync(`${file}.tmp`, file);
    expect(await settled()).toEqual(['.claude/settings.local.json']);
    fs.writeFileSync(`${file}.swp`, '{"v":3}');
    fs.renameSync(`${file}.swp`, file);
    expect(await settled()).toEqual(['.claude/settings.local.json', '.claude/settings.local.json']);
  });

  it('ignores rewrites with the same content and files it does not watch', async () => {
    const dir = tempProject({ '.claude/settings.json': '{}' });
    const file = path.join(dir, '.claude/settings.json');
    const { settled } = watch([file]);
    fs.writeFileSync(file, '{}');
    fs.writeFileSync(path.join(dir, '.claude/other.json'), '{"x":1}');
    expect(await settled()).toEqual([]);
  });

  it('waits for a directory that does not exist yet, through its nearest ancestor', async () => {
    const dir = tempProject();
    const file = path.join(dir, 'a/b/.claude/settings.local.json');
    const { settled } = watch([file]);
    fs.mkdirSync(path.join(dir, 'a/b/.claude'), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    fs.writeFileSync(file, '{"created":true}');
    expect(await settled()).toEqual(['.claude/settings.local.json']);
  });

  it('reports a deleted file, and nothing after close', async () => {
    const dir = tempProject({ '.claude/settings.json': '{}' });
    const file = path.join(dir, '.claude/settings.json');
    const { settled } = watch([file]);
    fs.rmSync(file);
    expect(await settled()).toEqual(['.claude/settings.json']);
    watches.splice(0).forEach((entry) => entry.close());
    fs.writeFileSync(file, '{"late":1}');
    expect(await settled()).toEqual(['.claude/settings.json']);
  });
});
