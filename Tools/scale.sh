#!/usr/bin/env bash
# Runs N `emrtd serve` processes behind Debian's nginx (WebSocket proxying), loopback only, all
# state in one directory: nothing of the system's nginx (config, logs, /run) is read or written.
#
#   Tools/scale.sh start DIR N TENANTS [SERVE OPTION...]   # prints the front URL
#   Tools/scale.sh stop DIR
#
# DIR gets nginx.conf, the logs, nginx.pid, backend-K.pid/.log (one per `emrtd serve`, each on a
# port the kernel picked), backend-K.outbox (each server's own outbox: one process per outbox; a
# restart with `start` on the same DIR resumes them) and url (ws://127.0.0.1:PORT/ws/validate).
# SERVE OPTIONs go to every `emrtd serve` (e.g. --csca FILE --no-builtin). $EMRTD names the emrtd binary (default: the
# release build, else the debug one). Each server keeps nothing between sessions, so nginx
# spreads new sessions round-robin and a dead backend's new sessions go to the others.
set -euo pipefail

repository="$(cd "$(dirname "$0")/.." && pwd)"
emrtd="${EMRTD:-}"
if [ -z "$emrtd" ]; then
    emrtd="$repository/.build/release/emrtd"
    [ -x "$emrtd" ] || emrtd="$repository/.build/debug/emrtd"
fi
nginx="$(command -v nginx || echo /usr/sbin/nginx)"

usage() { sed -n '5,6p' "$0" | sed 's/^# *//' >&2; exit 2; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start() {
    local dir="$1" count="$2" tenants="$3"
    shift 3
    [ -x "$emrtd" ] || { echo "scale: no emrtd at $emrtd (swift build -c release --product emrtd)" >&2; exit 1; }
    [ -x "$nginx" ] || { echo "scale: no nginx (Tools/setup.sh installs it)" >&2; exit 1; }
    mkdir -p "$dir/temp"
    dir="$(cd "$dir" && pwd)"
    local upstream=""
    for index in $(seq 1 "$count"); do
        # Standard input and output away from the caller's, which may be a pipe it reads to the end.
        "$emrtd" serve --listen 127.0.0.1:0 --tenants "$tenants" --outbox "$dir/backend-$index.outbox" "$@" \
            </dev/null >/dev/null 2>"$dir/backend-$index.log" &
        echo $! >"$dir/backend-$index.pid"
        local port=""
        for _ in $(seq 1 100); do
            port="$(grep -o '"port":[0-9]*' "$dir/backend-$index.log" 2>/dev/null | head -1 | cut -d: -f2 || true)"
            [ -n "$port" ] && break
            kill -0 "$(cat "$dir/backend-$index.pid")" 2>/dev/null || break
            sleep 0.1
        done
        [ -n "$port" ] || { echo "scale: backend $index did not start:" >&2; cat "$dir/backend-$index.log" >&2; exit 1; }
        echo "$port" >"$dir/backend-$index.port"
        upstream+="        server 127.0.0.1:$port max_fails=1 fail_timeout=30s;"$'\n'
    done
    local front
    front="$(free_port)"
    cat >"$dir/nginx.conf" <<CONF
# Written by Tools/scale.sh: $count emrtd serve backends behind one WebSocket proxy.
worker_processes 1;
daemon on;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    upstream emrtd_serve {
$upstream    }
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
    server {
        listen 127.0.0.1:$front;
        location /ws/validate {
            proxy_pass http://emrtd_serve;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$remote_addr;
            # Longer than a session may last (emrtd serve --session-timeout, 120 s by default).
            proxy_read_timeout 130s;
            proxy_send_timeout 130s;
        }
    }
}
CONF
    # -e: the error log before the configuration is read (else /var/log/nginx); -p: the prefix.
    "$nginx" -e "$dir/error.log" -p "$dir" -c "$dir/nginx.conf" </dev/null >/dev/null
    echo "ws://127.0.0.1:$front/ws/validate" | tee "$dir/url"
}

stop() {
    local dir="$1"
    if [ -s "$dir/nginx.pid" ]; then kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true; fi
    for pidfile in "$dir"/backend-*.pid; do
        [ -e "$pidfile" ] || continue
        kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    for pidfile in "$dir"/backend-*.pid; do
        [ -e "$pidfile" ] || continue
        local pid
        pid="$(cat "$pidfile")"
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    done
}

case "${1:-}" in
start) [ $# -ge 4 ] || usage; shift; start "$@" ;;
stop) [ $# -eq 2 ] || usage; stop "$2" ;;
*) usage ;;
esac
