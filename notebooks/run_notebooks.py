#!/usr/bin/env python3
"""Execute the notebooks in this folder headless with nbclient.

    python notebooks/run_notebooks.py                 # executed copies in notebooks/executed/
    python notebooks/run_notebooks.py --out DIR       # executed copies in DIR
    python notebooks/run_notebooks.py --in-place      # overwrite the sources with outputs
    python notebooks/run_notebooks.py --only balance  # one notebook

The notebooks read VARIANTLAB_DATA (data directory) and VARIANTLAB_FIGURES (where the PNGs go);
relative values are taken relative to the directory this script is started from.
Stops with a non-zero exit status at the first notebook that fails.
"""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = Path(__file__).resolve().parent
TIMEOUT = 600  # seconds per cell


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, default=HERE / "executed",
                       help="folder for the executed copies (default: notebooks/executed/)")
    where.add_argument("--in-place", action="store_true", help="write the outputs into the source notebooks")
    parser.add_argument("--only", metavar="NAME", help="run only this notebook (name with or without .ipynb)")
    args = parser.parse_args()

    # Make relative paths in the environment independent of the kernel's working directory.
    for var in ("VARIANTLAB_DATA", "VARIANTLAB_FIGURES"):
        if os.environ.get(var):
            os.environ[var] = str(Path(os.environ[var]).resolve())

    notebooks = sorted(HERE.glob("*.ipynb"))
    if args.only:
        name = args.only if args.only.endswith(".ipynb") else args.only + ".ipynb"
        notebooks = [p for p in notebooks if p.name == name]
        if not notebooks:
            print(f"no notebook {name} in {HERE}", file=sys.stderr)
            return 2
    if not notebooks:
        print(f"no notebooks in {HERE}", file=sys.stderr)
        return 2

    out = None if args.in_place else args.out.resolve()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)

    sockets = tempfile.TemporaryDirectory(prefix="variantlab-kernels-")
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        # The kernel talks over local sockets (IPC, named by an absolute path in a private
        # folder) where the system has them, not over TCP, which it would warn about
        # (unencrypted) on every start.
        if os.name == "nt":
            km = KernelManager(kernel_name="python3")
        else:
            km = KernelManager(kernel_name="python3", transport="ipc",
                               ip=os.path.join(sockets.name, path.stem))
        client = NotebookClient(nb, km=km, timeout=TIMEOUT, kernel_name="python3",
                                resources={"metadata": {"path": str(HERE)}})
        target = path if out is None else out / path.name
        start = time.monotonic()
        try:
            client.execute()
        except CellExecutionError as err:
            nbformat.write(nb, target)  # keep the partial output for inspection
            print(f"FAIL {path.name} ({time.monotonic() - start:.1f} s), partial output in {target}")
            print(err, file=sys.stderr)
            return 1
        except Exception as err:  # kernel did not start, timeout, ...
            print(f"FAIL {path.name} ({time.monotonic() - start:.1f} s): {type(err).__name__}: {err}")
            return 1
        finally:
            # A kernel manager passed in is the caller's to shut down.
            if km.has_kernel:
                km.shutdown_kernel(now=True)
        nbformat.write(nb, target)
        print(f"ok   {path.name} ({time.monotonic() - start:.1f} s) -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
