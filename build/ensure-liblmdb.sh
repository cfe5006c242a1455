#!/bin/sh
# Makes sure the LMDB C library (liblmdb.so.0) that RavenLite's default engine binds to is installed.
# Run by the build of src/Storage (and by .ci/run). On Debian/Ubuntu as root it installs liblmdb0;
# elsewhere it says what to install.
set -u

have_lmdb() {
    for dir in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
        [ -e "$dir/liblmdb.so.0" ] && return 0
    done
    { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'liblmdb\.so\.0'
}

case "$(uname -s)" in
    Linux) ;;
    Darwin)
        [ -e /opt/homebrew/lib/liblmdb.dylib ] || [ -e /usr/local/lib/liblmdb.dylib ] && exit 0
        echo "RavenLite: LMDB C library not found; install it with: brew install lmdb" >&2
        exit 1 ;;
    *) exit 0 ;;
esac

have_lmdb && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "RavenLite: installing liblmdb0 (the LMDB C library) with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends liblmdb0 >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends liblmdb0 >/dev/null; }
    have_lmdb && exit 0
fi

echo "RavenLite: the LMDB C library (liblmdb.so.0) is missing. Install it: sudo apt-get install liblmdb0" \
     "(Fedora: sudo dnf install lmdb-libs; Alpine: apk add lmdb)" >&2
exit 1
