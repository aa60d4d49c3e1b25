import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// Plain (non-JSON) stdout of SessionStart and UserPromptSubmit hooks is context for the model, like
// additionalContext, and is capped the same way: over 10,000 characters the model gets a preview in
// a <persisted-output> frame and the whole text is saved next to the transcript, readable by its owner only.
describe.each(['SessionStart', 'UserPromptSubmit'])('plain stdout of a %s hook', (event) => {
  it('over 10,000 characters becomes a preview plus a saved file (mode 0600)', () => {
    const dir = tempProject();
    // 20,000 characters of plain text: 400 lines of 49 characters and a newline, with a marker at the end.
    fs.writeFileSync(path.join(dir, 'big.txt'), `${'x'.repeat(49)}\n`.repeat(400) + 'THE-END-MARKER\n');
    writeJson(dir, 's.json', {
      hooks: {
        [event]: [
          { hooks: [{ type: 'command', command: 'cat > /dev/null; cat "$CLAUDE_PROJECT_DIR/big.txt"' }] },
        ],
      },
    });
    writeJson(dir, 't.json', [[{ type: 'text', text: 'done' }]]);
    const run = runCli(
      ['-p', 'go', '--settings', 's.json', '--model-script', 't.json', '--record-requests', 'requests.jsonl'],
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    const request = fs.readFileSync(path.join(dir, 'requests.jsonl'), 'utf8');
    expect(request).toContain('<persisted-output>');
    expect(request).not.toContain('THE-END-MARKER');
    const saved = /Full output saved to: ([^\s\\]+)/.exec(request)?.[1];
    // Named as Claude Code names it for an event without a tool call: a random UUID where the tool_use_id goes.
    expect(saved).toMatch(
      new RegExp(
        `/hook-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-${event}-[0-9a-f]{32}-stdout\\.txt$`,
      ),
    );
    expect(fs.readFileSync(saved!, 'utf8').trimEnd()).toBe(
      fs.readFileSync(path.join(dir, 'big.txt'), 'utf8').trimEnd(),
    );
    expect(fs.statSync(saved!).mode & 0o777).toBe(0o600);
  });
});
