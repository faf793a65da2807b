#!/usr/bin/env bash
# swift-format over every Swift file of the package, with the settings in .swift-format (Hummingbird's: 4 spaces,
# 150 columns, ordered imports).
#   format.sh lint    fail, listing each place, when any file is not formatted (make test and CI run this)
#   format.sh fix     rewrite the files in place (make format)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$KIWI_ROOT"
command -v swift >/dev/null 2>&1 || die "swift is not on PATH"
sources=(Package.swift Services Shared Tools Tests)
case "${1:-}" in
    lint) swift format lint --strict --recursive --parallel "${sources[@]}" || die "the code is not formatted: run \`make format\`" ;;
    fix) swift format --in-place --recursive --parallel "${sources[@]}" ;;
    *) die "usage: format.sh lint|fix" ;;
esac
