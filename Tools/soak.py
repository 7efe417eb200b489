#!/usr/bin/env python3
"""A bounded soak of `emrtd serve`'s delivery, loopback only, not part of CI.

    Tools/soak.py [--sessions 2000] [--backends 3] [--clients 6] [--flap 10] [--limit 3600] [--keep]

Makes a specimen chip, a tenant with a secret (each session's token minted here, as a tenant's
back end would), a result server (Tools/result-server.py, which de-duplicates by
Idempotency-Key) and BACKENDS servers behind nginx (Tools/scale.sh, an outbox each). Runs
SESSIONS `emrtd relay --simulator` validations, CLIENTS at a time, while the result server is
stopped and started again every FLAP seconds (same port, same log). Then starts the result server
for good, waits for every outbox to drain, and checks:

- every session whose result was safe (close 1000 or 4008) has its validationId answered 2xx by
  the result server, exactly once after de-duplication, with the body's validationId the key;
- nothing is left in an outbox, nothing set aside as undeliverable;
- each server's resident memory (VmRSS) and open files (/proc/PID/fd) flat: sampled at start,
  after a warm-up (the first 5 % of sessions) and at the end; the end may exceed the warm-up by
  at most 50 % + 16 MB of RSS and 8 descriptors.

Prints the figures as JSON; exits 1 when a check fails. Every process it starts is stopped at the
end; --limit bounds the whole run (sessions not started by then are skipped and reported).
"""

import argparse
import base64
import concurrent.futures
import hashlib
import hmac
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def emrtd_binary():
    if os.environ.get("EMRTD"):
        return os.environ["EMRTD"]
    release = ROOT / ".build/release/emrtd"
    return str(release if release.exists() else ROOT / ".build/debug/emrtd")


