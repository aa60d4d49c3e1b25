/** Splits Claude Code tool lists: `--allowedTools "Bash(git:*) Edit"` or `Read,Write`; parentheses keep their spaces and commas. */
export function splitToolList(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) rules.push(current.trim());
        current = '';
      } else current += char;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}
