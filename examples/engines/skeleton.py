#!/usr/bin/env python3
"""The frame of a REP 2 engine (docs/engine-protocol.md): fill in `search`."""
import sys
import threading

lock, stop = threading.Lock(), threading.Event()
puzzle = None  # The last good `puzzle` line's key=value pairs; None after a bad one.
options = {"reason": "no_search_yet"}  # Version 2: its one option, which `setoption` sets.

def send(line):
    with lock:  # The search thread and the reader both write: one whole line at a time.
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

def search(p, depth, time_ms, events):
    """Solve p within `depth` moves (None: no limit), checking `stop`; send rows; give the result."""
    return ["gaveup", "unsupported: " + options["reason"].replace("_", " ")]

def run(p, depth, time_ms, events):
    send(f"result id={p['id']} " + " ".join(search(p, depth, time_ms, events)))

for raw in sys.stdin.buffer:  # Bytes: a line that is not UTF-8 must not end the engine.
    try:
        words = raw.decode("utf-8").split() or [""]  # An empty line matches no command.
    except UnicodeDecodeError:
        send("info string ignored: a line that is not UTF-8 text")
        continue
    cmd, pairs = words[0], dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if cmd == "rep":  # Options are version 2's: a driver that offers only 1 gets none.
        v2 = "option name=reason type=string default=no_search_yet\nrepok 2"
        send("id name=skeleton\n" + ("repok 1" if words[1:] == ["1"] else v2))
    elif cmd == "setoption" and pairs.get("name") in options:
        options[pairs["name"]] = pairs.get("value", "")
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
