#!/usr/bin/env bash
# Installs the Debian packages the local stack and the build need, when any is missing; packages named as arguments
# (the test tools: chromium) too.
# Runs apt-get itself when it has the rights (root, or password-less sudo); otherwise prints
# the exact command to run and exits non-zero.
set -euo pipefail

packages=(
    postgresql
    rabbitmq-server
    librabbitmq-dev
    libcurl4-openssl-dev
    libssl-dev
    pkg-config
    curl
    prometheus
    python3-venv
    "$@"
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "kiwi: these Debian packages are missing: ${missing[*]}" >&2
    echo "kiwi: install them with:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

echo "kiwi: installing ${missing[*]}"
# Debian's postinst scripts would start system-wide PostgreSQL and RabbitMQ services; the local
# stack runs its own, so keep the package manager from starting daemons while installing.
policy=/usr/sbin/policy-rc.d
created_policy=false
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    created_policy=true
fi
cleanup() { if $created_policy; then "${sudo[@]}" rm -f "$policy"; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
