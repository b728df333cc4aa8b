// Declarations for libcrypt (linked) and libpam (loaded at run time with
// dlopen, so no PAM headers or libpam0g-dev are needed to build).
#ifndef CAUTHSHIMS_H
#define CAUTHSHIMS_H

#include <crypt.h>

#endif
