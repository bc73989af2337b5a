#!/usr/bin/env python3
"""An iterative-deepening Ricochet Robots engine speaking REP 2 (docs/engine-protocol.md), with a
visited table and node events: the shape the app's *Step depth* is built for (one row per depth,
each depth's positions sent as node events in depth-first order). It reads puzzles and speaks
the protocol with the code of bfs.py beside it; only the search is its own.

Each iteration is a depth-first search to the depth `limit`, the goal tested on entering a
position. The table keeps, for each position (with its no-rebound and ricochet state, as in
bfs.py), the most moves that were left when it was entered in this iteration: met again with no
more moves left, it cannot lead anywhere new, and is cut (`prune … reason=table`). The first
iteration that reaches the goal gives a shortest solution; one that never reaches its depth
limit proves there is none. Run it with `python3 iddfs.py`; register it with
`ricochet-lab engine add iddfs-python -- python3 examples/engines/iddfs.py`.

Version 2: it declares one option, `table` (check, default true): with `table=false` it keeps no
visited table, so each depth expands every path (its nodes grow fast, its answers stay
shortest), to see what the table saves. It paints its layer too: with events asked for, each
finished depth draws, per cell, how many positions of that depth had the goal robot there.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bfs import DIRS, main, send  # noqa: E402

OPTIONS = {"table": ("check", "true", None, None)}
VALUES = {"table": True}

FACTS = ("name=iddfs-python", "author=Ricochet_Lab", "version=1", "rows=depth", "optimal=yes",
         "events=yes", "rules=ricochet,no-rebound")


class Stopped(Exception):
    """The search was stopped (`stop`, or its time ran out); the reason is the message."""


def search(p, depth_limit, time_limit_ms, events, stop):
    """Iterative deepening; returns the `result` line's words after the id."""
    w, nxt, letters, goal, min_len = p["w"], p["nxt"], p["letters"], p["goal"], p["min_len"]
    g, no_rebound = p["goal_robot"], p["no_rebound"]
    start_time = time.monotonic()
    deadline = None if time_limit_ms is None else start_time + time_limit_ms / 1000

    def is_goal(cells, moves):
        return moves >= min_len and (goal in cells if g is None else cells[g] == goal)

    def key(cells, last, moves):
        own = () if g is None else ((cells[g], last[g] if no_rebound else None),)
        rest = sorted((c, last[i] if no_rebound else None) for i, c in enumerate(cells) if i != g)
        return own, tuple(rest), min(moves, min_len)

    def where(cells):
        return ";".join(f"{letters[i]}@{c % w},{c // w}" for i, c in enumerate(cells))

    path, table, counts, visits = [], {}, {"nodes": 0, "frontier": False}, {}

    def dfs(cells, last, moves, left):
        counts["nodes"] += 1
        if counts["nodes"] % 64 == 0:  # Often enough to answer `stop` well within 100 ms.
            if stop.is_set():
                raise Stopped("stop")
            if deadline is not None and time.monotonic() > deadline:
                raise Stopped("time")
        if events:
            send(f"node path={','.join(path) or '-'} robots={where(cells)}")
            if g is not None:
                visits[cells[g]] = visits.get(cells[g], 0) + 1
        if is_goal(cells, moves):
            return True
        if left == 0:
            counts["frontier"] = True  # A deeper iteration may find more from here.
            return False
        for i in range(len(letters)):
            for dn in range(4):
                move = letters[i] + DIRS[dn]
                if no_rebound and last[i] == (dn + 2) % 4:
                    if events:
                        send(f"prune path={','.join(path + [move])} reason=rebound")
                    continue
                c, step = cells[i], nxt[dn]
                while step[c] >= 0 and step[c] not in cells:
                    c = step[c]
                if c == cells[i]:
                    continue  # The robot cannot move that way: not a move at all.
                child = cells[:i] + (c,) + cells[i + 1:]
                child_last = last[:i] + (dn,) + last[i + 1:] if no_rebound else last
                k = key(child, child_last, moves + 1)
                stored = table.get(k, -1) if VALUES["table"] else -1  # The `table` option.
                if stored >= left - 1:
                    if events:
                        send(f"prune path={','.join(path + [move])} reason=table stored={stored}")
                    continue
                table[k] = left - 1
                path.append(move)
                if dfs(child, child_last, moves + 1, left - 1):
                    return True
                path.pop()
        return False

    limit, start = 0, (p["cells"], (None,) * len(letters))
    while True:
        counts["nodes"], counts["frontier"], row_start = 0, False, time.monotonic()
        table.clear()
        table[key(*start, 0)] = limit
        try:
            found = dfs(*start, 0, limit)
        except Stopped as reason:
            return ["gaveup", str(reason)]
        millis = int((time.monotonic() - row_start) * 1000)
        send(f"row depth={limit} nodes={counts['nodes']} time={millis} table={len(table)}")
        if events and visits:  # The engine's own layer: where the goal robot stood this depth.
            send("draw clear")
            send(f"draw legend=goal_robot's_cells_at_depth_{limit}")
            for c, n in sorted(visits.items()):
                send(f"draw cell={c % w},{c // w} value={n}")
            visits.clear()
        if found:
            return ["solved"] + path
        if not counts["frontier"]:
            return ["unsolvable"]  # No position was left unexpanded at the depth limit.
        if depth_limit is not None and limit >= depth_limit:
            return ["none", str(depth_limit)]
        limit += 1


if __name__ == "__main__":
    main(FACTS, search, OPTIONS, VALUES)
