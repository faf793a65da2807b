#!/usr/bin/env python3
"""Every module a target's Swift sources import is one of the target's declared dependencies in Package.swift, and
every import of a Kiwi module goes the allowed direction between layers (docs/architecture.md, "Modules and layers").

A module reached only through another dependency (Hummingbird bringing NIOCore along, say) builds today and breaks
the day that dependency stops depending on it; declared, the graph in Package.swift is the graph the code uses.
A module of a lower layer that imports a higher one (a value type that reaches for SQL, a shared library that
reaches into a service) builds too, and is how a layered design erodes one convenient import at a time.
Reads the package's `swift package describe --type json` (or the file given as the only argument) and lists each
undeclared or upward import with a file that makes it; exits 1 when there is one. `make test` runs it."""
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

# Kiwi's modules by layer, lowest first. A module imports modules of its own layer or of lower ones, except in the two
# lowest: the JSON module imports no Kiwi module at all, and a foundations module none but the JSON module. A Kiwi
# library missing here fails the check: a new module is given its layer on purpose.
LAYERS = [
    ("JSON", {"KiwiStrictJSON"}),
    ("foundations", {"KiwiModels", "KiwiJPEG", "KiwiConcurrency", "KiwiConfiguration", "KiwiTracing", "CRabbitMQ"}),
    ("rules", {
        "KiwiDietGuard", "KiwiFood", "KiwiNutrition", "KiwiOpenAI", "KiwiInternalAPI", "KiwiAPIDocument", "KiwiLogging",
        "KiwiAppleSignIn", "KiwiAPIClient", "KiwiScans",
    }),
    ("stores and messaging", {"KiwiDatabase", "KiwiMessaging", "KiwiTopology", "KiwiScanStore", "KiwiScanMessages"}),
    ("service support", {"KiwiServiceSupport", "KiwiDevelopment", "KiwiBenchmarking", "KiwiGuardEvaluation", "KiwiTestSupport"}),
]

# Modules only tools and tests use (stand-in keys, synthetic photos, benchmarks, test fixtures): no service imports them.
DEVELOPMENT_ONLY = {"KiwiDevelopment", "KiwiBenchmarking", "KiwiGuardEvaluation", "KiwiTestSupport"}

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
    for target in sorted(package["targets"], key=lambda target: target["name"]):
        declared = {target["name"]} | set(target.get("target_dependencies", []))
        for product in target.get("product_dependencies", []):
            declared |= PRODUCT_MODULES.get(product, {product})
        for module, paths in sorted(imports(package, target).items()):
            if module not in declared | TOOLCHAIN_MODULES:
                yield target["name"], module, paths


def imports(package, target):
    """The modules `target`'s Swift sources import, each with the files that import it."""
    root = Path(package["path"])
    importers = {}
    for source in sorted(source for source in target.get("sources", []) if source.endswith(".swift")):
        path = f"{target['path']}/{source}"
        for module in set(IMPORT.findall((root / path).read_text())):
            importers.setdefault(module, []).append(path)
    return importers


def layer_of(module):
    """The index of `module`'s layer, or None for a module of no layer."""
    return next((index for index, (_, modules) in enumerate(LAYERS) if module in modules), None)


def wrong_directions(package):
    """Each import of a Kiwi module a target may not make: upward, into a service, or of a development-only module by
    a service; and each Kiwi library given no layer."""
    kiwi = {target["name"] for target in package["targets"] if target.get("type") != "test"}
    services = {target["name"] for target in package["targets"] if target["path"].startswith("Services/")}
    for target in sorted(package["targets"], key=lambda target: target["name"]):
        name = target["name"]
        if target.get("type") == "test":
            continue
        layer = layer_of(name)
        if layer is None and target["path"].startswith("Shared/"):
            yield name, None, [target["path"]], "is in no layer: give it one in LAYERS (deploy/local/check-imports.py)"
            continue
        for module, paths in sorted(imports(package, target).items()):
            if module not in kiwi or module == name:
                continue
            if module in services:
                yield name, module, paths, "imports a service"
            elif name in services and module in DEVELOPMENT_ONLY:
                yield name, module, paths, "is a service importing a module only tools and tests may use"
            elif layer == 0:
                yield name, module, paths, f"is the {LAYERS[0][0]} module, which imports no Kiwi module"
            elif layer == 1 and layer_of(module) != 0:
                yield name, module, paths, f"is a {LAYERS[1][0]} module, which imports no Kiwi module but the {LAYERS[0][0]} module"
            elif layer is not None and (layer_of(module) is None or layer_of(module) > layer):
                above = LAYERS[layer_of(module)][0] if layer_of(module) is not None else "no layer"
                yield name, module, paths, f"imports upward: {LAYERS[layer][0]} may not import {above}"


def main():
    package = describe()
    problems = list(undeclared_imports(package))
    for target, module, paths in problems:
        others = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        print(f"{target} imports {module} without declaring it ({paths[0]}{others})", file=sys.stderr)
    if problems:
        print("kiwi: add each of these to its target's dependencies in Package.swift", file=sys.stderr)
    wrong = list(wrong_directions(package))
    for target, module, paths, reason in wrong:
        others = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        imported = f" ({module}: {paths[0]}{others})" if module else ""
        print(f"{target} {reason}{imported}", file=sys.stderr)
    if wrong:
        print("kiwi: imports go from a layer to its own or lower ones (docs/architecture.md, \"Modules and layers\")", file=sys.stderr)
    if problems or wrong:
        sys.exit(1)


main()
