#!/usr/bin/env python3
"""A test result server for `emrtd serve` (tests, Tools/load-test.py, Tools/soak.py): accepts
POSTs on 127.0.0.1 and appends one JSON line per POST (and a {"method": "GET"} line per GET) to LOG:

    {"validationId", "idempotencyKey", "path", "headers", "bytes", "status", "duplicate"}

It answers 200, or --status CODE to refuse every POST, or 503 to the first --fail-first N POSTs
and then 200; --delay S waits S seconds before answering (a slow server); --redirect CODE
answers CODE (301, 302, 303, 307 or 308) with `Location: /moved` to every POST not already on
/moved (a server that moved: a client must not count that as delivered). It de-duplicates as a
real result server should: by the Idempotency-Key header (the validationId), a POST whose key was
already answered 2xx is answered 200 again and logged with "duplicate": true. The keys answered
2xx are read back from LOG at start, so a restarted server still knows them. Prints its port on
the first line of stdout.

    Tools/result-server.py --log FILE [--port 0] [--status 500] [--fail-first N] [--delay S] [--redirect 307]
"""

import argparse
import http.server
import json
import os
import signal
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--fail-first", type=int, default=0, help="answer 503 to this many POSTs first")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before answering")
    parser.add_argument("--redirect", type=int, choices=[301, 302, 303, 307, 308], help="answer this redirect")
    options = parser.parse_args()
    lock = threading.Lock()
    accepted = set()
    failures_left = [options.fail_first]
    if os.path.exists(options.log):
        with open(options.log) as log:
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if 200 <= entry.get("status", 0) < 300 and entry.get("idempotencyKey"):
                    accepted.add(entry["idempotencyKey"])

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > 64 * 1024 * 1024:
                self.send_error(413)
                return
            body = self.rfile.read(length)
            if options.delay:
                time.sleep(options.delay)
            try:
                validation_id = json.loads(body).get("validationId")
            except ValueError:
                validation_id = None
            key = self.headers.get("Idempotency-Key")
            with lock:
                redirected = options.redirect is not None and self.path != "/moved"
                if redirected:
                    status = options.redirect
                elif failures_left[0] > 0:
                    failures_left[0] -= 1
                    status = 503
                else:
                    status = options.status
                duplicate = 200 <= status < 300 and key is not None and key in accepted
                if 200 <= status < 300 and key is not None:
                    accepted.add(key)
                entry = {
                    "validationId": validation_id,
                    "idempotencyKey": key,
                    "path": self.path,
                    "headers": {k: v for k, v in self.headers.items() if k.lower().startswith("x-")},
                    "bytes": len(body),
                    "status": status,
                    "duplicate": duplicate,
                }
                with open(options.log, "a") as log:
                    log.write(json.dumps(entry) + "\n")
            self.send_response(status)
            if redirected:
                self.send_header("Location", "/moved")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):
            # Only a client that followed a redirect sends a GET: logged so a test sees it.
            with lock:
                with open(options.log, "a") as log:
                    log.write(json.dumps({"method": "GET", "path": self.path, "status": 200}) + "\n")
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *arguments):
            pass

    # A test runner may start us with SIGTERM ignored (inherited): stop on it regardless.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
