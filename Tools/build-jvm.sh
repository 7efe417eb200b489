#!/usr/bin/env bash
# Builds the JVM binding (Bindings/jvm): dist/emrtd-<version>.jar, the Kotlin API (Debian's kotlinc
# 1.3) and its Java PcscTransport (javac) compiled against Debian's JNA and gson, with libemrtd
# (.build/release/libEmrtdC.so, from the one release build, Tools/build-release.sh) inside as
# linux-x86-64/libemrtd.so, where JNA finds, extracts and loads it at first use; and
# dist/emrtd-<version>.pom, which declares the Kotlin runtime, JNA and gson as dependencies (none
# is shaded in). The version is the library's own. Prints the jar's path last.
#   Tools/build-jvm.sh [--skip-build]    # --skip-build: the release build is already done;
#                                        # EMRTD_LIBRARY_BUILD=FILE packs another build of the library
# Install into a local Maven repository: mvn install:install-file -Dfile=JAR -DpomFile=POM
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--skip-build" ]; then
    Tools/build-release.sh --product EmrtdC >&2
fi
library=${EMRTD_LIBRARY_BUILD:-.build/release/libEmrtdC.so}
[ -f "$library" ] || { echo "build-jvm.sh: no $library (Tools/build-release.sh builds it)" >&2; exit 1; }
for tool in kotlinc javac jar; do
    command -v "$tool" >/dev/null || { echo "build-jvm.sh: no $tool (Tools/setup.sh installs kotlin and openjdk-17-jdk-headless)" >&2; exit 1; }
done
for jar in jna gson kotlin-stdlib; do
    [ -f "/usr/share/java/$jar.jar" ] || { echo "build-jvm.sh: no /usr/share/java/$jar.jar (Tools/setup.sh installs it)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/emrtd-jvm-build.XXXXXX)
trap 'rm -rf "$work"' EXIT

version=$(/usr/bin/python3 -c 'import ctypes, sys; f = ctypes.CDLL(sys.argv[1]).emrtd_version; f.restype = ctypes.c_char_p; print(f().decode())' "$(realpath "$library")")
mkdir -p "$work/classes/linux-x86-64" dist
# The library without its debug information, as in the wheel.
objcopy --strip-debug "$library" "$work/classes/linux-x86-64/libemrtd.so"

classpath=/usr/share/java/jna.jar:/usr/share/java/gson.jar
echo "== kotlinc (Bindings/jvm/src/main/kotlin)" >&2
kotlinc -nowarn -jvm-target 1.8 -Xuse-experimental=kotlin.ExperimentalUnsignedTypes -cp "$classpath" \
    -d "$work/classes" Bindings/jvm/src/main/kotlin 2>&1 | { grep -v 'Options -Xverify:none' || true; } >&2
echo "== javac (Bindings/jvm/src/main/java)" >&2
javac --release 17 -nowarn -d "$work/classes" -cp "$work/classes:$classpath:/usr/share/java/kotlin-stdlib.jar" \
    $(find Bindings/jvm/src/main/java -name '*.java')

pom=dist/emrtd-$version.pom
sed "s/@VERSION@/$version/" Bindings/jvm/pom.xml.in >"$pom"
mkdir -p "$work/classes/META-INF/maven/dev.emrtd/emrtd"
cp "$pom" "$work/classes/META-INF/maven/dev.emrtd/emrtd/pom.xml"
jarfile=dist/emrtd-$version.jar
rm -f "$jarfile"
jar --create --file "$jarfile" -C "$work/classes" .
echo "$pom"
echo "$jarfile"
