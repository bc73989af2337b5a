#!/usr/bin/env python3
"""A breadth-first Ricochet Robots engine speaking REP 2 (docs/engine-protocol.md).

The protocol page's skeleton (skeleton.py) is the frame every engine needs; this one, about 200
lines with its comments, is a complete one: every board the protocol carries (1x1 to 64x64,
walls, closed cells, 1 to 5 robots, the vortex goal `*`, the `ricochet` and `no-rebound` rules),
`go` limits, `stop` and `isready` heard mid-search, rows per depth, node and prune events.
Standard library only. Run it with `python3 bfs.py`; register it with
`ricochet-lab engine add bfs-python -- python3 examples/engines/bfs.py`.

Version 2: it declares one option, `info-interval` (milliseconds between its `info depth=…
nodes=… nps=…` progress lines, 0 for none), and honours it; `--option info-interval=0` silences
them.

The search is breadth-first with the goal tested when a child is generated, so the first
solution found is a shortest one. A state is every robot's cell, plus under no-rebound each
robot's last direction (it decides which moves are allowed), plus under ricochet how many moves
were made up to two (a goal reached too early does not count, so it is not yet the same state).
Robots other than the goal's are interchangeable (only where they stand matters), so states that
differ only by their colours are one; with the vortex goal every robot is.
"""
import os
import sys
import threading
import time

DIRS = "NESW"  # Index d; wall bit 1 << d; the opposite direction is (d + 2) % 4.
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
out_lock = threading.Lock()


def send(line):
    # The reader thread answers `isready` while the search thread writes rows: one line at a time.
    with out_lock:
        try:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except OSError:
            os._exit(0)  # The driver closed our output: nobody is left to answer.


def cell_of(text, w, h):
    x, y = (int(v) for v in text.split(","))
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"cell {text} is off the {w}x{h} board")
    return y * w + x


def parse_puzzle(tokens):
    """The puzzle line's fields as a dict; raises ValueError naming the first bad field."""
    f = dict(t.split("=", 1) for t in tokens if "=" in t)
    w, h = (int(v) for v in f["size"].split("x"))
    if not (1 <= w <= 64 and 1 <= h <= 64):
        raise ValueError(f"size {w}x{h} is out of 1..64")
    walls = [int(c, 16) for c in f["walls"]]
    if len(walls) != w * h:
        raise ValueError(f"walls has {len(walls)} digits, the board {w * h} cells")
    closed = set() if f.get("closed", "-") == "-" else {cell_of(c, w, h) for c in f["closed"].split(";")}
    letters, cells = [], []
    for r in f["robots"].split(";"):
        letter, at = r.split("@")
        if letter not in "RGBYK" or len(letter) != 1 or letter in letters:
            raise ValueError(f"robot {r}: not one of R, G, B, Y, K or listed twice")
        letters.append(letter)
        cells.append(cell_of(at, w, h))
    if len(set(cells)) != len(cells) or closed & set(cells):
        raise ValueError("two robots share a cell or one stands on a closed cell")
    goal_letter, goal_at = f["goal"].split("@")
    if goal_letter != "*" and goal_letter not in letters:
        raise ValueError(f"the goal's robot {goal_letter} is not on the board")
    # nxt[d][c]: the cell one step from c towards d, or -1 behind a wall, the edge or a closed cell.
    nxt = [[-1] * (w * h) for _ in DIRS]
    for c in range(w * h):
        x, y = c % w, c // w
        for d, (dx, dy) in enumerate(STEP):
            n = (y + dy) * w + x + dx
            if not walls[c] & (1 << d) and 0 <= x + dx < w and 0 <= y + dy < h and n not in closed:
                nxt[d][c] = n
    rules = set(f.get("rules", "-").split(","))
    return {"id": f.get("id", "-"), "w": w, "nxt": nxt, "letters": letters, "cells": tuple(cells),
            "goal_robot": None if goal_letter == "*" else letters.index(goal_letter),
            "goal": cell_of(goal_at, w, h), "min_len": 2 if "ricochet" in rules else 0,
            "no_rebound": "no-rebound" in rules}


