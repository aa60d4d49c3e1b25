import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore, InMemorySessionStore } from '../../src/index.js';
import { RedisSessionStore } from '../../src/stores/redis.js';
import { freePort, redisServerPath, startRedis, type LocalRedis } from '../support/redis-server.js';
import { sessionStoreContracts } from '../support/session-store-contracts.js';

describe('InMemorySessionStore', () => {
  sessionStoreContracts(() => new InMemorySessionStore());
});

describe('FileSessionStore', () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });
  const folder = () => {
    const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-store-'));
    folders.push(configDir);
    return configDir;
  };
  const make = () => new FileSessionStore({ configDir: folder() });
  sessionStoreContracts(make);

  it("keeps hookloop's layout: <configDir>/projects/<projectKey>/<session>.jsonl, subagents in <session>/", async () => {
    const configDir = folder();
    const store = new FileSessionStore({ configDir });
    await store.append({ projectKey: '-work-app', sessionId: 's' }, [{ type: 'user', uuid: 'u1' }]);
    await store.append({ projectKey: '-work-app', sessionId: 's', subpath: 'subagents/agent-a1' }, [
      { type: 'user' },
    ]);
    await store.append({ projectKey: 'acme/prod', sessionId: 's' }, [{ type: 'user' }]);
    const main = path.join(configDir, 'projects', '-work-app', 's.jsonl');
    expect(fs.readFileSync(main, 'utf8')).toBe('{"type":"user","uuid":"u1"}\n');
    expect((fs.statSync(main).mode & 0o777).toString(8)).toBe('600');
    expect(
      fs.existsSync(path.join(configDir, 'projects', '-work-app', 's', 'subagents', 'agent-a1.jsonl')),
    ).toBe(true);
    // A projectKey with a slash stays one folder.
    expect(fs.existsSync(path.join(configDir, 'projects', 'acme%2Fprod', 's.jsonl'))).toBe(true);
    expect(await store.listSessions('acme/prod')).toEqual([{ sessionId: 's', mtime: expect.any(Number) }]);
  });

  it('loads the entries before a line cut short by a crash', async () => {
    const store = make();
    const key = { projectKey: 'p', sessionId: 's' };
    await store.append(key, [{ type: 'a' }]);
    fs.appendFileSync(store.pathFor(key), '{"type":"b","cut');
    expect(await store.load(key)).toEqual([{ type: 'a' }]);
  });
});

const redisServer = redisServerPath();

describe('RedisSessionStore.connect', () => {
  it('says in one line which server it could not reach, without the password', async () => {
    const port = await freePort();
    await expect(RedisSessionStore.connect(`redis://user:secret@127.0.0.1:${port}`)).rejects.toThrow(
      `cannot reach Redis at redis://user:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});

describe.skipIf(redisServer === undefined)('RedisSessionStore (a redis-server started on 127.0.0.1)', () => {
  let redis: LocalRedis;
  const stores: RedisSessionStore[] = [];
  let count = 0;
  beforeAll(async () => {
    redis = await startRedis(redisServer!);
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await redis?.stop();
  });
  // One connection per store, each under a prefix of its own: the stores share nothing.
  sessionStoreContracts(async () => {
    const store = await RedisSessionStore.connect(redis.url, { prefix: `t${count++}` });
    stores.push(store);
    return store;
  });

  it('keeps entries across connections: a new client loads what another appended', async () => {
    const first = await RedisSessionStore.connect(redis.url, { prefix: 'shared' });
    stores.push(first);
    await first.append({ projectKey: 'p', sessionId: 's' }, [{ type: 'user', uuid: 'u1' }]);
    const second = await RedisSessionStore.connect(redis.url, { prefix: 'shared' });
    stores.push(second);
    await second.append({ projectKey: 'p', sessionId: 's' }, [{ type: 'user', uuid: 'u1' }, { type: 'x' }]);
    expect(await second.load({ projectKey: 'p', sessionId: 's' })).toEqual([
      { type: 'user', uuid: 'u1' },
      { type: 'x' },
    ]);
  });
});

if (redisServer === undefined)
  describe('RedisSessionStore', () => {
    it.skip('needs redis-server on PATH (apt-get install redis-server); its contracts were not run', () => {});
  });
