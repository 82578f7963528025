#!/bin/sh
# An example custom tool for mom. mom starts this script for every call, with the arguments
# (already checked against tool.json's "parameters") as JSON on stdin, and reads the result
# from stdout: {"content": [{"type": "text", "text": "..."}], "details": {...}}. Plain text
# works too. A non-zero exit makes the call an error, with stderr as its message.
# Needs jq.
set -eu
args=$(cat)
text=$(printf '%s' "$args" | jq -r '.text')
unit=$(printf '%s' "$args" | jq -r '.unit // "words"')
case "$unit" in
  words) n=$(printf '%s' "$text" | wc -w) ;;
  lines) n=$(printf '%s\n' "$text" | wc -l) ;;
  chars) n=$(printf '%s' "$text" | wc -m) ;;
esac
n=$(echo "$n" | tr -d ' ')
jq -cn --arg unit "$unit" --argjson n "$n" \
  '{content: [{type: "text", text: "\($n) \($unit)"}], details: {($unit): $n}}'
