#!/usr/bin/env bash
# Builds calldir with the Swift standard library linked in (--static-swift-stdlib: the binary
# needs no Swift runtime, only libc, libstdc++, zlib and on Linux libsodium and libmicrohttpd) and installs it with
# its manual page and shell completions:
#   PREFIX/bin/calldir
#   PREFIX/share/man/man1/calldir.1
#   PREFIX/share/bash-completion/completions/calldir
#   PREFIX/share/zsh/site-functions/_calldir
#   PREFIX/share/fish/vendor_completions.d/calldir.fish
# PREFIX is /usr/local unless set; DESTDIR, when set, is put before every path (for packagers:
# DESTDIR=/tmp/stage PREFIX=/usr bash Samples/install.sh). CALLDIR_BINARY=PATH installs that
# binary instead of building one (CI installs the one it built).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-/usr/local}"
root="${DESTDIR:-}$prefix"

if [ -n "${CALLDIR_BINARY:-}" ]; then
  binary="$CALLDIR_BINARY"
else
  bash Samples/setup.sh
  swift build -c release --static-swift-stdlib --product calldir
  binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/calldir"
fi

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/bin/calldir"
# The manual and completions come from the installed binary, so they match it.
"$root/bin/calldir" help --man >"$root/share/man/man1/calldir.1"
chmod 644 "$root/share/man/man1/calldir.1"
"$root/bin/calldir" completions bash >"$root/share/bash-completion/completions/calldir"
"$root/bin/calldir" completions zsh >"$root/share/zsh/site-functions/_calldir"
"$root/bin/calldir" completions fish >"$root/share/fish/vendor_completions.d/calldir.fish"
echo "installed $("$root/bin/calldir" --version | cut -d' ' -f1-2) into $root"
