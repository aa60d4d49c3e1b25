// Prints a long report, so the demo can show a PostToolUse hook truncating tool output.
for (let line = 1; line <= 120; line++) console.log(`report line ${line}: status ok`);
