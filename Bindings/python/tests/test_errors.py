"""The error JSON of each failure kind, as ReadError's fields."""

import os
import tempfile
import base64

import pytest

import emrtd
from simulated_chip import SPECIMEN_KEY, SimulatedChip

KEY = emrtd.AccessKey.mrz(*SPECIMEN_KEY)


def read_error(transport, key=KEY, **options):
    with pytest.raises(emrtd.ReadError) as raised:
        emrtd.read(transport, key, render_images=False, **options)
    error = raised.value
    assert error.message and error.json["code"] == error.code
    return error


class Failing:
    """A chip that answers `after` APDUs, then fails as `kind`."""

    def __init__(self, chip, after, kind):
        self.chip, self.after, self.kind = chip, after, kind

    def transceive(self, apdu):
        if self.chip.apdus >= self.after:
            if self.kind == "python":
                raise OSError("the reader fell off the desk")
            raise emrtd.TransportError(self.kind)
        return self.chip.transceive(apdu)

    def supports_extended_length(self):
        return True


def test_invalid_argument_sends_nothing(emrtd_bin):
    # A wrong MRZ key is refused when it is made, before any read.
    with pytest.raises(emrtd.InvalidArgumentError, match="date of birth"):
        emrtd.AccessKey.mrz("L898902C", "6908", "940623")
    with SimulatedChip(emrtd_bin) as chip:
        for key, options, reason in [
            (emrtd.AccessKey.can("12"), {}, None),
            (KEY, {"challenge": b"1234"}, "the Active Authentication challenge must be 8 bytes, got 4"),
            (KEY, {"timeout_ms": 0}, "timeoutMs must be positive"),
            (KEY, {"timeout_ms": 2**32}, "at most 4294967295"),
        ]:
            error = read_error(chip, key, **options)
            assert error.code == "invalid_argument" and error.debug_info is None
            if reason:
                assert reason in error.reason
        assert chip.apdus == 0


def test_access_control_with_a_wrong_key(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:
        error = read_error(chip, emrtd.AccessKey.mrz("L898902C", "690806", "940624"))
    assert error.code == "access_control" and error.kind is None
    assert error.debug_info is not None and error.json["type"] == "accessControl"


@pytest.mark.parametrize(
    "kind, code, type_name",
    [
        ("tag_lost", "not_connected", "tagLost"),
        ("timeout", "not_connected", "timeout"),
        ("io", "not_connected", "io"),
        ("python", "not_connected", "io"),
        ("cancelled", "cancelled", "cancelled"),
    ],
)
def test_link_failures(emrtd_bin, kind, code, type_name):
    with SimulatedChip(emrtd_bin) as chip:
        error = read_error(Failing(chip, 12, kind))
    assert (error.code, error.json["type"]) == (code, type_name)
    if kind == "python":
        assert isinstance(error.__cause__, OSError)


def test_chip_authentication_of_a_clone(emrtd_bin):
    with SimulatedChip(emrtd_bin, "--chip-fault", "clone") as chip:
        error = read_error(chip)
    assert error.code == "chip_authentication"
    assert error.debug_info["filesRead"]["lds1EmrtdApplication"]["dg14"]["bytes"]


def test_read_error_when_a_mandatory_file_is_missing(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, KEY, render_images=False)
    with tempfile.TemporaryDirectory() as folder:
        for file in document["ldsMasterFile"]["lds1EmrtdApplication"].values():
            # Without DG2, and without DG14 and DG15: a dump's chip has fresh keys, which Chip and
            # Active Authentication would find out first.
            if file and file["bytes"] and file["id"] not in ("dg2", "dg14", "dg15"):
                name = "COM" if file["id"] == "com" else file["id"].upper()
                with open(os.path.join(folder, name + ".bin"), "wb") as out:
                    out.write(base64.b64decode(file["bytes"]))
        with SimulatedChip(emrtd_bin, directory=folder) as chip:
            error = read_error(chip)
    assert (error.code, error.kind) == ("read", "readingDataGroups")
    assert "DG2" in error.reason or "dg2" in error.reason
