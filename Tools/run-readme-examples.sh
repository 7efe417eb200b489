#!/usr/bin/env bash
# Runs the README code blocks marked runnable, as a new user would paste them: every fence whose
# info string is `sh runnable` or `python runnable` in README.md, Bindings/*/README.md and
# Packages/*/README.md. Shell blocks run with `bash -euo pipefail` in an empty folder, the
# `emrtd` of EMRTD_BIN (default .build/release/emrtd, else .build/debug/emrtd) first on PATH
# (their chip is the simulator: `--simulator`); Python blocks run with the wheel alone in a fresh
# virtual environment (dist/emrtd-*.whl, Tools/build-python.sh builds it; EMRTD_PYTHON names an
# interpreter that has it instead). A block that fails stops the run, its file and line named.
#   Tools/run-readme-examples.sh [--shell-only | --python-only]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${1:-all}
work=$(mktemp -d /tmp/emrtd-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Each block to its own file, named FILE:LINE.KIND in the list.
/usr/bin/python3 - "$work" README.md Bindings/*/README.md Packages/*/README.md <<'EOF'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
count = 0
with open(out / "blocks.txt", "w") as listing:
    for name in sys.argv[2:]:
        lines = pathlib.Path(name).read_text().splitlines()
        index = 0
        while index < len(lines):
            match = re.fullmatch(r"\s*```(sh|python) runnable\s*", lines[index])
            if not match:
                index += 1
                continue
            start, body = index + 1, []
            index += 1
            while index < len(lines) and lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            count += 1
            path = out / f"block{count}.{'sh' if match[1] == 'sh' else 'py'}"
            path.write_text("\n".join(body) + "\n")
            listing.write(f"{path}\t{name}:{start}\n")
            index += 1
print(f"{count} runnable blocks", file=sys.stderr)
EOF

emrtd=${EMRTD_BIN:-}
if [ -z "$emrtd" ]; then
    for candidate in .build/release/emrtd .build/debug/emrtd; do
        if [ -x "$candidate" ]; then emrtd=$root/$candidate; break; fi
    done
fi
python=${EMRTD_PYTHON:-}

ran=0
while IFS=$'\t' read -r block origin; do
    case "$block" in
    *.sh)
        [ "$mode" != --python-only ] || continue
        [ -n "$emrtd" ] || { echo "run-readme-examples.sh: no emrtd (EMRTD_BIN, or build it)" >&2; exit 1; }
        mkdir -p "$work/bin" "$work/run-$ran"
        ln -sf "$emrtd" "$work/bin/emrtd"
        echo "== $origin (shell)"
        if ! (cd "$work/run-$ran" && PATH="$work/bin:$PATH" bash -euo pipefail "$block"); then
            echo "run-readme-examples.sh: the block at $origin failed" >&2
            exit 1
        fi
        ;;
    *.py)
        [ "$mode" != --shell-only ] || continue
        if [ -z "$python" ]; then
            wheel=$(ls dist/emrtd-*.whl 2>/dev/null | tail -1)
            [ -n "$wheel" ] || { echo "run-readme-examples.sh: no dist/emrtd-*.whl (Tools/build-python.sh)" >&2; exit 1; }
            /usr/bin/python3 -m venv "$work/venv"
            "$work/venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
            python=$work/venv/bin/python
        fi
        echo "== $origin (python)"
        mkdir -p "$work/run-$ran"
        if ! (cd "$work/run-$ran" && env -u EMRTD_LIBRARY -u PYTHONPATH "$python" "$block"); then
            echo "run-readme-examples.sh: the block at $origin failed" >&2
            exit 1
        fi
        ;;
    esac
    ran=$((ran + 1))
done <"$work/blocks.txt"
echo "run-readme-examples.sh: $ran blocks ran"
