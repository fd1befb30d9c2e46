#!/usr/bin/env bash
# The first command on a fresh machine: set it up (Samples/setup.sh: Swift 6.2 or later, and the C
# headers, installed where there is apt-get), build the release CLI, then walk through the
# samples: pack the sample lists, verify the result, look numbers up, and check that the packed
# file is the committed Samples/sample.calldir and unpacks to its listing. Everything it writes
# goes into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Samples/setup.sh
swift build -c release --product calldir >/dev/null
calldir="$(swift build -c release --show-bin-path)/calldir"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

"$calldir" pack --block Samples/blocklist.txt --identify Samples/callerid.csv -o "$out/sample.calldir"
"$calldir" verify --callkit "$out/sample.calldir"
"$calldir" lookup "$out/sample.calldir" "+1 (202) 555-0100" "+1 202 555 0110" "+44 20 7946 0100" "+1 202 555 0199"
"$calldir" lookup --json "$out/sample.calldir" "tel:+81-3-5555-0100"
"$calldir" info "$out/sample.calldir"
"$calldir" unpack "$out/sample.calldir" -o "$out/sample-listing.csv"
cmp "$out/sample.calldir" Samples/sample.calldir
cmp "$out/sample-listing.csv" Samples/sample-listing.csv
"$calldir" pack "$out/sample-listing.csv" -o "$out/repacked.calldir"
cmp "$out/repacked.calldir" Samples/sample.calldir
# Signing: a key pair, a signed and versioned copy, checked against the key; the unsigned one is refused.
"$calldir" keygen -o "$out/provider"
"$calldir" pack --block Samples/blocklist.txt --identify Samples/callerid.csv --list-version 1 \
  --sign "$out/provider.key" -o "$out/signed.calldir"
"$calldir" verify --trust "$out/provider.pub" --installed-version 1 "$out/signed.calldir"
if "$calldir" verify --trust "$out/provider.pub" "$out/sample.calldir" >/dev/null; then
  echo "samples: an unsigned file passed a check that requires a signature" >&2
  exit 1
fi
echo "samples: ok"
