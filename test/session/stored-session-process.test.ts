import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore, projectKeyFor, type SessionStore } from '../../src/index.js';
import { RedisSessionStore } from '../../src/stores/redis.js';
import { redisServerPath, startRedis, type LocalRedis } from '../support/redis-server.js';
import { tempProject } from '../support/scripted-run.js';

// The child runs the built package: `npm test` builds first; alone, run `npm run build` before.
const CHILD = fileURLToPath(new URL('./fixtures/stored-session-child.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/src/stores/redis.js', import.meta.url));

function child(args: readonly string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [CHILD, ...args], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/**
 * Process one runs a prompt with the store; the local config folder is then deleted; process two
 * resumes from the store alone: the model sees the first prompt and answer, and the store holds the
 * whole transcript, both prompts.
 */
async function resumesInAFreshProcess(
  kind: 'file' | 'redis',
  where: string,
  store: SessionStore,
): Promise<void> {
  expect(fs.existsSync(BUILT), 'dist/ is missing: run npm run build').toBe(true);
  const projectDir = tempProject();
  const configDir = path.join(projectDir, 'home');
  const first = child(['first', kind, where, projectDir, configDir]);
  const sessionId = first['sessionId'] as string;
  const transcript = path.join(configDir, 'projects', projectKeyFor(projectDir), `${sessionId}.jsonl`);
  expect(fs.existsSync(transcript)).toBe(true);
  fs.rmSync(configDir, { recursive: true, force: true });

  const second = child(['resume', kind, where, projectDir, configDir, sessionId]);
  expect(second).toMatchObject({ sessionId, result: 'PLUM', transcriptPath: transcript });
  expect(second['sent']).toMatchObject([
    { role: 'user', content: 'remember the word PLUM' },
    { role: 'assistant', text: 'noted' },
    { role: 'user', content: 'which word?' },
  ]);
  const local = fs
    .readFileSync(transcript, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  const stored = await store.load({ projectKey: projectKeyFor(projectDir), sessionId });
  expect(stored).toStrictEqual(local);
  expect(stored!.filter((entry) => entry.type === 'user')).toHaveLength(2);
}

describe('resuming from a session store after the process and its local files are gone', () => {
  it('FileSessionStore in a folder of its own', async () => {
    const where = tempProject();
    await resumesInAFreshProcess('file', where, new FileSessionStore({ configDir: where }));
  });

  const server = redisServerPath();
  describe.skipIf(server === undefined)('RedisSessionStore (a redis-server started on 127.0.0.1)', () => {
    let redis: LocalRedis;
    let store: RedisSessionStore;
    beforeAll(async () => {
      redis = await startRedis(server!);
      store = await RedisSessionStore.connect(redis.url);
    });
    afterAll(async () => {
      await store?.close();
      await redis?.stop();
    });
    it('a real Redis', async () => {
      await resumesInAFreshProcess('redis', redis.url, store);
    });
  });
});
