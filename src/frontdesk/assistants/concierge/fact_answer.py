"""An answer worked out in code from the knowledge's items."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FactAnswer:
    text: str
    items: tuple[str, ...]  # the names of the items the answer is worked out from
    support: str = ""  # what was worked out besides the items (dates from the clock)
