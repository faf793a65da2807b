#!/usr/bin/env python3
"""Every module a target's Swift sources import is one of the target's declared dependencies in Package.swift.

A module reached only through another dependency (Hummingbird bringing NIOCore along, say) builds today and breaks
the day that dependency stops depending on it; declared, the graph in Package.swift is the graph the code uses.
Reads the package's `swift package describe --type json` (or the file given as the only argument) and lists each
undeclared import with a file that makes it; exits 1 when there is one. `make test` runs it."""
import json
import re
import subprocess
import sys
from pathlib import Path

# Modules the Swift toolchain ships: no package provides them, so no target declares them.
TOOLCHAIN_MODULES = {
    "Darwin", "Dispatch", "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl",
    "Synchronization", "SwiftOverlayShims", "Testing", "XCTest", "_Concurrency",
}

# Products of other packages that vend more modules than the one of their own name.
PRODUCT_MODULES = {
    "Instrumentation": {"Instrumentation", "ServiceContextModule"},
}

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)",
    re.MULTILINE,
)


def describe():
    if len(sys.argv) > 1:
        return json.loads(Path(sys.argv[1]).read_text())
    root = Path(__file__).resolve().parents[2]
    output = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True)
    return json.loads(output.stdout)


def undeclared_imports(package):
    """Each target's undeclared modules, each with the files that import it."""
    root = Path(package["path"])
    for target in sorted(package["targets"], key=lambda target: target["name"]):
        declared = {target["name"]} | set(target.get("target_dependencies", []))
        for product in target.get("product_dependencies", []):
            declared |= PRODUCT_MODULES.get(product, {product})
        importers = {}
        for source in sorted(source for source in target.get("sources", []) if source.endswith(".swift")):
            path = f"{target['path']}/{source}"
            for module in set(IMPORT.findall((root / path).read_text())) - declared - TOOLCHAIN_MODULES:
                importers.setdefault(module, []).append(path)
        for module, paths in sorted(importers.items()):
            yield target["name"], module, paths


def main():
    problems = list(undeclared_imports(describe()))
    for target, module, paths in problems:
        others = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        print(f"{target} imports {module} without declaring it ({paths[0]}{others})", file=sys.stderr)
    if problems:
        print("kiwi: add each of these to its target's dependencies in Package.swift", file=sys.stderr)
        sys.exit(1)


main()
