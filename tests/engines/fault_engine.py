#!/usr/bin/env python3
"""An engine that breaks the protocol on purpose, one way per mode, for the driver's tests.

Usage: fault_engine.py MODE PIDFILE. It writes its process id (and that of any process it
starts) to PIDFILE, one a line, so a test can check that none is left behind. Modes:

  never-handshakes  reads its input and never answers
  crash             answers the handshake, then on `go` sends a row, writes to standard
                    error and exits with code 3
  hang              answers the handshake, then on `go` never answers, not even `stop`
  ignore-stop       like hang, but answers `isready`
  garbage           answers `go` with a malformed row
  flood             answers `go` with endless info lines
  wrong-id          answers `go` for another puzzle
  illegal           answers `go` with a move that does not move the robot
  illegal-one       the same, with a solution of that one move
  long-line         answers `go` with a line of 2 MiB
  grandchild        starts a `sleep` of its own, then hangs like `hang`
  none-unasked      answers every `go` with `none 3`, whatever depth limit it was sent
  daemon-exits      on `go` starts a helper in a session of its own (double fork and
                    `setsid`) that keeps its standard output and error open for 40 s, then
                    exits without a result
  daemon-solves     starts such a helper, then answers `go` correctly and quits on `quit`
  daemon-hangs      starts such a helper, then hangs like `ignore-stop`
  second-result     answers every `go` with `RE` twice: the second a stale result
  daemon-at-start   starts such a helper before its handshake, then hangs like `ignore-stop`
  daemon-detached   before its handshake starts a helper in a session of its own that closes
                    every pipe it was given (a daemon proper), then hangs like `ignore-stop`

Two modes keep the protocol but claim shortest answers (`optimal=yes`) and never give one:

  refuses           answers every `go` with `gaveup unsupported: REASON`, as an engine does for
                    a puzzle it does not take
  gives-up          answers every `go` with `gaveup` and no reason of that kind
  long-optimal      answers every `go` with `RE RW RE`, three legal moves where one is enough

One mode speaks version 2 and sends what a driver must show or shrug off:

  chatty            declares an option `depth-hint` (spin 0 to 9); on `go` sends an `info
                    string`, an `info` with standard keys, a malformed `info` and a malformed
                    `draw`, a good `draw`, then solves the page's puzzle with `RE`
"""
import os
import subprocess
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
with open(pidfile, "a") as f:
    f.write(f"{os.getpid()}\n")


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def start_daemon(detach=False):
    """Starts a helper that leaves the engine's process group and session but keeps its
    standard output and error (unless `detach`): the driver must not wait for those pipes to
    close."""
    read_end, write_end = os.pipe()
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        if detach:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
        os.write(write_end, f"{os.getpid()}\n".encode())
        os.close(write_end)
        time.sleep(40)
        os._exit(0)
    os.waitpid(first, 0)
    os.close(write_end)
    helper = os.read(read_end, 64).decode().strip()
    with open(pidfile, "a") as f:
        f.write(f"{helper}\n")


if mode in ("daemon-at-start", "daemon-detached"):
    start_daemon(detach=mode == "daemon-detached")

puzzle_id = "-"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if mode == "never-handshakes":
        continue
    command = words[0]
    if command == "rep":
        send("id name=fault-" + mode)
        if mode == "chatty":
            send("option name=depth-hint type=spin default=3 min=0 max=9")
            send("option name=broken type=spin default=12 min=0 max=9")
            send("repok 2")
            continue
        if mode in ("refuses", "gives-up", "long-optimal"):
            send("id optimal=yes")
        send("repok 1")
    elif command == "isready":
        send("readyok")
    elif command == "puzzle":
        puzzle_id = next(w[3:] for w in words if w.startswith("id="))
    elif command == "go":
        if mode == "crash":
            send("row depth=0 nodes=1")
            sys.stderr.write("Traceback (most recent call last):\nValueError: boom in the search\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "garbage":
            send("row depth=banana nodes=1")
        elif mode == "flood":
            while True:
                send("info string flooding the driver")
        elif mode == "wrong-id":
            send(f"result id=not-{puzzle_id} solved RE")
        elif mode == "refuses":
            send(f"result id={puzzle_id} gaveup unsupported: this engine takes no puzzle")
        elif mode == "gives-up":
            send(f"result id={puzzle_id} gaveup out of ideas")
        elif mode == "chatty":
            send("info string hello from the engine")
            send("info depth=1 nodes=5 nps=100 table=20 line=RE")
            send("info depth=x nodes=5")
            send("draw cell=9,9 value=1 color=zz")
            send("draw cell=3,0 value=1 color=ff8800")
            send(f"result id={puzzle_id} solved RE")
        elif mode == "second-result":
            send(f"result id={puzzle_id} solved RE")
            send(f"result id={puzzle_id} solved RE")
        elif mode == "long-optimal":
            send(f"result id={puzzle_id} solved RE RW RE")
        elif mode == "illegal":
            send(f"result id={puzzle_id} solved RN RE")
        elif mode == "illegal-one":
            send(f"result id={puzzle_id} solved RE")
        elif mode == "long-line":
            send("info string " + "x" * (2 << 20))
        elif mode == "none-unasked":
            send(f"result id={puzzle_id} none 3")
        elif mode == "daemon-exits":
            start_daemon()
            sys.exit(0)
        elif mode == "daemon-solves":
            start_daemon()
            send(f"result id={puzzle_id} solved RE")
        elif mode == "daemon-hangs":
            start_daemon()
        elif mode == "grandchild":
            child = subprocess.Popen(["sleep", "1000"])
            with open(pidfile, "a") as f:
                f.write(f"{child.pid}\n")
    elif command == "quit" and mode not in (
        "hang", "ignore-stop", "grandchild", "daemon-hangs", "daemon-at-start", "daemon-detached"
    ):
        break
