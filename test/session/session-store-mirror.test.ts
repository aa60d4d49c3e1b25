import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  defineTool,
  FileSessionStore,
  GENERAL_PURPOSE,
  InMemorySessionStore,
  loadStoredSession,
  projectKeyFor,
  runAgent,
  type RunEvent,
  type SessionStore,
} from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { tempProject, text, toolUse } from '../support/scripted-run.js';

const probe = defineTool({
  name: 'Probe',
  description: 'answers with its value',
  inputSchema: z.object({ value: z.string() }),
  readOnly: true,
  handler: ({ value }) => `probed ${value}`,
});

function jsonl(file: string): unknown[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

/** A session with a tool call and a subagent that makes one, mirrored into `store`. */
async function sessionWithSubagent(store: SessionStore, projectDir: string, events: RunEvent[] = []) {
  const model = new ScriptedModel([
    [text('first I probe'), toolUse('toolu_1', 'Probe', { value: 'main' })],
    [
      toolUse('toolu_2', 'Agent', {
        description: 'sub task',
        prompt: 'SUB-TASK',
        subagent_type: 'general-purpose',
      }),
    ],
    { match: 'SUB-TASK', content: [toolUse('s1', 'Probe', { value: 'inside' })] },
    { match: 'SUB-TASK', content: [text('SUB-ANSWER')] },
    [text('all done')],
  ]);
  const result = await runAgent('go', {
    model,
    projectDir,
    tools: [probe],
    agents: [GENERAL_PURPOSE],
    configDir: path.join(projectDir, 'home'),
    sessionStore: store,
    observers: [(event) => events.push(event)],
  });
  return result;
}

describe('RunOptions.sessionStore', () => {
  it('holds exactly the lines of the local transcripts, main and subagent, once the run resolves', async () => {
    const projectDir = tempProject();
    const store = new InMemorySessionStore();
    const result = await sessionWithSubagent(store, projectDir);
    expect(result.result).toBe('all done');
    const key = { projectKey: projectKeyFor(projectDir), sessionId: result.sessionId };
    const transcript = path.join(projectDir, 'home', 'projects', key.projectKey, `${result.sessionId}.jsonl`);
    expect(await store.load(key)).toStrictEqual(jsonl(transcript));
    expect(await store.listSessions(key.projectKey)).toEqual([
      { sessionId: result.sessionId, mtime: expect.any(Number) },
    ]);
    const [subpath, ...others] = await store.listSubkeys(key);
    expect(others).toEqual([]);
    expect(subpath).toMatch(/^subagents\/agent-a[0-9a-f]{16}$/);
    const subFile = path.join(path.dirname(transcript), result.sessionId, `${subpath}.jsonl`);
    const subLines = jsonl(subFile);
    expect(subLines.length).toBeGreaterThan(2);
    expect(await store.load({ ...key, subpath: subpath! })).toStrictEqual(subLines);
  });

  it('a store that refuses every append costs one warning; the run and its local transcript are whole', async () => {
    const projectDir = tempProject();
    const events: RunEvent[] = [];
    let calls = 0;
    const broken: SessionStore = {
      append: async () => {
        calls++;
        throw new Error('connection refused');
      },
      load: async () => null,
    };
    const result = await sessionWithSubagent(broken, projectDir, events);
    expect(result.result).toBe('all done');
    expect(result.isError).toBe(false);
    expect(calls).toBeGreaterThan(1);
    const warnings = events.filter((event) => event.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      text: expect.stringMatching(
        /^the session store did not take \d+ transcript entries of session .*: connection refused$/,
      ),
    });
    const transcript = path.join(
      projectDir,
      'home',
      'projects',
      projectKeyFor(projectDir),
      `${result.sessionId}.jsonl`,
    );
    expect(jsonl(transcript).length).toBeGreaterThan(5);
  });

  it('a prompt resolves only after a slow store took its lines', async () => {
    const projectDir = tempProject();
    const inner = new InMemorySessionStore();
    const slow: SessionStore = {
      append: async (key, entries) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        await inner.append(key, entries);
      },
      load: (key) => inner.load(key),
    };
    const result = await runAgent('go', {
      model: new ScriptedModel([[text('hello')]]),
      projectDir,
      configDir: path.join(projectDir, 'home'),
      sessionStore: slow,
    });
    const key = { projectKey: projectKeyFor(projectDir), sessionId: result.sessionId };
    const transcript = path.join(projectDir, 'home', 'projects', key.projectKey, `${result.sessionId}.jsonl`);
    expect(await inner.load(key)).toStrictEqual(jsonl(transcript));
  });

  it('sessionStoreProjectKey names the scope of the entries', async () => {
    const projectDir = tempProject();
    const store = new InMemorySessionStore();
    const result = await runAgent('go', {
      model: new ScriptedModel([[text('hello')]]),
      projectDir,
      configDir: path.join(projectDir, 'home'),
      sessionStore: store,
      sessionStoreProjectKey: 'tenant-42',
    });
    expect(await store.listSessions('tenant-42')).toEqual([
      { sessionId: result.sessionId, mtime: expect.any(Number) },
    ]);
    expect(await store.listSessions(projectKeyFor(projectDir))).toEqual([]);
  });

  it('is refused with one clear error when there is no local transcript to copy, or the store is that transcript', async () => {
    const projectDir = tempProject();
    const configDir = path.join(projectDir, 'home');
    const run = (options: { transcript?: boolean; sessionStore: SessionStore }) =>
      runAgent('go', { model: new ScriptedModel([[text('hello')]]), projectDir, configDir, ...options });
    await expect(run({ transcript: false, sessionStore: new InMemorySessionStore() })).rejects.toThrow(
      new ConfigError(
        'sessionStore: the store copies the local transcript, so it needs one (transcript: false turns it off)',
        { field: 'sessionStore' },
      ),
    );
    await expect(run({ sessionStore: new FileSessionStore({ configDir }) })).rejects.toThrow(
      /^sessionStore: this FileSessionStore would write the run's own transcript \(.*\.jsonl\); give it another configDir/,
    );
  });
});

