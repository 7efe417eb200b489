"""emrtd.trust: the built-in bundle the wheel carries, used by default; the user's additions;
and the errors, keys and zones a Python caller meets first."""

import base64
import hashlib
import pathlib

import pytest

import emrtd
from conftest import ROOT, prerequisite
from simulated_chip import SPECIMEN_KEY, SimulatedChip

SAMPLES = ROOT.parent / "shared" / "data" / "gmrtd" / "sod_samples"


def test_the_wheel_carries_the_built_in_bundle_and_its_sources():
    assert emrtd.trust.BUILT_IN.is_file() and emrtd.trust.SOURCES.is_file()
    assert "master list" in emrtd.trust.SOURCES.read_text()
    certificates = emrtd.trust.list()
    # Every certificate of the bundle file, each with its country and digest.
    assert len(certificates) == emrtd.trust.bundle_path().read_bytes().count(b"-----BEGIN CERTIFICATE-----")
    assert len(certificates) > 100
    assert all(entry["sha256"] and len(entry["sha256"]) == 64 for entry in certificates)
    assert {"DE", "NL"} <= {entry["country"] for entry in certificates}


def test_real_security_objects_verify_under_the_built_in_bundle_alone():
    """Each real EF.SOD whose CSCA (beside it) is in the built-in bundle: its chain is valid with
    nothing but the wheel's trust, unless a certificate of it has expired since."""
    prerequisite(SAMPLES.is_dir(), f"no {SAMPLES}")
    trusted = {entry["sha256"] for entry in emrtd.trust.list()}
    checked = 0
    for sod in sorted(SAMPLES.glob("*_EF_SOD.bin")):
        country = sod.name.removesuffix("_EF_SOD.bin")
        csca = SAMPLES / f"{country}_CSCA.der"
        if not csca.is_file():
            continue
        verdict = emrtd.verify({"SOD.bin": sod.read_bytes()})
        assert verdict["sodSignatureValid"], country
        if hashlib.sha256(csca.read_bytes()).hexdigest() in trusted:
            expired = any("expired on" in error for error in verdict["errors"])
            assert verdict["certificateChainValid"] or expired, f"{country}: {verdict['errors']}"
            checked += verdict["certificateChainValid"]
    assert checked >= 10, f"only {checked} samples have their CSCA in the built-in bundle"


def test_a_dumps_own_csca_is_not_trusted(emrtd_bin, tmp_path):
    """A dump that carries its own CSCA (here the simulator's, beside the files) is verified
    against the built-in bundle only, unless the caller passes that CSCA."""
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, emrtd.AccessKey.mrz(*SPECIMEN_KEY), render_images=False)
        csca = chip.csca
    # The read itself trusted only what it was given: nothing for the simulator's fresh CSCA.
    assert document["authenticationStatus"]["data"]["status"] != "authenticated"
    assert document["checks"]["accepted"] is False
    application = document["ldsMasterFile"]["lds1EmrtdApplication"]
    for file in application.values():
        if file and file["bytes"]:
            name = (file["id"].upper() if file["id"] != "com" else "COM") + ".bin"
            (tmp_path / name).write_bytes(base64.b64decode(file["bytes"]))
    (tmp_path / "CSCA.der").write_bytes(csca)
    forged = emrtd.verify(tmp_path)
    assert forged["status"] != "authenticated" and forged["checks"]["accepted"] is False
    named = emrtd.verify(tmp_path, csca=[csca])
    assert named["status"] == "authenticated"


def test_read_carries_checks_and_every_warning(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, emrtd.AccessKey.mrz(*SPECIMEN_KEY), csca=[chip.csca], render_images=False)
    checks = document["checks"]
    # The specimen expired in 1994: authenticated, yet not accepted, and said in `warnings`.
    assert document["authenticationStatus"]["data"]["status"] == "authenticated"
    assert checks["accepted"] is False and "the document has expired" in checks["strict"]["unmet"]
    assert checks["warnings"] and all(warning in document["warnings"] for warning in checks["warnings"])


def test_add_keeps_a_csca_in_the_users_folder(tmp_path, monkeypatch, emrtd_bin):
    monkeypatch.setattr(emrtd.trust, "_CHOSEN", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with SimulatedChip(emrtd_bin) as chip:
        csca = chip.csca
        before = len(emrtd.trust.list())
        assert emrtd.trust.add(csca) == 1
        assert emrtd.trust.add(csca) == 0, "added once"
        assert emrtd.trust.bundle_path() == tmp_path / "emrtd" / "csca.pem"
        assert len(emrtd.trust.list()) == before + 1
        # Trusted by default from now on: no csca= needed.
        document = emrtd.read(chip, emrtd.AccessKey.mrz(*SPECIMEN_KEY), render_images=False)
    assert document["authenticationStatus"]["data"]["status"] == "authenticated"
    assert emrtd.trust.refresh() == tmp_path / "emrtd" / "csca.pem"
    assert len(emrtd.trust.list()) == before + 1, "refresh keeps what was added"
    with pytest.raises(emrtd.InvalidArgumentError):
        emrtd.trust.add(b"not a certificate")
    master_list = sorted((ROOT / "masterlist").glob("*.ml"))
    if master_list:
        with pytest.raises(emrtd.InvalidArgumentError, match="master list"):
            emrtd.trust.add(master_list[0].read_bytes())
    emrtd.reload_trust()


def test_errors_by_kind():
    with pytest.raises(emrtd.InvalidArgumentError) as raised:
        emrtd.parse_mrz("hello")
    assert isinstance(raised.value, emrtd.ReadError) and isinstance(raised.value, ValueError)
    assert raised.value.code == "invalid_argument"
    with pytest.raises(emrtd.InvalidArgumentError):
        emrtd.verify("/nonexistent/emrtd-dump")
    assert issubclass(emrtd.AccessControlError, emrtd.ReadError)
    assert emrtd.ReadError.of({"code": "access_control", "message": "m"}).__class__ is emrtd.AccessControlError
    assert emrtd.ReadError.of({"code": "something new"}).__class__ is emrtd.ReadError


@pytest.mark.parametrize(
    "number, birth, expiry, words",
    [
        ("L898902C", "691306", "940623", "not a date"),
        ("L898902C", "6908", "940623", "six digits"),
        ("L8989-02C", "690806", "940623", "document number"),
        ("L898902C12", "690806", "940623", "document number"),
    ],
)
def test_an_mrz_key_is_checked_when_made(number, birth, expiry, words):
    with pytest.raises(emrtd.InvalidArgumentError) as raised:
        emrtd.AccessKey.mrz(number, birth, expiry)
    assert words in raised.value.reason
    # Written for Python: no command-line flag in it.
    assert "--" not in raised.value.message


TD3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]


def test_a_key_from_a_zone_and_whether_the_zone_is_valid():
    zone = emrtd.parse_mrz(TD3)
    assert zone["validity"]["problems"] == [] and zone["validity"]["checkDigitsValid"]
    key = emrtd.AccessKey.from_mrz(TD3)
    assert key._json == {"mrz": {"documentNumber": "L898902C3", "dateOfBirth": "740812", "dateOfExpiry": "120415"}}
    wrong = [TD3[0], TD3[1][:9] + "7" + TD3[1][10:]]
    assert emrtd.parse_mrz(wrong)["validity"]["problems"]
    with pytest.raises(emrtd.InvalidArgumentError, match="not valid"):
        emrtd.AccessKey.from_mrz(wrong)
