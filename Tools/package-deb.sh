#!/usr/bin/env bash
# Builds dist/emrtd_<version>_amd64.deb from the one release build (Tools/build-release.sh):
#   /usr/bin/emrtd                                (the Swift runtime linked statically)
#   /usr/lib/x86_64-linux-gnu/libemrtd.so.0, libemrtd.so, pkgconfig/emrtd.pc, /usr/include/emrtd.h
#                                                 (the C ABI)
#   /usr/share/emrtd/                             (the built-in trust bundle, its master lists, SOURCES)
#   /usr/share/man/man1/emrtd.1, emrtd-COMMAND.1  (`emrtd help --man`: the text of --help)
#   bash and zsh completion                       (`emrtd help --completion`: from each command's usage)
#   /lib/systemd/system/emrtd-serve.service, /etc/emrtd/serve.conf (Packaging/deb)
# The version is `emrtd --version`'s; Depends is every Debian package that owns a library the
# binaries name in their NEEDED entries (a library no Debian package owns stops the build).
#
#   Tools/package-deb.sh            prints the path of the .deb on standard output
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
umask 022

say() { echo "package-deb: $*" >&2; }
fail() {
    say "$*"
    exit 1
}

Tools/build-release.sh --product emrtd --product EmrtdC >&2
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
emrtd="$bin/emrtd"

