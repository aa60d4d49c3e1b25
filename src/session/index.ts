/** What a session leaves on disk, read back: ids and paths, transcripts, the calls that wait for a decision, resume; session stores. */
export {
  APPROVAL_INPUT_CHANGED,
  CallsWaiting,
  DENIED_WHILE_PENDING,
  UNDECIDED_PENDING,
  type PendingCall,
  type PendingDecision,
  type PendingDecisions,
  type PendingReason,
} from './pending-calls.js';
export { loadSession, rebuildConversation, RESUMED_WITHOUT_RESULT, type ResumedSession } from './resume.js';
export {
  findTranscript,
  latestTranscript,
  projectSlug,
  resolveConfigDir,
  transcriptPathFor,
} from './paths.js';
export { readTranscriptLines, type TranscriptLine, type TranscriptRead } from './transcript-reader.js';
export type { SessionKey, SessionStore, SessionStoreEntry } from './session-store.js';
export { FileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
export { InMemorySessionStore } from './in-memory-session-store.js';
export { loadStoredSession, type LoadStoredSessionOptions } from './stored-session.js';
export { checkSessionKey, projectKeyFor, subagentSubpath } from './store-keys.js';
