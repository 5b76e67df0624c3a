"""A small progress protocol the library reports to; the CLI supplies a rich bar."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def start(self, total: int | None, description: str) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def done(self) -> None: ...


class _NoProgress:
    def start(self, total: int | None, description: str) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def done(self) -> None:
        pass


NO_PROGRESS: Progress = _NoProgress()
