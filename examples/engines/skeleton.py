#!/usr/bin/env python3
"""The frame of a REP 1 engine (docs/engine-protocol.md): fill in `search`."""
import sys
import threading

lock, stop = threading.Lock(), threading.Event()
puzzle = None  # The last good `puzzle` line's key=value pairs; None after a bad one.

def send(line):
    with lock:  # The search thread and the reader both write: one whole line at a time.
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

def search(p, depth, time_ms, events):
    """Solve p (the puzzle line's pairs) within `depth` moves (None: no limit), looking at `stop`
    often; send `row` lines (and `node` lines when `events`); return the result's words."""
    return ["gaveup", "unsupported: this skeleton has no search yet"]

def run(p, depth, time_ms, events):
    send(f"result id={p['id']} " + " ".join(search(p, depth, time_ms, events)))

for raw in sys.stdin.buffer:  # Bytes: a line that is not UTF-8 must not end the engine.
    try:
        words = raw.decode("utf-8").split()
    except UnicodeDecodeError:
        send("info string ignored: a line that is not UTF-8 text")
        continue
    if not words:
        continue  # Empty lines are ignored.
    cmd, pairs = words[0], dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if cmd == "rep":
        send("id name=skeleton\nrepok 1")
    elif cmd == "isready":
        send("readyok")
    elif cmd == "puzzle":
        missing = [k for k in ("id", "size", "walls", "robots", "goal") if k not in pairs]
        puzzle = None if missing else pairs
        if missing:
            send("info string puzzle ignored: " + ", ".join(k + "=" for k in missing) + " missing")
    elif cmd == "go":
        try:
            limits = [None if pairs.get(k) is None else int(pairs[k]) for k in ("depth", "time")]
            if any(n is not None and n < 0 for n in limits):
                raise ValueError("a limit below zero")
        except ValueError as e:
            send(f"result id={puzzle['id'] if puzzle else '-'} gaveup malformed go: {e}")
            continue
        if puzzle is None:
            send("result id=- gaveup no puzzle was sent")
            continue  # A `go` before any good puzzle: never an answer for an older one.
        stop.clear()
        args = (puzzle, *limits, pairs.get("events") == "1")  # A daemon: `quit` ends it.
        threading.Thread(target=run, args=args, daemon=True).start()
    elif cmd == "stop":
        stop.set()
    elif cmd == "quit":
        break
