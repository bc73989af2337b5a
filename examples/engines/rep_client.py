#!/usr/bin/env python3
"""A small REP 1 driver for trying engines by hand, standard library only.

    rep_client.py puzzle BOARD.ron [--ricochet] [--no-rebound]   the board as a REP `puzzle` line
    rep_client.py check -- CMD ARGS...                            handshake, small puzzles, stop
    rep_client.py solve [--time MS] [--depth N] [--ricochet] [--no-rebound] BOARD.ron... -- CMD ARGS...

`solve` prints, per board, the engine's answer, its move count, the wall time from `go` to
`result` and whether the moves replay onto the goal. `check` runs puzzles with known answers
(every rule, a vortex, walls, closed cells, a 1x1 board, an unsolvable one, a depth limit) and a
`stop` and an `isready` sent mid-search, and exits 1 when any fails. Neither replaces
`ricochet-lab engine check`; they need no build of the lab.
"""
import os
import queue
import re
import subprocess
import sys
import threading
import time

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
BIT = {"N": 1, "E": 2, "S": 4, "W": 8}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
LETTER = {"Red": "R", "Green": "G", "Blue": "B", "Yellow": "Y", "Silver": "K", "Any": "*"}


def ron_to_puzzle(text, pid="p", ricochet=False, no_rebound=False):
    """A native `.ron` board as a REP `puzzle` line (walls are listed once there, on both sides here)."""
    w = int(re.search(r"width:\s*(\d+)", text).group(1))
    h = int(re.search(r"height:\s*(\d+)", text).group(1))
    walls = [0] * (w * h)
    for x in range(w):
        walls[x] |= 1
        walls[(h - 1) * w + x] |= 4
    for y in range(h):
        walls[y * w] |= 8
        walls[y * w + w - 1] |= 2
    for x, y, side in re.findall(r"\((\d+),\s*(\d+),\s*(North|East|South|West)\)", text):
        x, y, d = int(x), int(y), side[0]
        walls[y * w + x] |= BIT[d]
        nx, ny = x + DIRS[d][0], y + DIRS[d][1]
        if 0 <= nx < w and 0 <= ny < h:
            walls[ny * w + nx] |= BIT[OPPOSITE[d]]
    closed_part = re.search(r"closed:\s*\[(.*?)\]", text, re.S).group(1)
    closed = ";".join(f"{x},{y}" for x, y in re.findall(r"\((\d+),\s*(\d+)\)", closed_part)) or "-"
    robots_part = re.search(r"robots:\s*\[(.*?)\]", text, re.S).group(1)
    robots = ";".join(f"{LETTER[c]}@{x},{y}" for c, x, y in
                      re.findall(r"color:\s*(\w+),\s*x:\s*(\d+),\s*y:\s*(\d+)", robots_part))
    targets_part = re.search(r"targets:\s*\[(.*?)\]", text, re.S).group(1)
    targets = ";".join(f"{LETTER[c]}:{s.lower()}@{x},{y}" for x, y, c, s in
                       re.findall(r"x:\s*(\d+),\s*y:\s*(\d+),\s*color:\s*(\w+),\s*shape:\s*(\w+)",
                                  targets_part)) or "-"
    gx, gy, gc = re.search(r"goal:\s*\(x:\s*(\d+),\s*y:\s*(\d+),\s*color:\s*(\w+)\)", text).groups()
    rules = re.search(r"rules:\s*\(ricochet:\s*(\w+),\s*no_rebound:\s*(\w+)\)", text)
    ricochet = ricochet or (rules is not None and rules.group(1) == "true")
    no_rebound = no_rebound or (rules is not None and rules.group(2) == "true")
    names = [n for n, on in (("ricochet", ricochet), ("no-rebound", no_rebound)) if on]
    return (f"puzzle id={pid} size={w}x{h} walls={''.join('%x' % v for v in walls)} closed={closed} "
            f"robots={robots} goal={LETTER[gc]}@{gx},{gy} targets={targets} rules={','.join(names) or '-'}")


