#!/usr/bin/env bash
# Installs the Debian packages emrtd builds, tests and runs with. Idempotent:
# when every package is already installed it changes nothing.
set -euo pipefail

packages=(
    # system-library targets
    libgmp-dev libssl-dev libopenjp2-7-dev libpcsclite-dev libdeflate-dev libpng-dev pkg-config
    # the release build (Tools/build-release.sh): Foundation linked statically needs libcurl's
    # development library (FoundationNetworking); Tools/test-package.sh installs lintian itself
    libcurl4-openssl-dev
    # the validation server and client (CLibWebSockets); nginx in front of several servers
    # (Tools/scale.sh), python3 for the test result server (Tools/result-server.py)
    libwebsockets-dev nginx python3
    # emrtd-bench's pace suite: OpenPACE (CEAC), also TerminalAuthenticationOpenPACETests' (with gcc,
    # below); its pa suite's Python reference
    # (Tools/make-pa-fixtures.py verify)
    libeac-dev python3-cryptography python3-asn1crypto
    # CVCertificatesTests: OpenPACE's cvc-create and cvc-print, the reference of CV certificates
    openpace
    # tests: the PC/SC rig, OpenSSL's CLI, OpenJPEG's reference decoder
    pcscd vsmartcard-vpcd vsmartcard-vpicc pcsc-tools openssl libopenjp2-tools iproute2 procps
    # the third-party ePass emulator in ../shared/peers
    python3-pyscard python3-pycryptodome python3-pil patch
    # the third-party nPA emulator (OpenPACE's PACE chip side): vicc's Python card, OpenPACE, and
    # what start-vicc-npa.sh needs to build OpenPACE's Python bindings from Debian's source
    python3-virtualsmartcard libeac3 libeac-dev swig python3-dev gcc dpkg-dev
    # OpenSC's npa-tool (a third-party PACE terminal), built from Debian's source by
    # ../shared/peers/build-npa-tool.sh into .build/peers
    make autoconf automake libtool flex libltdl-dev libreadline-dev zlib1g-dev
    # OutputTests: the HTML report rendered in a real browser, its printed text read back
    chromium poppler-utils
    # Tools/test-station.sh: the reading station driven in a real browser
    chromium-driver python3-selenium
    # Tools/test-bindings.sh: the wheel's virtual environment and tests, the C example under Valgrind
    python3-venv python3-pytest valgrind
    # emrtd seal --image and SealCLITests' round trips: libdmtx's and zbar's readers, the encoders
    dmtx-utils zbar-tools qrencode
    # Tools/build-jvm.sh and Tools/test-jvm.sh: the Kotlin/Java binding, its JSON and JNA, its tests
    kotlin openjdk-17-jdk-headless libjna-java libgoogle-gson-java junit5 maven libmaven-install-plugin-java
)

missing=()
for package in "${packages[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = 'install ok installed' ] || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    echo "setup: installed ${missing[*]}"
fi

# The reader's built-in trust bundle (masterlist/README.md): derived from the signed master lists
# committed in masterlist/, each verified against its root, when there is no bundle yet or the
# committed lists changed since it was built.
repository="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$repository/masterlist/csca.pem"
if [ ! -s "$bundle" ] || [ "$repository/masterlist/SOURCES" -nt "$bundle" ]; then
    "$repository/Tools/build-trust-bundle.sh" "$bundle"
fi
