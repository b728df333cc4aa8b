// The Swift runtime's crash catcher stays off. Its static initializer (Backtrace.cpp
// in libswiftCore.a) looks for the swift-backtrace program at every start through
// this one function: the runtime's own (Paths.cpp) finds the binary's directory with
// dladdr and stats eight places around it (libexec/swift/linux, bin, ...), 23,000
// instructions and 8 system calls, and finds nothing, since idlewrap ships no
// swift-backtrace; the backtracer is then off. Were one installed there, it would
// catch idlewrap's crashes, print onto a lock screen and wait for keys from the locked
// terminal, which the guardian's split forbids anyway (Guardian.split restores the
// default actions). Defined here, the answer is always "none", and the static link
// leaves Paths.cpp out (as for _swift_stdlib_getUnsafeArgvArgc in cptyarguments.c; a
// second definition would stop the link, not pass silently). Where the standard
// library is a shared library (a developer's build), its own is protected, so the
// runtime calls that one and this one is unused.
#include <stddef.h>

char *swift_copyAuxiliaryExecutablePath(const char *name);

char *swift_copyAuxiliaryExecutablePath(const char *name) {
    (void)name;
    return NULL;
}
