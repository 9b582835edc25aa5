"""Run ``flask --app companion ARGS…`` as tests/web/test_backup.py asks, and record what
it did to a folder: ``python backup_child.py SETUP ARGS…``, SETUP a JSON object.

- Always: the umask is 0, so a file created without a mode of its own would be 0666
  (readable by all); the modes recorded tell which files were created owner-only.
- ``watch`` (a folder) and ``log`` (a file outside it): every file removed there is
  recorded with the mode it had, with every change of mode (``os.chmod``) there, and
  at the end what is left in it (names and modes), as JSON in ``log``.
- ``fsize`` (bytes): the largest file this process and its children may write
  (RLIMIT_FSIZE; Python ignores SIGXFSZ, so a write past it fails with EFBIG, as on
  a full disk). Lifted (to the hard limit) before the log is written.
- ``drop_dac``: run as root, drop the capabilities that let root ignore file
  permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so a read-only folder refuses
  root as it refuses anyone; exit status 97 when they cannot be dropped.
- ``fault`` (a message): opening a SQLite file in ``watch`` raises ``RuntimeError``,
  an error no code expects.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import runpy
import sqlite3
import stat
import sys
from pathlib import Path
from typing import Any

CANNOT_DROP = 97


def _drop_dac() -> None:
    """Clear CAP_DAC_OVERRIDE (1) and CAP_DAC_READ_SEARCH (2) from this process's
    capabilities (capget/capset, version 3 of the Linux interface)."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header = Header(0x20080522, 0)
    data = (Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    mask = ~((1 << 1) | (1 << 2)) & 0xFFFFFFFF
    data[0].effective &= mask
    data[0].permitted &= mask
    data[0].inheritable &= mask
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def main() -> None:
    setup: dict[str, Any] = json.loads(sys.argv[1])
    os.umask(0)
    if setup.get("drop_dac") and os.geteuid() == 0:
        try:
            _drop_dac()
        except (OSError, AttributeError):
            sys.exit(CANNOT_DROP)
    watch = Path(setup["watch"]).resolve() if setup.get("watch") else None
    record: dict[str, Any] = {"removed": [], "chmod": [], "left": None}

    def inside(path: Any) -> bool:
        return (
            watch is not None
            and isinstance(path, str | bytes | os.PathLike)
            and Path(os.fsdecode(path)).resolve().parent == watch
        )

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "os.remove" and inside(args[0]):
            path = Path(os.fsdecode(args[0]))
            mode = stat.S_IMODE(path.lstat().st_mode) if path.exists() else None
            record["removed"].append([path.name, mode])
        elif event == "os.chmod" and inside(args[0]):
            record["chmod"].append([Path(os.fsdecode(args[0])).name, args[1]])

    sys.addaudithook(hook)
    if setup.get("fault") and watch is not None:
        connect = sqlite3.connect

        def failing(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
            if inside(database):
                raise RuntimeError(setup["fault"])
            opened: sqlite3.Connection = connect(database, *args, **kwargs)
            return opened

        sqlite3.connect = failing  # type: ignore[assignment]
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    if setup.get("fsize") is not None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(setup["fsize"]), hard))
    sys.argv = ["flask", "--app", "companion", *sys.argv[2:]]
    try:
        runpy.run_module("flask", run_name="__main__", alter_sys=True)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        if watch is not None and setup.get("log"):
            if watch.is_dir():
                record["left"] = {p.name: stat.S_IMODE(p.lstat().st_mode) for p in watch.iterdir()}
            Path(setup["log"]).write_text(json.dumps(record))


if __name__ == "__main__":
    main()
