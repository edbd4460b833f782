#!/bin/sh
# SPDX-License-Identifier: MIT
# chroot.sh - the README's two commands on a truly fresh machine.
#
#   sh tests/chroot.sh [DIR]        (as root; make chroot-test)
#
# Builds a minimal Debian 12 in DIR (default: a new directory under
# /var/tmp) with `debootstrap --variant=minbase bookworm`, copies a clean
# clone of the current branch into it (committed files only: what a
# newcomer gets), mounts /proc, /sys, /dev, /dev/pts and /dev/shm, and runs
# `./run demo`, then `./run test`, inside it as root.  Everything is
# unmounted on the way out, whatever happens, and DIR is removed unless
# SEGC_CHROOT_KEEP=1.  Prints PASS or FAIL for each command (logs in
# DIR.log/) and exits 0 only if both passed.
#
# debootstrap is installed with apt-get if missing; the Debian mirror is
# the one apt already uses (SEGC_MIRROR=URL overrides it).  The downloaded
# .debs are kept in $SEGC_TEST_CACHE/debootstrap (default
# ~/.cache/segc/debootstrap) to save the next run the download; the system
# itself is installed from scratch every time.
#
# Each command prints how many packages apt-get was asked for, how many it
# installed with their dependencies, and their installed and downloaded
# sizes.  SEGC_CHROOT_RUN=demo runs only `./run demo`.
#
# SEGC_CHROOT_KEEP=1 SEGC_CHROOT_REUSE=1 sh tests/chroot.sh DIR retries in
# a DIR an earlier run kept, without a new debootstrap (not a fresh
# machine any more: only for checking a fix).
#
# Not part of `make test`: it takes a while and needs root and the mirror.
# Run it before changing anything about set-up or dependencies.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
top=$(pwd)

if [ "$(id -u)" != 0 ]; then
    echo "chroot.sh: debootstrap, mount and chroot need root" >&2
    exit 2
fi
if ! have debootstrap; then
    echo "chroot.sh: installing debootstrap" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null || exit 2
fi

