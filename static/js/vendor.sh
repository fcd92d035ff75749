#!/usr/bin/env bash
# Fetches the front-end libraries listed in VENDORED.txt from the npm registry (`npm pack`), copies
# each file into static/js and prints its sha256 (to paste into VENDORED.txt when upgrading).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$here/VENDORED.txt" | while read -r file package inside _sha; do
  [ -n "$file" ] || continue
  (cd "$work" && rm -rf package && tarball="$(npm pack --silent "$package")" && tar xzf "$tarball")
  mkdir -p "$(dirname "$here/$file")" && cp "$work/$inside" "$here/$file"
  sha256sum "$here/$file"
done
