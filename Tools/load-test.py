#!/usr/bin/env python3
"""A bounded load test of `emrtd serve` behind nginx (Tools/scale.sh), loopback only.

    Tools/load-test.py [--backends 2] [--clients 4] [--sessions 40] [--kill-at 0.5] [--limit 300]

Makes a specimen chip (`emrtd relay --specimen-out`), starts a test result server
(Tools/result-server.py) and N backends behind nginx, then runs SESSIONS validations with CLIENTS
`emrtd relay --simulator` processes at a time through nginx. When the fraction --kill-at of the
sessions has started, one backend is killed (SIGKILL): its sessions in flight must end with a
close code (1006 through nginx: the link dropped), later sessions go to the others. Reports
sessions per second, p50/p99 session time (client wall time, and the server's own `ms`), the
servers' CPU per session against the same read done locally (`emrtd read --simulator`, whose CPU
also holds the simulated chip's side and a process start: the relay's CPU and an `emrtd --version`
are printed beside it),
and checks that every confirmed session was posted exactly once and nothing twice. Exits 1 when
a check fails. Every process it starts is stopped at the end; --limit bounds the whole run.
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
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def emrtd_binary():
    if os.environ.get("EMRTD"):
        return os.environ["EMRTD"]
    release = ROOT / ".build/release/emrtd"
    return str(release if release.exists() else ROOT / ".build/debug/emrtd")


def cpu_seconds(pid):
    """User + system CPU of a running process, from /proc."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return None


