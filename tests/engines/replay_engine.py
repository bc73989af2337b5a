#!/usr/bin/env python3
"""An engine that answers the handshake, then answers each `go` with the next batch of
lines from a file, raw bytes as they are, followed by a `gaveup` result: the driver's fuzz
test feeds it fuzzed output.

Usage: replay_engine.py FILE. Batches in FILE are separated by a line holding one NUL byte.
"""
import sys

with open(sys.argv[1], "rb") as f:
    batches = f.read().split(b"\n\x00\n")
out = sys.stdout.buffer
puzzle_id = b"-"
for line in sys.stdin.buffer:
    words = line.split()
    if not words:
        continue
    if words[0] == b"rep":
        out.write(b"id name=replay\nid events=yes\nrepok 1\n")
    elif words[0] == b"isready":
        out.write(b"readyok\n")
    elif words[0] == b"puzzle":
        puzzle_id = next((w[3:] for w in words if w.startswith(b"id=")), b"-")
    elif words[0] == b"go":
        if batches:
            out.write(batches.pop(0) + b"\n")
        out.write(b"result id=" + puzzle_id + b" gaveup replayed\n")
    elif words[0] == b"quit":
        break
    out.flush()
