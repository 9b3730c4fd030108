"""SMS text shaping for the casino host: encoding and segments, SMS splitting, the persona
envelope's sanitize and style rules, and the after-model compliance filters. Pure functions,
no I/O; the graph's persona_envelope node calls shape_reply (or the pieces)."""

from frontdesk.assistants.casino_host.sms.change import Change
from frontdesk.assistants.casino_host.sms.envelope import ShapedReply, shape_reply
from frontdesk.assistants.casino_host.sms.filters import (
    COMP_AGENT,
    SAFE_GAMING_LANGUAGE_FALLBACK,
    SAFE_GAMING_LANGUAGE_FALLBACKS,
    FilteredReply,
    filter_reply,
    promises_a_win,
)
from frontdesk.assistants.casino_host.sms.gsm import (
    GSM7,
    GSM7_BASIC_TABLE,
    GSM7_EXTENSION_TABLE,
    UCS2,
    Encoding,
    classify_encoding,
    encoding_of,
    fits_one_sms,
    fold_lookalikes,
    segments_needed,
    units,
)
from frontdesk.assistants.casino_host.sms.patterns import DEFAULT_KEEP_CAPS
from frontdesk.assistants.casino_host.sms.persona import (
    StyledReply,
    apply_style,
    sanitize,
    violations,
)
from frontdesk.assistants.casino_host.sms.segment import split_sentences, split_sms

__all__ = [
    "COMP_AGENT",
    "DEFAULT_KEEP_CAPS",
    "GSM7",
    "GSM7_BASIC_TABLE",
    "GSM7_EXTENSION_TABLE",
    "SAFE_GAMING_LANGUAGE_FALLBACK",
    "SAFE_GAMING_LANGUAGE_FALLBACKS",
    "UCS2",
    "Change",
    "Encoding",
    "FilteredReply",
    "ShapedReply",
    "StyledReply",
    "apply_style",
    "classify_encoding",
    "encoding_of",
    "filter_reply",
    "fits_one_sms",
    "fold_lookalikes",
    "promises_a_win",
    "sanitize",
    "segments_needed",
    "shape_reply",
    "split_sentences",
    "split_sms",
    "units",
    "violations",
]