# The first Debian archive apt is configured with (not the security one).
mirror() {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        sed -n -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([a-z]*:\/\/[^ ]*\) .*/\2/p' -e 's/^URIs: *\([^ ]*\).*/\1/p' |
        grep -v security | head -n 1
}
MIRROR=${SEGC_MIRROR:-$(mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

DIR=${1:-$(mktemp -d /var/tmp/segc-chroot.XXXXXX)}
DIR=$(abspath "$DIR")
LOGS=$DIR.log
mkdir -p "$DIR" "$LOGS"
case $DIR in /) echo "chroot.sh: refusing DIR=/" >&2; exit 2 ;; esac

mounted=""
unmount_all() {
    for m in $mounted; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
    mounted=""
}
cleanup() {
    unmount_all
    if grep -q " $DIR/" /proc/mounts; then
        echo "chroot.sh: something is still mounted under $DIR; not removing it" >&2
    elif [ "${SEGC_CHROOT_KEEP:-}" != 1 ]; then
        rm -rf --one-file-system "$DIR"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# mount_in TARGET ARGS...: mounts and remembers it, innermost first for
# umount.  Made a slave mount, so nothing mounted or unmounted below it in
# the chroot reaches the host's /dev.
mount_in() {
    t=$DIR$1
    shift
    mkdir -p "$t"
    mount "$@" "$t" || exit 2
    mounted="$t $mounted"
    mount --make-rslave "$t" || exit 2
}

echo "== debootstrap --variant=minbase bookworm $DIR $MIRROR"
cache=$(segc_cache)/debootstrap
mkdir -p "$cache"
if [ "${SEGC_CHROOT_REUSE:-}" = 1 ] && [ -x "$DIR/usr/bin/apt-get" ]; then
    # What an earlier run kept (SEGC_CHROOT_KEEP=1), with the packages it
    # installed: no longer a fresh machine, only for retrying after a fix.
    echo "   (reusing $DIR as SEGC_CHROOT_REUSE=1 asks)"
    rm -rf "$DIR/root/segc"
elif ! debootstrap --variant=minbase --cache-dir="$cache" bookworm "$DIR" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1; then
    tail -n 20 "$LOGS/debootstrap.log"
    echo "FAIL debootstrap (log: $LOGS/debootstrap.log)"
    exit 1
fi
cp /etc/resolv.conf "$DIR/etc/resolv.conf"
# The site's own CA certificates (a proxy that inspects TLS, say) come
# along, as they would on any machine of this network, so that npm can
# reach its registry from the chroot as it does from here.
cas=$(ls /usr/local/share/ca-certificates/*.crt 2>/dev/null)
if [ -n "$cas" ]; then
    # shellcheck disable=SC2086
    cat $cas >"$DIR/etc/segc-site-ca.crt"
    site_ca="NODE_EXTRA_CA_CERTS=/etc/segc-site-ca.crt"
else
    site_ca=""
fi
# No service starts inside the chroot while packages are installed, and
# dpkg does not sync every file it unpacks (the chroot is thrown away).
printf '#!/bin/sh\nexit 101\n' >"$DIR/usr/sbin/policy-rc.d"
chmod 755 "$DIR/usr/sbin/policy-rc.d"
echo force-unsafe-io >"$DIR/etc/dpkg/dpkg.cfg.d/segc-unsafe-io"

branch=$(git rev-parse --abbrev-ref HEAD)
echo "== a clean clone of $branch ($(git rev-parse --short HEAD)) in /root/segc"
git clone --quiet --no-local --branch "$branch" "$top" "$DIR/root/segc" || exit 2

mount_in /proc -t proc proc
mount_in /sys -t sysfs sysfs
mount_in /dev --bind /dev
mount_in /dev/pts --bind /dev/pts
mount_in /dev/shm -t tmpfs -o mode=1777 tmpfs

# in_chroot LOG COMMAND: COMMAND run in /root/segc by a login-less root
# shell with a clean environment.
in_chroot() {
    log=$1
    shift
    chroot "$DIR" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb $site_ca \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c "cd /root/segc && $*" >"$LOGS/$log" 2>&1
}

# installed: the chroot's Debian packages and the sum of their
# Installed-Size (KiB), as "COUNT KIB".
installed() {
    chroot "$DIR" dpkg-query -W -f '${db:Status-Abbrev} ${Installed-Size}\n' |
        awk '$1 == "ii" { n++; k += $2 } END { print n, k }'
}
# downloaded: the .debs apt fetched so far, in KiB.
downloaded() { du -sk "$DIR/var/cache/apt/archives" | cut -f1; }

status=0
set -- $(installed)
echo "   minimal Debian 12: $1 packages, $(($2 / 1024)) MiB installed"
for cmd in ${SEGC_CHROOT_RUN:-demo test}; do
    echo "== ./run $cmd (log: $LOGS/$cmd.log)"
    set -- $(installed) "$(downloaded)"
    n0=$1 k0=$2 d0=$3
    start=$(date +%s)
    if in_chroot "$cmd.log" "./run $cmd"; then
        echo "PASS ./run $cmd in a minimal Debian 12 chroot ($(($(date +%s) - start))s): $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGS/$cmd.log" | tail -n 1)"
    else
        tail -n 30 "$LOGS/$cmd.log"
        echo "FAIL ./run $cmd in a minimal Debian 12 chroot ($(($(date +%s) - start))s)"
        status=1
    fi
    asked=$(sed -n 's/^segc: apt-get install //p' "$LOGS/$cmd.log" | wc -w)
    set -- $(installed) "$(downloaded)"
    echo "   ./run $cmd asked apt-get for $asked packages; $(($1 - n0)) were installed" \
        "($(((($2 - k0) + 512) / 1024)) MiB installed, $(((($3 - d0) + 512) / 1024)) MiB downloaded)"
done
exit $status
