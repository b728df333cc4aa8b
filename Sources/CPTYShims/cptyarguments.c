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

// Swift's CommandLine.arguments gets argc and argv from the runtime through this one
// function. The runtime's own (CommandLine.cpp in libswiftCore.a) finds them from a
// static initializer that reads /proc/self/maps at every start: 65 lines through
// sscanf, 0.14 M instructions and 8 system calls, and nothing in a chroot without
// /proc. Defined here, with what glibc handed the constructor above, it keeps that
// object out of a static link (the linker takes an archive's member only for a symbol
// still undefined; a second definition would stop the link, not pass silently). Where
// the standard library is a shared library (a developer's build), the runtime calls its
// own, hidden one, and this one is unused.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *none[] = {NULL};
    if (captured_vector == NULL) {
        *outArgLen = 0;
        return none;
    }
    *outArgLen = captured_count;
    return captured_vector;
}
