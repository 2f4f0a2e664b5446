#!/usr/bin/env bash
# Makes sure headless Chromium and its chromedriver are installed: the operator console's browser
# tests (app, ConsoleBrowserTest) drive Debian's chromium through chromedriver with Selenium. When
# either is missing, installs Debian's chromium and chromium-driver packages as root or with
# passwordless sudo; otherwise fails saying what to install. The tests never skip.
set -euo pipefail
. "$(dirname "$0")/apt-install.sh"

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
if laneway_apt_install chromium chromium-driver; then
    if browser && driver; then
        echo "installed: $(chromedriver --version 2>/dev/null || echo chromedriver)" >&2
        exit 0
    fi
fi
echo "error: chromium and chromedriver are required by the tests and could not be installed here." >&2
echo "Install them, then run again: Debian: sudo apt-get install chromium chromium-driver;" \
    "Ubuntu: the chromium snap plus chromium-chromedriver; macOS: brew install --cask chromium chromedriver." >&2
echo "Elsewhere, point the tests at them: LANEWAY_CHROME=/path/to/chrome LANEWAY_CHROMEDRIVER=/path/to/chromedriver." >&2
exit 1
