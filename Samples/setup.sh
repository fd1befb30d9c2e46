#!/usr/bin/env bash
# Makes a machine ready to build calldir: checks for Swift 6.2 or later, and installs the C
# headers the package's system-library targets need when they are missing, with apt-get where
# there is apt-get (as root, or through sudo); elsewhere it says what to install and exits 1.
#   zlib      (CZlib: the format's deflate blocks)            Debian zlib1g-dev,    Fedora zlib-devel
#   libsodium (CSodium: SHA-256 and Ed25519, Linux only)      Debian libsodium-dev, Fedora libsodium-devel
#   SQLite    (CSQLite: a peer the benchmark measures)        Debian libsqlite3-dev, Fedora sqlite-devel
#   libmicrohttpd (CMicroHTTPD: calldir serve, Linux only)    Debian libmicrohttpd-dev, Fedora libmicrohttpd-devel
# On macOS the SDK has zlib and SQLite, CryptoKit stands in for libsodium, and serve is not built:
# nothing to install.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: swift is not on PATH; calldir needs Swift 6.2 or later: https://www.swift.org/install" >&2
  exit 1
fi
version="$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p' | head -n 1)"
read -r major minor <<<"${version:-0 0}"
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 2 ]; }; then
  echo "setup: calldir needs Swift 6.2 or later, and this is $(swift --version 2>&1 | head -n 1):" \
    "https://www.swift.org/install" >&2
  exit 1
fi

[ "$(uname -s)" = "Darwin" ] && exit 0

# Whether the C compiler finds HEADER, wherever the system keeps its headers.
has_header() {
  if command -v clang >/dev/null 2>&1; then
    printf '#include <%s>\n' "$1" | clang -E -x c - >/dev/null 2>&1
  else
    [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]
  fi
}

missing_debian=()
missing_fedora=()
has_header zlib.h || { missing_debian+=(zlib1g-dev); missing_fedora+=(zlib-devel); }
has_header sodium.h || { missing_debian+=(libsodium-dev); missing_fedora+=(libsodium-devel); }
has_header sqlite3.h || { missing_debian+=(libsqlite3-dev); missing_fedora+=(sqlite-devel); }
has_header microhttpd.h || { missing_debian+=(libmicrohttpd-dev); missing_fedora+=(libmicrohttpd-devel); }
[ ${#missing_debian[@]} -eq 0 ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup: missing ${missing_debian[*]}; run as root: apt-get install ${missing_debian[*]}" >&2
      exit 1
    fi
  fi
  echo "setup: installing ${missing_debian[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing_debian[@]}" >/dev/null
  exit 0
fi

echo "setup: the C headers of ${missing_debian[*]} are missing. Install them, then run this again:" >&2
echo "  Debian, Ubuntu:  sudo apt-get install ${missing_debian[*]}" >&2
echo "  Fedora, RHEL:    sudo dnf install ${missing_fedora[*]}" >&2
echo "  macOS:           nothing (the SDK has them)" >&2
exit 1
