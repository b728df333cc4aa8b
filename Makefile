# idlewrap: release build, install, uninstall, and what ships: a tarball for
# servers without a toolchain, a .deb and an .rpm.
#
#   make                                  release build for this machine (hardened)
#   make install [PREFIX=/usr] [DESTDIR=/tmp/root] [PAM_STYLE=debian|redhat|none]
#   make uninstall                        the same settings as install
#   make dist                             OUT/idlewrap-VERSION-linux-ARCH.tar.gz
#   make deb                              OUT/idlewrap_VERSION_ARCH.deb (dpkg-deb)
#   make rpm                              OUT/idlewrap-VERSION-1.ARCH.rpm (rpmbuild)
#                                         (without SYSROOT= each name ends in
#                                         -host-glibc: this machine's floor only)
#   make check-hot-functions              the list of hot functions still names the binary's
#
#   sudo make sysroot                     once: a Debian 11 tree in .build/debian-11
#   make SYSROOT=.build/debian-11 dist deb rpm
#                                         the shipped build: runs on glibc 2.28 and
#                                         libxcrypt 4.1 or later (RHEL 8, Debian 11, ...)
#
# OUT is .build, or .build/portable with SYSROOT. install, dist, deb and rpm
# share one staged tree (OUT/stage); install and dist share one script
# (packaging/install.sh), so each installs exactly what make install does.

PREFIX ?= /usr/local
DESTDIR ?=
PAMDIR ?= /etc/pam.d
PAM_STYLE ?=
SWIFT ?= swift
SYSROOT ?=
SYSROOT_DIR = .build/debian-11
# The project has no address of its own for the packages' Maintainer either:
# MAINTAINER='Name <address>' names who answers for them, else the git identity
# of whoever builds (user.name, user.email), which make says; with neither, make
# deb and make rpm stop rather than make one up.
ifeq ($(origin MAINTAINER),undefined)
MAINTAINER := $(shell name=$$(git config user.name 2>/dev/null) && address=$$(git config user.email 2>/dev/null) && printf '%s <%s>' "$$name" "$$address")
MAINTAINER_WARNING = @echo "make: WARNING: no MAINTAINER given: $@ names the builder's git identity, $(MAINTAINER); make MAINTAINER='Name <address>' $@ names who answers for it" >&2
endif
# The project has no web address of its own yet: the packages name the clone's
# origin when it is one on the web (git@host:path as https://host/path), and
# none otherwise, which make says; HOMEPAGE= gives the real one.
HOMEPAGE ?= $(shell git remote get-url origin 2>/dev/null | sed -n -e 's,\.git$$,,' -e 's,^git@\([^:]*\):,https://\1/,' -e '/^https:\/\//p')

VERSION := $(shell sed -n 's/^ *static let number = "\(.*\)"/\1/p' Sources/idlewrap/Main/Version.swift)
ARCH := $(shell uname -m)
# Dates in packages: the last commit's, so that a build is reproducible.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH

# The README's build, plus the link below: full RELRO and BIND_NOW for the
# executable on make's command line, the rest in a toolset file make writes
# (docs/packaging.md). Package.swift says none of it: what ships is tuned and
# hardened, a developer's build is the toolchain's.
# No RUNPATH ($ORIGIN): the Swift runtime is static, so nothing is to be found
# next to the binary, and ld.so would look there first for every library it
# loads, PAM's included (25 failed system calls at each start).
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(OUT) \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now --toolset $(TOOLSET)

# The tuned link (docs/packaging.md, "The link"): libstdc++ and libgcc
# static where the toolchain's clang finds libstdc++.a (a link to the archive
# in STATIC_LIBSTDCXX_DIR is what swiftc's -lstdc++ finds first), linked by
# ld.lld, whose --gc-sections drops what unused archive members refer to
# (.ci/check-release checks the symbol versions).
SWIFT_CLANG := $(dir $(realpath $(shell command -v $(SWIFT))))clang
LIBSTDCXX_ARCHIVE := $(filter /%,$(shell $(SWIFT_CLANG) -print-file-name=libstdc++.a 2>/dev/null))
STATIC_LIBSTDCXX_DIR = .build/static-libstdc++
STATIC_LIBSTDCXX_FLAGS = "-L$(abspath $(STATIC_LIBSTDCXX_DIR))", "-Xclang-linker", "-static-libgcc",

