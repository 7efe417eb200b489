#!/usr/bin/env python3
"""Differential fixture for the MRZ package: MRZs across TD1, TD2, TD3, MRV-A and MRV-B with the
fields and check-digit verdicts that the third-party PyPI package `mrz` (0.6.2) reads from them.

    pip install mrz==0.6.2
    python3 Tools/mrz-fixtures/generate.py > Tests/MRZTests/Fixtures/mrz-differential.jsonl

Each output line is one JSON object (short keys keep the file small):
  l   the MRZ lines             t   td1 | td2 | td3 | mrvA | mrvB
  dc  document code             is  issuing state        n   nationality
  dn  document number           dnv its check digit is valid
  b   date of birth (raw)       bv  its check digit is valid
  e   date of expiry (raw)      ev  its check digit is valid
  s   sex                       p   primary identifier   g   secondary identifier
  o   optional data fields      ov  TD3 optional-data check digit valid (null elsewhere)
  cv  composite check digit valid (null for visas)       ok  every check digit valid
Text values are as `mrz` returns them, put into this project's convention (trailing fillers
dropped, inner fillers as spaces). `mrz` knows nothing of document numbers longer than 9
characters: for those (TD1, TD2) the number, its check digit verdict and the optional data left
after it are the generator's own, the check digit computed with `mrz`'s `hash_string`.
"""

import json
import random
import string
import sys

from mrz.base.countries_ops import code_list
from mrz.base.functions import hash_string
from mrz.checker.mrva import MRVACodeChecker
from mrz.checker.mrvb import MRVBCodeChecker
from mrz.checker.td1 import TD1CodeChecker
from mrz.checker.td2 import TD2CodeChecker
from mrz.checker.td3 import TD3CodeChecker

SAMPLES_PER_KIND = 1100
ALNUM = string.ascii_uppercase + string.digits
rng = random.Random(9303)
COUNTRIES = sorted(code_list())


def fill(text, width):
    return (text + "<" * width)[:width]


def display(text):
    return text.rstrip("<").replace("<", " ")


def word(low=1, high=10):
    return "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(low, high)))


def name_field(width):
    """Primary identifier words, `<<`, secondary words; sometimes no secondary, sometimes cut."""
    primary = "<".join(word() for _ in range(rng.randint(1, 3)))
    secondary = "<".join(word() for _ in range(rng.randint(0, 4)))
    text = primary + ("<<" + secondary if secondary else "")
    return fill(text, width)


def alnum_with_fillers(length):
    """Letters and digits with inner fillers, never a leading one (`mrz` strips those)."""
    if length == 0:
        return ""
    chars = [rng.choice(ALNUM)] + [rng.choice(ALNUM + "<<") for _ in range(length - 1)]
    return "".join(chars)


def document_number():
    return alnum_with_fillers(rng.randint(1, 9))


def country():
    return fill(rng.choice(COUNTRIES) if rng.random() < 0.9 else word(1, 3), 3)


def date():
    year, month, day = rng.randint(0, 99), rng.randint(1, 12), rng.randint(1, 28)
    text = f"{year:02d}{month:02d}{day:02d}"
    roll = rng.random()
    if roll < 0.06:
        return text[:4] + "<<"  # unknown day
    if roll < 0.10:
        return text[:2] + "<<<<"  # unknown month and day
    if roll < 0.12:
        return "<<<<<<"
    if roll < 0.14:
        position = rng.randrange(6)
        return text[:position] + rng.choice(string.ascii_uppercase) + text[position + 1:]
    return text


def sex():
    return rng.choice("MFX<")


def document_code(kind):
    if kind in ("mrvA", "mrvB"):
        return "V" + rng.choice("<" + string.ascii_uppercase)
    if kind == "td3":
        return "P" + rng.choice("<<MDSO")
    return rng.choice("IAC") + rng.choice("<<D" + "BEFGHJKLMNOPQRSTUWXYZ")


def cd(text):
    return hash_string(text)


def corrupt(line, column, filler_allowed):
    """Replaces a check digit with a wrong one: another digit, a letter or a filler."""
    good = line[column]
    wrong = rng.choice([d for d in string.digits if d != good] + ["A"] + (["<"] if filler_allowed else []))
    return line[:column] + wrong + line[column + 1:]


def maybe_corrupt(lines, check_columns, number_check):
    """Spoils one check digit in a quarter of the zones. A TD1/TD2 document number's check digit
    never becomes `<`: there a filler means the number goes on in the optional data (9303-5
    §4.2.4), so the zone would read as another, equally valid one."""
    if rng.random() < 0.25:
        line, column = rng.choice(check_columns)
        lines[line] = corrupt(lines[line], column, (line, column) != number_check)
    return lines


def long_number(continuation_width):
    """A document number of 10 or more characters whose tail, check digit and a closing filler
    fit the continuation range (or fill it exactly)."""
    extra = rng.randint(1, continuation_width - 1)
    return "".join(rng.choice(ALNUM) for _ in range(9 + extra))


