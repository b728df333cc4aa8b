// Linked into the shipped build only (make SYSROOT=...; see the Makefile), so
// that a binary linked against Debian 11's glibc 2.31 with this machine's
// libstdc++.a needs nothing newer than glibc 2.28. Every definition is
// hidden: it serves the static archives linked into the executable, and is
// not exported to the libraries loaded at run time, which keep glibc's own.

// libstdc++ from GCC 11 and later reads glibc 2.32's flag to skip atomic
// reference counts while a process has one thread. 0 means "maybe several":
// always the atomic path, which is correct whatever the thread count.
__attribute__((visibility("hidden"))) char __libc_single_threaded = 0;

// glibc 2.29 gave exp, exp2, log, log2 and pow new versions (the same
// functions without the SVID error handling of their first ones, which still
// exist), and a link against its libm binds the new ones. Defined here, the
// Swift runtime's calls bind to these, which call the first versions instead:
// the same results, the same errno for a domain or range error.
#if defined(__x86_64__)
#define GLIBC_FIRST "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define GLIBC_FIRST "GLIBC_2.17"
#else
#error "the first glibc symbol version of this architecture is not known here"
#endif

#define FIRST_VERSION_OF(name, parameters, arguments)                               \
    double name##_first_version parameters;                                         \
    __asm__(".symver " #name "_first_version, " #name "@" GLIBC_FIRST);             \
    __attribute__((visibility("hidden"))) double name parameters {                  \
        return name##_first_version arguments;                                      \
    }

FIRST_VERSION_OF(exp, (double x), (x))
FIRST_VERSION_OF(exp2, (double x), (x))
FIRST_VERSION_OF(log, (double x), (x))
FIRST_VERSION_OF(log2, (double x), (x))
FIRST_VERSION_OF(pow, (double x, double y), (x, y))
