# SPDX-License-Identifier: MIT
"""Type stubs of the segc module (python/segcmodule.c)."""
from typing import Any, Iterable, NamedTuple, Optional, TypedDict, Union

__version__: str

class Note(TypedDict):
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    end_column: Optional[int]
    message: str

class _Diagnostic(TypedDict):
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    end_line: Optional[int]
    end_column: Optional[int]
    severity: str  # "error", "warning", "fatal"
    rule: str
    message: str
    notes: list[Note]

class Diagnostic(_Diagnostic, total=False):
    fix: str

class Result(NamedTuple):
    status: int  # segc check's exit status: 0 valid, 1 invalid
    diagnostics: list[Diagnostic]

class Error(Exception):
    status: int
    diagnostics: list[Diagnostic]

def check(text: Union[str, bytes], *, name: str = ..., args: Iterable[str] = ...,
          include: Iterable[str] = ...) -> Result: ...
def build(text: Union[str, bytes], *, name: str = ..., args: Iterable[str] = ...,
          include: Iterable[str] = ...) -> dict[str, bytes]: ...
def model(text: Union[str, bytes], *, name: str = ..., args: Iterable[str] = ...,
          include: Iterable[str] = ...) -> dict[str, Any]: ...
