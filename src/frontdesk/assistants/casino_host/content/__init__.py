"""Casino content: per-casino venues, events, offers and rules, and a tenant-safe search.

Every lookup names a casino: `CasinoContent.catalog(casino_id)` (None or an unknown id raises
`CasinoScopeError`) gives that casino's `Catalog`, whose helpers compute the facts a reply may
state (hours on a date, events between two times, offers active now); `ContentSearch.search
(casino_id, query)` searches one casino's index only. Data: `../data/casinos/<casino_id>/`.
"""

from frontdesk.assistants.casino_host.content.catalog import Catalog, Showing, UnknownItemError
from frontdesk.assistants.casino_host.content.hours import DayHours, OpenPeriod, WeeklyHours
from frontdesk.assistants.casino_host.content.loader import ContentError, load_catalog
from frontdesk.assistants.casino_host.content.models import (
    CATEGORIES,
    VENUE_CATEGORIES,
    Casino,
    ContentItem,
    Event,
    Faq,
    InfoItem,
    Promotion,
    Regulation,
    Venue,
)
from frontdesk.assistants.casino_host.content.registry import (
    DATA_ROOT,
    CasinoContent,
    CasinoScopeError,
    UnknownCasinoError,
    default_content,
)
from frontdesk.assistants.casino_host.content.search import ContentSearch, SearchHit

__all__ = [
    "CATEGORIES",
    "DATA_ROOT",
    "VENUE_CATEGORIES",
    "Casino",
    "CasinoContent",
    "CasinoScopeError",
    "Catalog",
    "ContentError",
    "ContentItem",
    "ContentSearch",
    "DayHours",
    "Event",
    "Faq",
    "InfoItem",
    "OpenPeriod",
    "Promotion",
    "Regulation",
    "SearchHit",
    "Showing",
    "UnknownCasinoError",
    "UnknownItemError",
    "Venue",
    "WeeklyHours",
    "default_content",
    "load_catalog",
]
