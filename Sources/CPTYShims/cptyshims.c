#include "cptyshims.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int cpty_signalfd_open(const int *signals, int count, _Bool *was_blocked) {
    sigset_t mask, old;
    sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    if (sigprocmask(SIG_BLOCK, &mask, &old) == -1) return -1;
    for (int i = 0; i < count; i++) was_blocked[i] = sigismember(&old, signals[i]) == 1;
    return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cpty_signals_unblock(const int *signals, int count) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int i = 0; i < count; i++) sigaddset(&mask, signals[i]);
    return sigprocmask(SIG_UNBLOCK, &mask, NULL);
}

int cpty_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int cpty_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == -1) return errno == EAGAIN ? 0 : -1;
    if (n != (ssize_t)sizeof info) {
        errno = EIO;
        return -1;
    }
    return (int)info.ssi_signo;
}

int cpty_set_dumpable(bool dumpable) {
    return prctl(PR_SET_DUMPABLE, dumpable ? 1 : 0, 0, 0, 0);
}

pid_t cpty_fork_watched(int parent_death_signal) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (prctl(PR_SET_PDEATHSIG, parent_death_signal, 0, 0, 0) == -1 || getppid() != parent) {
        kill(getpid(), parent_death_signal);
    }
    return 0;
}

int cpty_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
}

int cpty_unblock_all_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

int cpty_open_master(char *path, size_t path_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd == -1) return -1;
    if (grantpt(fd) == -1 || unlockpt(fd) == -1) goto fail;
    int error = ptsname_r(fd, path, path_size);
    if (error != 0) {
        errno = error;
        goto fail;
    }
    return fd;
fail:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

// Attributes shared by both spawns: a new session, nothing blocked, every
// signal back at its default (idlewrap blocks some and ignores none, but its
// own parent may have ignored SIGINT or SIGPIPE, which exec would keep).
static int spawn_attributes(posix_spawnattr_t *attr) {
    int error = posix_spawnattr_init(attr);
    if (error != 0) return error;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    short flags = POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if ((error = posix_spawnattr_setflags(attr, flags)) != 0 ||
        (error = posix_spawnattr_setsigmask(attr, &none)) != 0 ||
        (error = posix_spawnattr_setsigdefault(attr, &all)) != 0) {
        posix_spawnattr_destroy(attr);
    }
    return error;
}

typedef int (*closefrom_action)(posix_spawn_file_actions_t *, int);

// posix_spawn_file_actions_addclosefrom_np came with glibc 2.34; the shipped
// binary also runs on glibc 2.28 (RHEL 8), so it is looked up at run time
// rather than linked.
static closefrom_action addclosefrom(void) {
    return (closefrom_action)dlsym(RTLD_DEFAULT, "posix_spawn_file_actions_addclosefrom_np");
}

// Without closefrom: a close action for each descriptor from 3 up that is
// open now and would survive exec (no FD_CLOEXEC), listed from /proc/self/fd,
// or, without /proc, probed up to the descriptor limit. idlewrap opens every
// descriptor of its own close-on-exec, so those that lack the flag were
// inherited, and all of them are open before the listing: none can appear
// between it and the spawn. One above the soft limit (the limit lowered after
// it was opened) cannot take a close action; it is marked close-on-exec.
static int add_close_action(posix_spawn_file_actions_t *actions, int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags == -1 || (flags & FD_CLOEXEC)) return 0;
    int error = posix_spawn_file_actions_addclose(actions, fd);
    if (error == EBADF) return fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1 ? errno : 0;
    return error;
}

static int add_close_actions(posix_spawn_file_actions_t *actions) {
    DIR *directory = opendir("/proc/self/fd");
    if (directory == NULL) {
        int limit = getdtablesize();
        for (int fd = 3; fd < limit; fd++) {
            int error = add_close_action(actions, fd);
            if (error != 0) return error;
        }
        return 0;
    }
    int error = 0;
    struct dirent *entry;
    while (error == 0 && (entry = readdir(directory)) != NULL) {
        char *end;
        long fd = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || end == entry->d_name || fd < 3 || fd == dirfd(directory)) continue;
        error = add_close_action(actions, (int)fd);
    }
    closedir(directory);
    return error;
}

// Opens `path` on fd 0 and duplicates it to 1 and 2. glibc runs setsid()
// before the file actions, so opening a terminal here (without O_NOCTTY)
// makes it the new session's controlling terminal. Every other descriptor is
// closed: the command starts with a clean set, whatever idlewrap inherited.
static int stdio_actions(posix_spawn_file_actions_t *actions, const char *path) {
    int error = posix_spawn_file_actions_init(actions);
    if (error != 0) return error;
    closefrom_action closefrom = addclosefrom();
    if ((error = posix_spawn_file_actions_addopen(actions, 0, path, O_RDWR, 0)) != 0 ||
        (error = posix_spawn_file_actions_adddup2(actions, 0, 1)) != 0 ||
        (error = posix_spawn_file_actions_adddup2(actions, 0, 2)) != 0 ||
        (error = closefrom != NULL ? closefrom(actions, 3) : add_close_actions(actions)) != 0) {
        posix_spawn_file_actions_destroy(actions);
    }
    return error;
}

static int spawn_on(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                    const char *stdio_path, bool search_path) {
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    int error = spawn_attributes(&attr);
    if (error != 0) return error;
    error = stdio_actions(&actions, stdio_path);
    if (error != 0) {
        posix_spawnattr_destroy(&attr);
        return error;
    }
    error = search_path ? posix_spawnp(pid, path, &actions, &attr, argv, envp)
                        : posix_spawn(pid, path, &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return error;
}

int cpty_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
               const char *terminal_path, bool search_path) {
    return spawn_on(pid, path, argv, envp, terminal_path, search_path);
}

