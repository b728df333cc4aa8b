# idlewrap: release build, install, uninstall, and a tarball for servers
# without a toolchain.
#
#   make                                  release build (portable, hardened)
#   make install [PREFIX=/usr] [DESTDIR=/tmp/root] [PAM_STYLE=debian|redhat|none]
#   make uninstall                        the same settings as install
#   make dist                             .build/idlewrap-VERSION-linux-ARCH.tar.gz
#
# install and dist share one staged tree (.build/stage) and one script
# (packaging/install.sh), so the tarball installs exactly what make install does.

PREFIX ?= /usr/local
DESTDIR ?=
PAMDIR ?= /etc/pam.d
PAM_STYLE ?=
SWIFT ?= swift

VERSION := $(shell sed -n 's/^ *static let number = "\(.*\)"/\1/p' Sources/idlewrap/Main/Version.swift)
ARCH := $(shell uname -m)
# The README's build, plus full RELRO and BIND_NOW for the executable. They
# are linker flags on the command line, not in Package.swift, so that the
# package stays usable as a dependency (SwiftPM refuses unsafe flags there).
# No RUNPATH ($ORIGIN): the Swift runtime is static, so nothing is to be found
# next to the binary, and ld.so would look there first for every library it
# loads, PAM's included (25 failed system calls at each start).
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now $(STATIC_LIBSTDCXX_FLAGS)

# The C++ runtime is linked statically where libstdc++'s archive is installed
# (g++ brings it on Debian and Ubuntu, libstdc++-static on RHEL), else shared,
# as the README's build does: nothing new is required. Loading libstdc++.so
# costs every start 1.7 M instructions (ld.so binding ~1 660 of libstdc++'s
# own symbols) and 0.6 MiB, for the two dozen functions the Swift runtime
# uses; libgcc_s.so another 0.09 M. The toolchain's clang finds the archive
# as it would find the library. swiftc links with whatever `-lstdc++` finds
# first, so a directory holding only a link to the archive goes first on its
# search path, and ld.lld (part of the toolchain) links: with --gc-sections it
# drops the references of archive members that nothing reaches (random.o's
# arc4random, GLIBC_2.36), which gold keeps, so the glibc floor stays where
# it is (.ci/check-release checks both).
SWIFT_CLANG := $(dir $(realpath $(shell command -v $(SWIFT))))clang
LIBSTDCXX_ARCHIVE := $(filter /%,$(shell $(SWIFT_CLANG) -print-file-name=libstdc++.a 2>/dev/null))
STATIC_LIBSTDCXX_DIR = .build/static-libstdc++
STATIC_LIBSTDCXX_TOOLSET = $(STATIC_LIBSTDCXX_DIR)/toolset.json
STATIC_LIBSTDCXX_FLAGS = $(if $(wildcard $(LIBSTDCXX_ARCHIVE)),--toolset $(STATIC_LIBSTDCXX_TOOLSET))
BIN = .build/release/idlewrap
STAGE = .build/stage
DIST_NAME = idlewrap-$(VERSION)-linux-$(ARCH)
DIST = .build/$(DIST_NAME).tar.gz

.PHONY: all release stage install uninstall dist clean FORCE

all: release

# SwiftPM knows what is stale; let it decide each time.
release: $(if $(STATIC_LIBSTDCXX_FLAGS),$(STATIC_LIBSTDCXX_TOOLSET))
	$(SWIFT) build $(RELEASE_FLAGS) --product idlewrap

$(STATIC_LIBSTDCXX_TOOLSET): FORCE
	mkdir -p $(STATIC_LIBSTDCXX_DIR)
	ln -sf $(LIBSTDCXX_ARCHIVE) $(STATIC_LIBSTDCXX_DIR)/libstdc++.a
	printf '{ "schemaVersion": "1.0",\n  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld", "-L%s",\n    "-Xclang-linker", "-static-libgcc"] } }\n' \
		"$(abspath $(STATIC_LIBSTDCXX_DIR))" >$@

# The installed tree, relative to PREFIX. The completions come from the
# binary's own option table (`idlewrap --completion SHELL`); a binary
# without that option stages none, and install.sh skips them.
stage: release
	rm -rf $(STAGE)
	install -D -m 755 $(BIN) $(STAGE)/bin/idlewrap
	install -D -m 644 man/idlewrap.1 $(STAGE)/share/man/man1/idlewrap.1
	install -D -m 644 packaging/pam/idlewrap.debian $(STAGE)/share/idlewrap/pam/idlewrap.debian
	install -D -m 644 packaging/pam/idlewrap.redhat $(STAGE)/share/idlewrap/pam/idlewrap.redhat
	install -m 755 packaging/install.sh $(STAGE)/install.sh
	install -m 644 README.md CHANGELOG.md $(STAGE)/
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
	rm -rf .build/$(DIST_NAME)
	cp -a $(STAGE) .build/$(DIST_NAME)
	tar -C .build -czf $(DIST) --owner=0 --group=0 $(DIST_NAME)
	rm -rf .build/$(DIST_NAME)
	@echo $(DIST)

clean:
	rm -rf $(STAGE) .build/idlewrap-*.tar.gz