# The functions that run at start and while relaying output first in the
# text, each function in a section of its own (every module's, C included).
# Names not in the binary are skipped, so a stale list costs memory, never a
# build: make check-hot-functions (which .ci/check-release runs) fails when
# fewer than HOT_FUNCTIONS_FOUND in a hundred are left.
# The list is no prerequisite SwiftPM sees: a newer one removes the binary, so
# that it is linked again. Nor does SwiftPM recompile for a changed toolset:
# a build directory from before these flags needs `rm -rf .build/portable`
# (or .build/x86_64-unknown-linux-gnu/release) once.
HOT_FUNCTIONS = packaging/portable/hot-functions.txt
HOT_FUNCTIONS_FLAGS = "-use-ld=lld", "-Xfrontend", "-function-sections", \
	"-Xlinker", "--symbol-ordering-file=$(abspath $(HOT_FUNCTIONS))", "-Xlinker", "--no-warn-symbol-ordering"
HOT_FUNCTIONS_FOUND = 90

# Concrete generic types (a Dictionary keyed by String, a Result of PTYError)
# through their metadata accessors, which take the conformances as the compiler
# knows them, instead of by mangled name, which the runtime decodes and whose
# conformances it finds by scanning every conformance record in the binary, once
# for each type and protocol: 0.8 M instructions of each start.
METADATA_FLAGS = "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",

# The shipped build (SYSROOT=): one binary for every distribution with glibc
# 2.28 and libxcrypt 4.1 or later (RHEL 8 and 9 and their rebuilds, Amazon
# Linux 2023, Debian 11, Ubuntu 20.04 and later, SLES 15 SP3 and later). A
# binary needs the glibc it was linked against or a newer one, and this
# machine's is newer than RHEL 8's, so the Swift and C code is compiled and
# linked against Debian 11's headers and libraries instead (glibc 2.31,
# libxcrypt 4.4; `make sysroot` makes the tree with debootstrap), with:
# - the host's static libstdc++ (Debian 11's GCC 10 lacks what this Swift
#   runtime was compiled against), which needs __libc_single_threaded (glibc
#   2.32): packaging/portable/glibc-compat.c defines it, hidden;
# - Debian 11's libgcc, whose static unwinder walks the loaded objects with
#   dl_iterate_phdr, not GLIBC_2.35's _dl_find_object as the host's does;
# - exp, exp2, log, log2 and pow (GLIBC_2.29 in Debian 11's libm, used by the
#   Swift runtime) bound to their older versions, by glibc-compat.c;
# - nothing newer than libxcrypt 4.1 linked: crypt_checksalt (4.3) and
#   glibc 2.34's closefrom spawn action are looked up at run time;
# - no libutil.so.1: Swift's Glibc module asks for -lutil (openpty, forkpty),
#   which idlewrap does not call, so an empty libutil.a found first keeps it
#   from being loaded at each start (0.08 M instructions);
# What it still needs is at most GLIBC_2.27 (expf, exp2f, logf, log2f, powf)
# and XCRYPT_2.0 (readelf -V); .ci/check-release fails on anything above
# GLIBC_2.28 or libxcrypt 4.1, and .ci/check-old-distribution runs it on Debian 11.
ifeq ($(SYSROOT),)
OUT = .build
# This machine's glibc floor (Depends: libc6 (>= 2.35) here), not the shipped
# one: named apart, so that it cannot be published by mistake for the portable
# files, and said loudly.
NAME_SUFFIX = -host-glibc
HOST_BUILD_WARNING = @echo "make: WARNING: built without SYSROOT= for this machine's glibc only; named *$(NAME_SUFFIX)*; do not publish (the shipped build: make SYSROOT=$(SYSROOT_DIR) $@)" >&2
else
OUT = .build/portable
SYSROOT_PATH = $(abspath $(SYSROOT))
COMPAT_OBJECT = $(OUT)/glibc-compat.o
LINK_DIR = $(OUT)/link
endif
ifeq ($(HOMEPAGE),)
NO_HOMEPAGE_WARNING = @echo "make: WARNING: no HOMEPAGE (no web address for origin): $@ names none; make HOMEPAGE=https://... $@ names one" >&2
endif
TOOLSET = $(OUT)/toolset.json
BIN = $(OUT)/release/idlewrap
STAGE = $(OUT)/stage
DIST_NAME = idlewrap-$(VERSION)-linux-$(ARCH)
DIST = $(OUT)/$(DIST_NAME)$(NAME_SUFFIX).tar.gz