def mint_token(secret, client_id, validation_id, ttl=300):
    """A session token as a tenant's back end mints it (Packages/Validation/README.md)."""
    expiry = str(int(time.time()) + ttl)
    message = b"\0".join([b"emrtd-token-v1", client_id.encode(), validation_id.encode(), expiry.encode()])
    mac = hmac.new(secret, message, hashlib.sha256).digest()
    return f"v1.{expiry}." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def sample(pid):
    """(VmRSS in kB, open descriptors) of a running process."""
    rss = None
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return {"rssKB": rss, "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ResultServer:
    """Tools/result-server.py on a fixed port, started and stopped at will."""

    def __init__(self, port, log):
        self.port, self.log, self.process = port, log, None
        self.lock = threading.Lock()
        self.starts = 0

    def start(self):
        with self.lock:
            if self.process:
                return
            for _ in range(50):
                process = subprocess.Popen(
                    [sys.executable, str(ROOT / "Tools/result-server.py"), "--log", str(self.log),
                     "--port", str(self.port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                if process.stdout.readline().strip():
                    self.process = process
                    self.starts += 1
                    return
                process.wait()
                time.sleep(0.1)  # the port still held by the previous one's last connections
            raise RuntimeError(f"the result server cannot listen on {self.port}")

    def stop(self):
        with self.lock:
            if self.process:
                self.process.terminate()
                self.process.wait()
                self.process = None


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--backends", type=int, default=3)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--flap", type=float, default=10.0, help="seconds between result server stops and starts")
    parser.add_argument("--drain", type=int, default=600, help="seconds to wait for the outboxes to empty")
    parser.add_argument("--limit", type=int, default=3600, help="seconds for the whole run")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs) and print its path")
    options = parser.parse_args()
    if not (1 <= options.backends <= 8 and 1 <= options.clients <= 32 and 1 <= options.sessions <= 20000):
        parser.error("bounded: 1-8 backends, 1-32 clients, 1-20000 sessions")
    emrtd = emrtd_binary()
    work = pathlib.Path(tempfile.mkdtemp(prefix="emrtd-soak-"))
    scale = work / "scale"
    deadline = time.monotonic() + options.limit
    results = None
    flapping = threading.Event()
    try:
        chip = work / "chip"
        subprocess.run([emrtd, "relay", "--simulator", "--specimen-out", str(chip)], check=True)
        posts = work / "posts.jsonl"
        results = ResultServer(free_port(), posts)
        results.start()
        secret = os.urandom(32)
        tenants = work / "tenants.json"
        tenants.write_text(json.dumps({"tenants": {"soak": {
            "resultURL": f"http://127.0.0.1:{results.port}/results", "secret": base64.b64encode(secret).decode()}}}))
        os.chmod(tenants, 0o600)
        url = subprocess.run(
            [str(ROOT / "Tools/scale.sh"), "start", str(scale), str(options.backends), str(tenants),
             "--csca", str(chip / "csca.pem"), "--no-builtin", "--max-sessions", "64",
             "--post-timeout", "2", "--delivery-backoff-ms", "200"],
            check=True, capture_output=True, text=True, env=dict(os.environ, EMRTD=emrtd)).stdout.strip()
        backends = [int((scale / f"backend-{i}.pid").read_text()) for i in range(1, options.backends + 1)]
        samples = {"start": {pid: sample(pid) for pid in backends}}

        flapping.set()

        def flap():
            while flapping.is_set():
                time.sleep(options.flap)
                if not flapping.is_set():
                    break
                if results.process:
                    results.stop()
                else:
                    results.start()

        flapper = threading.Thread(target=flap, daemon=True)
        flapper.start()

        warm_after = max(1, options.sessions // 20)
        done = [0]
        lock = threading.Lock()

        def session(index):
            if time.monotonic() > deadline - options.drain:
                return index, "skipped"
            validation_id = f"soak-{index}"
            output = work / "relays" / f"{index}.json"
            with open(output, "wb") as sink:
                subprocess.run(
                    [emrtd, "relay", "--simulator", str(chip), "--server", url, "--client-id", "soak",
                     "--validation-id", validation_id, "--token", mint_token(secret, "soak", validation_id),
                     "--can", "123456", "--json", "--server-timeout", "30"],
                    stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            try:
                code = json.loads(output.read_text())["code"]
            except (ValueError, KeyError):
                code = None
            with lock:
                done[0] += 1
                if done[0] == warm_after:
                    samples["warm"] = {pid: sample(pid) for pid in backends}
            return index, code

        (work / "relays").mkdir()
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(options.clients) as pool:
            outcomes = list(pool.map(session, range(options.sessions)))
        phase = time.monotonic() - started
        flapping.clear()
        flapper.join()
        results.start()

        def pending():
            return sum(len(list((scale / f"backend-{i}.outbox").glob("*.result")))
                       for i in range(1, options.backends + 1))

        drain_started = time.monotonic()
        while pending() and time.monotonic() < min(deadline, drain_started + options.drain):
            time.sleep(1)
        drain = time.monotonic() - drain_started
        samples["end"] = {pid: sample(pid) for pid in backends}

        accepted, duplicates, receipts, refused, mismatched = {}, 0, 0, 0, 0
        for line in posts.read_text().splitlines() if posts.exists() else []:
            entry = json.loads(line)
            receipts += 1
            if not 200 <= entry["status"] < 300:
                refused += 1
                continue
            key = entry.get("idempotencyKey")
            if entry.get("validationId") != key:
                mismatched += 1
            if entry.get("duplicate") or key in accepted:
                duplicates += 1
            accepted[key] = accepted.get(key, 0) + 1
        codes = {}
        for _, code in outcomes:
            codes[str(code)] = codes.get(str(code), 0) + 1
        safe = [f"soak-{index}" for index, code in outcomes if code in (1000, 4008)]
        missing = [key for key in safe if key not in accepted]
        unsafe = [(index, code) for index, code in outcomes if code not in (1000, 4008, "skipped")]
        undeliverable = sum(len(list((scale / f"backend-{i}.outbox/undeliverable").glob("*")))
                            for i in range(1, options.backends + 1)
                            if (scale / f"backend-{i}.outbox/undeliverable").exists())
        failures = []
        if missing:
            failures.append(f"{len(missing)} safe results never delivered (e.g. {missing[:5]})")
        if mismatched:
            failures.append(f"{mismatched} deliveries whose body's validationId is not their Idempotency-Key")
        if pending() or undeliverable:
            failures.append(f"{pending()} left in the outboxes, {undeliverable} set aside")
        if len(unsafe) > max(1, options.sessions // 100):
            failures.append(f"{len(unsafe)} sessions ended neither 1000 nor 4008: {unsafe[:10]}")
        baseline = samples.get("warm", samples["start"])
        for pid in backends:
            warm, end = baseline[pid], samples["end"][pid]
            if end["rssKB"] > warm["rssKB"] * 1.5 + 16 * 1024:
                failures.append(f"backend {pid}: RSS {warm['rssKB']} -> {end['rssKB']} kB")
            if end["fds"] > warm["fds"] + 8:
                failures.append(f"backend {pid}: open files {warm['fds']} -> {end['fds']}")
        report = {
            "sessions": options.sessions, "backends": options.backends, "clients": options.clients,
            "flapSeconds": options.flap, "resultServerStarts": results.starts,
            "sessionsSeconds": round(phase, 1), "sessionsPerSecond": round(len(outcomes) / phase, 2),
            "drainSeconds": round(drain, 1), "closeCodes": dict(sorted(codes.items())),
            "safeResults": len(safe), "deliveredDistinct": len(accepted), "receipts": receipts,
            "refusedWhileFlapping": refused, "duplicatesDropped": duplicates, "missing": len(missing),
            "leftInOutboxes": pending(), "undeliverable": undeliverable,
            "servers": {str(pid): {phase_name: samples[phase_name][pid] for phase_name in samples}
                        for pid in backends},
            "failures": failures,
        }
        print(json.dumps(report, indent=2))
        return 1 if failures else 0
    finally:
        flapping.clear()
        if scale.exists():
            subprocess.run([str(ROOT / "Tools/scale.sh"), "stop", str(scale)], check=False)
        if results:
            results.stop()
        if options.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
