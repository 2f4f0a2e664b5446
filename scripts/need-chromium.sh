#!/usr/bin/env bash
# Makes sure headless Chromium and its chromedriver are installed: the operator console's browser
# tests (app, ConsoleBrowserTest) drive Debian's chromium through chromedriver with Selenium. When
# either is missing, installs Debian's chromium and chromium-driver packages as root or with
# passwordless sudo; otherwise fails saying what to install. The tests never skip.
set -euo pipefail

browser() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
        || command -v google-chrome >/dev/null 2>&1 || [ -x /usr/bin/chromium ]
}

driver() {
    command -v chromedriver >/dev/null 2>&1 || [ -x /usr/bin/chromedriver ]
}

if browser && driver; then
    exit 0
fi

echo "chromium or chromedriver is not installed; the console's browser tests need both. Installing them..." >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        SUDO="none"
    fi
    if [ "$SUDO" != "none" ]; then
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2
        if browser && driver; then
            echo "installed: $(chromedriver --version 2>/dev/null || echo chromedriver)" >&2
            exit 0
        fi
    fi
fi
echo "error: chromium and chromedriver are required by the tests and could not be installed here." >&2
echo "Install them, then run again: Debian: sudo apt-get install chromium chromium-driver;" \
    "Ubuntu: the chromium snap plus chromium-chromedriver; macOS: brew install --cask chromium chromedriver." >&2
echo "Elsewhere, point the tests at them: LANEWAY_CHROME=/path/to/chrome LANEWAY_CHROMEDRIVER=/path/to/chromedriver." >&2
exit 1
