import type {
  InMemorySessionStore as SdkInMemorySessionStore,
  SessionKey as SdkSessionKey,
  SessionStore as SdkSessionStore,
  SessionStoreEntry as SdkSessionStoreEntry,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  FileSessionStore,
  InMemorySessionStore,
  SessionKey,
  SessionStore,
  SessionStoreEntry,
} from '../../src/index.js';
import type { RedisSessionStore } from '../../src/stores/redis.js';

describe("hookloop's SessionStore is the Agent SDK's", () => {
  it('an adapter written for the SDK is a hookloop store (its own InMemorySessionStore, say)', () => {
    expectTypeOf<SdkInMemorySessionStore>().toExtend<SessionStore>();
    expectTypeOf<SdkSessionStore>().toExtend<SessionStore>();
  });

  it("hookloop's stores can be handed to an SDK program's sessionStore", () => {
    expectTypeOf<InMemorySessionStore>().toExtend<SdkSessionStore>();
    expectTypeOf<FileSessionStore>().toExtend<SdkSessionStore>();
    expectTypeOf<RedisSessionStore>().toExtend<SdkSessionStore>();
  });

  it('keys and entries have the same shape both ways', () => {
    expectTypeOf<SdkSessionKey>().toExtend<SessionKey>();
    expectTypeOf<SessionKey>().toExtend<SdkSessionKey>();
    expectTypeOf<SdkSessionStoreEntry>().toExtend<SessionStoreEntry>();
    expectTypeOf<SessionStoreEntry>().toExtend<SdkSessionStoreEntry>();
  });
});