int cpty_spawn_detached(pid_t *pid, char *const argv[], char *const envp[]) {
    return spawn_on(pid, "/bin/sh", argv, envp, "/dev/null", false);
}

int cpty_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

int cpty_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == -1) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

/// Room for the few descriptors a control connection may pass.
#define CPTY_MAX_PASSED 4

/// Room for the control messages that come along with a message: descriptors, or the
/// sender's credentials.
union control_room {
    char buffer[CMSG_SPACE(sizeof(int) * CPTY_MAX_PASSED)];
    struct cmsghdr align;
};
_Static_assert(CMSG_SPACE(sizeof(struct ucred)) <= sizeof(union control_room), "room for credentials");

ssize_t cpty_send_with_descriptors(int fd, const void *bytes, size_t count, const int *descriptors,
                                   int descriptor_count) {
    if (descriptor_count < 0 || descriptor_count > CPTY_MAX_PASSED) {
        errno = EINVAL;
        return -1;
    }
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = count};
    union control_room control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
    if (descriptor_count > 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)descriptor_count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)descriptor_count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)descriptor_count);
    }
    return sendmsg(fd, &message, MSG_NOSIGNAL);
}

/// A message received: its header, its one vector and the room for its control messages.
struct received_message {
    struct msghdr header;
    struct iovec vector;
    union control_room control;
};

/// One recvmsg of `count` bytes, with `control_size` bytes of the room for what comes
/// along; after a failure `message` holds no control messages.
static ssize_t receive_message(int fd, void *bytes, size_t count, size_t control_size,
                               struct received_message *message) {
    message->vector = (struct iovec){.iov_base = bytes, .iov_len = count};
    message->header = (struct msghdr){.msg_iov = &message->vector,
                                      .msg_iovlen = 1,
                                      .msg_control = message->control.buffer,
                                      .msg_controllen = control_size};
    ssize_t read = recvmsg(fd, &message->header, MSG_CMSG_CLOEXEC);
    if (read == -1) message->header.msg_controllen = 0;
    return read;
}

/// The control message of SOL_SOCKET's `type` after `previous` (NULL: the first), or NULL.
static struct cmsghdr *next_control_message(struct received_message *message, struct cmsghdr *previous, int type) {
    struct msghdr *received = &message->header;
    struct cmsghdr *control = previous == NULL ? CMSG_FIRSTHDR(received) : CMSG_NXTHDR(received, previous);
    while (control != NULL && (control->cmsg_level != SOL_SOCKET || control->cmsg_type != type)) {
        control = CMSG_NXTHDR(received, control);
    }
    return control;
}

ssize_t cpty_receive_with_descriptors(int fd, void *bytes, size_t count, int *descriptors, int capacity,
                                      int *received) {
    *received = 0;
    struct received_message message;
    ssize_t read = receive_message(fd, bytes, count, sizeof message.control, &message);
    for (struct cmsghdr *header = NULL; (header = next_control_message(&message, header, SCM_RIGHTS)) != NULL;) {
        size_t passed = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < passed; index++) {
            int descriptor;
            memcpy(&descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
            if (*received < capacity) {
                descriptors[(*received)++] = descriptor;
            } else {
                close(descriptor);
            }
        }
    }
    return read;
}

int cpty_pass_credentials(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
}

ssize_t cpty_receive_with_sender(int fd, void *bytes, size_t count, pid_t *sender) {
    *sender = 0;
    // Room for the credentials only: descriptors passed along do not fit, and the
    // kernel closes them (MSG_CTRUNC).
    struct received_message message;
    ssize_t read = receive_message(fd, bytes, count, CMSG_SPACE(sizeof(struct ucred)), &message);
    for (struct cmsghdr *header = NULL; (header = next_control_message(&message, header, SCM_CREDENTIALS)) != NULL;) {
        struct ucred credentials;
        memcpy(&credentials, CMSG_DATA(header), sizeof credentials);
        *sender = credentials.pid;
    }
    return read;
}

int cpty_open_flag_path(void) { return O_PATH; }

int cpty_close_all_descriptors(void) {
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
    return (int)syscall(SYS_close_range, 0U, ~0U, 0U);
}

// An object whose code was written when it was loaded (DT_TEXTREL) keeps its
// changes only in its private pages: those must not be dropped.
static bool has_text_relocations(const struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
             d->d_tag != DT_NULL; d++) {
            if (d->d_tag == DT_TEXTREL || (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL))) return true;
        }
    }
    return false;
}

static int drop_read_only_segments(struct dl_phdr_info *info, size_t size, void *failures) {
    (void)size;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        // The kernel's vDSO is no file's.
        if (segment->p_type == PT_LOAD && info->dlpi_addr + segment->p_vaddr == vdso) return 0;
    }
    if (has_text_relocations(info)) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W)) continue;
        // Whole pages only: a page a segment shares with a writable one is left alone.
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == -1) ++*(int *)failures;
    }
    return 0;
}

int cpty_drop_read_only_pages(void) {
    int failures = 0;
    dl_iterate_phdr(drop_read_only_segments, &failures);
    return failures;
}

int cpty_wexitstatus(int status) { return WEXITSTATUS(status); }
bool cpty_wifsignaled(int status) { return WIFSIGNALED(status); }
int cpty_wtermsig(int status) { return WTERMSIG(status); }
bool cpty_wifstopped(int status) { return WIFSTOPPED(status); }
int cpty_wstopsig(int status) { return WSTOPSIG(status); }
bool cpty_wifcontinued(int status) { return WIFCONTINUED(status); }
