#include "cauthshims.h"

#include <dlfcn.h>
#include <stddef.h>

int cauth_crypt_checksalt(const char *setting) {
    int (*checksalt)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "crypt_checksalt");
    return checksalt != NULL ? checksalt(setting) : -1;
}
