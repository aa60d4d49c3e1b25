/** Commands that print nothing when they succeed (Claude Code's list behind `noOutputExpected`). */
const SILENT_COMMANDS = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
]);

/**
 * True when every simple command of `command` (split on `;`, `&&`, `||`, `|`, `&` and newlines
 * outside quotes) starts with a silent command such as `touch` or `mkdir`: the `noOutputExpected`
 * flag (trace permission-request-hook-allow: `mkdir dir-a` → true; `echo one > one.txt` → false).
 */
export function isSilentCommand(command: string): boolean {
  const names = splitSimpleCommands(command)
    .map(commandName)
    .filter((name) => name !== '');
  return names.length > 0 && names.every((name) => SILENT_COMMANDS.has(name));
}

function splitSimpleCommands(command: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] ?? '';
    if (quote !== undefined) {
      if (character === '\\' && quote === '"') {
        current += character + (command[index + 1] ?? '');
        index += 1;
        continue;
      }
      if (character === quote) quote = undefined;
      current += character;
      continue;
    }
    if (character === '\\') {
      current += character + (command[index + 1] ?? '');
      index += 1;
    } else if (character === '"' || character === "'") {
      quote = character;
      current += character;
    } else if (
      ';|\n'.includes(character) ||
      (character === '&' && !'<>'.includes(command[index - 1] ?? '') && command[index + 1] !== '>')
    ) {
      segments.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  segments.push(current);
  return segments;
}

/** The first word of a simple command, after `NAME=value` assignments and opening `(`/`{`. */
function commandName(simpleCommand: string): string {
  const words = simpleCommand
    .trim()
    .replace(/^[({]\s*/, '')
    .split(/\s+/);
  return words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
}