# Version 2: the options this engine declares, as `option` lines, and their values now (a
# `setoption` changes them for every later `go`).
OPTIONS = {"info-interval": ("spin", 250, 0, 10000)}
VALUES = {"info-interval": 250}


def declare(options):
    """The `option` lines for declarations {name: (type, default, min, max)}."""
    return [f"option name={n} type={t} default={d} min={lo} max={hi}" if t == "spin"
            else f"option name={n} type={t} default={d}" for n, (t, d, lo, hi) in options.items()]


def set_option(options, values, pairs):
    """Applies `setoption name=… value=…`, or says in an `info string` why it cannot."""
    name, value = pairs.get("name"), pairs.get("value")
    if name not in options:
        return send(f"info string ignored: no option {name}")
    kind, _, lo, hi = options[name]
    try:
        if kind == "spin" and lo <= int(value) <= hi:
            values[name] = int(value)
        elif kind == "check" and value in ("true", "false"):
            values[name] = value == "true"
        else:
            raise ValueError(value)
    except (TypeError, ValueError):
        send(f"info string ignored: {value} is no value of {name}")


def search(p, depth_limit, time_limit_ms, events, stop):
    """Breadth-first search; returns the `result` line's words after the id."""
    w, nxt, letters, goal, min_len = p["w"], p["nxt"], p["letters"], p["goal"], p["min_len"]
    robots = range(len(letters))
    start = time.monotonic()
    deadline = None if time_limit_ms is None else start + time_limit_ms / 1000
    interval = VALUES["info-interval"] / 1000
    last_info = start

    g, no_rebound = p["goal_robot"], p["no_rebound"]

    def is_goal(cells):
        return goal in cells if g is None else cells[g] == goal

    def key(cells, last, moves):
        own = () if g is None else ((cells[g], last[g] if no_rebound else None),)
        rest = sorted((c, last[i] if no_rebound else None) for i, c in enumerate(cells) if i != g)
        return own, tuple(rest), min(moves, min_len)

    def row():  # The depth under way, as the protocol's `row` line.
        send(f"row depth={depth} nodes={expanded} time={int((time.monotonic() - depth_start) * 1000)} seen={pruned}")

    def where(cells):
        return ";".join(f"{letters[i]}@{c % w},{c // w}" for i, c in enumerate(cells))

    # Nodes are kept, not only queued, so a path is read back through the parents: each is
    # (cells, last directions, parent index, move, depth); the queue is the list from `head` on.
    nodes = [(p["cells"], (None,) * len(letters), -1, None, 0)]

    def path(i, extra=None):
        moves = [] if extra is None else [extra]
        while nodes[i][2] >= 0:
            moves.append(nodes[i][3])
            i = nodes[i][2]
        return moves[::-1]

    head, depth, expanded, pruned, depth_start = 0, 0, 0, 0, start
    if is_goal(p["cells"]) and min_len == 0:
        row()
        return ["solved"]
    seen = {key(p["cells"], nodes[0][1], 0)}
    while head < len(nodes):
        cells, last, _, _, d = nodes[head]
        if d != depth:  # The first node of the next depth: the one before is finished.
            row()
            depth, expanded, pruned, depth_start = d, 0, 0, time.monotonic()
        if depth_limit is not None and d >= depth_limit:
            return ["none", str(depth_limit)]
        # Checked every 64 nodes: often enough to answer `stop` well within 100 ms.
        if expanded % 64 == 0:
            if stop.is_set():
                return ["gaveup", "stop"]
            if deadline is not None and time.monotonic() > deadline:
                return ["gaveup", "time"]
            now = time.monotonic()
            if interval and now - last_info >= interval:  # The `info-interval` option.
                send(f"info depth={depth} nodes={head} nps={int(head / max(now - start, 1e-6))}")
                last_info = now
        expanded += 1
        if events:
            send(f"node path={','.join(path(head)) or '-'} robots={where(cells)}")
        for i in robots:
            for dn in range(4):
                move = letters[i] + DIRS[dn]
                if no_rebound and last[i] == (dn + 2) % 4:
                    if events:
                        send(f"prune path={','.join(path(head, move))} reason=rebound")
                    continue
                c, step = cells[i], nxt[dn]
                while step[c] >= 0 and step[c] not in cells:
                    c = step[c]
                if c == cells[i]:
                    continue  # The robot cannot move that way: not a move at all.
                child = cells[:i] + (c,) + cells[i + 1:]
                child_last = last[:i] + (dn,) + last[i + 1:] if no_rebound else last
                if is_goal(child) and d + 1 >= min_len:
                    row()  # The depth is cut short here: the answer is found.
                    if events:
                        send(f"node path={','.join(path(head, move))} robots={where(child)}")
                    return ["solved"] + path(head, move)
                k = key(child, child_last, d + 1)
                if k in seen:
                    pruned += 1
                    if events:
                        send(f"prune path={','.join(path(head, move))} reason=seen")
                    continue
                seen.add(k)
                nodes.append((child, child_last, head, move, d + 1))
        head += 1
    row()
    return ["unsolvable"]  # Every position reachable was expanded.