.PHONY: all release check-hot-functions stage install uninstall dist deb rpm maintainer sysroot clean FORCE

all: release

# SwiftPM knows what is stale; let it decide each time.
release: $(TOOLSET)
	$(SWIFT) build $(RELEASE_FLAGS) --product idlewrap

# The hot functions' names the binary defines (nm), against the whole list.
check-hot-functions: release
	@total=$$(grep -c . $(HOT_FUNCTIONS)); \
	found=$$(nm --defined-only $(BIN) | awk 'NR == FNR { hot[$$0]; next } $$NF in hot && !seen[$$NF]++ { n++ } END { print n + 0 }' \
		$(HOT_FUNCTIONS) -); \
	if [ $$((found * 100)) -lt $$((total * $(HOT_FUNCTIONS_FOUND))) ]; then \
		echo "make: $(BIN) defines $$found of the $$total functions in $(HOT_FUNCTIONS), under $(HOT_FUNCTIONS_FOUND) %:" \
			"the list is stale; write it again with packaging/portable/hot-functions $(BIN)" >&2; exit 1; \
	fi; \
	echo "$(BIN) defines $$found of the $$total functions in $(HOT_FUNCTIONS)"

ifeq ($(SYSROOT),)
# This machine's build: libstdc++ static where its archive is installed.
$(OUT)/toolset.json: FORCE
	mkdir -p $(STATIC_LIBSTDCXX_DIR)
	$(if $(wildcard $(LIBSTDCXX_ARCHIVE)),ln -sf $(LIBSTDCXX_ARCHIVE) $(STATIC_LIBSTDCXX_DIR)/libstdc++.a,rm -f $(STATIC_LIBSTDCXX_DIR)/libstdc++.a)
	test ! $(HOT_FUNCTIONS) -nt $(BIN) || rm -f $(BIN)
	printf '{ "schemaVersion": "1.0",\n  "swiftCompiler": { "extraCLIOptions": [%s\n    %s] },\n  "cCompiler": { "extraCLIOptions": ["-ffunction-sections"] } }\n' \
		'$(if $(wildcard $(LIBSTDCXX_ARCHIVE)),$(STATIC_LIBSTDCXX_FLAGS))' '$(METADATA_FLAGS) $(HOT_FUNCTIONS_FLAGS)' >$@
else
$(OUT)/toolset.json: $(COMPAT_OBJECT) FORCE
	@test -e $(SYSROOT)/usr/include/stdio.h -a -e $(SYSROOT)/usr/include/crypt.h || \
		{ echo "make: SYSROOT=$(SYSROOT) holds no C library headers; make one with: sudo make sysroot" >&2; exit 1; }
	@test -n "$(LIBSTDCXX_ARCHIVE)" || \
		{ echo "make: the shipped build links libstdc++ statically, and $(SWIFT_CLANG) finds no libstdc++.a (install g++)" >&2; exit 1; }
	mkdir -p $(STATIC_LIBSTDCXX_DIR) $(LINK_DIR)
	ln -sf $(LIBSTDCXX_ARCHIVE) $(STATIC_LIBSTDCXX_DIR)/libstdc++.a
	rm -f $(LINK_DIR)/libutil.a && ar rcs $(LINK_DIR)/libutil.a
	test ! $(HOT_FUNCTIONS) -nt $(BIN) || rm -f $(BIN)
	printf '{ "schemaVersion": "1.0",\n  "swiftCompiler": { "extraCLIOptions": ["-sysroot", "%s", "-L%s", %s\n    %s, "-Xlinker", "%s"] },\n  "cCompiler": { "extraCLIOptions": ["--sysroot=%s", "-ffunction-sections"] } }\n' \
		'$(SYSROOT_PATH)' '$(abspath $(LINK_DIR))' '$(STATIC_LIBSTDCXX_FLAGS)' '$(METADATA_FLAGS) $(HOT_FUNCTIONS_FLAGS)' '$(abspath $(COMPAT_OBJECT))' '$(SYSROOT_PATH)' >$@

# SwiftPM does not see this object change, so the binary goes with it.
$(COMPAT_OBJECT): packaging/portable/glibc-compat.c
	mkdir -p $(OUT)
	$(SWIFT_CLANG) --sysroot=$(SYSROOT_PATH) -O2 -fPIC -ffunction-sections -fdata-sections -fno-builtin \
		-Wall -Wextra -Werror -c $< -o $@
	rm -f $(BIN)
