"""Errors that carry an exit code and a hint, so the CLI can say what went wrong and how to fix it."""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    OK = 0
    BUG = 1
    USAGE = 2
    INPUT = 3
    ENVIRONMENT = 4
    FAIL_ON = 5
    INTERRUPTED = 130


class SciverifyError(Exception):
    """Base error: bad input unless a subclass says otherwise."""

    exit_code: ExitCode = ExitCode.INPUT

    def __init__(self, message: str, *, path: Path | str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.hint = hint

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{self.message}"


class InputError(SciverifyError):
    exit_code = ExitCode.INPUT


class ParseError(InputError):
    """A document could not be parsed; the batch goes on."""


class UsageError(SciverifyError):
    exit_code = ExitCode.USAGE


class EnvironmentProblem(SciverifyError):
    exit_code = ExitCode.ENVIRONMENT


class CorpusBusy(EnvironmentProblem):
    """Another process holds the corpus writer lock."""


class StaleIndex(InputError):
    """The index does not match the store or the settings."""
