/*
 * RepDriftingDroids: the solver of DriftingDroids as a REP 1 engine (docs/engine-protocol.md).
 *
 * The search is DriftingDroids': Solver.createInstance(board).execute() from the
 * driftingdroids.model package of github.com/smack42/DriftingDroids (by Michael Henke), compiled
 * unchanged from the user's own checkout by build.sh. DriftingDroids is licensed under the GNU
 * General Public License, version 3 or later (its LICENSE.txt); an engine built with this class
 * is a work based on it and is under the same licence. This file only speaks the protocol and
 * translates boards through DriftingDroids' public Board API.
 *
 * What DriftingDroids' solver takes with the same meaning as the protocol, and so what this
 * engine answers:
 * - boards from 3x3 to 64x64 (DriftingDroids' smallest board is 3x3), 1 to 5 robots, walls and
 *   closed cells (walled on every side, as its boards wall the centre);
 * - a target for one robot. Its vortex goal counts only a robot that has turned on its way there,
 *   and its no-rebound option also forbids moving a robot on in its last direction, so both are
 *   refused; and it never accepts a solution of zero or one move (its "solution01" rule): such
 *   puzzles, with or without the ricochet rule, are refused too. The ricochet rule is accepted
 *   where it changes nothing.
 * Anything else is answered `gaveup unsupported: REASON`.
 *
 * DriftingDroids counts no nodes per depth, so no `row` lines are sent; each depth it finishes
 * is passed on as an `info string` line from its own log (depth, memory, time). Stop and the
 * time limit interrupt its search thread, which it checks at every node of the last depth.
 */
import driftingdroids.model.Board;
import driftingdroids.model.Move;
import driftingdroids.model.Solution;
import driftingdroids.model.Solver;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.atomic.AtomicReference;

public final class RepDriftingDroids {
    private static final String LETTERS = "RGBYK"; // DriftingDroids' robots 0..4 are r, g, b, y, s.
    private static final String DIRS = "NESW"; // Board.NORTH, EAST, SOUTH, WEST are 0..3.
    private static final int FIRST_DEPTH = 2; // Its deepening starts at two moves.

