import { describe, expect, it } from 'vitest';
import { runCli, writeJson } from '../support/cli.js';
import { tempProject } from '../support/scripted-run.js';

// A model script is checked block by block before the run starts: a block without the fields its
// type needs is one line naming the file, the JSON path and what was expected (exit 2), never a
// run that answers "undefined" or calls a tool without an id.
describe('--model-script validation', () => {
  const cases: { name: string; script: unknown; expected: RegExp }[] = [
    {
      name: 'a text block without text',
      script: [[{ type: 'text' }]],
      expected: /s\.json: \[0\]\[0\]\.text: expected a string, got nothing/,
    },
    {
      name: 'a text block whose text is a number',
      script: { model: [[{ type: 'text', text: 5 }]] },
      expected: /s\.json: model\[0\]\[0\]\.text: expected a string, got 5/,
    },
    {
      name: 'a tool_use block without id',
      script: [[{ type: 'tool_use', name: 'Bash', input: {} }]],
      expected: /s\.json: \[0\]\[0\]\.id: expected a string, got nothing/,
    },
    {
      name: 'a tool_use block without name',
      script: [[{ type: 'tool_use', id: 'toolu_1', input: {} }]],
      expected: /s\.json: \[0\]\[0\]\.name: expected a string/,
    },
    {
      name: 'a tool_use block whose input is not an object',
      script: [
        [{ type: 'text', text: 'ok' }],
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: 'ls' }] },
      ],
      expected: /s\.json: \[1\]\.content\[0\]\.input: expected an object, got "ls"/,
    },
    {
      name: 'a missing nesting level (a block where a turn belongs)',
      script: [{ type: 'text', text: 'hi' }],
      expected:
        /s\.json: \[0\]\[0\]: expected a content block here, but \[0\] is itself a "text" block.*wrap/,
    },
    {
      name: 'a misspelt turn key',
      script: [{ contnet: [{ type: 'text', text: 'hi' }] }],
      expected: /s\.json: \[0\]: expected .*turn object.*unknown key "contnet"/,
    },
  ];
  for (const { name, script, expected } of cases) {
    it(`rejects ${name} on one line, exit 2`, () => {
      const dir = tempProject();
      writeJson(dir, 's.json', script);
      const run = runCli(['-p', 'go', '--model-script', 's.json'], dir);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^hookloop: --model-script: /);
      expect(lines[0]).toMatch(expected);
    });
  }

  it('still runs a valid script of both turn forms', () => {
    const dir = tempProject();
    writeJson(dir, 's.json', {
      model: [
        [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }],
        { content: [{ type: 'text', text: 'DONE' }], usage: { input_tokens: 3 } },
      ],
    });
    const run = runCli(['-p', 'go', '--model-script', 's.json', '--allowedTools', 'Bash(echo:*)'], dir);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('DONE\n');
    expect(run.status).toBe(0);
  });
});
