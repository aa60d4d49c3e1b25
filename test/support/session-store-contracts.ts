import { expect, it } from 'vitest';
import type { SessionKey, SessionStore, SessionStoreEntry } from '../../src/index.js';

/*
 * The behaviour the Claude Agent SDK relies on from a SessionStore (its examples' conformance suite
 * checks the same thirteen points), written for hookloop's stores, plus hookloop's own contract
 * that a uuid already stored is not stored twice. Each `make` call must return an empty store of its own.
 */

const MAIN: SessionKey = { projectKey: 'proj', sessionId: 'sess' };
const sub = (subpath: string, key: SessionKey = MAIN): SessionKey => ({ ...key, subpath });
const entry = (type: string, fields: Record<string, unknown> = {}): SessionStoreEntry => ({
  type,
  ...fields,
});

/** Deep equality that ignores object key order (a JSONB-like backend may reorder keys). */
function sameEntries(actual: unknown, expected: readonly SessionStoreEntry[]): void {
  expect(actual).toStrictEqual(JSON.parse(JSON.stringify(expected)));
}

/** Registers the contracts as tests of the enclosing `describe`. */
export function sessionStoreContracts(make: () => Promise<SessionStore> | SessionStore): void {
  it('1. load returns what append stored, deep-equal and in order', async () => {
    const store = await make();
    const entries = [
      entry('user', { uuid: 'u1', message: { content: [{ text: 'hé 👋', n: 1.5 }] } }),
      entry('assistant', { uuid: 'u2', nested: { list: [1, null, true] } }),
    ];
    await store.append(MAIN, entries);
    sameEntries(await store.load(MAIN), entries);
  });

  it('2. a key never written loads as null, main or subpath', async () => {
    const store = await make();
    expect(await store.load(MAIN)).toBeNull();
    expect(await store.load(sub('subagents/agent-a'))).toBeNull();
  });

  it('3. several appends load in the order they were called', async () => {
    const store = await make();
    await store.append(MAIN, [entry('a')]);
    await store.append(MAIN, [entry('b'), entry('c')]);
    await store.append(MAIN, [entry('d')]);
    sameEntries(await store.load(MAIN), [entry('a'), entry('b'), entry('c'), entry('d')]);
  });

  it('4. appending no entries changes nothing (a key stays unwritten)', async () => {
    const store = await make();
    await store.append(MAIN, []);
    expect(await store.load(MAIN)).toBeNull();
    await store.append(MAIN, [entry('a')]);
    await store.append(MAIN, []);
    sameEntries(await store.load(MAIN), [entry('a')]);
  });

  it("5. a subagent's transcript is stored apart from the main one", async () => {
    const store = await make();
    await store.append(MAIN, [entry('main')]);
    await store.append(sub('subagents/agent-x'), [entry('sub')]);
    sameEntries(await store.load(MAIN), [entry('main')]);
    sameEntries(await store.load(sub('subagents/agent-x')), [entry('sub')]);
  });

  it('6. two projectKeys with the same session id do not see each other', async () => {
    const store = await make();
    await store.append({ projectKey: 'A', sessionId: 's' }, [entry('a')]);
    await store.append({ projectKey: 'B', sessionId: 's' }, [entry('b')]);
    sameEntries(await store.load({ projectKey: 'A', sessionId: 's' }), [entry('a')]);
    sameEntries(await store.load({ projectKey: 'B', sessionId: 's' }), [entry('b')]);
  });

  it("7. listSessions names a project's sessions with epoch-millisecond mtimes, none for an unknown project", async () => {
    const store = await make();
    expect(store.listSessions).toBeTypeOf('function');
    const before = Date.now();
    await store.append({ projectKey: 'P', sessionId: 's1' }, [entry('a')]);
    await store.append({ projectKey: 'P', sessionId: 's2' }, [entry('b')]);
    await store.append({ projectKey: 'Q', sessionId: 's3' }, [entry('c')]);
    const listed = await store.listSessions!('P');
    expect(listed.map((session) => session.sessionId).sort()).toEqual(['s1', 's2']);
    for (const { mtime } of listed) {
      expect(Number.isInteger(mtime)).toBe(true);
      // Within a minute of the append: milliseconds since 1970, not seconds.
      expect(Math.abs(mtime - before)).toBeLessThan(60_000);
    }
    expect(await store.listSessions!('never-seen')).toEqual([]);
  });

  it('8. listSessions leaves out a session that has only subagent transcripts', async () => {
    const store = await make();
    await store.append({ projectKey: 'P', sessionId: 's1', subpath: 'subagents/agent-x' }, [entry('sub')]);
    expect((await store.listSessions!('P')).map((session) => session.sessionId)).not.toContain('s1');
  });

  it('9. a deleted session loads as null; deleting one never written succeeds', async () => {
    const store = await make();
    expect(store.delete).toBeTypeOf('function');
    await store.append(MAIN, [entry('a')]);
    await store.delete!(MAIN);
    expect(await store.load(MAIN)).toBeNull();
    await expect(store.delete!({ projectKey: 'x', sessionId: 'never' })).resolves.toBeUndefined();
  });

  it('10. deleting a main key deletes its subagent transcripts, and nothing of other sessions or projects', async () => {
    const store = await make();
    await store.append(MAIN, [entry('main')]);
    await store.append(sub('subagents/agent-a'), [entry('sa')]);
    await store.append(sub('subagents/agent-b'), [entry('sb')]);
    await store.append({ projectKey: 'proj', sessionId: 'other' }, [entry('o')]);
    await store.append({ projectKey: 'proj2', sessionId: 'sess' }, [entry('p2')]);
    await store.delete!(MAIN);
    expect(await store.load(MAIN)).toBeNull();
    expect(await store.load(sub('subagents/agent-a'))).toBeNull();
    expect(await store.load(sub('subagents/agent-b'))).toBeNull();
    expect(await store.listSubkeys!(MAIN)).toEqual([]);
    sameEntries(await store.load({ projectKey: 'proj', sessionId: 'other' }), [entry('o')]);
    sameEntries(await store.load({ projectKey: 'proj2', sessionId: 'sess' }), [entry('p2')]);
  });

  it('11. deleting a subpath deletes that subagent transcript only', async () => {
    const store = await make();
    await store.append(MAIN, [entry('main')]);
    await store.append(sub('subagents/agent-a'), [entry('sa')]);
    await store.append(sub('subagents/agent-b'), [entry('sb')]);
    await store.delete!(sub('subagents/agent-a'));
    sameEntries(await store.load(MAIN), [entry('main')]);
    expect(await store.load(sub('subagents/agent-a'))).toBeNull();
    sameEntries(await store.load(sub('subagents/agent-b')), [entry('sb')]);
    expect(await store.listSubkeys!(MAIN)).toEqual(['subagents/agent-b']);
  });

  it("12. listSubkeys names the session's subpaths, not another session's", async () => {
    const store = await make();
    expect(store.listSubkeys).toBeTypeOf('function');
    await store.append(sub('subagents/agent-a'), [entry('sa')]);
    await store.append(sub('subagents/agent-b'), [entry('sb')]);
    await store.append(sub('subagents/agent-c', { projectKey: 'proj', sessionId: 'other' }), [entry('sc')]);
    expect((await store.listSubkeys!(MAIN)).sort()).toEqual(['subagents/agent-a', 'subagents/agent-b']);
  });

  it('13. listSubkeys does not name the main transcript, and is empty for an unknown session', async () => {
    const store = await make();
    await store.append(MAIN, [entry('main')]);
    expect(await store.listSubkeys!(MAIN)).toEqual([]);
    expect(await store.listSubkeys!({ projectKey: 'x', sessionId: 'never' })).toEqual([]);
  });

  it('hookloop: an entry whose uuid the transcript holds is not stored again; entries without one always are', async () => {
    const store = await make();
    await store.append(MAIN, [entry('user', { uuid: 'u1' }), entry('custom-title')]);
    await store.append(MAIN, [
      entry('user', { uuid: 'u1' }),
      entry('custom-title'),
      entry('user', { uuid: 'u2' }),
    ]);
    sameEntries(await store.load(MAIN), [
      entry('user', { uuid: 'u1' }),
      entry('custom-title'),
      entry('custom-title'),
      entry('user', { uuid: 'u2' }),
    ]);
    // Per transcript: the same uuid in a subagent's transcript is its own entry.
    await store.append(sub('subagents/agent-a'), [entry('user', { uuid: 'u1' })]);
    sameEntries(await store.load(sub('subagents/agent-a')), [entry('user', { uuid: 'u1' })]);
  });

  it('hookloop: a key that could name something outside its session is refused', async () => {
    const store = await make();
    for (const subpath of ['', '../other', 'subagents/../../x', 'a//b', '/abs'])
      await expect(store.append(sub(subpath), [entry('x')])).rejects.toThrow(/subpath/);
    await expect(store.append({ projectKey: '..', sessionId: 's' }, [entry('x')])).rejects.toThrow(
      /projectKey/,
    );
  });
}
