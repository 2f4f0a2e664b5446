# Sourced by scripts/need-redis.sh and scripts/need-chromium.sh. laneway_apt_install PACKAGE...
# installs Debian packages as root or with passwordless sudo; it returns 1, having installed
# nothing, where there is no apt-get or no way to become root, so the caller says what to install.
laneway_apt_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    local sudo
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        return 1
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}
