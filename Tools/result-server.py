#!/usr/bin/env python3
"""A test result server for `emrtd serve` (tests and Tools/load-test.sh): accepts POSTs on
127.0.0.1, appends one JSON line per POST to LOG ({"validationId", "path", "headers", "bytes"}),
and answers 200 (or --status CODE to refuse). Prints its port on the first line of stdout.

    Tools/result-server.py --log FILE [--port 0] [--status 500]
"""

import argparse
import http.server
import json
import os
import signal
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--status", type=int, default=200)
    options = parser.parse_args()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > 64 * 1024 * 1024:
                self.send_error(413)
                return
            body = self.rfile.read(length)
            try:
                validation_id = json.loads(body).get("validationId")
            except ValueError:
                validation_id = None
            entry = {
                "validationId": validation_id,
                "path": self.path,
                "headers": {k: v for k, v in self.headers.items() if k.lower().startswith("x-")},
                "bytes": len(body),
                "status": options.status,
            }
            with lock, open(options.log, "a") as log:
                log.write(json.dumps(entry) + "\n")
            self.send_response(options.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *arguments):
            pass

    # A test runner may start us with SIGTERM ignored (inherited): stop on it regardless.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