describe('loadStoredSession', () => {
  it('resumes a session whose local files are gone from the store, and the store goes on with the new lines', async () => {
    const projectDir = tempProject();
    const store = new InMemorySessionStore();
    const first = await sessionWithSubagent(store, projectDir);
    fs.rmSync(path.join(projectDir, 'home'), { recursive: true, force: true });
    const key = { projectKey: projectKeyFor(projectDir), sessionId: first.sessionId };
    const resume = await loadStoredSession(store, key, { configDir: path.join(projectDir, 'home') });
    expect(resume.sessionId).toBe(first.sessionId);
    expect(resume.warnings).toEqual([]);
    // The subagent's transcript is back where the session keeps it.
    const [subpath] = await store.listSubkeys(key);
    expect(
      fs.existsSync(path.join(path.dirname(resume.transcriptPath), first.sessionId, `${subpath}.jsonl`)),
    ).toBe(true);
    const model = new ScriptedModel([[text('you said go')]]);
    const second = await runAgent('what did I say?', {
      model,
      projectDir,
      configDir: path.join(projectDir, 'home'),
      resume,
      sessionStore: store,
    });
    expect(second.sessionId).toBe(first.sessionId);
    const sent = model.requests[0]!.messages;
    expect(sent.map((message) => message.role)).toEqual(
      first.messages.map((message) => message.role).concat('user'),
    );
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'what did I say?' });
    expect(await store.load(key)).toStrictEqual(jsonl(resume.transcriptPath));
  });

  it('says so in one line when the store holds nothing for the session', async () => {
    await expect(
      loadStoredSession(new InMemorySessionStore(), {
        projectKey: 'p',
        sessionId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      }),
    ).rejects.toThrow(
      new ConfigError(
        'cannot resume: the session store holds no transcript for session 0f8fad5b-d9cb-469f-a165-70867728950e (projectKey "p")',
        { field: 'sessionId' },
      ),
    );
    await expect(
      loadStoredSession(new InMemorySessionStore(), { projectKey: 'p', sessionId: '../x' }),
    ).rejects.toThrow(/sessionId: "\.\.\/x" is not a session id/);
  });
});
