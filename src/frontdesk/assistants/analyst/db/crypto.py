"""AES encryption byte-compatible with MySQL/MariaDB `AES_ENCRYPT(str, key)` / `AES_DECRYPT`.

The demo database stores PII as ciphertext and decrypts it only inside the `secure_*` views.
Production runs on MariaDB, whose two-argument AES functions use aes-128-ecb with PKCS#7
padding and a key "folded" to 16 bytes (every key byte XOR-ed, cyclically, into a 16-byte zero
buffer). The embedded SQLite database has no AES of its own, so it registers these Python
functions instead; being byte-identical means a row written by either side reads on the other,
and the same data file contents can be loaded into both engines.

ECB without an IV is what MySQL does and keeps the ciphertext deterministic (the demo build is
reproducible); it is not a design we would choose for new systems.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

_BLOCK = 16


def mysql_aes_key(key: str | bytes) -> bytes:
    """The 16-byte AES-128 key MySQL derives from an arbitrary key string (XOR folding)."""
    raw = key.encode("utf-8") if isinstance(key, str) else bytes(key)
    folded = bytearray(_BLOCK)
    for index, byte in enumerate(raw):
        folded[index % _BLOCK] ^= byte
    return bytes(folded)


@lru_cache(maxsize=32)
def _cipher(folded: bytes) -> Cipher:
    # Cipher objects are reusable factories; caching skips re-validating the key per value.
    return Cipher(algorithms.AES(folded), modes.ECB())


def _as_bytes(value: str | bytes | float) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    # MySQL converts numbers to their decimal text before encrypting; do the same.
    return str(value).encode("utf-8")


def aes_encrypt(value: str | bytes | float | None, key: str | bytes) -> bytes | None:
    """`AES_ENCRYPT(value, key)`: None stays None (SQL NULL), text is encrypted as UTF-8."""
    if value is None or key is None:
        return None
    padder = padding.PKCS7(_BLOCK * 8).padder()
    padded = padder.update(_as_bytes(value)) + padder.finalize()
    encryptor = _cipher(mysql_aes_key(key)).encryptor()
    return encryptor.update(padded) + encryptor.finalize()


def aes_decrypt(blob: bytes | None, key: str | bytes) -> bytes | None:
    """`AES_DECRYPT(blob, key)`: the plaintext bytes, or None for NULL, a wrong key or bad data.

    MySQL answers NULL when the padding does not check out (nearly always the case with a
    wrong key); returning None here keeps the SQLite views behaving the same way.
    """
    if blob is None or key is None:
        return None
    data = _as_bytes(blob) if not isinstance(blob, bytes) else blob
    if not data or len(data) % _BLOCK:
        return None
    decryptor = _cipher(mysql_aes_key(key)).decryptor()
    padded = decryptor.update(data) + decryptor.finalize()
    pad = padded[-1]
    if not 1 <= pad <= _BLOCK or padded[-pad:] != bytes([pad]) * pad:
        return None
    return padded[:-pad]
