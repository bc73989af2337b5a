/*
 * rep_fogleman.c: Michael Fogleman's Ricochet Robots solver as a REP 1 engine
 * (docs/engine-protocol.md).
 *
 * The search is his: `search()` in ricochet.c of github.com/fogleman/Ricochet, compiled unchanged
 * from the user's own checkout by build.sh and linked here. This file only speaks the protocol
 * and translates boards. That repository carries no licence file, so its code is not copied
 * into, nor shipped with, this project: each user builds it from the public sources for their
 * own use, and should respect the author's rights.
 *
 * What his search() takes, and so what this engine answers:
 * - boards up to 16x16 (his grid has 256 cells; smaller boards sit in its top-left corner, with
 *   the cells around them walled on every side);
 * - exactly four robots, the first being the one that must reach the target: puzzles with fewer
 *   robots get inert stand-ins on cells walled on every side (closed cells, or the cells around
 *   a smaller board), so a 16x16 board with fewer than four robots needs closed cells;
 * - a target for one robot, not the vortex (his goal test looks at robot 0 only);
 * - no rule options: he has no no-rebound rule, and he counts one-move solutions, so the
 *   ricochet rule is accepted only when the puzzle has no solution of fewer than two moves
 *   anyway (then it changes nothing);
 * - up to 31 moves (his MAX_DEPTH is 32).
 * Anything else is answered `gaveup unsupported: REASON`.
 *
 * His search() is an iterative deepening with a transposition table and calls back after every
 * depth with its nodes, inner nodes and table hits: those become the `row` lines. It cannot be
 * interrupted, so every `go` runs it in a child process, which `stop`, the time limit and `quit`
 * end with SIGKILL; the parent keeps reading commands the whole time.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* His game state, laid out as in ricochet.c (ricochet.py mirrors it the same way). */
typedef struct {
    unsigned int grid[256];  /* walls N=1 E=2 S=4 W=8, and 0x10 where a robot stands */
    unsigned int moves[256]; /* filled by search(): the fewest moves to the target, by cell */
    unsigned int robots[4];  /* cells y*16+x; robot 0 is the one that must reach the target */
    unsigned int token;      /* the target's cell */
    unsigned int last;       /* the last move made, 0 at the start */
} Game;

unsigned int search(Game *game, unsigned char *path,
                    void (*callback)(unsigned int, unsigned int, unsigned int, unsigned int));

#define HIS_ROBOT 0x10
#define HIS_MAX_MOVES 31
#define MAX_LINE (1 << 20)

static const char DIRS[] = "NESW"; /* index d; wall bit 1 << d, as in REP and in his grid */

/* One line to standard output in one write(), so the search child's rows and the parent's
 * answers never interleave within a line. */
static void say(const char *fmt, ...) {
    char line[4096];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, args);
    va_end(args);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    if (write(STDOUT_FILENO, line, n) < 0) _exit(0); /* the driver is gone */
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The last puzzle, translated; `problem` holds why it cannot be solved here, if it cannot. */
static struct {
    char id[256];
    char problem[512];
    int unsupported;    /* the problem is a limit of his solver, not a malformed line */
    int at_goal;        /* robot 0 already stands on the target */
    char letters[4];    /* the letter of his robots 0..3 (0 for a stand-in) */
    Game game;
} P;

static int parse_cell(const char *s, int w, int h, int *cell) {
    int x, y, used = 0;
    if (sscanf(s, "%d,%d%n", &x, &y, &used) != 2 || x < 0 || y < 0 || x >= w || y >= h) return -1;
    *cell = y * 16 + x;
    return used;
}

/* Fills P from the tokens of a `puzzle` line; on failure P.problem says why. */
static void load_puzzle(char **tok, int ntok) {
    const char *size = NULL, *walls = NULL, *closed = "-", *robots = NULL, *goal = NULL, *rules = "-";
    memset(&P, 0, sizeof P);
    strcpy(P.id, "-");
    for (int i = 0; i < ntok; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) continue;
        *eq = '\0';
        const char *k = tok[i], *v = eq + 1;
        if (!strcmp(k, "id")) snprintf(P.id, sizeof P.id, "%s", v);
        else if (!strcmp(k, "size")) size = v;
        else if (!strcmp(k, "walls")) walls = v;
        else if (!strcmp(k, "closed")) closed = v;
        else if (!strcmp(k, "robots")) robots = v;
        else if (!strcmp(k, "goal")) goal = v;
        else if (!strcmp(k, "rules")) rules = v;
    }
