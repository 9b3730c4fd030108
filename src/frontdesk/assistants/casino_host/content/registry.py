"""Every casino's content, reachable only through a casino id (seed WP3 item 23).

There is no lookup without a tenant: `catalog(None)` or an id that is not loaded raises
`CasinoScopeError`, so a code path that lost the casino id fails loudly instead of answering
from some other casino's content.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from frontdesk.assistants.casino_host.content.catalog import Catalog
from frontdesk.assistants.casino_host.content.loader import casino_folders, load_catalog

DATA_ROOT = Path(__file__).resolve().parent.parent / "data" / "casinos"


class CasinoScopeError(LookupError):
    """A content lookup without a casino id, or with one that is not loaded."""


class UnknownCasinoError(CasinoScopeError):
    pass


def require_casino_id(casino_id: object) -> str:
    """`casino_id` itself when it is a non-empty string; anything else raises."""
    if casino_id is None:
        raise CasinoScopeError("casino_id is required: content is per casino, never global")
    if not isinstance(casino_id, str) or not casino_id.strip():
        raise CasinoScopeError(f"casino_id must be a non-empty string, got {casino_id!r}")
    return casino_id


class CasinoContent:
    """The loaded casinos, by id."""

    def __init__(self, catalogs: Iterable[Catalog]):
        self._catalogs: dict[str, Catalog] = {}
        for catalog in catalogs:
            if catalog.casino_id in self._catalogs:
                raise ValueError(f"casino '{catalog.casino_id}' is loaded twice")
            self._catalogs[catalog.casino_id] = catalog

    @classmethod
    def load(cls, root: str | Path = DATA_ROOT) -> CasinoContent:
        """Every casino folder under `root`, each validated (`ContentError` on a bad file)."""
        return cls(load_catalog(folder) for folder in casino_folders(root))

    @property
    def casino_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._catalogs))

    def catalog(self, casino_id: str | None) -> Catalog:
        """The casino's content; None, "" or an unknown id raises `CasinoScopeError`."""
        casino_id = require_casino_id(casino_id)
        try:
            return self._catalogs[casino_id]
        except KeyError:
            known = ", ".join(self.casino_ids) or "none"
            raise UnknownCasinoError(
                f"no content for casino '{casino_id}' (loaded: {known})"
            ) from None

    def __contains__(self, casino_id: object) -> bool:
        return isinstance(casino_id, str) and casino_id in self._catalogs


@lru_cache(maxsize=1)
def default_content() -> CasinoContent:
    """The shipped casinos (data/casinos/), loaded once per process."""
    return CasinoContent.load(DATA_ROOT)
