"""ctypes declarations of libemrtd (include/emrtd.h), loaded from beside this file."""

from __future__ import annotations

import ctypes
import os
from typing import Optional

_LIBRARY = os.environ.get("EMRTD_LIBRARY") or os.path.join(os.path.dirname(__file__), "libemrtd.so.0")

# Status codes (emrtd_status) and transport codes, as the header defines them.
OK = 0
OUT_OF_MEMORY = 8
TRANSPORT_OK = 0
TRANSPORT_TAG_LOST = 1
TRANSPORT_TIMEOUT = 2
TRANSPORT_CANCELLED = 3
TRANSPORT_IO = 4

TRANSCEIVE = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint8),
    ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_uint8),
    ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_size_t),
)
SUPPORTS_EXTENDED_LENGTH = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)
LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t)


class Transport(ctypes.Structure):
    _fields_ = [
        ("context", ctypes.c_void_p),
        ("transceive", TRANSCEIVE),
        ("supports_extended_length", SUPPORTS_EXTENDED_LENGTH),
        ("listener", LISTENER),
    ]


class Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


_TEXT = ctypes.POINTER(ctypes.c_char)
_OUT = [ctypes.POINTER(_TEXT), ctypes.POINTER(ctypes.c_size_t)]

lib = ctypes.CDLL(_LIBRARY)
lib.emrtd_version.restype = ctypes.c_char_p
lib.emrtd_version.argtypes = []
lib.emrtd_free.restype = None
lib.emrtd_free.argtypes = [_TEXT]
lib.emrtd_parse_mrz.restype = ctypes.c_int32
lib.emrtd_parse_mrz.argtypes = [ctypes.c_char_p, ctypes.c_size_t] + _OUT
lib.emrtd_trust_store_create.restype = ctypes.c_int32
lib.emrtd_trust_store_create.argtypes = [
    ctypes.c_int32,
    ctypes.POINTER(Buffer),
    ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_void_p),
] + _OUT
lib.emrtd_trust_store_free.restype = None
lib.emrtd_trust_store_free.argtypes = [ctypes.c_void_p]
lib.emrtd_verify.restype = ctypes.c_int32
lib.emrtd_verify.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p] + _OUT
lib.emrtd_cancel_token_create.restype = ctypes.c_void_p
lib.emrtd_cancel_token_create.argtypes = []
lib.emrtd_cancel.restype = None
lib.emrtd_cancel.argtypes = [ctypes.c_void_p]
lib.emrtd_cancel_token_free.restype = None
lib.emrtd_cancel_token_free.argtypes = [ctypes.c_void_p]
lib.emrtd_read.restype = ctypes.c_int32
lib.emrtd_read.argtypes = [
    ctypes.POINTER(Transport),
    ctypes.c_char_p,
    ctypes.c_size_t,
    ctypes.c_void_p,
    ctypes.c_void_p,
] + _OUT


def call(function, *arguments) -> tuple[int, Optional[str]]:
    """Calls an export whose last two parameters are the result and its length; returns the
    status and the text, which the library's buffer is freed of."""
    result = _TEXT()
    length = ctypes.c_size_t(0)
    status = function(*arguments, ctypes.byref(result), ctypes.byref(length))
    if not result:
        return status, None
    try:
        return status, ctypes.string_at(result, length.value).decode("utf-8")
    finally:
        lib.emrtd_free(result)