#define FAIL(...) do { snprintf(P.problem, sizeof P.problem, __VA_ARGS__); return; } while (0)
#define UNSUPPORTED(...) do { P.unsupported = 1; FAIL(__VA_ARGS__); } while (0)
    int w, h;
    if (!size || !walls || !robots || !goal) FAIL("the puzzle lacks size, walls, robots or goal");
    if (sscanf(size, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 64 || h > 64) FAIL("bad size %s", size);
    if (w > 16 || h > 16) UNSUPPORTED("the board is %dx%d; Fogleman's search() takes at most 16x16", w, h);
    if ((int)strlen(walls) != w * h) FAIL("walls has %zu digits for %d cells", strlen(walls), w * h);
    Game *g = &P.game;
    /* Every cell walled on every side first: the cells around a smaller board stay so. */
    for (int c = 0; c < 256; c++) g->grid[c] = 15;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char d = walls[y * w + x];
            int v = (d >= '0' && d <= '9') ? d - '0' : (d >= 'a' && d <= 'f') ? d - 'a' + 10
                  : (d >= 'A' && d <= 'F') ? d - 'A' + 10 : -1;
            if (v < 0) FAIL("walls: '%c' at cell %d,%d is not a hexadecimal digit", d, x, y);
            /* The border is walled whatever the line says: his slides rely on it. */
            g->grid[y * 16 + x] = v | (y == 0) | (x == w - 1) << 1 | (y == h - 1) << 2 | (x == 0) << 3;
        }
    int stand_in[256], n_stand_in = 0, is_closed[256] = {0}; /* stand-ins go on walled-in cells */
    for (int c = 0; c < 256; c++)
        if (c % 16 >= w || c / 16 >= h) stand_in[n_stand_in++] = c;
    for (const char *s = closed; strcmp(s, "-") && *s;) {
        int c, used = parse_cell(s, w, h, &c);
        if (used < 0) FAIL("closed: bad cell at '%.20s'", s);
        /* A closed cell is walled all round, and so are its neighbours' sides facing it. */
        g->grid[c] = 15;
        if (c / 16 > 0) g->grid[c - 16] |= 4;
        if (c / 16 < h - 1) g->grid[c + 16] |= 1;
        if (c % 16 > 0) g->grid[c - 1] |= 2;
        if (c % 16 < w - 1) g->grid[c + 1] |= 8;
        if (!is_closed[c]) stand_in[n_stand_in++] = c;
        is_closed[c] = 1;
        s += used + (s[used] == ';');
    }
    if (goal[0] == '*') UNSUPPORTED("the goal is the vortex; Fogleman's search() takes a target for one robot");
    int target;
    if (goal[1] != '@' || parse_cell(goal + 2, w, h, &target) < 0) FAIL("bad goal %s", goal);
    char listed[6] = "";
    int cells[6], n = 0;
    for (const char *s = robots; *s;) {
        int c, used;
        if (n == 5 || !strchr("RGBYK", s[0]) || s[1] != '@' || (used = parse_cell(s + 2, w, h, &c)) < 0)
            FAIL("robots: bad robot at '%.20s'", s);
        if (strchr(listed, s[0])) FAIL("robots: %c is listed twice", s[0]);
        listed[n] = s[0];
        cells[n++] = c;
        listed[n] = '\0';
        s += 2 + used + (s[2 + used] == ';');
    }
    if (n > 4) UNSUPPORTED("the puzzle has %d robots; Fogleman's search() takes four", n);
    if (4 - n > n_stand_in)
        UNSUPPORTED("the puzzle has %d robots on a full 16x16 board with too few closed cells to park "
                    "the %d more that Fogleman's search() needs", n, 4 - n);
    const char *goal_robot = strchr(listed, goal[0]);
    if (!goal_robot) FAIL("the goal's robot %c is not on the board", goal[0]);
    /* His robot 0 is the goal's robot; the others follow in the line's order. */
    int k = 0, first = goal_robot - listed;
    g->robots[k] = cells[first], P.letters[k++] = listed[first];
    for (int i = 0; i < n; i++)
        if (i != first) g->robots[k] = cells[i], P.letters[k++] = listed[i];
    for (int i = 0; k < 4; i++) g->robots[k++] = stand_in[i]; /* never move: walled all round */
    for (int i = 0; i < 4; i++) {
        if (g->grid[g->robots[i]] & HIS_ROBOT) FAIL("two robots share a cell");
        if (i < n && is_closed[g->robots[i]])
            FAIL("a robot stands on the closed cell %d,%d", g->robots[i] % 16, g->robots[i] / 16);
        g->grid[g->robots[i]] |= HIS_ROBOT;
    }
    g->token = target;
    P.at_goal = g->robots[0] == g->token;
    int ricochet = strstr(rules, "ricochet") != NULL;
    if (strstr(rules, "no-rebound")) UNSUPPORTED("the no-rebound rule; Fogleman's search() has no such rule");
    if (ricochet) {
        /* The rule matters only if robot 0 is on the target or one slide away from it. */
        int near = P.at_goal;
        for (int d = 0; d < 4 && !near; d++) {
            int step = d == 0 ? -16 : d == 1 ? 1 : d == 2 ? 16 : -1, c = g->robots[0];
            while (!(g->grid[c] & (1 << d)) && !(g->grid[c + step] & HIS_ROBOT)) c += step;
            near = (unsigned)c == g->token;
        }
        if (near) UNSUPPORTED("the ricochet rule, on a puzzle solved in fewer than two moves without it; "
                              "Fogleman's search() counts such solutions");
    }
