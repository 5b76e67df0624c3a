"""Connect to a corpus database, migrate it, and run transactions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from sciverify.errors import CorpusBusy, EnvironmentProblem, InputError
from sciverify.store import migrations


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    """An open corpus database. Use as a context manager; writers migrate on open."""

    def __init__(self, conn: Any, path: Path, *, read_only: bool):
        self.conn = conn
        self.path = path
        self.read_only = read_only

    @property
    def corpus_dir(self) -> Path:
        return self.path.parent

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        self.conn.execute("BEGIN TRANSACTION")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")

    def execute(self, sql: str, params: Any = None) -> Any:
        return self.conn.execute(sql, params) if params is not None else self.conn.execute(sql)

    def rows(self, sql: str, params: Any = None) -> list[dict[str, Any]]:
        cur = self.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def scalar(self, sql: str, params: Any = None) -> Any:
        row = self.execute(sql, params).fetchone()
        return row[0] if row else None

    def schema_version(self) -> int:
        return applied_version(self.conn)


def applied_version(conn: Any) -> int:
    exists = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'"
    ).fetchone()[0]
    if not exists:
        return 0
    return conn.execute("SELECT coalesce(max(id), 0) FROM schema_migrations").fetchone()[0]


def migrate(conn: Any) -> list[int]:
    """Apply pending migrations, each with its bookkeeping row in one transaction."""
    migrations.ensure_bookkeeping(conn)
    current = applied_version(conn)
    _refuse_newer(current, None)
    applied = []
    for number in sorted(n for n in migrations.MIGRATIONS if n > current):
        mig = migrations.MIGRATIONS[number]
        conn.execute("BEGIN TRANSACTION")
        try:
            mig.apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?)", [number, mig.name, now()]
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(number)
    return applied


def _refuse_newer(current: int, path: Path | None) -> None:
    if current > migrations.head():
        raise EnvironmentProblem(
            f"corpus schema version {current} is newer than this sciverify "
            f"(knows up to {migrations.head()})",
            path=path,
            hint="upgrade sciverify (pip install -U sciverify) to open this corpus",
        )


def open_store(path: Path | str, *, read_only: bool = False, migrate_schema: bool = True) -> Store:
    """Open the corpus database at `path` (a corpus folder or a .duckdb file).

    Writers create the folder and apply pending migrations. Readers refuse a missing corpus.
    """
    import duckdb

    path = Path(path)
    db_path = path if path.suffix == ".duckdb" else path / "corpus.duckdb"
    if read_only and not db_path.exists():
        raise InputError(
            "no corpus here",
            path=db_path.parent,
            hint=f"create it with: sciverify ingest PDF_FOLDER --corpus {db_path.parent}",
        )
    if not read_only:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = duckdb.connect(str(db_path), read_only=read_only)
    except duckdb.IOException as exc:
        text = str(exc)
        if "lock" in text.lower():
            raise CorpusBusy(
                "corpus is busy: another sciverify process is writing to it",
                path=db_path,
                hint="wait for the other process to finish, or use another --corpus",
            ) from exc
        raise InputError(f"cannot open corpus database: {text}", path=db_path) from exc
    except duckdb.Error as exc:
        raise InputError(
            f"not a readable corpus database: {exc}",
            path=db_path,
            hint="point --corpus at a folder created by sciverify",
        ) from exc
    current = applied_version(conn)
    try:
        _refuse_newer(current, db_path)
    except EnvironmentProblem:
        conn.close()
        raise
    if not read_only and migrate_schema:
        migrate(conn)
    elif current < migrations.head():
        conn.close()
        raise InputError(
            f"corpus schema is at version {current}, this sciverify needs {migrations.head()}",
            path=db_path,
            hint=f"run: sciverify db migrate --corpus {db_path.parent}",
        )
    return Store(conn, db_path, read_only=read_only)
