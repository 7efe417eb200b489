"""A pure-Python transport of the tests: it plays vpcd's side of the vpcd protocol (2-byte
big-endian length, then the bytes; 1-byte control messages) to an `emrtd simulate` subprocess,
so each test gets a chip of its own, with no pcscd and no PC/SC library in between."""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import tempfile
from typing import Optional

# The specimen's MRZ key (ICAO's Anna Maria Eriksson as the simulator generates her).
SPECIMEN_KEY = ("L898902C", "690806", "940623")


class SimulatedChip:
    """`emrtd simulate [DIR] [options]` connected to a socket of ours. `transceive` relays one
    APDU; `csca` is the PEM of the generated specimen's CSCA (None with DIR)."""

    def __init__(self, emrtd: str, *options: str, directory: Optional[str] = None) -> None:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(1)
        self._listener.settimeout(60)
        port = self._listener.getsockname()[1]
        self._folder = tempfile.TemporaryDirectory(prefix="emrtd-chip-")
        csca_path = os.path.join(self._folder.name, "csca.pem")
        arguments = [emrtd, "simulate", "--host", "127.0.0.1", "--port", str(port)]
        arguments += [directory] if directory else ["--csca-out", csca_path]
        self._log = open(os.path.join(self._folder.name, "simulate.log"), "wb")
        self._process = subprocess.Popen(arguments + list(options), stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._socket, _ = self._listener.accept()
        except OSError:
            self.close()
            raise RuntimeError(f"emrtd simulate did not connect: {self.log()}")
        self._socket.settimeout(30)
        self.csca: Optional[bytes] = None if directory else open(csca_path, "rb").read()
        self._exchange(b"\x01", answered=False)  # power on
        self.atr = self._exchange(b"\x04")
        self.apdus = 0

    def _exchange(self, message: bytes, answered: bool = True) -> bytes:
        self._socket.sendall(struct.pack(">H", len(message)) + message)
        if not answered:
            return b""
        length = struct.unpack(">H", self._receive(2))[0]
        return self._receive(length)

    def _receive(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self._socket.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the simulator hung up")
            data += chunk
        return data

    def transceive(self, apdu: bytes) -> bytes:
        self.apdus += 1
        return self._exchange(apdu)

    def supports_extended_length(self) -> bool:
        return True

    def log(self) -> str:
        self._log.flush()
        return open(self._log.name, "rb").read().decode(errors="replace")

    def close(self) -> None:
        for closable in ("_socket", "_listener"):
            if hasattr(self, closable):
                getattr(self, closable).close()
        self._process.terminate()
        try:
            self._process.wait(10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()
        self._folder.cleanup()

    def __enter__(self) -> "SimulatedChip":
        return self

    def __exit__(self, *_exception) -> None:
        self.close()
