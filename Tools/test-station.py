#!/usr/bin/env python3
"""`emrtd station` driven in headless chromium (run by Tools/test-station.sh, which starts the
simulator behind pcscd and exports PCSCLITE_CSOCK_NAME).

Every wait is on a condition in the page (WebDriverWait), never a sleep. Screenshots of each
screen go to --out. Exits 1 on the first failed check, naming it."""

import argparse
import os
import socket
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

SPECIMEN = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14"]
# The same document number and dates, another holder: the page differs from the chip.
OTHER_HOLDER = ["P<UTOERIKSSON<<JOHN<<<<<<<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061M9406236ZE184226B<<<<<14"]


def check_digit(text):
    """ICAO 9303-3 4.9, written here apart from emrtd's."""
    total = 0
    for index, character in enumerate(text):
        value = int(character) if character.isdigit() else (ord(character) - 55 if character.isalpha() else 0)
        total += value * [7, 3, 1][index % 3]
    return str(total % 10)


def td3_line_two(number, rest="UTO6908061F9406236ZE184226B<<<<<1"):
    """Line 2 with `number` (9 characters) and every check digit computed."""
    data = number + check_digit(number) + rest
    composite = check_digit(data[0:10] + data[13:20] + data[21:43])
    return data + composite


class Failure(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Failure(what)
    print(f"ok: {what}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Station:
    """One `emrtd station` process on a free port."""

    def __init__(self, emrtd, out, name, options):
        self.port = free_port()
        self.log = open(os.path.join(out, f"station-{name}.log"), "w")
        self.process = subprocess.Popen(
            [emrtd, "station", "--listen", f"127.0.0.1:{self.port}", "--reader", "Virtual PCD 00 00"] + options,
            stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}/"

    def wait_listening(self):
        def up(_):
            if self.process.poll() is not None:
                raise Failure(f"the station exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return True
            except OSError:
                return False
        WebDriverWait(None, 30, poll_frequency=0.1).until(up)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


class Page:
    def __init__(self, driver, out):
        self.driver = driver
        self.out = out

    def hook(self, name):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-emrtd="{name}"]')

    def hooks(self, name):
        return self.driver.find_elements(By.CSS_SELECTOR, f'[data-emrtd="{name}"]')

    def wait(self, condition, what, timeout=60):
        try:
            WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except Exception as error:
            self.shot("failed")
            raise Failure(f"timed out waiting for {what}: {error}") from None

    def visible(self, section):
        return self.driver.find_element(By.ID, section).is_displayed()

    def shot(self, name):
        path = os.path.join(self.out, f"{name}.png")
        self.driver.save_screenshot(path)
        print(f"screenshot: {path}")

    def open(self, url):
        # A URL that differs only in its fragment would not load the page again.
        self.driver.get("about:blank")
        self.driver.get(url)
        self.wait(lambda: self.hook("card").get_attribute("data-present") == "true", "the card shown as present")

    def type_key(self, lines):
        field = self.hook("mrz-input")
        field.clear()
        field.send_keys("\n".join(lines))

    def start(self):
        self.wait(lambda: self.hook("start").is_enabled(), "the start button enabled by valid check digits")
        # Every value the progress bar takes, kept by the page itself while the read runs.
        self.driver.execute_script("""
            window.progressSeen = [];
            window.stepsSeen = [];
            const bar = document.querySelector('[data-emrtd="progress"]');
            new MutationObserver(() => window.progressSeen.push(Number(bar.getAttribute('aria-valuenow'))))
                .observe(bar, {attributes: true, attributeFilter: ['aria-valuenow']});
            const step = document.querySelector('[data-emrtd="step"]');
            new MutationObserver(() => window.stepsSeen.push(step.textContent))
                .observe(step, {childList: true, characterData: true, subtree: true});
        """)
        self.hook("start").click()

    def answer(self):
        self.wait(lambda: self.visible("answer"), "the answer screen")
        return self.hook("answer")

    def error_text(self):
        element = self.hook("error")
        return element.text if element.is_displayed() else ""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1100"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def simulator(*arguments):
    subprocess.run(["Tools/simulator.sh", *arguments], check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emrtd", required=True)
    parser.add_argument("--specimen", required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    csca = ["--no-builtin", "--csca", os.path.join(arguments.specimen, "CSCA.der")]
    dumps = os.path.join(arguments.out, "dumps")
    inside = Station(arguments.emrtd, arguments.out, "inside", csca + ["--at", "1993-06-01", "--out", dumps])
    today = Station(arguments.emrtd, arguments.out, "today", csca)
    guarded = Station(arguments.emrtd, arguments.out, "token", csca + ["--token", "s3cret"])
    driver = browser()
    page = Page(driver, arguments.out)
    try:
        inside.wait_listening()
        today.wait_listening()
        guarded.wait_listening()

        # A station with --token: refused without it, working with it in the URL's fragment.
        driver.get(guarded.url)
        page.wait(lambda: "token" in page.error_text(), "the refusal without the token")
        page.shot("0-token-refused")
        page.open(guarded.url + "#token=s3cret")
        expect(page.error_text() == "", "the page with the token works")

        # The specimen, inside its validity: accepted, the face decoded.
        page.open(inside.url)
        expect(page.visible("waiting"), "the waiting screen first")
        page.type_key(SPECIMEN)
        page.wait(lambda: page.hook("start").is_enabled(), "valid check digits")
        page.shot("1-waiting")
        page.start()
        page.wait(lambda: (page.visible("reading") and page.hook("progress").get_attribute("aria-valuenow") != "0")
                  or page.visible("answer"), "the reading screen with some progress")
        page.shot("2-reading")
        box = page.answer()
        seen = driver.execute_script("return window.progressSeen")
        expect(len(set(seen)) >= 3 and max(seen) == 100 and seen == sorted(seen),
               f"the progress bar moved forward to 100 ({seen})")
        steps = driver.execute_script("return window.stepsSeen")
        expect(any("PACE" in step for step in steps) and any("the face (DG2)" in step for step in steps)
               and any("signature" in step for step in steps), f"the steps in words ({sorted(set(steps))})")
        expect(box.get_attribute("data-accepted") == "true", "the specimen is accepted")
        expect(page.hooks("reason") == [], "no reason given for an accepted document")
        face = page.hook("face")
        width = driver.execute_script("return arguments[0].complete ? arguments[0].naturalWidth : 0", face)
        expect(width > 0, f"the face decoded in the page ({width} pixels wide)")
        expect(page.hook("holder-name").text == "ANNA MARIA ERIKSSON", "the holder's name")
        expect(page.hook("document-number").text == "L898902C", "the document number")
        expect(page.hook("print").is_enabled(), "Print has the report to print")
        expect(os.path.isfile(os.path.join(dumps, "1", "DG1.bin")) and dumps in page.hook("saved").text,
               "--out DIR got the read's dump")
        page.shot("3-answer-accepted")
        page.hook("next").click()
        page.wait(lambda: page.visible("waiting"), "the waiting screen after Next document")
        expect(page.hook("holder-name").text == "" and page.hook("face").get_attribute("src") in (None, ""),
               "Next document cleared the holder's data")

        # A check digit that does not match: shown before any APDU, start stays off.
        wrong_digit = [SPECIMEN[0], SPECIMEN[1][:9] + "7" + SPECIMEN[1][10:]]
        page.type_key(wrong_digit)
        page.wait(lambda: "document number" in page.hook("mrz-check").text, "the wrong check digit named")
        expect(not page.hook("start").is_enabled(), "no read with a wrong check digit")
        page.shot("4-wrong-check-digit")

        # An OCR confusion with one valid reading is put right and read.
        confused = [SPECIMEN[0], SPECIMEN[1][:13] + "69O806" + SPECIMEN[1][19:]]
        page.type_key(confused)
        page.wait(lambda: "O→0" in page.hook("mrz-check").text, "the OCR confusion put right")

        # A wrong MRZ (valid check digits, another document number): refused, back to step 1.
        wrong = [SPECIMEN[0], td3_line_two("X12345678")]
        page.type_key(wrong)
        page.start()
        page.wait(lambda: page.error_text() != "" and page.visible("waiting"), "the wrong MRZ's message")
        expect("did not accept" in page.error_text(), f"the wrong MRZ in a user's words ({page.error_text()})")
        page.shot("5-wrong-mrz")

        # The card taken away mid-read: back to step 1 with the message, then the next read works.
        simulator("remove")
        simulator("insert", arguments.specimen, "--leave-mid-read")
        page.wait(lambda: page.hook("card").get_attribute("data-present") == "true", "the card back")
        page.type_key(SPECIMEN)
        page.start()
        page.wait(lambda: page.error_text() != "" and page.visible("waiting"), "the removed card's message")
        expect("left the reader" in page.error_text(), f"the card removed mid-read ({page.error_text()})")
        page.shot("6-card-removed")
        simulator("insert", arguments.specimen)
        page.wait(lambda: page.hook("card").get_attribute("data-present") == "true", "the card in again")
        page.type_key(SPECIMEN)
        # The keyboard alone: Ctrl+Enter in the MRZ field starts the read.
        page.wait(lambda: page.hook("start").is_enabled(), "the key checked")
        page.hook("mrz-input").send_keys(Keys.CONTROL, Keys.ENTER)
        expect(page.answer().get_attribute("data-accepted") == "true", "the next read after the removal")
        # Taking the card away on the answer is Next document.
        simulator("remove")
        page.wait(lambda: page.visible("waiting") and page.hook("holder-name").text == "",
                  "the screen cleared when the card was taken away")
        page.shot("6b-card-taken-after-answer")

        # Cancel during a slow read (16 bytes per READ BINARY): back to step 1, said so.
        simulator("insert", arguments.specimen, "--max-read", "16")
        page.wait(lambda: page.hook("card").get_attribute("data-present") == "true", "the slow card in")
        page.type_key(SPECIMEN)
        page.start()
        page.wait(lambda: page.visible("reading"), "the slow read running")
        page.hook("cancel").click()
        page.wait(lambda: "cancelled" in page.error_text() and page.visible("waiting"), "the cancelled read's message")
        page.shot("6c-cancelled")
        simulator("remove")
        simulator("insert", arguments.specimen)

        # Two tabs: while the first reads, the second is told the reader is busy.
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        second = driver.current_window_handle
        page.open(inside.url)
        page.type_key(SPECIMEN)
        page.wait(lambda: page.hook("start").is_enabled(), "the second tab's key")
        driver.switch_to.window(first)
        page.type_key(SPECIMEN)
        page.start()
        page.wait(lambda: page.visible("reading"), "the first tab reading")
        driver.switch_to.window(second)
        page.hook("start").click()
        page.wait(lambda: "Another window" in page.error_text(), "busy in the second tab")
        page.shot("7-second-tab-busy")
        driver.switch_to.window(first)
        expect(page.answer().get_attribute("data-accepted") == "true", "the first tab's read finished")
        driver.switch_to.window(second)
        driver.close()
        driver.switch_to.window(first)

        # The CAN instead of the MRZ (the simulated chip's default CAN): PACE, no page to compare.
        page.open(inside.url)
        page.hook("can-input").send_keys("123456")
        page.start()
        expect(page.answer().get_attribute("data-accepted") == "true", "a read opened with the CAN")
        page.hook("next").click()

        # Expired today, and a page that differs from the chip: not accepted, both reasons.
        page.open(today.url)
        page.type_key(OTHER_HOLDER)
        page.start()
        box = page.answer()
        reasons = [reason.text for reason in page.hooks("reason")]
        expect(box.get_attribute("data-accepted") == "false", "the expired, differing document is not accepted")
        expect(any("expired" in reason for reason in reasons) and any("differs" in reason for reason in reasons),
               f"both reasons shown ({reasons})")
        page.shot("8-answer-not-accepted")
    finally:
        driver.quit()
        inside.stop()
        today.stop()
        guarded.stop()
    logs = "".join(open(os.path.join(arguments.out, f"station-{name}.log")).read() for name in ["inside", "today", "token"])
    expect("L898902C" not in logs and "ERIKSSON" not in logs and "690806" not in logs,
           "no MRZ or holder data in the stations' logs")
    print("test-station: passed")


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"test-station: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