def make_td1():
    code, state, nationality = document_code("td1"), country(), country()
    birth, expiry, holder_sex = date(), date(), sex()
    optional2 = fill(alnum_with_fillers(rng.randint(0, 11)), 11)
    overflow = None
    if rng.random() < 0.3:
        number = long_number(15)
        tail = number[9:] + cd(number)
        rest = alnum_with_fillers(max(0, 15 - len(tail) - 1 - rng.randint(0, 4)))
        line1_rest = fill(tail + "<" + rest, 15)
        line1 = code + state + number[:9] + "<" + line1_rest
        overflow = (number, len(tail) - 1, line1_rest[len(tail) + 1:])
    else:
        number = fill(document_number(), 9)
        line1 = code + state + number + cd(number) + fill(alnum_with_fillers(rng.randint(0, 15)), 15)
    line2 = birth + cd(birth) + holder_sex + expiry + cd(expiry) + nationality + optional2
    line2 += cd(line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29])
    lines = [line1, line2, name_field(30)]
    number_check = (0, 15 + overflow[1]) if overflow else (0, 14)
    return maybe_corrupt(lines, [(1, 6), (1, 14), (1, 29), number_check], number_check), overflow


def make_two_line(kind):
    width = {"td2": 36, "mrvB": 36, "td3": 44, "mrvA": 44}[kind]
    line1 = document_code(kind) + country() + name_field(width - 5)
    birth, expiry = date(), date()
    overflow = None
    if kind == "td2" and rng.random() < 0.3:
        number = long_number(7)
        tail = number[9:] + cd(number)
        head = number[:9] + "<"
    else:
        number = fill(document_number(), 9)
        head, tail = number + cd(number), None
    line2 = head + country() + birth + cd(birth) + sex() + expiry + cd(expiry)
    checks = [(1, 19), (1, 27)] + ([] if tail else [(1, 9)])
    number_check = (1, 9)
    if kind == "td2":
        if tail:
            rest = alnum_with_fillers(max(0, 7 - len(tail) - 1 - rng.randint(0, 2)))
            optional = fill(tail + "<" + rest, 7)
            overflow = (number, len(tail) - 1, optional[len(tail) + 1:])
            number_check = (1, 28 + len(tail) - 1)
            checks.append(number_check)
        else:
            optional = fill(alnum_with_fillers(rng.randint(0, 7)), 7)
        line2 += optional
        line2 += cd(line2[0:10] + line2[13:20] + line2[21:35])
        checks.append((1, 35))
    elif kind == "td3":
        personal = fill(alnum_with_fillers(rng.randint(0, 14)), 14)
        personal_cd = "<" if personal == "<" * 14 and rng.random() < 0.5 else cd(personal)
        line2 += personal + personal_cd
        line2 += cd(line2[0:10] + line2[13:20] + line2[21:43])
        checks += [(1, 42), (1, 43)]
    else:
        line2 += fill(alnum_with_fillers(rng.randint(0, width - 28)), width - 28)
    two_line_number_check = number_check if kind == "td2" else None
    return maybe_corrupt([line1, line2], checks, two_line_number_check), overflow


CHECKERS = {"td1": TD1CodeChecker, "td2": TD2CodeChecker, "td3": TD3CodeChecker,
            "mrvA": MRVACodeChecker, "mrvB": MRVBCodeChecker}


def expected(kind, lines, overflow):
    checker = CHECKERS[kind]("\n".join(lines))
    fields = checker.fields()
    number_valid = checker.document_number_hash
    number = fields.document_number
    optional = [fields.optional_data] + ([fields.optional_data_2] if kind == "td1" else [])
    if overflow:
        full, cd_offset, rest = overflow
        line = lines[0] if kind == "td1" else lines[1]
        start = 15 if kind == "td1" else 28
        number = full
        number_valid = hash_string(full) == line[start + cd_offset]
        optional[0] = rest
    composite = checker.final_hash if kind in ("td1", "td2", "td3") else None
    optional_valid = checker.optional_data_hash if kind == "td3" else None
    verdicts = [number_valid, checker.birth_date_hash, checker.expiry_date_hash, composite, optional_valid]
    return {
        "l": lines, "t": kind,
        "dc": display(fields.document_type), "is": display(fields.country), "n": display(fields.nationality),
        "dn": display(number), "dnv": number_valid,
        "b": fields.birth_date, "bv": checker.birth_date_hash,
        "e": fields.expiry_date, "ev": checker.expiry_date_hash,
        "s": display(fields.sex), "p": display(fields.surname), "g": display(fields.name),
        "o": [display(value) for value in optional], "ov": optional_valid, "cv": composite,
        "ok": all(verdict is not False for verdict in verdicts),
    }


def main():
    out = sys.stdout
    for kind in ("td1", "td2", "td3", "mrvA", "mrvB"):
        for _ in range(SAMPLES_PER_KIND):
            lines, overflow = make_td1() if kind == "td1" else make_two_line(kind)
            out.write(json.dumps(expected(kind, lines, overflow), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
