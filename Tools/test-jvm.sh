#!/usr/bin/env bash
# The JVM binding end to end, as a JVM host sees it: the jar built (Tools/build-jvm.sh, over the
# one release build) and installed with Maven into a fresh local repository (offline: Debian's
# /usr/share/maven-repo stands in for Maven Central); its JUnit 5 suite (Bindings/jvm/src/test:
# the reference's API checked at compile time, its Kotlin example run as written, reads of
# `emrtd simulate` through a transport of the tests and of the simulator behind a pcscd of its own
# through PcscTransport; the relay client against `emrtd serve`) run on the jar with Debian's
# console launcher; the Kotlin and Java examples (Bindings/jvm/examples) compiled and run on the
# same simulator.
#   Tools/test-jvm.sh [--skip-build]    # --skip-build: the release build is already done
# Needs Tools/setup.sh's packages (kotlin, openjdk-17-jdk-headless, libjna-java,
# libgoogle-gson-java, junit5, maven, libmaven-install-plugin-java, the PC/SC rig) and root for the
# simulator's namespaces. A missing tool skips with the reason; under CI=true it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

missing() {
    if [ "${CI:-}" = true ]; then echo "test-jvm.sh: missing prerequisite (CI=true): $1" >&2; exit 1; fi
    echo "test-jvm.sh: skipped: $1"
    exit 0
}
for tool in kotlinc javac java jar mvn; do
    command -v "$tool" >/dev/null || missing "no $tool (Tools/setup.sh installs it)"
done
java_lib=/usr/share/java
for jar in jna gson kotlin-stdlib kotlin-stdlib-jdk7 junit-platform-console-standalone; do
    [ -f "$java_lib/$jar.jar" ] || missing "no $java_lib/$jar.jar (Tools/setup.sh installs it)"
done

work=$(mktemp -d /tmp/emrtd-jvm-test.XXXXXX)
export EMRTD_SIMULATOR_STATE=$work/simulator
cleanup() { Tools/simulator.sh stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

built=$(Tools/build-jvm.sh "$@")
pom=$(echo "$built" | tail -2 | head -1)
jarfile=$(echo "$built" | tail -1)
if [ "${1:-}" != "--skip-build" ]; then Tools/build-release.sh --product emrtd; fi
export EMRTD_BIN=${EMRTD_BIN:-$root/.build/release/emrtd} EMRTD_SOURCE_ROOT=$root
[ -x "$EMRTD_BIN" ] || missing "no emrtd binary at $EMRTD_BIN (Tools/build-release.sh builds it)"
echo "== jar: $jarfile"

echo "== mvn install:install-file (a fresh local repository, offline)"
cat >"$work/settings.xml" <<SETTINGS
<settings><offline>false</offline><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf>
<url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>
SETTINGS
mvn -q -s "$work/settings.xml" -Dmaven.repo.local="$work/m2" install:install-file -Dfile="$jarfile" -DpomFile="$pom"
version=$(basename "$jarfile" .jar); version=${version#emrtd-}
installed=$work/m2/dev/emrtd/emrtd/$version/emrtd-$version.jar
cmp "$installed" "$jarfile"
echo "installed as dev.emrtd:emrtd:$version"

# The installed jar, and its declared dependencies from Debian (nothing of them is in the jar).
classpath=$installed:$java_lib/jna.jar:$java_lib/gson.jar:$java_lib/kotlin-stdlib.jar:$java_lib/kotlin-stdlib-jdk7.jar
if unzip -l "$installed" | grep -qE 'kotlin/|com/sun/jna/|com/google/gson/'; then
    echo "test-jvm.sh: the jar carries a dependency it should only declare" >&2
    exit 1
fi

echo "== kotlinc: the tests, the reference's API check and example, the Kotlin example"
kotlinc -nowarn -jvm-target 1.8 -Xuse-experimental=kotlin.ExperimentalUnsignedTypes \
    -cp "$classpath:$java_lib/junit-platform-console-standalone.jar" -d "$work/tests" \
    Bindings/jvm/src/test/kotlin Bindings/jvm/examples/ReadPassport.kt 2>&1 | { grep -v 'Options -Xverify:none' || true; }
echo "== javac: the Java example"
javac --release 17 -d "$work/tests" -cp "$classpath" Bindings/jvm/examples/ReadPassport.java

Tools/simulator.sh start --csca-out "$work/csca.pem" >/dev/null
export PCSCLITE_CSOCK_NAME=$EMRTD_SIMULATOR_STATE/run/pcscd.comm
export EMRTD_TEST_PCSC_READER="Virtual PCD 00 00" EMRTD_TEST_PCSC_CSCA=$work/csca.pem

echo "== JUnit 5 (the installed jar; its libemrtd extracted by JNA)"
java -jar "$java_lib/junit-platform-console-standalone.jar" --disable-banner --details=summary --fail-if-no-tests \
    -cp "$work/tests:$classpath" --select-package dev.emrtd

echo "== the examples on the simulator behind pcscd"
for example in ReadPassportKt ReadPassport; do
    output=$(java -cp "$work/tests:$classpath" "$example" "$EMRTD_TEST_PCSC_READER" L898902C 690806 940623 "$work/csca.pem")
    echo "$example: $output"
    grep -q '^data: AUTHENTICATED, chip: AUTHENTICATED$' <<<"$output"
done
echo "test-jvm.sh: passed"
