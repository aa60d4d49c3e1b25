import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionStore as SdkSessionStore } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  InMemorySessionStore,
  query,
  type Options,
  type SDKMessage,
  type SessionStore,
} from '../../src/agent-sdk/index.js';
import { projectKeyFor } from '../../src/session/index.js';
import { collect, scripted } from './support.js';

const sessionIdOf = (messages: readonly SDKMessage[]) => (messages[0] as { session_id: string }).session_id;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder playing `~/.claude`, so a test can delete it as a new machine would lack it. */
function configFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'hookloop-sdk-store-'));
  folders.push(folder);
  return folder;
}

describe('hookloop/agent-sdk query() with options.sessionStore', () => {
  it('the store gets the transcript lines, keyed by the project folder and the session id', async () => {
    const store = new InMemorySessionStore();
    const configDir = configFolder();
    const { options } = scripted([[{ type: 'text', text: 'noted: PLUM' }]], {
      sessionStore: store,
      hookloop: { configDir },
    });
    const messages = await collect(query({ prompt: 'remember PLUM', options }));
    const id = sessionIdOf(messages);
    const stored = await store.load({ projectKey: projectKeyFor(options.cwd!), sessionId: id });
    expect(JSON.stringify(stored)).toContain('remember PLUM');
    expect(JSON.stringify(stored)).toContain('noted: PLUM');
    const local = fs.readdirSync(path.join(configDir, 'projects', projectKeyFor(options.cwd!)));
    expect(local).toContain(`${id}.jsonl`);
    expect(stored).toEqual(
      fs
        .readFileSync(path.join(configDir, 'projects', projectKeyFor(options.cwd!), `${id}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    );
  });

  it('resume reads the session from the store when the local config folder is gone', async () => {
    const store = new InMemorySessionStore();
    const firstHome = configFolder();
    const first = scripted([[{ type: 'text', text: 'noted: PLUM' }]], {
      sessionStore: store,
      hookloop: { configDir: firstHome },
    });
    const id = sessionIdOf(await collect(query({ prompt: 'remember PLUM', options: first.options })));
    fs.rmSync(firstHome, { recursive: true, force: true });

    const secondHome = configFolder();
    const second = scripted([[{ type: 'text', text: 'it was PLUM' }]], {
      cwd: first.options.cwd!,
      resume: id,
      sessionStore: store,
      hookloop: { configDir: secondHome },
    });
    const resumed = await collect(query({ prompt: 'which word?', options: second.options }));
    expect(sessionIdOf(resumed)).toBe(id);
    expect(resumed.at(-1)).toMatchObject({ session_id: id, result: 'it was PLUM' });
    expect(JSON.stringify(second.model.requests[0]!.messages)).toContain('remember PLUM');
    // The store keeps mirroring the resumed session: the new turn is there too.
    const stored = await store.load({ projectKey: projectKeyFor(first.options.cwd!), sessionId: id });
    expect(JSON.stringify(stored)).toContain('which word?');
  });

  it('continue takes the store’s latest session when the local folder has none', async () => {
    const store = new InMemorySessionStore();
    const first = scripted([[{ type: 'text', text: 'noted: FIG' }]], {
      sessionStore: store,
      hookloop: { configDir: configFolder() },
    });
    const id = sessionIdOf(await collect(query({ prompt: 'remember FIG', options: first.options })));
    const second = scripted([[{ type: 'text', text: 'FIG' }]], {
      cwd: first.options.cwd!,
      continue: true,
      sessionStore: store,
      hookloop: { configDir: configFolder() },
    });
    const resumed = await collect(query({ prompt: 'which word?', options: second.options }));
    expect(sessionIdOf(resumed)).toBe(id);
    expect(JSON.stringify(second.model.requests[0]!.messages)).toContain('remember FIG');
  });

  it('continue with no local session and a store without listSessions is one error naming continue', async () => {
    const { options } = scripted([], {
      continue: true,
      sessionStore: { append: async () => {}, load: async () => null },
      hookloop: { configDir: configFolder() },
    });
    await expect(collect(query({ prompt: 'go', options }))).rejects.toThrow(
      /^query\(\) options\.continue: with a sessionStore and no local session, the store needs listSessions\(\)/,
    );
  });

  it('resume of a session neither local nor in the store is one clear error', async () => {
    const { options } = scripted([], {
      resume: '00000000-0000-4000-8000-000000000000',
      sessionStore: new InMemorySessionStore(),
      hookloop: { configDir: configFolder() },
    });
    await expect(collect(query({ prompt: 'go', options }))).rejects.toThrow(
      /session store holds no transcript for session 00000000-0000-4000-8000-000000000000/,
    );
  });

  it('a store load that does not settle within loadTimeoutMs fails the query naming the option', async () => {
    const hanging: SessionStore = {
      append: async () => {},
      load: () => new Promise(() => {}),
    };
    const { options } = scripted([], {
      resume: '00000000-0000-4000-8000-000000000000',
      sessionStore: hanging,
      loadTimeoutMs: 20,
      hookloop: { configDir: configFolder() },
    });
    await expect(collect(query({ prompt: 'go', options }))).rejects.toThrow(
      /options\.loadTimeoutMs: SessionStore\.load\(\) of session 00000000-0000-4000-8000-000000000000 did not settle within 20 ms/,
    );
  });

  it('persistSession: false with a store is refused, as the SDK refuses it', async () => {
    const { options } = scripted([], { sessionStore: new InMemorySessionStore(), persistSession: false });
    await expect(collect(query({ prompt: 'go', options }))).rejects.toThrow(
      /options\.sessionStore: cannot be used with persistSession: false/,
    );
  });

  it('sessionStoreFlush takes the SDK’s two values and refuses others by name', async () => {
    const store = new InMemorySessionStore();
    const eager = scripted([[{ type: 'text', text: 'ok' }]], {
      sessionStore: store,
      sessionStoreFlush: 'eager',
      hookloop: { configDir: configFolder() },
    });
    expect((await collect(query({ prompt: 'go', options: eager.options }))).at(-1)).toMatchObject({
      result: 'ok',
    });
    const wrong = scripted([], {
      sessionStore: store,
      sessionStoreFlush: 'sometimes' as unknown as 'eager',
    });
    await expect(collect(query({ prompt: 'go', options: wrong.options }))).rejects.toThrow(
      /options\.sessionStoreFlush: expected "batched" or "eager", got "sometimes"/,
    );
  });

  it('accepts an object typed as the SDK’s SessionStore', () => {
    expectTypeOf<SdkSessionStore>().toMatchTypeOf<NonNullable<Options['sessionStore']>>();
    const sdkStore: SdkSessionStore = { append: async () => {}, load: async () => null };
    const options: Options = { sessionStore: sdkStore };
    expect(options.sessionStore).toBe(sdkStore);
  });
});
