"""emrtd.parse_mrz: the reference's parseMrz through the C ABI."""

import importlib.metadata
import re

import pytest

import emrtd

# ICAO 9303-4 Appendix A's specimen passport.
TD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
# ICAO 9303-5 Appendix A's specimen identity card.
TD1 = (
    "I<UTOD231458907<<<<<<<<<<<<<<<\n"
    "7408122F1204159UTO<<<<<<<<<<<6\n"
    "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"
)


def test_parses_a_passport_zone():
    zone = emrtd.parse_mrz(TD3)
    assert zone["travelDocumentType"] == "td3"
    assert zone["td1"] is None and zone["td2"] is None
    fields = zone["td3"]
    assert fields["passportNumber"]["value"] == "L898902C3"
    assert fields["dateOfBirth"]["value"] == "740812"
    assert zone["lines"] == TD3.split("\n")


def test_parses_an_identity_card_from_a_list_of_lines_in_lower_case():
    zone = emrtd.parse_mrz([line.lower() for line in TD1.split("\n")])
    assert zone["travelDocumentType"] == "td1"
    assert zone["td1"]["documentNumber"]["value"] == "D23145890"


@pytest.mark.parametrize(
    "text, reason",
    [
        ("P<UTO", "an MRZ has 2 or 3 lines; got 1"),
        ("ABC\nDEF", "an MRZ has 3 lines of 30, 2 of 36 or 2 of 44 characters; got 2 lines of 3"),
        (TD3.replace("ANNA", "ANNÄ"), None),
    ],
)
def test_refuses_what_is_not_a_zone(text, reason):
    with pytest.raises(emrtd.ReadError) as raised:
        emrtd.parse_mrz(text)
    error = raised.value
    assert error.code == "invalid_argument"
    assert error.kind is None and error.debug_info is None
    assert error.message == f"invalid argument: {error.reason}"
    if reason:
        assert error.reason == reason


def test_the_library_is_the_packages_version():
    # The installed wheel's metadata against the library it loaded (build_wheel.py reads one from
    # the other), and the version a Debian version can be.
    assert importlib.metadata.version("emrtd") == emrtd.library_version() == emrtd.__version__
    assert re.fullmatch(r"[0-9][0-9A-Za-z.+~]*", emrtd.library_version())
