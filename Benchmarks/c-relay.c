/*
 * c-relay: the smallest honest pseudo-terminal relay, the benchmark's
 * speed-of-light reference. Usage: c-relay COMMAND [ARG...]
 *
 * What every relay must do and nothing more: a new pty with the real
 * terminal's modes and size, the command as its session leader, the real
 * terminal in raw mode (restored at the end), one poll loop over stdin and the
 * master with 64 KiB buffers, all output drained until the pty reports EIO
 * (every writer gone), and the command's exit status (128+N for signal N).
 * No SIGWINCH, no signal forwarding: not needed to measure the relay.
 *
 * One read per wake-up: reading the master again until EAGAIN (or gathering
 * reads into one bigger write) measured no faster on Linux, whose pty master
 * hands out at most 4 KiB per read. Typed input is written to the master at
 * once rather than after another poll round.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

enum { BUFFER_SIZE = 64 * 1024 };

static struct termios saved;
static int have_saved;

static void restore_terminal(void) {
    if (have_saved) tcsetattr(0, TCSADRAIN, &saved);
}

static void fail(const char *what) {
    int e = errno;
    restore_terminal();
    fprintf(stderr, "c-relay: %s: %s\r\n", what, strerror(e));
    exit(125);
}

/* Blocking write of everything to the real terminal. */
static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            fail("write");
        }
        p += w;
        n -= (size_t)w;
    }
}

static int open_pty(int *replica) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) fail("posix_openpt");
    const char *name = ptsname(master);
    if (!name) fail("ptsname");
    *replica = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (*replica < 0) fail("open pty replica");
    return master;
}

static pid_t spawn(int replica, char **argv) {
    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid > 0) return pid;
    if (setsid() < 0 || ioctl(replica, TIOCSCTTY, 0) < 0) _exit(125);
    if (dup2(replica, 0) < 0 || dup2(replica, 1) < 0 || dup2(replica, 2) < 0) _exit(125);
    execvp(argv[0], argv);
    int status = errno == ENOENT ? 127 : 126;
    fprintf(stderr, "c-relay: %s: %s\n", argv[0], strerror(errno));
    _exit(status);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: c-relay COMMAND [ARG...]\n");
        return 125;
    }
    int replica;
    int master = open_pty(&replica);
    if (tcgetattr(0, &saved) == 0) {
        have_saved = 1;
        struct winsize size;
        if (ioctl(0, TIOCGWINSZ, &size) == 0) ioctl(replica, TIOCSWINSZ, &size);
        tcsetattr(replica, TCSANOW, &saved);
    }
    pid_t child = spawn(replica, argv + 1);
    close(replica);
    if (have_saved) {
        struct termios raw = saved;
        cfmakeraw(&raw);
        if (tcsetattr(0, TCSANOW, &raw) < 0) fail("tcsetattr");
    }
    if (fcntl(master, F_SETFL, O_NONBLOCK) < 0) fail("fcntl");

    static char out[BUFFER_SIZE], in[BUFFER_SIZE];
    size_t in_start = 0, in_end = 0; /* typed bytes not yet taken by the master */
    int stdin_open = 1;
    for (;;) {
        struct pollfd fds[2] = {
            {.fd = stdin_open && in_start == in_end ? 0 : -1, .events = POLLIN},
            {.fd = master, .events = POLLIN | (in_start < in_end ? POLLOUT : 0)},
        };
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            fail("poll");
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(master, out, sizeof out);
            if (n > 0) write_all(1, out, (size_t)n);
            else if (n == 0 || (errno != EAGAIN && errno != EINTR))
                break; /* EIO: nobody holds the replica open any more */
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(0, in, sizeof in);
            if (n > 0) {
                in_start = 0;
                in_end = (size_t)n;
            } else if (n == 0 || errno != EINTR) {
                stdin_open = 0;
            }
        }
        while (in_start < in_end) {
            ssize_t n = write(master, in + in_start, in_end - in_start);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN) break;
                in_start = in_end; /* the command is gone; its output decides the end */
                break;
            }
            in_start += (size_t)n;
        }
    }
    int status;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) fail("waitpid");
    }
    restore_terminal();
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