    private static final PrintStream protocol =
            new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);

    /** One protocol line, whole and flushed; the reader and the search thread both answer. */
    static synchronized void say(String line) {
        protocol.print(line + "\n");
        protocol.flush();
        if (protocol.checkError()) {
            System.exit(0); // The driver is gone.
        }
    }

    /** A puzzle line translated into a DriftingDroids board, or the reason it cannot be. */
    static final class Puzzle {
        String id = "-";
        Board board;
        String letters = "";
        boolean atGoal;
        String problem;
        boolean unsupported;
    }

    static Puzzle parse(String[] words) {
        final Puzzle p = new Puzzle();
        final Map<String, String> f = new HashMap<>();
        for (String w : words) {
            final int eq = w.indexOf('=');
            if (eq > 0) {
                f.put(w.substring(0, eq), w.substring(eq + 1));
            }
        }
        p.id = f.getOrDefault("id", "-");
        for (String key : new String[] {"size", "walls", "robots", "goal"}) {
            if (!f.containsKey(key)) {
                return bad(p, "the puzzle has no " + key + "=");
            }
        }
        try {
            final String[] size = f.get("size").split("x");
            final int w = size.length == 2 ? Integer.parseInt(size[0]) : -1;
            final int h = size.length == 2 ? Integer.parseInt(size[1]) : -1;
            if (w < 1 || h < 1 || w > 64 || h > 64) {
                return bad(p, "bad size " + f.get("size"));
            }
            if (w < Board.WIDTH_MIN || h < Board.HEIGHT_MIN) {
                return unsupported(p, "the board is " + w + "x" + h + "; DriftingDroids' smallest is 3x3");
            }
            final String walls = f.get("walls");
            if (walls.length() != w * h) {
                return bad(p, "walls has " + walls.length() + " digits for " + (w * h) + " cells");
            }
            final String[] robots = f.get("robots").split(";");
            if (robots.length > 5) {
                return bad(p, "more than five robots");
            }
            final Board b = Board.createBoardFreestyle(null, w, h, robots.length);
            b.removeGoals();
            for (int cell = 0; cell < w * h; cell++) {
                final int v = Character.digit(walls.charAt(cell), 16);
                if (v < 0) {
                    return bad(p, "walls: '" + walls.charAt(cell) + "' is not a hexadecimal digit");
                }
                for (int d = 0; d < 4; d++) {
                    if ((v & (1 << d)) != 0) {
                        b.setWall(cell, DIRS.substring(d, d + 1), true); // Sets the neighbour's side too.
                    }
                }
            }
            final String closed = f.getOrDefault("closed", "-");
            if (!closed.equals("-")) {
                for (String c : closed.split(";")) {
                    b.setWall(cell(c, w, h), "NESW", true);
                }
            }
            final int[] cells = new int[robots.length];
            for (int i = 0; i < robots.length; i++) {
                final String[] r = robots[i].split("@");
                if (r.length != 2 || r[0].length() != 1 || LETTERS.indexOf(r[0]) < 0 || p.letters.contains(r[0])) {
                    return bad(p, "robots: bad or repeated robot " + robots[i]);
                }
                p.letters += r[0];
                cells[i] = cell(r[1], w, h);
            }
            final String[] goal = f.get("goal").split("@");
            if (goal.length != 2) {
                return bad(p, "bad goal " + f.get("goal"));
            }
            if (goal[0].equals("*")) {
                return unsupported(p, "the vortex; DriftingDroids counts only a robot that has turned on its way there");
            }
            final int goalRobot = p.letters.indexOf(goal[0]);
            if (goalRobot < 0 || goal[0].length() != 1) {
                return bad(p, "the goal's robot " + goal[0] + " is not on the board");
            }
            final int target = cell(goal[1], w, h);
            b.addGoal(target, goalRobot, Board.GOAL_CIRCLE);
            if (!b.setGoal(target)) {
                return bad(p, "the goal cannot be set");
            }
            if (!b.setRobots(cells)) {
                return unsupported(p, "robots overlap or stand on cells walled on every side, where DriftingDroids puts none");
            }
            final String rules = f.getOrDefault("rules", "-");
            if (rules.contains("no-rebound")) {
                return unsupported(p, "the no-rebound rule; DriftingDroids' option also forbids moving a robot on in its last direction");
            }
            p.atGoal = cells[goalRobot] == target;
            if (b.isSolution01()) {
                return unsupported(p, rules.contains("ricochet")
                        ? "the ricochet rule on a puzzle it changes; DriftingDroids' form of it also needs the robot to turn"
                        : "a puzzle solved in fewer than two moves; DriftingDroids never accepts such solutions");
            }
            p.board = b;
        } catch (NumberFormatException e) {
            return bad(p, "not a number: " + e.getMessage());
        } catch (IllegalArgumentException e) { // A cell off the board or malformed.
            return bad(p, e.getMessage());
        }
        return p;
    }

    static int cell(String text, int w, int h) {
        final String[] xy = text.split(",");
        if (xy.length != 2) {
            throw new IllegalArgumentException("bad cell " + text);
        }
        final int x = Integer.parseInt(xy[0]), y = Integer.parseInt(xy[1]);
        if (x < 0 || y < 0 || x >= w || y >= h) {
            throw new IllegalArgumentException("cell " + text + " is off the board");
        }
        return y * w + x;
    }

    static Puzzle bad(Puzzle p, String why) {
        p.problem = "bad puzzle: " + why;
        return p;
    }

    static Puzzle unsupported(Puzzle p, String why) {
        p.problem = "unsupported: " + why;
        p.unsupported = true;
        return p;
    }

    /** The search under way: why it is to end early (first reason wins), and its limits. */
    static final AtomicReference<String> endReason = new AtomicReference<>();
    static volatile Solver current;
    static volatile int depthLimit = -1;
    static volatile Thread searchThread;

    /** Reads DriftingDroids' log (it prints to System.out): each finished depth becomes an info
     * line, and the depth limit is enforced there, the only place the search reports depths. */
    static final class LogSink extends OutputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (b != '\n') {
                line.write(b);
                return;
            }
            final String text = line.toString(StandardCharsets.UTF_8).trim();
            line.reset();
            final String mark = "iddfs:  finished depthLimit=";
            if (!text.startsWith(mark) || current == null) {
                System.err.println(text); // Its other log lines stay readable on standard error.
                return;
            }
            say("info string DriftingDroids " + text.substring("iddfs:  ".length()));
            final int depth = Integer.parseInt(text.substring(mark.length()).split(" ")[0]);
            if (depthLimit >= 0 && depth >= depthLimit && current.get().isEmpty()) {
                endReason.compareAndSet(null, "none " + depthLimit);
                Thread.currentThread().interrupt(); // It checks the flag at every node.
            }
        }
    }

    static void search(Puzzle p) {
        if (p.problem != null) {
            say("result id=" + p.id + " gaveup " + p.problem);
            return;
        }
        if (p.atGoal) {
            say("result id=" + p.id + " solved");
            return;
        }
        if (depthLimit >= 0 && depthLimit < FIRST_DEPTH) {
            // Not solved in fewer than two moves (isSolution01 said so), so none within the limit.
            say("result id=" + p.id + " none " + depthLimit);
            return;
        }
        String answer;
        try {
            final Solver solver = Solver.createInstance(p.board);
            current = solver;
            final List<Solution> solutions = solver.execute();
            final Solution best = solutions.get(0);
            if (best.size() == 0) { // It tried every depth it has without a solution.
                answer = "none 125";
            } else {
                final StringBuilder moves = new StringBuilder("solved");
                best.resetMoves();
                for (Move m = best.getNextMove(); m != null; m = best.getNextMove()) {
                    moves.append(' ').append(p.letters.charAt(m.robotNumber)).append(DIRS.charAt(m.direction));
                }
                answer = moves.toString();
            }
            say("info string DriftingDroids: " + solver.getSolutionMilliSeconds() + " ms, "
                    + solver.getSolutionStoredStates() + " stored states");
        } catch (InterruptedException e) {
            final String reason = endReason.get();
            answer = reason != null && reason.startsWith("none") ? reason : "gaveup " + (reason == null ? "stop" : reason);
        } catch (OutOfMemoryError e) {
            answer = "gaveup memory: the Java heap is full (raise it with -Xmx in the engine's command)";
        } finally {
            current = null;
            Thread.interrupted(); // A stop that came as it finished must not reach the next search.
        }
        say("result id=" + p.id + " " + answer);
    }

    /** Solves random standard puzzles for about `millis` so that the first real one is timed
     * on compiled code, as a warm JVM would be. */
    static void warmUp(long millis) throws InterruptedException {
        final long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            final Board b = Board.createBoardRandom(4);
            final Thread worker = new Thread(() -> {
                try {
                    Solver.createInstance(b).execute();
                } catch (InterruptedException e) {
                    // Cut at the end of the warm-up.
                }
            }, "driftingdroids-warmup");
            worker.start();
            worker.join(Math.max(1, (end - System.nanoTime()) / 1_000_000L));
            worker.interrupt();
            worker.join();
        }
    }

    public static void main(String[] args) throws Exception {
        System.setOut(new PrintStream(new LogSink(), true, StandardCharsets.UTF_8));
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--warmup-ms") && i + 1 < args.length) {
                // At most 8 s, so that the handshake still comes within the driver's 10 s.
                warmUp(Math.min(8000, Long.parseLong(args[++i])));
            }
        }
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final Timer timer = new Timer("time-limit", true);
        Puzzle puzzle = bad(new Puzzle(), "no puzzle was sent");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            final String[] words = line.trim().split("[ \t]+");
            switch (words[0]) {
                case "rep" -> {
                    say("id name=driftingdroids");
                    say("id author=Michael_Henke_(DriftingDroids),_REP_adapter_by_Ricochet_Lab");
                    say("id version=1");
                    say("id optimal=yes");
                    say("repok 1");
                }
                case "isready" -> say("readyok");
                case "puzzle" -> puzzle = parse(words);
                case "go" -> {
                    final Thread last = searchThread;
                    if (last != null) {
                        last.join(1000); // The last one has answered; it may still be ending.
                        if (last.isAlive()) {
                            say("info string go ignored: a search is still running");
                            continue;
                        }
                    }
                    endReason.set(null);
                    depthLimit = -1;
                    long millis = -1;
                    Puzzle p = puzzle;
                    try {
                        for (String w : words) {
                            if (w.startsWith("depth=")) depthLimit = Integer.parseInt(w.substring(6));
                            if (w.startsWith("time=")) millis = Long.parseLong(w.substring(5));
                        }
                    } catch (NumberFormatException e) {
                        p = new Puzzle();
                        p.id = puzzle.id;
                        p.problem = "bad go line: not a whole number: " + e.getMessage();
                    }
                    final Puzzle toSolve = p;
                    final Thread t = new Thread(() -> search(toSolve), "driftingdroids-search");
                    t.setDaemon(true);
                    searchThread = t;
                    t.start();
                    if (millis >= 0) {
                        timer.schedule(new TimerTask() {
                            @Override
                            public void run() {
                                if (searchThread == t && endReason.compareAndSet(null, "time")) {
                                    t.interrupt();
                                }
                            }
                        }, millis);
                    }
                }
                case "stop" -> {
                    final Thread t = searchThread;
                    if (t != null && t.isAlive() && endReason.compareAndSet(null, "stop")) {
                        t.interrupt();
                    }
                }
                case "quit" -> {
                    System.exit(0);
                }
                default -> {
                    // Unknown commands and empty lines are ignored, as the protocol asks.
                }
            }
        }
        System.exit(0);
    }
}
