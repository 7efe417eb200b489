"""Read and verify ICAO 9303 electronic travel documents through libemrtd.

The document, the MRZ and the verdicts come back as dicts in the reference model's JSON shapes
(``travelDocumentToJson``, ``parseMrz``, ``emrtd verify``); failures raise :class:`ReadError`,
whose fields are ``readErrorToJson``'s. The transport is the host's: any object with
``transceive(apdu: bytes) -> bytes`` and ``supports_extended_length() -> bool``
(:class:`emrtd.transports.PcscTransport` is one).
"""

from __future__ import annotations

import base64
import ctypes
import datetime
import json
import os
import re
import threading
from typing import Any, Callable, Iterable, Mapping, Optional, Protocol, Sequence, Union

from . import _native
from ._native import lib

# The library's version is the package's: the wheel's metadata is taken from it too (build_wheel.py).
__version__ = lib.emrtd_version().decode()
__all__ = [
    "AccessControlError",
    "AccessKey",
    "ChipAuthenticationError",
    "ChipReadError",
    "InvalidArgumentError",
    "NfcUnavailableError",
    "NotConnectedError",
    "ReadCancelledError",
    "ReadError",
    "Transport",
    "TransportError",
    "library_version",
    "parse_mrz",
    "read",
    "reload_trust",
    "trust",
    "verify",
]


class Transport(Protocol):
    """The link to the chip: one raw command APDU in, the raw response (data, SW1 SW2) out."""

    def transceive(self, apdu: bytes) -> bytes: ...

    def supports_extended_length(self) -> bool: ...


class TransportError(Exception):
    """Raised by a transport when the link fails; ``kind`` is ``tag_lost``, ``timeout``,
    ``cancelled`` or ``io`` (the reference's TransportError cases). Any other exception a
    transport raises counts as ``io``, and becomes the ReadError's ``__cause__``."""

    _CODES = {
        "tag_lost": _native.TRANSPORT_TAG_LOST,
        "timeout": _native.TRANSPORT_TIMEOUT,
        "cancelled": _native.TRANSPORT_CANCELLED,
        "io": _native.TRANSPORT_IO,
    }

    def __init__(self, kind: str, message: str = "") -> None:
        if kind not in self._CODES:
            raise ValueError(f"kind must be one of {', '.join(self._CODES)}, not {kind!r}")
        super().__init__(message or kind)
        self.kind = kind


class ReadError(Exception):
    """A call of libemrtd failed: ``readErrorToJson``'s fields.

    ``code`` is ``invalid_argument``, ``access_control``, ``chip_authentication``,
    ``not_connected``, ``read``, ``cancelled`` or ``nfc_unavailable``; ``message`` the sentence
    for people; ``reason`` the cause without the prefix (None when cancelled); ``kind`` the
    ``read`` error's kind (``readingDataGroups``, ``parseMasterFile``, ``unknown``);
    ``debug_info`` the files and log of the failed read; ``json`` the whole object.
    """

    def __init__(self, error: Mapping[str, Any]) -> None:
        super().__init__(error.get("message") or error.get("code"))
        self.json = dict(error)
        self.code: str = error.get("code", "unknown")
        self.message: str = error.get("message", "")
        self.reason: Optional[str] = error.get("reason")
        self.kind: Optional[str] = error.get("kind")
        self.debug_info: Optional[dict] = error.get("debugInfo")

    @staticmethod
    def of(error: Mapping[str, Any]) -> "ReadError":
        """The subclass of ``error``'s ``code`` (ReadError itself for a code this package does not
        know), so that a caller catches the failures it handles by kind."""
        return _ERROR_KINDS.get(error.get("code", ""), ReadError)(error)


class InvalidArgumentError(ReadError, ValueError):
    """``invalid_argument``: what was given is not usable (an MRZ, a key, a dump, an option)."""


class AccessControlError(ReadError):
    """``access_control``: the chip refused the key (BAC or PACE failed): a wrong MRZ or CAN."""


class ChipAuthenticationError(ReadError):
    """``chip_authentication``: the chip failed to prove itself genuine during the read."""


class NotConnectedError(ReadError):
    """``not_connected``: no card answered on the transport."""


class ChipReadError(ReadError):
    """``read``: a file could not be read or parsed; ``kind`` says which step."""


class ReadCancelledError(ReadError):
    """``cancelled``: the read was cancelled (the transport said so)."""


class NfcUnavailableError(ReadError):
    """``nfc_unavailable``: the host has no card link."""


_ERROR_KINDS: dict[str, type[ReadError]] = {
    "invalid_argument": InvalidArgumentError,
    "access_control": AccessControlError,
    "chip_authentication": ChipAuthenticationError,
    "not_connected": NotConnectedError,
    "read": ChipReadError,
    "cancelled": ReadCancelledError,
    "nfc_unavailable": NfcUnavailableError,
}


