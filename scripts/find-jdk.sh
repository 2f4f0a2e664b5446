# Sourced by ./laneway, ./run-tests and .ci/run. Finds a JDK 21 or newer and exports JAVA_HOME.
# Looks, in order, at $JAVA_HOME, the javac on PATH, and every JDK under /usr/lib/jvm and
# /opt; the newest suitable one wins when several are installed there.

laneway_jdk_version() {
  # Prints the feature version (17, 21, 25, ...) of the JDK at $1, or nothing.
  local home="$1"
  [ -x "$home/bin/javac" ] && [ -x "$home/bin/java" ] || return 0
  "$home/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

laneway_find_jdk() {
  local want=21 candidate version best="" best_version=0
  if [ -n "${JAVA_HOME:-}" ]; then
    version=$(laneway_jdk_version "$JAVA_HOME")
    if [ -n "$version" ] && [ "$version" -ge "$want" ]; then
      export JAVA_HOME; return 0
    fi
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    version=$(laneway_jdk_version "$candidate")
    if [ -n "$version" ] && [ "$version" -ge "$want" ]; then
      export JAVA_HOME="$candidate"; return 0
    fi
  fi
  for candidate in /usr/lib/jvm/* /opt/*jdk* /opt/java/*; do
    [ -d "$candidate" ] || continue
    version=$(laneway_jdk_version "$candidate")
    if [ -n "$version" ] && [ "$version" -ge "$want" ] && [ "$version" -gt "$best_version" ]; then
      best="$candidate"; best_version="$version"
    fi
  done
  if [ -n "$best" ]; then
    export JAVA_HOME="$best"; return 0
  fi
  cat >&2 <<'MSG'
laneway: no JDK 21 or newer found (looked at $JAVA_HOME, javac on PATH, /usr/lib/jvm, /opt).
Install one, for example:
  Debian/Ubuntu:  sudo apt-get install openjdk-21-jdk   (or temurin-21-jdk from adoptium.net)
  macOS:          brew install openjdk@21
then run this command again, or point JAVA_HOME at it.
MSG
  return 1
}
