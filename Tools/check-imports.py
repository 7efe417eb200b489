#!/usr/bin/env python3
"""Holds the layering of CONTRIBUTING.md's map against the tree.

    Tools/check-imports.py

Reads the map (the `| package | owns | may import |` table under "## The map"), the targets
of Package.swift (`swift package dump-package`) and every `import` in the Swift sources, and
reports, one line each:

- a package (Packages/<Name>/Sources) importing a module its row does not allow (file:line);
- a package whose dependency list in Package.swift differs from its row, either way;
- a dependency in Package.swift that no source of the target imports (any target: packages,
  apps, fuzz, tests);
- a row for a package Package.swift does not have, or a package without a row.

Exits 1 when it reports anything. A row's cell is `nothing` or backticked module names
separated by commas, so that a new import is a one-word edit of the table and of Package.swift.
"""

import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Modules of the toolchain and the system, which the map does not list: any target may import
# them.
TOOLCHAIN_MODULES = {
    "Swift",  # the standard library, implicit
    "_Concurrency",  # the concurrency runtime, implicit
    "Foundation",  # Data, URL, FileManager, Process
    "FoundationEssentials",  # the part of Foundation without ICU
    "FoundationNetworking",  # URLSession on Linux (over libcurl): the validation server's result POST
    "Glibc",  # the C library on Linux (signals, file descriptors, errno)
    "Dispatch",  # queues and semaphores (the pcsc-lite calls that block)
    "Synchronization",  # Mutex and atomics
    "Testing",  # Swift Testing, in test targets
}

# Package.swift gives every package's test target TestSupport, whether it uses it or not.
IMPLICIT_TEST_DEPENDENCIES = {"TestSupport"}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)
MODULE_IN_CELL = re.compile(r"^`([A-Za-z_][A-Za-z0-9_]*)`$")


def read_map(path):
    """Returns {package: (line number, set of modules it may import, or None when the row could
    not be read)} and the errors met."""
    rows, errors = {}, []
    in_map, in_table = False, False
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.startswith("## "):
            in_map = line.strip() == "## The map"
            in_table = False
            continue
        if not in_map:
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells == ["package", "owns", "may import"]:
            in_table = True
            continue
        if not in_table or not line.startswith("|") or set(line) <= set("|-: "):
            continue
        where = f"{path.relative_to(ROOT)}:{number}"
        name = MODULE_IN_CELL.match(cells[0])
        if len(cells) < 3 or not name:
            errors.append(f"{where}: cannot read this row of the map: {line.strip()}")
            continue
        allowed = set()
        if cells[-1] != "nothing":
            for item in cells[-1].split(","):
                module = MODULE_IN_CELL.match(item.strip())
                if not module:
                    errors.append(
                        f"{where}: {name[1]}'s 'may import' cell must be `nothing` or backticked "
                        f"module names separated by commas, not: {cells[-1]}"
                    )
                    allowed = None
                    break
                allowed.add(module[1])
        rows[name[1]] = (number, allowed)
    if not rows:
        errors.append(f"{path.relative_to(ROOT)}: no '| package | owns | may import |' table under '## The map'")
    return rows, errors


def read_targets():
    """Returns Package.swift's targets: [(name, type, path, set of dependency names)]."""
    dump = subprocess.run(
        ["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True
    )
    targets = []
    for target in json.loads(dump.stdout)["targets"]:
        dependencies = {list(entry.values())[0][0] for entry in target["dependencies"]}
        path = target.get("path") or f"Sources/{target['name']}"
        targets.append((target["name"], target["type"], path, dependencies))
    return targets


def imports_of(directory):
    """Yields (file, line number, module) for every import in the Swift files under directory,
    skipping comments and multi-line string literals (a script embedded in a test)."""
    for file in sorted(directory.rglob("*.swift")):
        in_string, in_comment = False, False
        for number, line in enumerate(file.read_text().splitlines(), start=1):
            if in_comment:
                in_comment = "*/" not in line
                continue
            if in_string:
                in_string = line.count('"""') % 2 == 0
                continue
            if line.count('"""') % 2 == 1:
                in_string = True
                continue
            if line.lstrip().startswith("/*") and "*/" not in line:
                in_comment = True
                continue
            match = IMPORT.match(line)
            if match:
                yield file, number, match[1]


def main():
    contributing = ROOT / "CONTRIBUTING.md"
    rows, problems = read_map(contributing)
    targets = read_targets()
    packages = {name for name, kind, path, _ in targets if re.fullmatch(rf"Packages/{name}/Sources", path)}

    for name, kind, path, dependencies in targets:
        if kind == "system":
            continue
        imported = {}
        for file, number, module in imports_of(ROOT / path):
            imported.setdefault(module, f"{file.relative_to(ROOT)}:{number}")
            if name in packages and name in rows and module not in TOOLCHAIN_MODULES | {name}:
                allowed = rows[name][1]
                if allowed is not None and module not in allowed:
                    allows = ", ".join(sorted(allowed)) or "nothing"
                    problems.append(
                        f"{file.relative_to(ROOT)}:{number}: {name} imports {module}; "
                        f"its row in CONTRIBUTING.md allows: {allows}"
                    )
        implicit = IMPLICIT_TEST_DEPENDENCIES if kind == "test" else set()
        for dependency in sorted(dependencies - set(imported) - implicit):
            problems.append(f"Package.swift: {name} depends on {dependency}, which none of {path} imports")

        if name not in packages:
            continue
        if name not in rows:
            problems.append(f"CONTRIBUTING.md: the map has no row for the package {name}")
            continue
        row_line, allowed = rows[name]
        if allowed is None:
            continue
        for dependency in sorted(dependencies - allowed):
            problems.append(
                f"Package.swift: {name} depends on {dependency}; its row "
                f"(CONTRIBUTING.md:{row_line}) does not allow it"
            )
        for module in sorted(allowed - dependencies):
            problems.append(
                f"CONTRIBUTING.md:{row_line}: {name}'s row allows {module}; "
                f"Package.swift does not list it among {name}'s dependencies"
            )

    for name in sorted(set(rows) - packages):
        problems.append(
            f"CONTRIBUTING.md:{rows[name][0]}: the map has a row for {name}, "
            f"which is no package of Package.swift (Packages/{name}/Sources)"
        )

    for problem in problems:
        print(problem)
    if problems:
        print(f"check-imports: {len(problems)} problem(s); the map is CONTRIBUTING.md's '## The map'")
        return 1
    print(f"check-imports: {len(packages)} packages match the map; every dependency is imported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