def _invalid(reason: str) -> InvalidArgumentError:
    """An ``invalid_argument`` error raised by this package itself, in the library's shape."""
    return InvalidArgumentError(
        {"code": "invalid_argument", "message": f"invalid argument: {reason}", "reason": reason}
    )


_DOCUMENT_NUMBER = re.compile(r"[A-Z0-9<]{1,9}")
_DATE = re.compile(r"[0-9]{6}")


def _check_date(value: str, what: str) -> None:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise _invalid(f"{what} must be six digits, YYMMDD, not {value!r}")
    month, day = int(value[2:4]), int(value[4:6])
    # Any year: February 29th is possible in some year of each century the zone may mean.
    days = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= month <= 12 or not 1 <= day <= days[month - 1]:
        raise _invalid(f"{what} {value} is not a date (YYMMDD)")


class AccessKey:
    """What opens the chip: the MRZ's document number and dates, or the card access number.
    Its text is kept only until the read; its repr is redacted."""

    def __init__(self, json_form: dict) -> None:
        self._json = json_form

    @classmethod
    def mrz(cls, document_number: str, date_of_birth: str, date_of_expiry: str) -> "AccessKey":
        """BAC or PACE with the MRZ; dates as YYMMDD. Checked now, not when the read starts:
        raises :class:`InvalidArgumentError` for a number or a date the zone cannot hold."""
        if not isinstance(document_number, str) or not _DOCUMENT_NUMBER.fullmatch(document_number.upper()):
            raise _invalid(
                f"the document number must be 1 to 9 letters, digits or '<', not {document_number!r}"
            )
        _check_date(date_of_birth, "the date of birth")
        _check_date(date_of_expiry, "the date of expiry")
        document_number = document_number.upper()
        return cls(
            {"mrz": {"documentNumber": document_number, "dateOfBirth": date_of_birth, "dateOfExpiry": date_of_expiry}}
        )

    @classmethod
    def from_mrz(cls, lines: Union[str, Sequence[str]]) -> "AccessKey":
        """The MRZ key of a zone as printed (its lines, as :func:`parse_mrz` takes them): its
        document number and dates. Raises :class:`InvalidArgumentError` for a zone that does not
        parse or whose check digits or dates are wrong."""
        zone = parse_mrz(lines)
        problems = zone["validity"]["problems"]
        if problems:
            raise _invalid("the MRZ is not valid: " + "; ".join(problems))
        fields = next(zone[kind] for kind in ("td1", "td2", "td3") if zone.get(kind))
        number = fields.get("documentNumber") or fields.get("passportNumber")
        return cls.mrz(number["value"], fields["dateOfBirth"]["value"], fields["dateOfExpiry"]["value"])

    @classmethod
    def can(cls, value: str) -> "AccessKey":
        """PACE with the card access number printed on the document."""
        return cls({"can": value})

    def __repr__(self) -> str:
        return f"AccessKey.{next(iter(self._json))}(<redacted>)"


def library_version() -> str:
    """The version of the libemrtd this package loaded."""
    return lib.emrtd_version().decode()


def _answer(status: int, text: Optional[str]) -> Any:
    if status == _native.OUT_OF_MEMORY or text is None:
        raise MemoryError("libemrtd could not allocate its answer")
    value = json.loads(text)
    if status != _native.OK:
        raise ReadError.of(value)
    return value


def parse_mrz(text: Union[str, Sequence[str]]) -> dict:
    """Parses a machine readable zone (the reference's ``parseMrz``): its lines as one text
    (blank lines ignored) or a list. Returns the MachineReadableZone JSON with ``validity``
    added (as ``emrtd mrz`` prints it: ``problems`` empty when the check digits and dates are
    right; ``expired`` now); raises :class:`InvalidArgumentError` for anything that is not a zone."""
    lines = [line for line in text.splitlines() if line.strip()] if isinstance(text, str) else list(text)
    request = json.dumps(lines).encode()
    return _answer(*_native.call(lib.emrtd_parse_mrz, request, len(request)))


class _TrustStore:
    """An emrtd_trust_store: the built-in bundle plus the caller's CSCAs (PEM or DER bytes)."""

    def __init__(self, csca: Iterable[bytes]) -> None:
        trust._select()
        entries = [bytes(entry) for entry in csca]
        buffers = (_native.Buffer * max(len(entries), 1))(*[_native.Buffer(e, len(e)) for e in entries])
        self.handle = ctypes.c_void_p()
        status, text = _native.call(
            lib.emrtd_trust_store_create, 1, buffers, len(entries), ctypes.byref(self.handle)
        )
        if status != _native.OK:
            _answer(status, text)

    def close(self) -> None:
        lib.emrtd_trust_store_free(self.handle)
        self.handle = ctypes.c_void_p()


