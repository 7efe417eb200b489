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


def test_trust_stores_are_made_once_and_shared(dump):
    """A back end verifying document after document loads the built-in bundle once per set of
    CSCAs, not once per call: the same CSCAs give the same store, the verdicts are unchanged."""
    files, _, csca = dump
    emrtd.reload_trust()
    first = emrtd._trust_stores.acquire([csca])
    second = emrtd._trust_stores.acquire([bytes(csca)])
    other = emrtd._trust_stores.acquire(None)
    assert first is second and first is not other
    for store in (first, second, other):
        emrtd._trust_stores.release(store)
    verdicts = {json.dumps(emrtd.verify(files, csca=[csca], at=NOW), sort_keys=True) for _ in range(3)}
    assert len(verdicts) == 1 and json.loads(verdicts.pop())["status"] == "authenticated"
    assert emrtd._trust_stores.acquire([csca]) is first
    emrtd._trust_stores.release(first)


def test_a_store_in_use_is_freed_only_when_its_call_ends(dump):
    """More sets of CSCAs than the cache keeps: the oldest leaves the cache at once but is freed
    only once the call using it has released it; reload_trust() forgets every store the same way."""
    _, _, csca = dump
    emrtd.reload_trust()
    in_use = emrtd._trust_stores.acquire([csca])
    for number in range(emrtd._TrustStores.LIMIT):
        emrtd._trust_stores.release(emrtd._trust_stores.acquire([csca, csca * (number + 2)]))
    assert in_use.handle.value  # evicted, still in use: not freed
    emrtd._trust_stores.release(in_use)
    assert not in_use.handle.value
    newest = emrtd._trust_stores.acquire([csca, csca * (emrtd._TrustStores.LIMIT + 1)])
    emrtd.reload_trust()
    assert newest.handle.value
    emrtd._trust_stores.release(newest)
    assert not newest.handle.value
    again = emrtd._trust_stores.acquire([csca])
    assert again is not in_use and again.handle.value
    emrtd._trust_stores.release(again)