def replay(puzzle_line, moves):
    """None when the moves are legal and end on the goal, else the reason."""
    f = dict(t.split("=", 1) for t in puzzle_line.split()[1:])
    w, h = (int(v) for v in f["size"].split("x"))
    walls = [int(c, 16) for c in f["walls"]]
    closed = set() if f["closed"] == "-" else {tuple(map(int, c.split(","))) for c in f["closed"].split(";")}
    robots = {r.split("@")[0]: tuple(map(int, r.split("@")[1].split(","))) for r in f["robots"].split(";")}
    rules = f["rules"].split(",")
    last = {}
    for i, m in enumerate(moves):
        r, d = m[0], m[1]
        if r not in robots or d not in DIRS or len(m) != 2:
            return f"move {i + 1} {m}: no such robot or direction"
        if "no-rebound" in rules and last.get(r) == OPPOSITE[d]:
            return f"move {i + 1} {m}: straight back (no-rebound)"
        x, y = robots[r]
        while not walls[y * w + x] & BIT[d]:
            nx, ny = x + DIRS[d][0], y + DIRS[d][1]
            if (nx, ny) in closed or (nx, ny) in robots.values():
                break
            x, y = nx, ny
        if (x, y) == robots[r]:
            return f"move {i + 1} {m}: the robot does not move"
        robots[r], last[r] = (x, y), d
    gl, gat = f["goal"].split("@")
    goal = tuple(map(int, gat.split(",")))
    if not (goal in robots.values() if gl == "*" else robots.get(gl) == goal):
        return "the goal is not reached"
    if "ricochet" in rules and len(moves) < 2:
        return "the ricochet rule needs two moves"
    return None


