#!/usr/bin/env bash
# Makes sure redis-server is installed: the Redis store's tests (store-redis, app) start their own
# throwaway server on a free port. When it is missing, installs Debian's redis-server package as
# root or with passwordless sudo; otherwise fails saying what to install. The tests never skip.
# Installing does not leave a server running for the tests: they start and stop their own.
set -euo pipefail
. "$(dirname "$0")/apt-install.sh"

found() {
    command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || [ -x /usr/sbin/redis-server ] \
        || [ -x /usr/local/bin/redis-server ]
}

if found; then
    exit 0
fi

echo "redis-server is not installed; the Redis store's tests need it. Installing it..." >&2
if laneway_apt_install redis-server; then
    # Debian starts the packaged service where systemd runs; the tests do not use it (they never touch 6379).
    if found; then
        echo "redis-server installed: $(redis-server --version 2>/dev/null || echo /usr/bin/redis-server)" >&2
        exit 0
    fi
fi
echo "error: redis-server is required by the tests and could not be installed here." >&2
echo "Install it, then run again: Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis." >&2
exit 1
