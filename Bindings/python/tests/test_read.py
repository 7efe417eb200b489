"""emrtd.read: whole reads of the simulated chip, through the pure-Python transport of the tests
(SimulatedChip, one simulator each) and through PcscTransport (the simulator behind pcscd)."""

import os
import signal
import threading
import time

import pytest

import emrtd
from emrtd.transports import PcscTransport
from simulated_chip import SPECIMEN_KEY, SimulatedChip

KEY = emrtd.AccessKey.mrz(*SPECIMEN_KEY)


def assert_genuine(document):
    assert document["authenticationStatus"]["data"]["status"] == "authenticated"
    assert document["machineReadableZoneInformation"]["machineReadableZone"]["lines"][1].startswith("L898902C<")
    assert document["ldsMasterFile"]["lds1EmrtdApplication"]["dg2"]["bytes"]


def test_reads_through_a_python_transport_with_events(emrtd_bin):
    events = []
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, KEY, csca=[chip.csca], listener=events.append, render_images=False)
        assert chip.apdus > 10
    assert_genuine(document)
    assert events[0] == {"type": "accessStarted"}
    assert events[-1] == {"type": "dataAuthenticationStarted"}
    progress = [event["percentage"] for event in events if event["type"] == "progress"]
    assert progress == sorted(progress) and progress[-1] == 100


def test_without_the_csca_the_data_is_not_authenticated(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, KEY, render_images=False)
    assert document["authenticationStatus"]["data"]["status"] != "authenticated"


def test_active_authentication_challenge_comes_back_signed(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:
        document = emrtd.read(chip, KEY, challenge=bytes(range(8)), csca=[chip.csca], render_images=False)
    assert document["authenticationStatus"]["chip"]["activeAuthenticationResponse"]


def test_four_reads_on_four_threads_at_once(emrtd_bin):
    chips = [SimulatedChip(emrtd_bin) for _ in range(4)]
    results = [None] * 4
    running = threading.Barrier(4)
    # Each transport counts the reads inside the library at the same moment.
    inside, most = [0], [0]
    lock = threading.Lock()

    class Counting:
        def __init__(self, chip):
            self.chip = chip

        def transceive(self, apdu):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            try:
                time.sleep(0.002)
                return self.chip.transceive(apdu)
            finally:
                with lock:
                    inside[0] -= 1

        def supports_extended_length(self):
            return True

    def run(index):
        running.wait()
        try:
            results[index] = emrtd.read(Counting(chips[index]), KEY, csca=[chips[index].csca], render_images=False)
        except Exception as error:  # the assertion below names it
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        for chip in chips:
            chip.close()
    for result in results:
        assert isinstance(result, dict), result
        assert_genuine(result)
    assert most[0] > 1, "the reads ran one after the other"


def test_cancel_from_another_thread_by_ctrl_c(emrtd_bin):
    """Ctrl-C (SIGINT while the main thread waits for the read) cancels the read before its next
    APDU, then raises KeyboardInterrupt."""
    with SimulatedChip(emrtd_bin) as chip:

        class Slow:
            def transceive(self, apdu):
                if chip.apdus == 5:
                    os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C does
                if chip.apdus >= 5:
                    time.sleep(0.2)  # the chip slows down: the cancel lands between two APDUs
                return chip.transceive(apdu)

            def supports_extended_length(self):
                return True

        # Python installs its KeyboardInterrupt handler only when SIGINT was not ignored at start
        # (a job started in the background of a non-interactive shell, as CI may start this, has
        # it ignored): install it for the test, as an interactive program has it.
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            with pytest.raises(KeyboardInterrupt):
                emrtd.read(Slow(), KEY, render_images=False)
        finally:
            signal.signal(signal.SIGINT, previous)
        sent = chip.apdus
        time.sleep(0.5)
        assert 6 <= sent <= 8 and chip.apdus == sent


def test_the_transport_cancelling_is_a_cancelled_error(emrtd_bin):
    with SimulatedChip(emrtd_bin) as chip:

        class Giving:
            def transceive(self, apdu):
                if chip.apdus == 3:
                    raise emrtd.TransportError("cancelled")
                return chip.transceive(apdu)

            def supports_extended_length(self):
                return True

        with pytest.raises(emrtd.ReadError) as raised:
            emrtd.read(Giving(), KEY, render_images=False)
    assert raised.value.code == "cancelled" and raised.value.reason is None


def test_reads_the_simulator_behind_pcscd(pcsc_reader):
    reader, csca = pcsc_reader
    with PcscTransport(reader) as transport:
        document = emrtd.read(transport, KEY, csca=[csca], render_images=False)
    assert_genuine(document)