class Engine:
    """A running engine: lines from its standard output arrive on a queue read by a thread."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, word, timeout):
        """Lines up to and including the first starting with `word`; raises on a timeout or exit."""
        seen, end = [], time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            if line is None:
                raise EOFError(f"the engine exited; last lines: {seen[-3:]}")
            seen.append(line)
            if line.split()[:1] == [word]:
                return seen

    def handshake(self):
        lines = self.expect("repok", 10) if self.send("rep 1") is None else []
        return {k: v for l in lines if l.startswith("id ") for k, _, v in [l[3:].partition("=")]}

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(1)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def solve(engine, line, go="go", timeout=3600):
    """Sends one puzzle; returns (result words after the id, seconds, rows, all lines)."""
    engine.send(line)
    start = time.monotonic()
    engine.send(go)
    lines = engine.expect("result", timeout)
    took = time.monotonic() - start
    result = lines[-1].split()
    want = "id=" + dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)["id"]
    if result[1] != want:
        raise ValueError(f"result for {result[1]}, expected {want}")
    return result[2:], took, [l for l in lines if l.startswith("row ")], lines


# Small puzzles with known answers: (name, puzzle line, go line, expected outcome or move count).
PROTOCOL_EXAMPLE = ("puzzle id={} size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 "
                    "targets=R:circle@3,0 rules={}")
CASES = [
    ("protocol example", PROTOCOL_EXAMPLE.format("ex", "-"), "go depth=20 time=10000 events=1", 1),
    ("ricochet", PROTOCOL_EXAMPLE.format("ric", "ricochet"), "go", 2),
    ("already there", "puzzle id=zero size=3x1 walls=d57 closed=- robots=R@0,0 goal=R@0,0 targets=- rules=-",
     "go", 0),
    ("already there, ricochet", "puzzle id=zr size=3x1 walls=d57 closed=- robots=R@0,0 goal=R@0,0 targets=- "
     "rules=ricochet", "go", 2),
    ("1x1", "puzzle id=one size=1x1 walls=f closed=- robots=G@0,0 goal=G@0,0 targets=- rules=-", "go", 0),
    ("unsolvable", "puzzle id=un size=3x1 walls=d57 closed=- robots=R@0,0 goal=R@1,0 targets=- rules=-",
     "go", "unsolvable"),
    ("closed cell stops", "puzzle id=cl size=3x1 walls=d57 closed=2,0 robots=R@0,0 goal=R@1,0 targets=- rules=-",
     "go", 1),
    ("vortex", "puzzle id=vx size=3x3 walls=913802c46 closed=- robots=R@0,0;G@2,2 goal=*@2,0 targets=- "
     "rules=-", "go", 1),
    ("depth limit, ricochet", PROTOCOL_EXAMPLE.format("dl", "ricochet"), "go depth=1", "none"),
    ("depth limit 0", PROTOCOL_EXAMPLE.format("dl0", "-"), "go depth=0", "none"),
]
BOARDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "boards")


def check(cmd):
    failures = 0

    def report(name, ok, detail):
        nonlocal failures
        failures += not ok
        print(f"{'pass' if ok else 'FAIL'}  {name}: {detail}")

    engine = Engine(cmd)
    facts = engine.handshake()
    report("handshake", "name" in facts, " ".join(f"{k}={v}" for k, v in facts.items()))
    engine.send("isready")
    report("isready", engine.expect("readyok", 2)[-1] == "readyok", "readyok")
    with open(os.path.join(BOARDS, "small-6x6.ron")) as f:
        small = ron_to_puzzle(f.read(), "small")
    cases = CASES + [("small-6x6", small, "go", 5), ("small-6x6, depth limit 4", small, "go depth=4", "none")]
    for name, line, go, want in cases:
        if "rules=-" not in line and not set(line.split("rules=")[1].split(",")) <= set(facts.get("rules", "").split(",")):
            report(name, True, "skipped: the engine does not list the rule")
            continue
        answer, _, rows, lines = solve(engine, line, go, 30)
        if answer[0] == "solved":
            why = replay(line, answer[1:])
            ok = why is None and want == len(answer) - 1
            detail = f"{' '.join(answer)} ({why or 'replays'}; expected {want})"
        else:
            # An engine that cannot prove a puzzle unsolvable may say so by its depth instead.
            ok = answer[0] == want or (want, answer[0]) == ("unsolvable", "none") or (
                answer[0] == "gaveup" and "unsupported" in " ".join(answer))
            detail = f"{' '.join(answer)} (expected {want})"
        report(name, ok, detail + f", {len(rows)} rows, {sum(l.startswith('node ') for l in lines)} node events")
    # A long search: isready is answered during it, stop ends it quickly with a result.
    with open(os.path.join(BOARDS, "hardest-25.ron")) as f:
        line = ron_to_puzzle(f.read(), "long")
    engine.send(line)
    engine.send("go")
    time.sleep(0.5)
    sent = time.monotonic()
    engine.send("isready")
    engine.expect("readyok", 1)
    report("isready mid-search", True, f"readyok after {1000 * (time.monotonic() - sent):.0f} ms")
    sent = time.monotonic()
    engine.send("stop")
    result = engine.expect("result", 1)[-1]
    report("stop mid-search", result.startswith("result id=long"),
           f"'{result}' after {1000 * (time.monotonic() - sent):.0f} ms")
    engine.close()
    return failures


def main(argv):
    if argv[:1] == ["puzzle"]:
        with open(argv[1]) as f:
            print(ron_to_puzzle(f.read(), "p", "--ricochet" in argv, "--no-rebound" in argv))
        return 0
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--")
    args, cmd = argv[:split], argv[split + 1:]
    if args[:1] == ["check"]:
        return 1 if check(cmd) else 0
    if args[:1] != ["solve"]:
        print(__doc__, file=sys.stderr)
        return 2
    go, boards, i = ["go"], [], 1
    rules = {"--ricochet": False, "--no-rebound": False}
    while i < len(args):
        if args[i] in rules:
            rules[args[i]] = True
            i += 1
        elif args[i] in ("--time", "--depth"):
            go.append(f"{args[i][2:]}={args[i + 1]}")
            i += 2
        else:
            boards.append(args[i])
            i += 1
    engine = Engine(cmd)
    print(f"# {engine.handshake().get('name', cmd[0])}")
    for board in boards:
        with open(board) as f:
            line = ron_to_puzzle(f.read(), board.rsplit("/", 1)[-1].removesuffix(".ron"),
                                 rules["--ricochet"], rules["--no-rebound"])
        answer, took, rows, _ = solve(engine, line, " ".join(go))
        moves = len(answer) - 1 if answer[0] == "solved" else "-"
        check_text = (replay(line, answer[1:]) or "replays") if answer[0] == "solved" else ""
        print(f"{board}\t{moves}\t{took:.2f}s\t{len(rows)} rows\t{' '.join(answer)}\t{check_text}", flush=True)
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
