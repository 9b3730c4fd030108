"""T20: 1,000 fuzzed bodies and headers on the SMS routes (inbound and delivery reports, every
provider, bad and good signatures, broken JSON and forms, non-E.164 numbers, unknown casinos,
MMS media, binary bodies) through the HTTP app: never a 5xx. The same requests are the load
script's fuzz scenario (benchmarks/sms_load.py)."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

from .test_simulator_api import offline_settings, serving

# The load script's own request generator (benchmarks/ is not a package the tests import).
_SCRIPT = Path(__file__).parents[2] / "benchmarks" / "sms_load.py"
_spec = importlib.util.spec_from_file_location("sms_load", _SCRIPT)
assert _spec is not None and _spec.loader is not None
sms_load = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("sms_load", sms_load)  # its dataclasses look their module up
_spec.loader.exec_module(sms_load)


async def test_a_thousand_fuzzed_requests_get_no_5xx(tmp_path):
    async with serving(offline_settings(tmp_path)) as client:
        load = sms_load.Load(client, "frontdesk-sms-simulator-development-key")
        rng = random.Random(20)
        statuses = Counter()
        for _ in range(1000):
            path, raw, headers = sms_load.fuzzed(rng, load)
            status, _ms, _body = await load.post(raw, path=path, headers=headers)
            statuses[status] += 1
    assert not [s for s in statuses if s >= 500], statuses
    # The fuzz reaches every kind of refusal and some messages get through.
    assert {200, 400, 401, 404} <= set(statuses), statuses
