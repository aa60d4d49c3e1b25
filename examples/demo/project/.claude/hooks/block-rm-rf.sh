#!/bin/sh
# A Claude Code PreToolUse hook, unchanged: reads the event JSON on stdin and blocks any Bash
# command containing `rm -rf` by exiting 2 (stderr becomes the reason the model sees).
input=$(cat)
if printf '%s' "$input" | grep -q 'rm -rf'; then
  echo "Blocked by .claude/hooks/block-rm-rf.sh: rm -rf is not allowed in this project" >&2
  exit 2
fi
exit 0