FACTS = ("name=bfs-python", "author=Ricochet_Lab", "version=1", "rows=depth", "optimal=yes",
         "events=yes", "rules=ricochet,no-rebound")


def main(facts=FACTS, search=search, options=OPTIONS, values=VALUES):
    """Speaks the protocol around `search` (another engine can reuse it with its own, and its
    own option declarations and values)."""
    puzzle, error, worker, stop = "-", "no puzzle was sent", None, threading.Event()

    def run(p, err, limits):
        if err is not None:
            send(f"result id={p} gaveup {err}")
            return
        depth, ms, events = limits.get("depth"), limits.get("time"), limits.get("events") == "1"
        try:
            depth, ms = (None if v is None else int(v) for v in (depth, ms))
            if (depth or 0) < 0 or (ms or 0) < 0:
                raise ValueError("a limit below zero")
            answer = search(p, depth, ms, events, stop)
        except ValueError as e:  # A limit that is not a whole number.
            answer = ["gaveup", f"malformed go: {e}"]
        except MemoryError:
            answer = ["gaveup", "memory"]
        send(f"result id={p['id']} " + " ".join(answer))

    # This thread only reads: `isready` and `stop` are answered while the search thread works.
    for raw in sys.stdin.buffer:  # Bytes: a line that is not UTF-8 must not end the engine.
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            send("info string ignored: a line that is not UTF-8 text")
            continue
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "rep":
            for fact in facts:
                send(f"id {fact}")
            offered = int(words[1]) if len(words) > 1 and words[1].isdigit() else 1
            if offered >= 2:  # Options are version 2's; a version 1 driver gets none.
                for line in declare(options):
                    send(line)
            send(f"repok {min(offered, 2)}")
        elif cmd == "setoption":
            set_option(options, values, dict(t.split("=", 1) for t in words[1:] if "=" in t))
        elif cmd == "isready":
            send("readyok")
        elif cmd == "puzzle":
            try:
                puzzle, error = parse_puzzle(words[1:]), None
            except (KeyError, ValueError, IndexError) as e:
                # The puzzle before is forgotten: a `go` now is never answered for it.
                puzzle, error = "-", "no puzzle was sent"
                send(f"info string puzzle ignored: {type(e).__name__}: {e}")
        elif cmd == "go":
            # The driver sends `go` only once the last `result` is out, but the thread that
            # sent it may still be ending: wait for it, briefly.
            if worker is not None and (worker.join(1.0) or worker.is_alive()):
                send("info string go ignored: a search is still running")
                continue
            stop.clear()
            limits = dict(t.split("=", 1) for t in words[1:] if "=" in t)
            worker = threading.Thread(target=run, args=(puzzle, error, limits), daemon=True)
            worker.start()
        elif cmd == "stop":
            stop.set()
        elif cmd == "quit":
            break
    stop.set()
    if worker is not None:
        worker.join(0.5)


if __name__ == "__main__":
    main()
