// The process's own arguments, for a program that must not depend on /proc:
// Swift's CommandLine.arguments reads /proc/self/cmdline on Linux, and in a
// chroot without /proc (sshd's ChrootDirectory, a fresh debootstrap tree) it
// comes back empty, so that every option would be ignored. glibc calls the
// functions of .init_array with main's argc, argv and envp, before main runs.
#include "cptyshims.h"

static int captured_count;
static char **captured_vector;

__attribute__((constructor)) static void cpty_capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    captured_count = argc;
    captured_vector = argv;
}

int cpty_argument_count(void) { return captured_count; }

char **cpty_argument_vector(void) { return captured_vector; }
