# Sourced by the .ci/steps scripts that install Debian packages (it is not
# a step: .ci/run runs only .ci/steps/*.sh).

# apt_install NAME PKG...: installs PKG... with apt-get, through sudo -n
# when not root, without standard input, logging to /tmp/NAME-apt.log. On
# failure it prints "NAME: FAIL" with the log's tail and returns 1 (a
# step under set -e stops there).
apt_install() {
  local name=$1 sudo=""
  shift
  local log=/tmp/$name-apt.log
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  echo "   installing $* (apt-get)"
  if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >"$log" 2>&1; then
    echo "$name: FAIL: apt-get update failed:"; tail -20 "$log"; return 1
  fi
  if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" </dev/null >>"$log" 2>&1; then
    echo "$name: FAIL: apt-get install $* failed:"; tail -20 "$log"; return 1
  fi
}
