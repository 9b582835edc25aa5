"""Configuration from the environment and the instance folder."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` (``postgres://`` and ``postgresql://`` go through psycopg 3),
    or a SQLite file in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """``SECRET_KEY``, or one generated on first start and kept in the instance folder."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole under a name of this process's own, with owner-only permissions (the
    # key signs every device's group membership), then linked in place: of processes
    # starting together, the first one's key is everyone's.
    draft = path.with_name(f".secret_key.{os.getpid()}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()
