"""emrtd.verify: the verdict `emrtd verify --dir` prints, for dumps of the simulated chip made
here (read through the C ABI, written in the dump layout)."""

import base64
import datetime
import json
import subprocess

import pytest

import emrtd
from simulated_chip import SPECIMEN_KEY, SimulatedChip


@pytest.fixture(scope="module")
def dump(emrtd_bin, tmp_path_factory):
    """A dump of a freshly generated specimen: its files by dump name, its folder and its CSCA."""
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, emrtd.AccessKey.mrz(*SPECIMEN_KEY), render_images=False)
        csca = chip.csca
    application = document["ldsMasterFile"]["lds1EmrtdApplication"]
    files = {
        (file["id"].upper() if file["id"] != "com" else "COM") + ".bin": base64.b64decode(file["bytes"])
        for file in application.values()
        if file and file["bytes"]
    }
    folder = tmp_path_factory.mktemp("dump")
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / "CSCA.pem").write_bytes(csca)
    return files, folder, csca


# The simulator's certificates start when it made them: verdicts are checked at this moment.
NOW = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_folder_and_the_same_files_in_memory_give_one_verdict(dump):
    files, folder, csca = dump
    from_folder = emrtd.verify(folder, csca=[csca], at=NOW)
    in_memory = emrtd.verify(files, csca=[csca], at=NOW)
    assert from_folder == in_memory
    assert from_folder["status"] == "authenticated"
    assert {entry["status"] for entry in from_folder["dataGroupHashes"]} == {"valid"}
    assert from_folder["dataGroupsChecked"] == len([name for name in files if name.startswith("DG")])


def test_the_verdict_is_what_emrtd_verify_prints(dump, emrtd_bin):
    _, folder, csca = dump
    printed = subprocess.run(
        [emrtd_bin, "verify", "--dir", str(folder), "--no-builtin", "--csca", str(folder / "CSCA.pem"),
         "--at", NOW],
        capture_output=True,
        text=True,
    )
    assert printed.returncode in (0, 3), printed.stderr  # 3: the specimen's MRZ expired in 1994
    store = emrtd._TrustStore([csca])
    try:
        request = json.dumps({"dir": str(folder), "at": NOW}).encode()
        status, text = emrtd._native.call(emrtd.lib.emrtd_verify, request, len(request), store.handle)
    finally:
        store.close()
    assert status == 0
    assert text + "\n" == printed.stdout


def test_a_changed_data_group_is_denied(dump):
    files, _, csca = dump
    changed = dict(files)
    changed["DG2.bin"] = files["DG2.bin"][:-1] + bytes([files["DG2.bin"][-1] ^ 1])
    verdict = emrtd.verify(changed, csca=[csca], at=NOW)
    assert verdict["status"] != "authenticated"
    hashes = {entry["dataGroupNumber"]: entry["status"] for entry in verdict["dataGroupHashes"]}
    assert hashes[2] == "invalid" and hashes[1] == "valid"


def test_a_printed_zone_that_differs_is_a_warning(dump):
    files, _, csca = dump
    verdict = emrtd.verify(
        files,
        csca=[csca],
        at=NOW,
        mrz_lines=[
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
        ],
    )
    assert any("printed MRZ differs" in warning for warning in verdict["warnings"]), verdict["warnings"]


@pytest.mark.parametrize(
    "files, reason",
    [
        ({"DG1.bin": b"a"}, "the files given holds no SOD.bin (the layout `emrtd dump` writes)"),
        ({"SOD.bin": b"\x77\x01\x00"}, None),
    ],
)
def test_a_dump_that_cannot_be_loaded_is_invalid_argument(files, reason):
    with pytest.raises(emrtd.ReadError) as raised:
        emrtd.verify(files, csca=[])
    assert raised.value.code == "invalid_argument"
    if reason:
        assert raised.value.reason == reason


def test_a_folder_that_is_not_there(tmp_path):
    with pytest.raises(emrtd.ReadError) as raised:
        emrtd.verify(tmp_path / "none", csca=[])
    assert raised.value.code == "invalid_argument"
    assert "is not a directory" in raised.value.reason


def test_a_certificate_that_is_not_one(dump):
    files, _, _ = dump
    with pytest.raises(emrtd.ReadError) as raised:
        emrtd.verify(files, csca=[b"not a certificate"])
    assert raised.value.code == "invalid_argument"
    assert raised.value.reason.startswith("authority certificate entry 1")
