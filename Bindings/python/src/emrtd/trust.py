"""The CSCAs that :func:`emrtd.read` and :func:`emrtd.verify` trust by default.

The wheel carries the built-in bundle (``data/csca.pem``: every CSCA of the signed master lists
that ``data/SOURCES`` names, each list verified against its root when the release was built).
:func:`add` keeps the certificates a user adds in their data folder
(``$XDG_DATA_HOME/emrtd``, default ``~/.local/share/emrtd``) and writes there the bundle used
from then on: the built-in one plus those; :func:`refresh` writes it again from the installed
wheel's bundle (after an upgrade). ``$EMRTD_CSCA_BUNDLE``, when set, names the only bundle used.
The ``csca=`` of a call adds to whichever bundle is used.
"""

from __future__ import annotations

import base64
import hashlib
import os
import pathlib
import re
from typing import Any, Optional

__all__ = ["BUILT_IN", "SOURCES", "add", "bundle_path", "list", "refresh", "user_bundle"]

# The wheel's copy; from a source checkout (EMRTD_LIBRARY, PYTHONPATH), the checkout's own.
_DATA = pathlib.Path(__file__).resolve().parent / "data"
if not _DATA.is_dir():
    _DATA = pathlib.Path(__file__).resolve().parents[4] / "masterlist"
#: The bundle the wheel carries.
BUILT_IN = _DATA / "csca.pem"
#: Where the built-in bundle's master lists come from, and their checksums.
SOURCES = _DATA / "SOURCES"
_VARIABLE = "EMRTD_CSCA_BUNDLE"
# The caller's own choice, as the process started: the variable is set by this package otherwise.
_CHOSEN = os.environ.get(_VARIABLE) or None
_PEM = re.compile(rb"-----BEGIN CERTIFICATE-----\s+([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----")
# The largest certificate file taken (a master list's worth of PEM certificates).
_MAXIMUM_FILE = 16 << 20


def _folder() -> pathlib.Path:
    home = os.environ.get("XDG_DATA_HOME", "")
    base = pathlib.Path(home) if home.startswith("/") else pathlib.Path.home() / ".local" / "share"
    return base / "emrtd"


def user_bundle() -> pathlib.Path:
    """The user's bundle, written by :func:`add` and :func:`refresh` (the same file ``emrtd``
    reads as the user's own)."""
    return _folder() / "csca.pem"


def _added() -> pathlib.Path:
    return _folder() / "added.pem"


def bundle_path() -> pathlib.Path:
    """The bundle used: ``$EMRTD_CSCA_BUNDLE`` when the process started with it set, else the
    user's when :func:`add` or :func:`refresh` wrote one, else the built-in one."""
    if _CHOSEN:
        return pathlib.Path(_CHOSEN)
    return user_bundle() if user_bundle().is_file() else BUILT_IN


def _select() -> None:
    """Points libemrtd at :func:`bundle_path` (it reads the variable when a trust store is made)."""
    if not _CHOSEN:
        os.environ[_VARIABLE] = str(bundle_path())


def _certificates(data: bytes) -> "list[bytes]":
    """The DER certificates of PEM text (every CERTIFICATE block) or of one DER certificate."""
    from . import _invalid

    if b"-----BEGIN" in data:
        blocks = [base64.b64decode(b"".join(block.split())) for block in _PEM.findall(data)]
        if not blocks:
            raise _invalid("the PEM text holds no CERTIFICATE block")
    else:
        blocks = [bytes(data)]
    for block in blocks:
        certificate = _Reader(block).element(0x30)
        if certificate is None or certificate[1] != len(block):
            raise _invalid("not a certificate (PEM or DER X.509)")
        if block[certificate[0] :].startswith(bytes.fromhex("06092a864886f70d010702")):
            raise _invalid("a signed master list is not taken: its signature cannot be checked here")
        if _Reader(block, certificate[0], certificate[1]).element(0x30) is None:
            raise _invalid("not a certificate (PEM or DER X.509)")
    return blocks


def _pem(certificates: "list[bytes]") -> bytes:
    text = b""
    for der in certificates:
        body = base64.b64encode(der)
        lines = b"\n".join(body[i : i + 64] for i in range(0, len(body), 64))
        text += b"-----BEGIN CERTIFICATE-----\n" + lines + b"\n-----END CERTIFICATE-----\n"
    return text


