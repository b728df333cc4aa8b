/*
 * The commands the harness runs inside each wrapper (one binary, one mode per
 * metric), so that every wrapper runs exactly the same workload:
 *
 *   bench-child write N [WORKLOAD]
 *                            write N bytes of the workload (bench-workload.h;
 *                            the log text of bench-text.h by default) to the
 *                            terminal as it is (cooked: ONLCR applies)
 *   bench-child write-raw N [WORKLOAD]
 *                            the same after putting the terminal in raw mode
 *   bench-child echo         raw mode, then echo every byte back; 'Q' ends it
 *   bench-child idle SECS    print "R", then sleep without a single wake-up
 *                            (an alarm after SECS is only a safety net)
 *   bench-child probe        print "PROBE <tty name>" (is it on a new pty?)
 *   bench-child text N       write N bytes of the log text to stdout (corpus)
 *   bench-child flood N GO DONE [WORKLOAD]
 *                            print "R", wait for a byte on the FIFO GO, write N
 *                            bytes of log text (or of WORKLOAD, as for write),
 *                            then "D" to the FIFO DONE and
 *                            wait for input (or the hang-up)
 *
 * write and write-raw wait for one byte of input before exiting, so that the
 * harness can read the wrapper's /proc entries while it is still alive.
 * echo and idle print "R" once ready, so the harness knows when to start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include "bench-workload.h"

static void die(const char *what) {
    char msg[128];
    int n = snprintf(msg, sizeof msg, "bench-child: %s: %s\n", what, strerror(errno));
    if (write(2, msg, (size_t)n) < 0) {}
    _exit(111);
}

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write");
        }
        p += w;
        n -= (size_t)w;
    }
}

static void make_raw(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) < 0) die("tcgetattr");
    cfmakeraw(&t);
    if (tcsetattr(fd, TCSANOW, &t) < 0) die("tcsetattr");
}

static void write_text(int fd, uint64_t total) {
    static char buf[BENCH_TEXT_SIZE];
    bench_text_fill(buf);
    while (total > 0) {
        size_t n = total < BENCH_TEXT_SIZE ? (size_t)total : BENCH_TEXT_SIZE;
        write_all(fd, buf, n);
        total -= n;
    }
}

static void write_workload(int fd, uint64_t total, const char *name) {
    static char buf[BENCH_TEXT_SIZE];
    Workload w;
    if (workload_open(&w, name) < 0) {
        errno = ENOENT;
        die(name);
    }
    while (total > 0) {
        workload_next(&w, buf);
        size_t n = total < BENCH_TEXT_SIZE ? (size_t)total : BENCH_TEXT_SIZE;
        write_all(fd, buf, n);
        total -= n;
    }
}

static void wait_for_one_byte(void) {
    char c;
    while (read(0, &c, 1) < 0 && errno == EINTR) {}
}

static void echo_until_q(void) {
    char buf[4096];
    for (;;) {
        ssize_t n = read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        write_all(1, buf, (size_t)n);
        if (memchr(buf, 'Q', (size_t)n)) return;
    }
}

static int usage(void) {
    static const char text[] =
        "usage: bench-child write N [WORKLOAD] | write-raw N [WORKLOAD] | echo | idle SECS | probe | text N\n"
        "       bench-child flood N GO DONE [WORKLOAD]\n";
    write_all(2, text, sizeof text - 1);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    const char *mode = argv[1];
    if ((!strcmp(mode, "write") || !strcmp(mode, "write-raw")) && (argc == 3 || argc == 4)) {
        if (!strcmp(mode, "write-raw")) make_raw(1);
        write_workload(1, strtoull(argv[2], NULL, 10), argc == 4 ? argv[3] : "log");
        wait_for_one_byte();
        return 0;
    }
    if (!strcmp(mode, "flood") && (argc == 5 || argc == 6)) {
        write_all(1, "R", 1);
        int go = open(argv[3], O_RDONLY | O_CLOEXEC);
        char c;
        if (go < 0 || read(go, &c, 1) != 1) die("the go FIFO");
        close(go);
        if (argc == 6) write_workload(1, strtoull(argv[2], NULL, 10), argv[5]);
        else write_text(1, strtoull(argv[2], NULL, 10));
        int done = open(argv[4], O_WRONLY | O_CLOEXEC);
        if (done < 0) die("the done FIFO");
        write_all(done, "D", 1);
        close(done);
        wait_for_one_byte();
        return 0;
    }
    if (!strcmp(mode, "text") && argc == 3) {
        write_text(1, strtoull(argv[2], NULL, 10));
        return 0;
    }
    if (!strcmp(mode, "echo") && argc == 2) {
        make_raw(0);
        write_all(1, "R", 1);
        echo_until_q();
        return 0;
    }
    if (!strcmp(mode, "idle") && argc == 3) {
        alarm((unsigned)atoi(argv[2]));
        write_all(1, "R", 1);
        for (;;) pause();
    }
    if (!strcmp(mode, "probe") && argc == 2) {
        const char *name = ttyname(0);
        char line[300];
        int n = snprintf(line, sizeof line, "PROBE %s\n", name ? name : "(not a tty)");
        write_all(1, line, (size_t)n);
        return 0;
    }
    return usage();
}