#undef FAIL
#undef UNSUPPORTED
}

/* The search child's state: limits and the clock for its rows. */
static unsigned char path[HIS_MAX_MOVES + 1];
static int depth_limit = -1, result_pipe = -1;
static double depth_started;

static void child_report(const char *text) {
    if (write(result_pipe, text, strlen(text)) < 0) _exit(1);
    _exit(0);
}

/* Called by his search() after every depth, with that depth's counters. */
static void on_depth(unsigned int depth, unsigned int nodes, unsigned int inner, unsigned int hits) {
    double t = now_ms();
    say("row depth=%u nodes=%u time=%.0f inner=%u hits=%u", depth, nodes, t - depth_started, inner, hits);
    depth_started = t;
    /* path[0] is written only when a solution is found: until then this depth found none. */
    if (path[0] == 0xff && depth_limit >= 0 && (int)depth >= depth_limit) {
        char text[32];
        snprintf(text, sizeof text, "none %d", depth_limit);
        child_report(text);
    }
}

static void run_search(void) {
    char text[8 + 4 * HIS_MAX_MOVES] = "solved";
    memset(path, 0xff, sizeof path);
    depth_started = now_ms();
    unsigned int moves = search(&P.game, path, on_depth);
    if (moves == 0) {
        snprintf(text, sizeof text, "none %d", HIS_MAX_MOVES);
        child_report(text);
    }
    for (unsigned int i = 0; i < moves; i++) {
        unsigned int robot = path[i] >> 4, bit = path[i] & 15;
        int d = bit == 1 ? 0 : bit == 2 ? 1 : bit == 4 ? 2 : 3;
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, " %c%c", P.letters[robot], DIRS[d]);
    }
    child_report(text);
}

/* The running search, if any. */
static pid_t child = -1;
static int child_pipe = -1;
static double deadline = -1;

/* Ends the running search and sends its result: the child's answer if it wrote one, else
 * `gaveup REASON` (the child killed by `stop`, the time limit or a crash). */
static void finish_search(const char *reason) {
    char text[512];
    ssize_t got = 0, r;
    if (reason) kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    while (got < (ssize_t)sizeof text - 1 && (r = read(child_pipe, text + got, sizeof text - 1 - got)) > 0) got += r;
    text[got] = '\0';
    close(child_pipe);
    child = -1;
    if (got > 0) say("result id=%s %s", P.id, text);
    else say("result id=%s gaveup %s", P.id, reason ? reason : "the search process ended without an answer");
}

