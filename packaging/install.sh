#!/bin/sh
# Installs (or uninstalls) idlewrap from a staged tree: the one `make stage`
# lays out under .build/stage, and the one a `make dist` tarball holds, so a
# server without a Swift toolchain installs exactly what `make install` does.
#
#   ./install.sh [install|uninstall]      in the tree's top directory
#
# Settings, from the environment (or make's command line):
#   PREFIX     where bin/ and share/ go (default /usr/local)
#   DESTDIR    a staging root prepended to every path (default: none)
#   PAMDIR     the PAM configuration directory (default /etc/pam.d; PAM reads
#              no other, whatever PREFIX is)
#   PAM_STYLE  debian, redhat or none (default: debian if /etc/pam.d holds
#              common-auth, else redhat if it holds system-auth, else none)
#
# /etc/idlewrap/config (under DESTDIR) gets the sample with every setting
# commented out, unless there is one; like the PAM file, it is never
# overwritten, and uninstall removes it only if it is unchanged.
set -eu

action=${1:-install}
tree=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
PAMDIR=${PAMDIR:-/etc/pam.d}
if [ -z "${PAM_STYLE:-}" ]; then
    if [ -e /etc/pam.d/common-auth ]; then PAM_STYLE=debian
    elif [ -e /etc/pam.d/system-auth ]; then PAM_STYLE=redhat
    else PAM_STYLE=none
    fi
fi

# source (in the tree) and destination (under DESTDIR and PREFIX), mode
files="
bin/idlewrap bin/idlewrap 755
share/man/man1/idlewrap.1 share/man/man1/idlewrap.1 644
share/bash-completion/completions/idlewrap share/bash-completion/completions/idlewrap 644
share/zsh/site-functions/_idlewrap share/zsh/site-functions/_idlewrap 644
share/fish/vendor_completions.d/idlewrap.fish share/fish/vendor_completions.d/idlewrap.fish 644
"
pam_target=$DESTDIR$PAMDIR/idlewrap
config_target=$DESTDIR/etc/idlewrap/config
ours=$DESTDIR$PREFIX/share/idlewrap

case $action in
install)
    echo "$files" | while read -r source target mode; do
        [ -n "$source" ] || continue
        if [ ! -e "$tree/$source" ]; then
            echo "install.sh: $source is not in this tree; skipped" >&2
            continue
        fi
        install -D -m "$mode" "$tree/$source" "$DESTDIR$PREFIX/$target"
        echo "installed $DESTDIR$PREFIX/$target"
    done
    case $PAM_STYLE in
    debian | redhat)
        if [ -e "$pam_target" ]; then
            # The site's own stack wins: never overwrite it.
            echo "kept the existing $pam_target"
        else
            install -D -m 644 "$tree/share/idlewrap/pam/idlewrap.$PAM_STYLE" "$pam_target"
            echo "installed $pam_target ($PAM_STYLE style)"
        fi
        ;;
    none)
        echo "install.sh: /etc/pam.d holds neither common-auth nor system-auth;" \
            "no PAM service file installed (set PAM_STYLE=debian or redhat, or see" \
            "$DESTDIR$PREFIX/share/idlewrap/pam)" >&2
        ;;
    *) echo "install.sh: PAM_STYLE must be debian, redhat or none" >&2; exit 2 ;;
    esac
    install -D -m 644 "$tree/share/idlewrap/pam/idlewrap.debian" "$ours/pam/idlewrap.debian"
    install -D -m 644 "$tree/share/idlewrap/pam/idlewrap.redhat" "$ours/pam/idlewrap.redhat"
    if [ -e "$config_target" ]; then
        echo "kept the existing $config_target"
    else
        install -D -m 644 "$tree/share/idlewrap/config" "$config_target"
        echo "installed $config_target (every setting commented out)"
    fi
    install -D -m 644 "$tree/share/idlewrap/config" "$ours/config"
    ;;
uninstall)
    echo "$files" | while read -r source target mode; do
        [ -n "$target" ] || continue
        rm -f "$DESTDIR$PREFIX/$target"
    done
    # A PAM file or configuration is removed only if it is still ours, unchanged.
    if [ -e "$pam_target" ]; then
        if cmp -s "$pam_target" "$ours/pam/idlewrap.debian" || cmp -s "$pam_target" "$ours/pam/idlewrap.redhat"; then
            rm -f "$pam_target"
        else
            echo "kept $pam_target: it was changed after installing" >&2
        fi
    fi
    if [ -e "$config_target" ]; then
        if cmp -s "$config_target" "$ours/config"; then
            rm -f "$config_target"
            rmdir "$DESTDIR/etc/idlewrap" 2>/dev/null || true
        else
            echo "kept $config_target: it was changed after installing" >&2
        fi
    fi
    rm -f "$ours/pam/idlewrap.debian" "$ours/pam/idlewrap.redhat" "$ours/config"
    rmdir "$ours/pam" "$ours" 2>/dev/null || true
    ;;
*)
    echo "usage: install.sh [install|uninstall]" >&2
    exit 2
    ;;
esac
