#!/usr/bin/env python3
"""Builds the emrtd wheel from src/emrtd and a libemrtd, with the standard library alone (a wheel
is a zip with METADATA, WHEEL and RECORD), so that it builds where pip cannot reach PyPI.

    build_wheel.py LIBEMRTD.so OUT-DIR     # prints the wheel's path

The wheel's version is the library's own (emrtd_version()), so there is no second one to forget.
"""

import base64
import ctypes
import hashlib
import pathlib
import sys
import tomllib
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
TAG = "py3-none-linux_x86_64"


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main() -> int:
    library, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    name = project["name"]
    emrtd_version = ctypes.CDLL(str(library.resolve())).emrtd_version
    emrtd_version.restype = ctypes.c_char_p
    version = emrtd_version().decode()
    info = f"{name}-{version}.dist-info"
    files = {f"emrtd/{path.name}": path.read_bytes() for path in sorted((HERE / "src" / "emrtd").iterdir())
             if path.is_file() and path.suffix in (".py", ".typed")}
    files["emrtd/libemrtd.so.0"] = library.read_bytes()
    # The built-in trust: the bundle derived from the committed master lists (Tools/setup.sh
    # derives it) and the SOURCES that say where they come from (emrtd.trust uses them).
    masterlist = HERE.parent.parent / "masterlist"
    if not (masterlist / "csca.pem").is_file():
        sys.exit(f"build_wheel.py: no {masterlist / 'csca.pem'} (Tools/build-trust-bundle.sh derives it)")
    files["emrtd/data/csca.pem"] = (masterlist / "csca.pem").read_bytes()
    files["emrtd/data/SOURCES"] = (masterlist / "SOURCES").read_bytes()
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']['text']}",
        "Provides-Extra: pcsc",
        "Requires-Dist: pyscard>=2.0; extra == 'pcsc'",
    ] + [f"Classifier: {c}" for c in project["classifiers"]]
    files[f"{info}/METADATA"] = ("\n".join(metadata) + "\nDescription-Content-Type: text/markdown\n\n"
                                 + (HERE / "README.md").read_text()).encode()
    # The license and the notice of the tree's third-party data travel with the wheel.
    for legal in ("LICENSE", "NOTICE"):
        files[f"{info}/{legal}"] = (HERE.parent.parent / legal).read_bytes()
    files[f"{info}/WHEEL"] = f"Wheel-Version: 1.0\nGenerator: emrtd build_wheel.py\nRoot-Is-Purelib: false\nTag: {TAG}\n".encode()
    record = [record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"{name}-{version}-{TAG}.whl"
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            entry.external_attr = (0o755 if path.endswith(".so.0") else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    partial.replace(wheel)
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