static void go(char **tok, int ntok) {
    double time_limit = -1;
    depth_limit = -1;
    for (int i = 0; i < ntok; i++) {
        int is_depth = !strncmp(tok[i], "depth=", 6), is_time = !strncmp(tok[i], "time=", 5);
        if (!is_depth && !is_time) continue;
        char *end;
        long v = strtol(tok[i] + (is_depth ? 6 : 5), &end, 10);
        if (*end || end == tok[i] + (is_depth ? 6 : 5) || v < 0 || v > 1000000000L) {
            say("result id=%s gaveup bad go line: %s is not a whole number", P.id, tok[i]);
            return;
        }
        if (is_depth) depth_limit = (int)v;
        else time_limit = (double)v;
    }
    if (P.problem[0]) {
        say("result id=%s gaveup %s%s", P.id, P.unsupported ? "unsupported: " : "bad puzzle: ", P.problem);
        return;
    }
    if (P.at_goal) {
        say("row depth=0 nodes=1 time=0");
        say("result id=%s solved", P.id);
        return;
    }
    if (depth_limit == 0) {
        say("result id=%s none 0", P.id);
        return;
    }
    int fds[2];
    if (pipe(fds) < 0) {
        say("result id=%s gaveup cannot create a pipe: %s", P.id, strerror(errno));
        return;
    }
    child = fork();
    if (child < 0) {
        say("result id=%s gaveup cannot fork: %s", P.id, strerror(errno));
        close(fds[0]), close(fds[1]);
        return;
    }
    if (child == 0) {
        close(fds[0]);
        result_pipe = fds[1];
        run_search();
    }
    close(fds[1]);
    child_pipe = fds[0];
    deadline = time_limit >= 0 ? now_ms() + time_limit : -1;
}

/* Handles one command line; returns 0 on `quit`. */
static int command(char *line) {
    char *tok[64];
    int ntok = 0;
    for (char *t = strtok(line, " \t\r"); t && ntok < 64; t = strtok(NULL, " \t\r")) tok[ntok++] = t;
    if (ntok == 0) return 1;
    if (!strcmp(tok[0], "rep")) {
        say("id name=fogleman-c");
        say("id author=Michael_Fogleman_(search),_REP_adapter_by_Ricochet_Lab");
        say("id version=1");
        say("id rows=depth");
        say("id optimal=yes");
        say("repok 1");
    } else if (!strcmp(tok[0], "isready")) {
        say("readyok");
    } else if (!strcmp(tok[0], "puzzle") && child < 0) {
        load_puzzle(tok + 1, ntok - 1);
    } else if (!strcmp(tok[0], "go") && child < 0) {
        go(tok + 1, ntok - 1);
    } else if (!strcmp(tok[0], "stop") && child >= 0) {
        finish_search("stop");
    } else if (!strcmp(tok[0], "quit")) {
        return 0;
    }
    return 1;
}

int main(void) {
    static char buf[MAX_LINE + 1];
    size_t have = 0;
    int open_input = 1;
    signal(SIGPIPE, SIG_IGN);
    while (open_input || child >= 0) {
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {child >= 0 ? child_pipe : -1, POLLIN, 0}};
        int wait = -1;
        if (child >= 0 && deadline >= 0) wait = deadline > now_ms() ? (int)(deadline - now_ms()) + 1 : 0;
        if (!open_input) fds[0].fd = -1;
        if (poll(fds, 2, wait) < 0 && errno != EINTR) break;
        if (child >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) finish_search(NULL);
        if (child >= 0 && deadline >= 0 && now_ms() >= deadline) finish_search("time");
        if (!(fds[0].revents & (POLLIN | POLLHUP))) continue;
        ssize_t r = read(STDIN_FILENO, buf + have, MAX_LINE - have);
        if (r <= 0) {
            open_input = 0; /* end of input: as `quit` */
            break;
        }
        have += r;
        char *start = buf, *nl;
        while ((nl = memchr(start, '\n', have - (start - buf)))) {
            *nl = '\0';
            if (!command(start)) {
                open_input = 0;
                goto out;
            }
            start = nl + 1;
        }
        have -= start - buf;
        memmove(buf, start, have);
        if (have == MAX_LINE) have = 0; /* an over-long line is dropped */
    }
out:
    if (child >= 0) kill(child, SIGKILL), waitpid(child, NULL, 0);
    return 0;
}