class _TrustStores:
    """The trust stores of this process, one per set of CSCAs a caller gives, made on first use
    and shared by every later call (the library's one kind of state; a store is safe to share
    between threads). Loading the built-in bundle costs far more than a verification, so a back
    end verifying document after document must not pay it on every call. At most ``LIMIT``
    are kept: the least recently used is freed once no call is using it. A process keeps the
    bundle it loaded: one started before ``emrtd trust update`` trusts the old bundle until
    :func:`reload_trust` (or a restart)."""

    LIMIT = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stores: dict[tuple[bytes, ...], _TrustStore] = {}  # least recently used first
        self._users: dict[int, int] = {}
        self._retired: list[_TrustStore] = []

    def acquire(self, csca: Optional[Iterable[bytes]]) -> _TrustStore:
        key = tuple(bytes(entry) for entry in csca or ())
        with self._lock:
            store = self._stores.get(key)
            if store is not None:
                return self._use(key, store)
        # Made outside the lock: loading the built-in bundle takes a while, and holds up no other
        # call (a call with a store already made, or making another, runs meanwhile).
        made = _TrustStore(key)
        with self._lock:
            store = self._stores.get(key)
            if store is not None:
                made.close()  # another thread made the same one first
                return self._use(key, store)
            return self._use(key, made)

    def _use(self, key: tuple[bytes, ...], store: _TrustStore) -> _TrustStore:
        """Counts a user of ``store`` and makes it the most recently used (the lock held)."""
        self._stores.pop(key, None)
        self._stores[key] = store
        self._users[id(store)] = self._users.get(id(store), 0) + 1
        while len(self._stores) > self.LIMIT:
            self._retire(self._stores.pop(next(iter(self._stores))))
        return store

    def release(self, store: _TrustStore) -> None:
        with self._lock:
            self._users[id(store)] -= 1
            self._free_retired()

    def clear(self) -> None:
        with self._lock:
            for store in self._stores.values():
                self._retire(store)
            self._stores.clear()

    def _retire(self, store: _TrustStore) -> None:
        self._retired.append(store)
        self._free_retired()

    def _free_retired(self) -> None:
        for store in [store for store in self._retired if self._users.get(id(store), 0) == 0]:
            self._retired.remove(store)
            self._users.pop(id(store), None)
            store.close()


_trust_stores = _TrustStores()


def reload_trust() -> None:
    """Forgets the trust stores this process has loaded, so that the next call loads the built-in
    bundle again (after ``emrtd trust update``); calls already running keep theirs."""
    _trust_stores.clear()


def _time(at: Union[None, str, datetime.date, datetime.datetime]) -> Optional[str]:
    if at is None or isinstance(at, str):
        return at
    if isinstance(at, datetime.datetime):
        if at.tzinfo is not None:
            at = at.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return at.isoformat()


def verify(
    path_or_files: Union[str, "os.PathLike[str]", Mapping[str, bytes]],
    *,
    csca: Optional[Iterable[bytes]] = None,
    at: Union[None, str, datetime.date, datetime.datetime] = None,
    mrz_lines: Optional[Sequence[str]] = None,
    challenge: Optional[bytes] = None,
) -> dict:
    """Verifies a dump offline: the JSON ``emrtd verify --dir`` prints (Passive Authentication,
    ``chip``, ``checks``, ``warnings``), whether or not the data is authenticated.

    ``path_or_files``: a dump folder, or its files by dump name (``{"SOD.bin": b"...", "DG1.bin":
    ...}``). ``csca``: PEM or DER certificates added to the built-in bundle. ``at``: when
    certificates and expiry are checked (default now). ``mrz_lines``: the printed MRZ, compared
    with DG1. ``chip`` is the chip verdict judged again from the dump's ``evidence.json``;
    ``challenge`` (8 bytes): the Active Authentication challenge you chose, which the recorded one
    must be (else the chip is ``denied``). Raises ReadError ``invalid_argument`` for a dump that
    cannot be loaded.
    """
    request: dict[str, Any] = {}
    if isinstance(path_or_files, Mapping):
        request["files"] = {name: base64.b64encode(bytes(data)).decode() for name, data in path_or_files.items()}
    else:
        request["dir"] = os.fspath(path_or_files)
    if at is not None:
        request["at"] = _time(at)
    if mrz_lines is not None:
        request["mrzLines"] = list(mrz_lines)
    if challenge is not None:
        request["challenge"] = bytes(challenge).hex()
    data = json.dumps(request).encode()
    store = _trust_stores.acquire(csca)
    try:
        return _answer(*_native.call(lib.emrtd_verify, data, len(data), store.handle))
    finally:
        _trust_stores.release(store)


