#!/usr/bin/env bash
# Builds the .deb (cpack in build/) and installs it with apt in a brand-new minimal Debian 12 root, as a user would:
# then, inside that root and from `/`, `ptx2glsl --version`, `ptx2glsl run` of ptx_corpus/ops/sfu_user_check (the
# SFU tables come from /usr/share/ptx2glsl) and of a case from a folder with no tables, after which the root is
# unmounted and deleted. Needs root and the Debian mirror this machine uses; not part of ctest (docs/PACKAGING.md).
#   usage: tests/package/check_deb.sh [DEB]   (default: build the package in build/ and use it)
#   env:   FRESH_ROOT_CACHE  the pristine root tarball (default <tmp>/fresh-root.tar, the one
#                            ../shared/tools/fresh-machine-check makes; made here with debootstrap when absent)
# Prints each step's output and time; exit status 0 only when every step passed.
set -u
cd "$(dirname "$0")/../.."
repo=$PWD
[ "$(id -u)" = 0 ] || { echo "check_deb.sh: needs root (chroot, mount)"; exit 2; }
tmp=${TMPDIR:-/tmp}
cache=${FRESH_ROOT_CACHE:-$tmp/fresh-root.tar}
deb=${1:-}
if [ -z "$deb" ]; then
  bash tests/install_deps.sh --package || exit 1
  { [ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo; } &&
    cmake --build build -j "$(nproc)" && (cd build && cpack -G DEB) || { echo "check_deb.sh: building the .deb failed"; exit 1; }
  deb=$(ls -t build/ptx2glsl_*.deb | head -1)
fi
[ -f "$deb" ] || { echo "check_deb.sh: no package at '$deb'"; exit 2; }
echo "== package $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb -I "$deb" | grep -E '^ (Package|Version|Architecture|Depends|Installed-Size):'
dpkg-deb -c "$deb" | awk '{print "   ", $6}'

work=$(mktemp -d "$tmp/p2g-deb-check.XXXXXX")
root=$work/root
cleanup() {
  for m in dev/pts dev sys proc; do umount -l "$root/$m" 2>/dev/null; done
  # only remove the root once nothing is mounted in it any more
  if ! grep -q " $root/" /proc/mounts; then rm -rf "$work"; else echo "check_deb.sh: $root still has mounts, left in place"; fi
}
trap cleanup EXIT
mkdir -p "$root"
if [ ! -s "$cache" ]; then
  command -v debootstrap >/dev/null || { apt-get update -q >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; }
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null)
  [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  echo "== building a minimal Debian 12 root (once; cached in $cache)"
  debootstrap --variant=minbase bookworm "$work/boot" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; exit 2; }
  tar -C "$work/boot" -cf "$cache" . && rm -rf "$work/boot"
fi
tar -C "$root" -xf "$cache"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null && rm -f "$root/etc/apt/sources.list"
mount -t proc proc "$root/proc"; mount --rbind /sys "$root/sys"; mount --rbind /dev "$root/dev"
mkdir -p "$root/root/check"
cp "$deb" "$root/root/check/"
cp -r ptx_corpus/ops/sfu_user_check "$root/root/check/"
fail=0
step() {  # step NAME COMMAND: runs COMMAND in the fresh root, from /
  local name=$1 start rc
  shift
  echo "== $name: $*"
  start=$(date +%s)
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -c "cd / && $*" 2>&1 | tail -n "${TAIL:-25}" | sed 's/^/    /'
  rc=${PIPESTATUS[0]}
  echo "   $name: exit $rc after $(( $(date +%s) - start )) s"
  [ "$rc" = 0 ] || fail=1
}
TAIL=3 step "apt-get update" apt-get update -q
TAIL=6 step "install" apt-get install -y -q ./root/check/$(basename "$deb")
step "version" ptx2glsl --version
step "files" "ls -l \$(command -v ptx2glsl) /usr/share/ptx2glsl"
step "run from /" ptx2glsl run /root/check/sfu_user_check
step "translate from /" "ptx2glsl translate /root/check/sfu_user_check/kernel.ptx -o /tmp/t && ls /tmp/t"
# The tables are found next to the executable, never in the current folder: with them gone the run must fail
# with an error that names where it looked (and $PTX2GLSL_SFU_TABLES must bring them back).
step "missing tables" "mv /usr/share/ptx2glsl /usr/share/p2g-moved; ptx2glsl run /root/check/sfu_user_check; rc=\$?;
  PTX2GLSL_SFU_TABLES=/usr/share/p2g-moved ptx2glsl run /root/check/sfu_user_check --quiet || rc=9;
  mv /usr/share/p2g-moved /usr/share/ptx2glsl; [ \$rc = 1 ]"
[ $fail = 0 ] && echo "check_deb.sh: all steps passed" || echo "check_deb.sh: FAILED"
exit $fail