def run_measured(arguments, output_path):
    """Runs a child to its end; returns (exit status, wall seconds, CPU seconds of the child)."""
    start = time.monotonic()
    with open(output_path, "wb") as output:
        child = subprocess.Popen(arguments, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, time.monotonic() - start, usage.ru_utime + usage.ru_stime


def established(port):
    """Whether a TCP connection to 127.0.0.1:port is established (state 01 in /proc/net/tcp and
    tcp6: libwebsockets listens on a dual-stack socket)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = pathlib.Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                return True
    return False


def mint_token(secret, client_id, validation_id, ttl=300):
    """A session token as a tenant's back end mints it (Packages/Validation/README.md)."""
    expiry = str(int(time.time()) + ttl)
    message = b"\0".join([b"emrtd-token-v1", client_id.encode(), validation_id.encode(), expiry.encode()])
    mac = hmac.new(secret, message, hashlib.sha256).digest()
    return f"v1.{expiry}." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    # SIGTERM (e.g. from timeout) ends the run through the finally below, which stops everything.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser()
    parser.add_argument("--backends", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--kill-at", type=float, default=0.5, help="fraction of sessions started; 0: kill none")
    parser.add_argument("--local-reads", type=int, default=10)
    parser.add_argument("--limit", type=int, default=300, help="seconds for the whole run")
    options = parser.parse_args()
    if not (1 <= options.backends <= 8 and 1 <= options.clients <= 32 and 1 <= options.sessions <= 1000):
        parser.error("bounded: 1-8 backends, 1-32 clients, 1-1000 sessions")
    emrtd = emrtd_binary()
    work = pathlib.Path(tempfile.mkdtemp(prefix="emrtd-load-"))
    started = []
    deadline = time.monotonic() + options.limit
    failures = []
    try:
        chip = work / "chip"
        subprocess.run([emrtd, "relay", "--simulator", "--specimen-out", str(chip)], check=True)
        posts = work / "posts.jsonl"
        result_server = subprocess.Popen(
            [sys.executable, str(ROOT / "Tools/result-server.py"), "--log", str(posts)], stdout=subprocess.PIPE)
        started.append(result_server)
        result_port = int(result_server.stdout.readline())
        tenants = work / "tenants.json"
        secret = os.urandom(32)
        tenants.write_text(json.dumps({"tenants": {"load": {
            "resultURL": f"http://127.0.0.1:{result_port}/results", "secret": base64.b64encode(secret).decode()}}}))
        scale = work / "scale"
        url = subprocess.run(
            [str(ROOT / "Tools/scale.sh"), "start", str(scale), str(options.backends), str(tenants),
             "--csca", str(chip / "csca.pem"), "--no-builtin", "--max-sessions", "64"],
            check=True, capture_output=True, text=True, env=dict(os.environ, EMRTD=emrtd)).stdout.strip()
        backends = [int((scale / f"backend-{i}.pid").read_text()) for i in range(1, options.backends + 1)]
        cpu_before = {pid: cpu_seconds(pid) for pid in backends}
        cpu_at_end = {}

        victim_port = int((scale / "backend-1.port").read_text())

        def kill_mid_session(victim, port):
            """SIGKILL the backend once a session is open on it (within 5 s), so that one ends mid-read."""
            for _ in range(500):
                if established(port):
                    break
                time.sleep(0.01)
            cpu_at_end[victim] = cpu_seconds(victim)
            os.kill(victim, signal.SIGKILL)

        lock = threading.Lock()
        launched = [0]
        killed = []
        kill_after = int(options.sessions * options.kill_at) if options.kill_at > 0 else None

        def session(index):
            if time.monotonic() > deadline:
                return index, None, 0.0, 0.0
            with lock:
                launched[0] += 1
                if kill_after is not None and launched[0] == kill_after + 1 and not killed:
                    killed.append(backends[0])
                    threading.Thread(target=kill_mid_session, args=(backends[0], victim_port)).start()
            output = work / f"relay-{index}.json"
            status, wall, cpu = run_measured(
                [emrtd, "relay", "--simulator", str(chip), "--server", url, "--client-id", "load",
                 "--validation-id", f"load-{index}", "--token", mint_token(secret, "load", f"load-{index}"),
                 "--can", "123456", "--json", "--server-timeout", "30"], output)
            try:
                code = json.loads(output.read_text())["code"]
            except (ValueError, KeyError):
                code = None
            return index, code, wall, cpu

        phase_start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(options.clients) as pool:
            outcomes = list(pool.map(session, range(options.sessions)))
        phase = time.monotonic() - phase_start
        for pid in backends:
            if pid not in killed:
                cpu_at_end[pid] = cpu_seconds(pid)
        server_cpu = sum((cpu_at_end[pid] or 0) - (cpu_before[pid] or 0) for pid in backends)

        local = [run_measured(
            [emrtd, "read", "--simulator", str(chip), "--can", "123456", "--json", "--no-render", "--no-builtin",
             "--csca", str(chip / "csca.pem")], work / "local.json") for _ in range(options.local_reads)]
        if any(status != 0 for status, _, _ in local):
            failures.append("a local read failed")
        local_cpu = statistics.mean(cpu for _, _, cpu in local)
        # What a process start costs (`emrtd --version`), to read the local figures without it.
        start_cpu = statistics.mean(
            run_measured([emrtd, "--version"], work / "version.txt")[2] for _ in range(options.local_reads))

        subprocess.run([str(ROOT / "Tools/scale.sh"), "stop", str(scale)], check=False)
        time.sleep(0.3)
        posted = {}
        for line in posts.read_text().splitlines() if posts.exists() else []:
            identifier = json.loads(line)["validationId"]
            posted[identifier] = posted.get(identifier, 0) + 1
        codes = {}
        for _, code, _, _ in outcomes:
            codes[code] = codes.get(code, 0) + 1
        confirmed = [o for o in outcomes if o[1] == 1000]
        for index, code, _, _ in outcomes:
            count = posted.get(f"load-{index}", 0)
            if code == 1000 and count != 1:
                failures.append(f"load-{index} confirmed but posted {count} times")
            if count > 1:
                failures.append(f"load-{index} posted {count} times")
        unclear = [o for o in outcomes if o[1] is None]
        if unclear:
            failures.append(f"{len(unclear)} sessions ended without a close code")
        if not killed and any(o[1] != 1000 for o in outcomes):
            failures.append("sessions failed with no backend killed")
        server_ms = []
        for log in scale.glob("backend-*.log"):
            for line in log.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("event") == "session" and entry.get("code") == 1000:
                    server_ms.append(entry["ms"])
        walls = [wall * 1000 for _, _, wall, _ in confirmed]
        relay_cpu = statistics.mean(cpu for _, code, _, cpu in outcomes if code == 1000) if confirmed else 0
        report = {
            "backends": options.backends, "clients": options.clients, "sessions": options.sessions,
            "killedBackend": bool(killed), "closeCodes": {str(k): v for k, v in sorted(codes.items(), key=str)},
            "confirmed": len(confirmed), "postedDistinct": len(posted), "postedTwice": sum(1 for v in posted.values() if v > 1),
            "sessionsPerSecond": round(len(confirmed) / phase, 2),
            "clientMsP50": round(percentile(walls, 0.5)), "clientMsP99": round(percentile(walls, 0.99)),
            "serverMsP50": round(percentile(server_ms, 0.5)), "serverMsP99": round(percentile(server_ms, 0.99)),
            "serverCpuMsPerSession": round(1000 * server_cpu / max(1, len(outcomes)), 1),
            "localReadCpuMs": round(1000 * local_cpu, 1), "relayClientCpuMs": round(1000 * relay_cpu, 1), "processStartCpuMs": round(1000 * start_cpu, 1),
            "failures": failures,
        }
        print(json.dumps(report, indent=2))
        return 1 if failures else 0
    finally:
        if (work / "scale").exists():
            subprocess.run([str(ROOT / "Tools/scale.sh"), "stop", str(work / "scale")], check=False)
        for process in started:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