endif

# Debian 11 (bullseye): glibc 2.31 and libxcrypt 4.4 headers and libraries to
# build against, and the oldest userland .ci/check-old-distribution runs the
# shipped binary in. Needs root and debootstrap; made once, then kept.
sysroot:
	packaging/portable/make-sysroot $(SYSROOT_DIR)

# The installed tree, relative to PREFIX, stripped. The completions come from
# the binary's own option table (`idlewrap --completion SHELL`); a binary
# without that option stages none, and install.sh skips them. The system
# configuration file is the sample with every setting commented out, so that
# installing it changes nothing.
stage: release
	rm -rf $(STAGE)
	install -D -m 755 $(BIN) $(STAGE)/bin/idlewrap
	strip --strip-unneeded --remove-section=.comment $(STAGE)/bin/idlewrap
	install -D -m 644 man/idlewrap.1 $(STAGE)/share/man/man1/idlewrap.1
	install -D -m 644 packaging/pam/idlewrap.debian $(STAGE)/share/idlewrap/pam/idlewrap.debian
	install -D -m 644 packaging/pam/idlewrap.redhat $(STAGE)/share/idlewrap/pam/idlewrap.redhat
	{ cat packaging/config.head && sed '1,/^$$/d; s/^\([a-z]\)/#\1/' etc/config.sample; } \
		>$(STAGE)/share/idlewrap/config
	chmod 644 $(STAGE)/share/idlewrap/config
	install -m 755 packaging/install.sh $(STAGE)/install.sh
	install -m 644 README.md CHANGELOG.md LICENSE $(STAGE)/
	if $(BIN) --completion bash >/dev/null 2>&1; then \
		mkdir -p $(STAGE)/share/bash-completion/completions $(STAGE)/share/zsh/site-functions \
			$(STAGE)/share/fish/vendor_completions.d && \
		$(BIN) --completion bash >$(STAGE)/share/bash-completion/completions/idlewrap && \
		$(BIN) --completion zsh >$(STAGE)/share/zsh/site-functions/_idlewrap && \
		$(BIN) --completion fish >$(STAGE)/share/fish/vendor_completions.d/idlewrap.fish; \
	else \
		echo "make: $(BIN) has no --completion option yet; no completions staged" >&2; \
	fi

install: stage
	PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' PAMDIR='$(PAMDIR)' PAM_STYLE='$(PAM_STYLE)' \
		sh $(STAGE)/install.sh install

uninstall:
	PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' PAMDIR='$(PAMDIR)' PAM_STYLE=none \
		sh packaging/install.sh uninstall

dist: stage
	rm -rf $(OUT)/$(DIST_NAME)
	cp -a $(STAGE) $(OUT)/$(DIST_NAME)
	tar -C $(OUT) -czf $(DIST) --owner=0 --group=0 --mtime=@$(SOURCE_DATE_EPOCH) $(DIST_NAME)
	rm -rf $(OUT)/$(DIST_NAME)
	@echo $(DIST)
	$(HOST_BUILD_WARNING)

# Before anything is built: the packages must name someone.
maintainer:
	@test -n '$(MAINTAINER)' || { echo "make: the packages need a maintainer: make MAINTAINER='Name <address>' (git has no user.name and user.email to name either)" >&2; exit 1; }

# Both packages are made from the staged tree by scripts in packaging/ (see
# docs/packaging.md for what each puts where).
deb: maintainer stage
	VERSION='$(VERSION)' MAINTAINER='$(MAINTAINER)' HOMEPAGE='$(HOMEPAGE)' SYSROOT='$(SYSROOT_PATH)' \
		NAME_SUFFIX='$(NAME_SUFFIX)' sh packaging/deb/build $(STAGE) $(OUT)
	$(HOST_BUILD_WARNING)
	$(NO_HOMEPAGE_WARNING)
	$(MAINTAINER_WARNING)

rpm: maintainer stage
	VERSION='$(VERSION)' MAINTAINER='$(MAINTAINER)' HOMEPAGE='$(HOMEPAGE)' NAME_SUFFIX='$(NAME_SUFFIX)' \
		sh packaging/rpm/build $(STAGE) $(OUT)
	$(HOST_BUILD_WARNING)
	$(NO_HOMEPAGE_WARNING)
	$(MAINTAINER_WARNING)

clean:
	rm -rf .build/stage .build/idlewrap-* .build/idlewrap_* .build/portable