class _Callbacks:
    """The transport and listener as C callbacks, kept alive for the read. The library calls
    ``transceive`` on its worker thread and the listener on the reading thread; ctypes takes the
    GIL for each."""

    def __init__(self, transport: Transport, listener: Optional[Callable[[dict], None]]) -> None:
        self.transport = transport
        self.listener = listener
        self.error: Optional[BaseException] = None
        self.struct = _native.Transport(
            None,
            _native.TRANSCEIVE(self._transceive),
            _native.SUPPORTS_EXTENDED_LENGTH(self._supports_extended_length),
            _native.LISTENER(self._event) if listener else _native.LISTENER(),
        )

    def _transceive(self, _context, command, command_length, response, capacity, response_length) -> int:
        try:
            answer = bytes(self.transport.transceive(ctypes.string_at(command, command_length)))
        except TransportError as error:
            return TransportError._CODES[error.kind]
        except BaseException as error:  # noqa: BLE001 - a callback must not raise into C
            self.error = error
            return _native.TRANSPORT_IO
        if len(answer) > capacity:
            self.error = ValueError(f"the transport answered {len(answer)} bytes, more than {capacity}")
            return _native.TRANSPORT_IO
        ctypes.memmove(response, answer, len(answer))
        response_length[0] = len(answer)
        return _native.TRANSPORT_OK

    def _supports_extended_length(self, _context) -> int:
        try:
            return 1 if self.transport.supports_extended_length() else 0
        except BaseException as error:  # noqa: BLE001
            self.error = error
            return 0

    def _event(self, _context, event, length) -> None:
        try:
            self.listener(json.loads(event[:length]))
        except BaseException as error:  # noqa: BLE001 - a listener's failure does not stop the read
            self.error = self.error or error


def read(
    transport: Transport,
    access_key: AccessKey,
    *,
    challenge: Optional[bytes] = None,
    csca: Optional[Iterable[bytes]] = None,
    listener: Optional[Callable[[dict], None]] = None,
    timeout_ms: int = 5000,
    debug: bool = False,
    render_images: bool = True,
) -> dict:
    """Reads the document on ``transport`` (blocking; the GIL is released while the library
    works, and Ctrl-C cancels the read before its next APDU, then raises KeyboardInterrupt).

    Returns ``travelDocumentToJson``'s dict; raises :class:`ReadError`. ``challenge``: 8 bytes
    for Active Authentication. ``csca``: PEM or DER certificates added to the built-in bundle.
    ``listener`` gets each event as a dict: ``{"type": "accessStarted"}``, ``{"type":
    "progress", "id": "dg2", "percentage": 40}``, ``{"type": "dataAuthenticationStarted"}``.
    """
    options: dict[str, Any] = {
        "accessKey": access_key._json,
        "timeoutMs": timeout_ms,
        "debug": debug,
        "renderImages": render_images,
    }
    if challenge is not None:
        options["activeAuthenticationChallenge"] = base64.b64encode(bytes(challenge)).decode()
    data = json.dumps(options).encode()
    callbacks = _Callbacks(transport, listener)
    store = _trust_stores.acquire(csca)
    token = lib.emrtd_cancel_token_create()
    if not token:
        _trust_stores.release(store)
        raise MemoryError("libemrtd could not make a cancel token")
    outcome: list = []
    finished = threading.Event()

    def run() -> None:
        try:
            outcome.append(
                _native.call(
                    lib.emrtd_read,
                    ctypes.byref(callbacks.struct),
                    data,
                    len(data),
                    store.handle,
                    token,
                )
            )
        finally:
            finished.set()

    # The read runs on a thread of its own so that this one can take Ctrl-C (a foreign call
    # cannot be interrupted) and cancel it; an Event, not Thread.join, is waited on, because an
    # interrupted join can report a running thread as ended (CPython 3.11).
    interrupted = False
    threading.Thread(target=run, name="emrtd-read", daemon=True).start()
    try:
        while not finished.is_set():
            try:
                finished.wait(0.05)
            except KeyboardInterrupt:
                interrupted = True
                lib.emrtd_cancel(token)
    finally:
        while not finished.is_set():  # a second Ctrl-C: still never free what the read uses
            try:
                finished.wait()
            except KeyboardInterrupt:
                interrupted = True
        lib.emrtd_cancel_token_free(token)
        _trust_stores.release(store)
    if interrupted:
        raise KeyboardInterrupt
    try:
        return _answer(*outcome[0])
    except ReadError as error:
        raise error from callbacks.error


from . import trust  # noqa: E402 - it uses this module's errors and reload_trust