version=$("$emrtd" --version)
version=${version#emrtd }
[[ $version =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || fail "emrtd --version printed '$version', not a Debian version"
architecture=$(dpkg --print-architecture)
[ "$architecture" = amd64 ] || fail "this builds the amd64 package; this machine is $architecture"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
# Reproducible: every date in the package is the last commit's.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
maintainer="emrtd maintainers <maintainers@users.noreply.a-seed-4c44c17e.example>"

root="$repository/.build/deb/emrtd_${version}_$architecture"
rm -rf "$root"
mkdir -p "$root/DEBIAN"

install -D -m 0755 "$emrtd" "$root/usr/bin/emrtd"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/emrtd"
binaries=("$root/usr/bin/emrtd")
# The C ABI: libemrtd.so.0 (its SONAME, checked), the development symlink, header and pkg-config.
soname=$(objdump -p "$bin/libEmrtdC.so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libemrtd.so.0 ] || fail "libEmrtdC.so's SONAME is '$soname', not libemrtd.so.0"
libdir="$root/usr/lib/$multiarch"
install -D -m 0644 "$bin/libEmrtdC.so" "$libdir/$soname"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$libdir/$soname"
ln -s "$soname" "$libdir/libemrtd.so"
install -D -m 0644 include/emrtd.h "$root/usr/include/emrtd.h"
mkdir -p "$libdir/pkgconfig"
cat >"$libdir/pkgconfig/emrtd.pc" <<EOF
prefix=/usr
libdir=\${prefix}/lib/$multiarch
includedir=\${prefix}/include

Name: emrtd
Description: ICAO Doc 9303 travel document reader: the C ABI (JSON in, JSON out)
Version: $version
Libs: -L\${libdir} -lemrtd
Cflags: -I\${includedir}
EOF
binaries+=("$libdir/$soname")
echo "activate-noawait ldconfig" >"$root/DEBIAN/triggers"
echo "libemrtd 0 emrtd (>= $version)" >"$root/DEBIAN/shlibs"

# The Swift runtime is in the binaries, not beside them: nothing may need a Swift library.
for binary in "${binaries[@]}"; do
    if ldd "$binary" | grep -E 'lib(swift|Foundation|FoundationEssentials|FoundationNetworking|_FoundationICU|dispatch|BlocksRuntime)'; then
        fail "$(basename "$binary") needs the Swift runtime above: it must be linked statically (Tools/build-release.sh)"
    fi
done

# Depends: the Debian package owning each library a binary names (objdump's NEEDED), found where
# the dynamic linker finds it.
# (Debian 12 registers most libraries under /lib, the linker's cache may name /usr/lib.)
owner() {
    local path=$1 candidate found
    for candidate in "$path" "$(readlink -f "$path")" "${path#/usr}" "/usr${path#/usr}"; do
        found=$(dpkg-query -S "$candidate" 2>/dev/null | awk -F': ' 'NR == 1 { sub(/:.*/, "", $1); print $1 }')
        [ -n "$found" ] && echo "$found" && return 0
    done
    return 1
}
declare -A packages=()
for binary in "${binaries[@]}"; do
    for needed in $(objdump -p "$binary" | awk '$1 == "NEEDED" { print $2 }'); do
        [ "$needed" = libemrtd.so.0 ] && continue
        path=$(ldconfig -p | awk -v name="$needed" '$1 == name && /x86-64/ && !found { print $NF; found = 1 }')
        [ -n "$path" ] || fail "$(basename "$binary") needs $needed, which the dynamic linker does not find"
        package=$(owner "$path") || fail "$(basename "$binary") needs $needed ($path), which no Debian package owns"
        packages[$package]=1
    done
done
depends=$(printf '%s\n' "${!packages[@]}" | sort | paste -sd, - | sed 's/,/, /g')
say "Depends: $depends"

# The built-in trust bundle, derived from the committed master lists as a checkout derives it,
# with the lists and SOURCES beside it (`emrtd trust list` names the lists holding each CSCA;
# read and verify warn when the newest is old).
share="$root/usr/share/emrtd"
mkdir -p "$share"
install -m 0644 masterlist/SOURCES masterlist/*.ml masterlist/*.cer "$share/"
EMRTD="$emrtd" Tools/build-trust-bundle.sh "$share/csca.pem" >&2
chmod 0644 "$share/csca.pem"

# The manual: emrtd(1) and a page per command, from the text --help prints.
man="$root/usr/share/man/man1"
mkdir -p "$man"
"$emrtd" help --man >"$man/emrtd.1"
commands=$("$emrtd" --help | awk '/^commands:/ { listed = 1; next } /^$/ { listed = 0 } listed { print $1 }')
[ -n "$commands" ] || fail "emrtd --help lists no commands"
for command in $commands; do
    "$emrtd" help --man "$command" >"$man/emrtd-$command.1"
done
gzip -9n "$man"/*.1

mkdir -p "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions"
"$emrtd" help --completion bash >"$root/usr/share/bash-completion/completions/emrtd"
"$emrtd" help --completion zsh >"$root/usr/share/zsh/vendor-completions/_emrtd"

install -D -m 0644 Packaging/deb/emrtd-serve.service "$root/lib/systemd/system/emrtd-serve.service"
install -D -m 0644 Packaging/deb/serve.conf "$root/etc/emrtd/serve.conf"
echo /etc/emrtd/serve.conf >"$root/DEBIAN/conffiles"

doc="$root/usr/share/doc/emrtd"
install -D -m 0644 Packaging/deb/copyright "$doc/copyright"
install -D -m 0644 NOTICE "$doc/NOTICE"
install -D -m 0644 Packaging/deb/tenants.json "$doc/examples/tenants.json"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cat <<EOF | gzip -9n >"$doc/changelog.gz"
emrtd ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")
EOF
chmod 0644 "$doc/changelog.gz"

cat >"$root/DEBIAN/control" <<EOF
Package: emrtd
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: pcscd
Suggests: dmtx-utils, zbar-tools
Section: utils
Priority: optional
Description: reader and verifier for ICAO Doc 9303 electronic travel documents
 emrtd reads ePassports and eID cards through PC/SC readers (BAC, PACE, Chip and
 Active Authentication), verifies their data by Passive Authentication against
 a built-in bundle of CSCA certificates from signed master lists, verifies
 dumps, master lists and Visible Digital Seals, and serves server-side
 validation to relaying clients (the emrtd-serve systemd unit).
EOF

(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN"/*
find "$root" -depth -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p dist
deb="dist/emrtd_${version}_$architecture.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb.tmp" >&2
mv -f "$deb.tmp" "$deb"
say "built $deb"
echo "$repository/$deb"
