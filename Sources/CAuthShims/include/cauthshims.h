// Declarations for libcrypt (linked; its newer calls looked up at run time)
// and libpam (loaded at run time with dlopen, so no PAM headers or
// libpam0g-dev are needed to build).
#ifndef CAUTHSHIMS_H
#define CAUTHSHIMS_H

#include <crypt.h>
// getspnam is not in Swift's Glibc module.
#include <shadow.h>

#pragma clang assume_nonnull begin

/// crypt_checksalt(setting), or -1 where libcrypt lacks it. It came with
/// libxcrypt 4.3, and RHEL 8 has 4.1: looked up at run time, not linked, so
/// that one binary runs with either.
int cauth_crypt_checksalt(const char *setting);

// Linux-PAM's application interface (<security/pam_appl.h>), with our own
// names and the same layout. The function types match the symbols looked up
// with dlsym.

/// pam_handle_t: opaque.
typedef struct cauth_pam_handle cauth_pam_handle;

/// struct pam_message.
struct cauth_pam_message {
    int msg_style;
    const char *_Nullable msg;
};

/// struct pam_response. `resp` must be malloc'd: libpam frees it.
struct cauth_pam_response {
    char *_Nullable resp;
    int resp_retcode;
};

/// The conversation function. Linux-PAM passes `messages` as an array of
/// `count` pointers; the reply is a calloc'd array of `count` responses.
typedef int (*cauth_pam_conversation)(
    int count, const struct cauth_pam_message *_Nullable *_Nullable messages,
    struct cauth_pam_response *_Nullable *_Nullable responses, void *_Nullable context);

/// struct pam_conv.
struct cauth_pam_conv {
    cauth_pam_conversation _Nullable conv;
    void *_Nullable appdata_ptr;
};

/// The PAM_FAIL_DELAY item: called instead of libpam's own sleep.
typedef void (*cauth_pam_fail_delay)(int status, unsigned int delay_microseconds,
                                     void *_Nullable context);

typedef int (*cauth_pam_start_fn)(const char *service, const char *_Nullable user,
                                  const struct cauth_pam_conv *conversation,
                                  cauth_pam_handle *_Nullable *_Nonnull handle);
typedef int (*cauth_pam_start_confdir_fn)(const char *service, const char *_Nullable user,
                                          const struct cauth_pam_conv *conversation,
                                          const char *confdir,
                                          cauth_pam_handle *_Nullable *_Nonnull handle);
typedef int (*cauth_pam_end_fn)(cauth_pam_handle *handle, int status);
typedef int (*cauth_pam_authenticate_fn)(cauth_pam_handle *handle, int flags);
typedef int (*cauth_pam_acct_mgmt_fn)(cauth_pam_handle *handle, int flags);
typedef int (*cauth_pam_setcred_fn)(cauth_pam_handle *handle, int flags);
typedef int (*cauth_pam_set_item_fn)(cauth_pam_handle *handle, int item,
                                     const void *_Nullable value);
typedef int (*cauth_pam_get_item_fn)(const cauth_pam_handle *handle, int item,
                                     const void *_Nullable *_Nonnull value);
typedef const char *_Nullable (*cauth_pam_strerror_fn)(cauth_pam_handle *_Nullable handle,
                                                       int status);

#pragma clang assume_nonnull end

#endif
