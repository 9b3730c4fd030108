"""Phone numbers: one keyed hash per tenant (X3) and the encrypted number for sending SMS.

The hash is `hmac:` + HMAC-SHA256(tenant pepper, E.164): deterministic, so it can be the lookup
key of `phone_index`, and keyed, so a leaked table cannot be reversed by hashing every number
in a numbering plan (10^10 US numbers take minutes against a plain SHA-256). Each casino gets
its own pepper, derived from the master pepper, so one guest's hashes differ between tenants.
Logs and audit rows carry `log_hash(h)`: its first 16 hex digits.

The raw number is still needed to text the guest back, so `guests` keeps it encrypted with
Fernet (AES-128-CBC + HMAC-SHA256). Encryption is randomised, so the ciphertext cannot be used
for lookups; that is the hash's job.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from frontdesk.errors import FrontdeskError

HASH_PREFIX = "hmac:"
LOG_HASH_CHARS = 16
E164 = re.compile(r"^\+[1-9]\d{6,14}$")
# What a number looks like inside free text (audit details are scanned for it).
E164_IN_TEXT = re.compile(r"\+[1-9]\d{6,14}")
_HEX = re.compile(r"^[0-9a-f]+$")
NANP_TEN_DIGITS = re.compile(r"^[2-9]\d{2}[2-9]\d{6}$")  # area code and number, no country


class GuestNumberError(FrontdeskError):
    """The guest is not a phone number."""


def guest_number(user_id: str) -> str:
    """A guest's id as E.164: "+18605550123" as is, "18605550123" with its "+", and ten US
    digits "8605550123" as +1 (not as "+860…": `sms send --from 7025550301` once texted as a
    +7 number)."""
    if NANP_TEN_DIGITS.match(user_id):
        user_id = f"1{user_id}"
    number = user_id if user_id.startswith("+") else f"+{user_id}"
    if not E164.match(number):
        raise GuestNumberError(
            f"the guest must be a phone number in E.164 form such as +18605550123, not {user_id!r}"
        )
    return number


def _bytes(secret: str | bytes) -> bytes:
    return secret.encode("utf-8") if isinstance(secret, str) else secret


def require_e164(e164: str) -> str:
    """The number as given, if it is E.164. Normalising is the webhook's job (seed §2.15): hashing a
    number in two spellings would split one guest in two."""
    if not isinstance(e164, str) or not E164.match(e164):
        raise ValueError("phone number must be E.164, like +12035551234")
    return e164


def tenant_pepper(master_pepper: str | bytes, casino_id: str) -> bytes:
    """The casino's own pepper, derived from the master one."""
    label = b"frontdesk.casino_host.phone_pepper:" + casino_id.encode("utf-8")
    return hmac.new(_bytes(master_pepper), label, hashlib.sha256).digest()


def phone_hash(pepper: str | bytes, e164: str) -> str:
    """X3: `hmac:` + hex HMAC-SHA256(pepper, E.164). Pass the tenant pepper."""
    digest = hmac.new(_bytes(pepper), require_e164(e164).encode("ascii"), hashlib.sha256)
    return HASH_PREFIX + digest.hexdigest()


def log_hash(hashed: str) -> str:
    """The 16 hex digits logs, audit rows and notifications show for a phone hash."""
    digits = hashed.removeprefix(HASH_PREFIX)
    if len(digits) < LOG_HASH_CHARS or not _HEX.match(digits):
        raise ValueError("not a phone hash (expected 'hmac:' and hex digits)")
    return digits[:LOG_HASH_CHARS]


def last_four(e164: str) -> str:
    """The last four digits, which an escalation notice may show (item 38)."""
    return require_e164(e164)[-4:]


class PhoneHasher:
    """Hashes numbers per casino with peppers derived from one master pepper."""

    def __init__(self, master_pepper: str | bytes):
        if not master_pepper:
            raise ValueError("the phone pepper must not be empty")
        self._master = _bytes(master_pepper)

    def __repr__(self) -> str:
        return "PhoneHasher(<pepper hidden>)"

    def hash(self, casino_id: str, e164: str) -> str:
        return phone_hash(tenant_pepper(self._master, casino_id), e164)


def fernet_key(secret: str | bytes) -> bytes:
    """A Fernet key as given (`Fernet.generate_key()`), or one derived from any other secret.
    A derived key is only as strong as its secret: production should set generated keys."""
    raw = _bytes(secret)
    try:
        if len(base64.urlsafe_b64decode(raw)) == 32:
            return raw
    except (binascii.Error, ValueError):
        pass
    derived = hmac.new(raw, b"frontdesk.casino_host.phone_encryption", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(derived)


class PhoneCipher:
    """Encrypts numbers with the first key and decrypts with any, so keys can rotate: put the
    new key first, keep the old one until every row has been rewritten."""

    def __init__(self, keys: Sequence[str | bytes]):
        if not keys:
            raise ValueError("at least one phone encryption key is needed")
        self._fernet = MultiFernet([Fernet(fernet_key(k)) for k in keys])

    def __repr__(self) -> str:
        return "PhoneCipher(<keys hidden>)"

    def encrypt(self, e164: str) -> str:
        return self._fernet.encrypt(require_e164(e164).encode("ascii")).decode("ascii")

    def decrypt(self, token: str) -> str:
        try:
            return self._fernet.decrypt(token.encode("ascii")).decode("ascii")
        except InvalidToken as exc:
            raise ValueError("phone ciphertext does not decrypt with the configured keys") from exc
