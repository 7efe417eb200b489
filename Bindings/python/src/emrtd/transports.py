"""Transports for :func:`emrtd.read`."""

from __future__ import annotations

from typing import Optional

from . import TransportError


class PcscTransport:
    """A card on a PC/SC reader, through pyscard (Debian's ``python3-pyscard`` or PyPI's
    ``pyscard``). Connects on creation (the reader named ``reader_name``, or the first whose name
    starts with it); ``close()`` disconnects. Usable as a context manager."""

    def __init__(self, reader_name: str, *, extended_length: bool = True) -> None:
        from smartcard.System import readers

        matching = [r for r in readers() if str(r) == reader_name] or [
            r for r in readers() if str(r).startswith(reader_name)
        ]
        if not matching:
            raise TransportError("io", f"no PC/SC reader named {reader_name!r}")
        self._connection = matching[0].createConnection()
        self._extended_length = extended_length
        try:
            self._connection.connect()
        except Exception as error:
            raise TransportError("tag_lost", f"no card in {reader_name!r}: {error}") from error

    def transceive(self, apdu: bytes) -> bytes:
        from smartcard.Exceptions import CardConnectionException

        try:
            data, sw1, sw2 = self._connection.transmit(list(apdu))
        except CardConnectionException as error:
            text = str(error).lower()
            raise TransportError("tag_lost" if "removed" in text or "reset" in text else "io", str(error)) from error
        return bytes(data) + bytes([sw1, sw2])

    def supports_extended_length(self) -> bool:
        return self._extended_length

    def close(self) -> None:
        self._connection.disconnect()

    def __enter__(self) -> "PcscTransport":
        return self

    def __exit__(self, *_exception: Optional[BaseException]) -> None:
        self.close()
