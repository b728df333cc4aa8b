// What PTYKit needs from libc that Swift's Glibc module does not expose:
// signalfd, the wait-status macros, and the GNU posix_spawn / pty calls that
// are declared only under _GNU_SOURCE. Every symbol carries the cpty_ prefix.
// Calls that fail return -1 with errno set, unless documented otherwise.
#ifndef CPTYSHIMS_H
#define CPTYSHIMS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
// eventfd is not in Swift's Glibc module; including it here exposes it.
#include <sys/eventfd.h>

#pragma clang assume_nonnull begin

/// Blocks `signals` for the calling thread and returns a close-on-exec,
/// non-blocking signalfd that reads them. `was_blocked[i]` says whether
/// `signals[i]` was blocked already.
int cpty_signalfd_open(const int *signals, int count, _Bool *was_blocked);

/// Unblocks `signals` for the calling thread.
int cpty_signals_unblock(const int *signals, int count);

/// Reads one signal from a signalfd: its number, 0 when none is pending,
/// -1 on error.
int cpty_signalfd_read(int fd);

/// A close-on-exec descriptor that becomes readable once process `pid` has
/// exited (Linux 5.3's pidfd_open; -1 with ENOSYS on older kernels).
int cpty_pidfd_open(pid_t pid);

/// Unblocks every signal for the calling thread (before exec'ing in place).
int cpty_unblock_all_signals(void);

/// Opens a pseudo-terminal master (O_RDWR | O_NOCTTY | O_CLOEXEC), grants
/// and unlocks it, and writes the replica's path into `path`.
int cpty_open_master(char *path, size_t path_size);

/// Spawns `argv[0]` (searched in PATH when `search_path`) as the leader of a
/// new session whose controlling terminal is `terminal_path`, opened on fds
/// 0, 1 and 2, with every signal at its default and none blocked. No other
/// descriptor reaches it: glibc 2.34's closefrom action closes them all;
/// older glibc gets a close action for each open one without FD_CLOEXEC, so
/// there a descriptor another thread opens during the call without
/// O_CLOEXEC could reach the child.
/// Returns 0 and sets `*pid`, or returns the errno value of the failure
/// (posix_spawn's convention; exec errors arrive here synchronously).
int cpty_spawn(pid_t *pid, const char *path, char *_Nullable const argv[_Nonnull],
               char *_Nullable const envp[_Nonnull], const char *terminal_path,
               bool search_path);

/// Spawns `/bin/sh -c command` detached from the terminal: a new session,
/// stdio on /dev/null, default signals. Same return convention as cpty_spawn.
int cpty_spawn_detached(pid_t *pid, char *_Nullable const argv[_Nonnull],
                        char *_Nullable const envp[_Nonnull]);

/// accept4 with SOCK_CLOEXEC | SOCK_NONBLOCK (accept4 is declared only under
/// _GNU_SOURCE): a new connection's descriptor, or -1.
int cpty_accept(int fd);

/// The peer of a Unix socket as the kernel recorded it (SO_PEERCRED; struct
/// ucred is declared only under _GNU_SOURCE). Returns 0, or -1.
int cpty_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// sendmsg of `count` bytes with `descriptor_count` descriptors passed along
/// (SCM_RIGHTS), MSG_NOSIGNAL: the number of bytes sent, or -1.
ssize_t cpty_send_with_descriptors(int fd, const void *_Nullable bytes, size_t count,
                                   const int *_Nullable descriptors, int descriptor_count);

/// recvmsg of at most `count` bytes, taking at most `capacity` descriptors
/// passed along (SCM_RIGHTS, made close-on-exec); `*received` says how many
/// came. Descriptors beyond `capacity` are closed, as the kernel leaves them
/// (MSG_CTRUNC). Returns the number of bytes read, or -1.
ssize_t cpty_receive_with_descriptors(int fd, void *_Nullable bytes, size_t count, int *_Nullable descriptors,
                                      int capacity, int *received);

/// setsockopt(SO_PASSCRED, 1): every message read on `fd` from now on says
/// which process sent it. Returns 0, or -1.
int cpty_pass_credentials(int fd);

/// recvmsg of at most `count` bytes; `*sender` is the process that sent them as
/// the kernel says (SCM_CREDENTIALS, with SO_PASSCRED on), or 0 when it did
/// not say. Returns the number of bytes read, or -1.
ssize_t cpty_receive_with_sender(int fd, void *_Nullable bytes, size_t count, pid_t *sender);

/// O_PATH (declared only under _GNU_SOURCE): an open flag for a descriptor
/// that names a file without opening it for reading or writing.
int cpty_open_flag_path(void);

/// prctl(PR_SET_DUMPABLE, dumpable): prctl is variadic, which Swift cannot call.
int cpty_set_dumpable(bool dumpable);

/// fork(), for idlewrap's one split into guardian and session process; call
/// it only while the process has a single thread. The child gets
/// `parent_death_signal` when the parent ends (PR_SET_PDEATHSIG; prctl is
/// variadic), and at once if the parent ended before that was set.
/// Returns 0 in the child, the child's pid in the parent, or -1.
pid_t cpty_fork_watched(int parent_death_signal);

/// prctl(PR_SET_PDEATHSIG, signal): 0 stops the signal that the parent's end sends.
int cpty_set_parent_death_signal(int signal);

/// close_range(0, ~0U, 0): closes every descriptor in one system call. It came with
/// Linux 5.9 and its C wrapper with glibc 2.34, above the shipped binary's floor, so it
/// is made through syscall(2). Returns 0, or -1 with errno (ENOSYS before Linux 5.9).
int cpty_close_all_descriptors(void);

/// Drops this process's page-table entries for the read-only segments of every
/// loaded object (its code and constants, never written: no text relocations),
/// with madvise(MADV_DONTNEED). The pages stay in the page cache and fault back
/// in when run again. Returns the number of segments it could not drop.
int cpty_drop_read_only_pages(void);

int cpty_wexitstatus(int status);
bool cpty_wifstopped(int status);
int cpty_wstopsig(int status);
bool cpty_wifcontinued(int status);
bool cpty_wifsignaled(int status);
int cpty_wtermsig(int status);

/// The process's own argc and argv, as the kernel passed them to main, captured
/// before main runs (cptyarguments.c says how); 0 and NULL where the C library
/// does not hand them to constructors.
int cpty_argument_count(void);
char *_Nullable *_Nullable cpty_argument_vector(void);

#pragma clang assume_nonnull end

#endif