def _write(path: pathlib.Path, data: bytes) -> None:
    """Writes ``path`` whole: a temporary file beside it, flushed, renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(temporary, "xb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def _read(path: pathlib.Path) -> bytes:
    from . import _invalid

    with open(path, "rb") as file:
        data = file.read(_MAXIMUM_FILE + 1)
    if len(data) > _MAXIMUM_FILE:
        raise _invalid(f"{path} is larger than {_MAXIMUM_FILE} bytes")
    return data


def refresh() -> pathlib.Path:
    """Writes the user's bundle again: the installed built-in bundle plus the added certificates,
    and makes later calls use it. Returns its path."""
    from . import reload_trust

    added = _read(_added()) if _added().is_file() else b""
    _write(user_bundle(), _read(BUILT_IN) + added)
    reload_trust()
    return user_bundle()


def add(data: bytes) -> int:
    """Trusts the CSCAs of ``data`` (PEM text of one or more certificates, or one DER
    certificate) from now on, in this process and later ones: kept in the user's data folder
    beside the built-in bundle. Returns how many were added (those already added are not
    added twice). Raises :class:`emrtd.InvalidArgumentError` for anything else: a master list
    is not taken, since this package cannot check its signature against its root."""
    certificates = _certificates(bytes(data))
    known = set(_certificates(_read(_added()))) if _added().is_file() else set()
    new = [der for der in dict.fromkeys(certificates) if der not in known]
    if new:
        existing = _read(_added()) if _added().is_file() else b""
        _write(_added(), existing + _pem(new))
    refresh()
    return len(new)


def list() -> "list[dict[str, Any]]":  # noqa: A001 - the module's verb, as emrtd trust list
    """The certificates of the bundle used (:func:`bundle_path`): for each its ``subject``
    (``C=DE, O=…, CN=…``), ``country``, ``notAfter`` (ISO date) and ``sha256`` (of the DER)."""
    entries = []
    for der in _certificates(_read(bundle_path())):
        subject, not_after = _subject_and_expiry(der)
        entries.append(
            {
                "subject": ", ".join(f"{name}={value}" for name, value in subject),
                "country": next((value for name, value in subject if name == "C"), None),
                "notAfter": not_after,
                "sha256": hashlib.sha256(der).hexdigest(),
            }
        )
    return entries


class _Reader:
    """Just enough DER to walk a certificate's TBSCertificate: tags and definite lengths."""

    def __init__(self, data: bytes, start: int = 0, end: Optional[int] = None) -> None:
        self.data, self.position, self.end = data, start, len(data) if end is None else end

    def element(self, tag: Optional[int] = None) -> Optional["tuple[int, int, int]"]:
        """The next element as (content start, content end, tag), or None at the end or when
        its tag is not ``tag``; the reader moves past it."""
        if self.position + 2 > self.end:
            return None
        found, length = self.data[self.position], self.data[self.position + 1]
        if tag is not None and found != tag:
            return None
        start = self.position + 2
        if length & 0x80:
            count = length & 0x7F
            if count == 0 or count > 4 or start + count > self.end:
                return None
            length = int.from_bytes(self.data[start : start + count], "big")
            start += count
        if start + length > self.end:
            return None
        self.position = start + length
        return start, start + length, found


_NAMES = {"550406": "C", "55040a": "O", "55040b": "OU", "550403": "CN", "550405": "serialNumber"}


def _subject_and_expiry(der: bytes) -> "tuple[list[tuple[str, str]], Optional[str]]":
    certificate = _Reader(der).element(0x30)
    if certificate is None:
        return [], None
    tbs = _Reader(der, certificate[0], certificate[1]).element(0x30)
    if tbs is None:
        return [], None
    fields = _Reader(der, tbs[0], tbs[1])
    parts = []
    while (part := fields.element()) is not None:
        parts.append(part)
    # [0] version (optional), serial, signature algorithm, issuer, validity, subject.
    if parts and parts[0][2] == 0xA0:
        parts = parts[1:]
    if len(parts) < 5:
        return [], None
    validity, subject = parts[3], parts[4]
    times = _Reader(der, validity[0], validity[1])
    times.element()
    after = times.element()
    not_after = None
    if after is not None:
        text = der[after[0] : after[1]].decode("ascii", "replace")
        year = text[:4] if after[2] == 0x18 else ("19" if int(text[:2] or 0) >= 50 else "20") + text[:2]
        digits = text[4:8] if after[2] == 0x18 else text[2:6]
        not_after = f"{year}-{digits[:2]}-{digits[2:4]}"
    names = []
    sets = _Reader(der, subject[0], subject[1])
    while (rdn := sets.element(0x31)) is not None:
        pair = _Reader(der, rdn[0], rdn[1]).element(0x30)
        if pair is None:
            continue
        inner = _Reader(der, pair[0], pair[1])
        oid, value = inner.element(0x06), inner.element()
        if oid is None or value is None:
            continue
        name = _NAMES.get(der[oid[0] : oid[1]].hex(), der[oid[0] : oid[1]].hex())
        names.append((name, der[value[0] : value[1]].decode("utf-8", "replace")))
    return names, not_after

