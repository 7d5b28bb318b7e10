"""Uses a Canopy cluster through WebHDFS as Python data users do: fsspec's webhdfs file system, and pandas writing
and reading CSV and Parquet (pyarrow) through it. Run by io.canopy.it.PythonWebHdfsTest:

    python webhdfs_pandas_check.py HOST PORT USER BASE_DIRECTORY

Prints one JSON line describing what it wrote and read; exits with 1 (and the reason) when anything read back
differs from what was written.
"""
import json
import sys

import fsspec
import pandas as pd


def fail(reason):
    print(json.dumps({"ok": False, "reason": reason}))
    sys.exit(1)


def main():
    host, port, user, base = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].rstrip("/")
    fs = fsspec.filesystem("webhdfs", host=host, port=port, user=user)
    fs.mkdir(base)
    rows = 5000
    frame = pd.DataFrame({
        "id": list(range(rows)),
        "name": ["row-%d" % i for i in range(rows)],
        "value": [i * 0.25 for i in range(rows)],
    })
    url = "webhdfs://%s:%d%s" % (host, port, base)
    options = {"user": user}

    frame.to_csv(url + "/table.csv", index=False, storage_options=options)
    csv_back = pd.read_csv(url + "/table.csv", storage_options=options)
    if not csv_back.equals(frame):
        fail("the CSV read back differs from the frame written")

    frame.to_parquet(url + "/table.parquet", engine="pyarrow", storage_options=options)
    parquet_back = pd.read_parquet(url + "/table.parquet", engine="pyarrow", storage_options=options)
    if not parquet_back.equals(frame):
        fail("the Parquet file read back differs from the frame written")

    with fs.open(base + "/raw.bin", "wb") as out:
        out.write(bytes(range(256)) * 1024)
    with fs.open(base + "/raw.bin", "rb") as data:
        data.seek(1000)
        if data.read(10) != bytes((1000 + i) % 256 for i in range(10)):
            fail("a ranged read of raw.bin returned other bytes")

    listing = sorted(entry["name"].rsplit("/", 1)[-1] for entry in fs.ls(base, detail=True))
    expected = ["raw.bin", "table.csv", "table.parquet"]
    if listing != expected:
        fail("listing %s, expected %s" % (listing, expected))
    fs.mv(base + "/raw.bin", base + "/renamed.bin")
    if fs.exists(base + "/raw.bin") or fs.info(base + "/renamed.bin")["size"] != 256 * 1024:
        fail("the rename did not move raw.bin")
    fs.rm(base + "/renamed.bin")

    print(json.dumps({
        "ok": True,
        "csv_bytes": fs.info(base + "/table.csv")["size"],
        "parquet_bytes": fs.info(base + "/table.parquet")["size"],
        "rows": rows,
        "listing": sorted(entry.rsplit("/", 1)[-1] for entry in fs.ls(base, detail=False)),
    }))


if __name__ == "__main__":
    main()
