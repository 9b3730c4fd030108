"""Compare llama.cpp runtimes on the embedded GGUF: load time, time to first token, tokens/s.

    .venv/bin/python benchmarks/llm_runtime.py --runtime both --threads 2 --repeats 3
    .venv/bin/python benchmarks/llm_runtime.py --runtime xllamacpp --json
    .venv/bin/python benchmarks/llm_runtime.py --runtime none --prompt-cache

Each runtime gets the same chat messages (chat template applied by the runtime from the GGUF),
greedy decoding and a fixed token budget. Per prompt size (~300 and ~900 prompt tokens) it
reports the cold time to first token (new prompt, nothing cached), the generation speed after
the first token, and the time to first token of a second call that shares the long system
prompt but asks a different question (the prompt/KV cache at work). Figures are medians over
`--repeats` runs; each repeat uses fresh prompt text so nothing is cached across repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

# A stand-in for a grounded assistant's system prompt: policy lines from a hotel handbook.
_FACTS = [
    "Check-in starts at 15:00 and check-out is at 11:00; late check-out until 13:00 costs 30 EUR.",
    "Breakfast is served from 07:00 to 10:30 in the Garden Room on the ground floor.",
    "The spa on level -1 opens at 09:00 and closes at 21:00; guests under 16 need an adult.",
    "Parking in the garage costs 25 EUR per night; electric chargers are on level -2.",
    "Pets up to 10 kg are welcome for 20 EUR per night; they may not enter the restaurant.",
    "The airport shuttle leaves every hour from 06:00 to 22:00 and must be booked a day ahead.",
    "Room service runs around the clock; the kitchen closes for hot dishes at 23:00.",
    "Wi-Fi is free; the network name is printed on the key card sleeve.",
    "The rooftop bar opens at 17:00 and closes at 01:00; smart casual dress is required.",
    "Cancellation is free until 48 hours before arrival; later cancellations cost one night.",
]
_QUESTIONS = [
    "Explain in detail everything a guest arriving late with a dog and a car needs to know.",
    "Describe in detail how a family should plan their first day at the hotel, hour by hour.",
    "Write a detailed welcome letter that covers dining, the spa and getting to the airport.",
]


def system_prompt(target_tokens: int, variant: int) -> str:
    """A grounded-assistant system prompt of roughly `target_tokens` tokens.

    `variant` changes the first line so different repeats never share a cached prefix.
    """
    lines = [
        f"You are concierge assistant #{variant} of the Hotel Aurora (session {variant * 7919}).",
        "Answer only from the facts below. If they do not cover the question, say so.",
        "Facts:",
    ]
    # Measured with the Qwen2.5 tokenizer: ~31 tokens per fact line, ~63 for the header,
    # chat template and question together.
    n_facts = max(1, round((target_tokens - 63) / 31))
    for n in range(n_facts):
        lines.append(f"- [{n + 1}] {_FACTS[(n + variant) % len(_FACTS)]}")
    return "\n".join(lines)


@dataclass
class Call:
    ttft_s: float
    gen_tokens: int
    gen_tok_s: float
    prompt_tokens: int | None


@dataclass
class RuntimeResult:
    runtime: str
    version: str
    load_s: float
    results: dict[str, dict[str, float | int | None]] = field(default_factory=dict)


# A runtime is (load, stream): stream(messages, max_tokens) yields text pieces and finally
# returns the prompt token count the runtime reports (or None).
StreamFn = Callable[[list[dict[str, str]], int], Iterator[str | int]]


def load_xllamacpp(model: Path, threads: int, n_ctx: int) -> tuple[StreamFn, str]:
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(model)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.verbosity = 1
    server = xlc.Server(params)

    def stream(messages: list[dict[str, str]], max_tokens: int) -> Iterator[str | int]:
        chunks: list[dict] = []
        request = {
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": 0.0,
            "seed": 7,
            "stream": True,
            "cache_prompt": True,
        }
        # xllamacpp streams through a callback; record arrival times to keep the measurement
        # identical to iterating (the callback runs as each token is produced).
        stamps: list[tuple[float, str]] = []

        def on_chunk(chunk: dict) -> bool:
            chunks.append(chunk)
            for choice in chunk.get("choices", []):
                text = (choice.get("delta") or {}).get("content")
                if text:
                    stamps.append((time.perf_counter(), text))
            return False

        server.handle_chat_completions(request, on_chunk)
        yield from stamps  # type: ignore[misc]
        timings = next((c["timings"] for c in reversed(chunks) if "timings" in c), {})
        prompt_tokens = timings.get("prompt_n", 0) + timings.get("cache_n", 0)
        yield prompt_tokens or 0

    return stream, xlc.__version__


def load_llama_cpp_python(model: Path, threads: int, n_ctx: int) -> tuple[StreamFn, str]:
    import llama_cpp

    llm = llama_cpp.Llama(
        model_path=str(model),
        n_ctx=n_ctx,
        n_threads=threads,
        n_threads_batch=threads,
        seed=7,
        verbose=False,
    )

    def stream(messages: list[dict[str, str]], max_tokens: int) -> Iterator[str | int]:
        pieces = llm.create_chat_completion(
            messages=messages, max_tokens=max_tokens, temperature=0.0, seed=7, stream=True
        )
        generated = 0
        for chunk in pieces:
            text = chunk["choices"][0]["delta"].get("content")
            if text:
                generated += 1
                yield (time.perf_counter(), text)  # type: ignore[misc]
        # The context now holds prompt + generated tokens (one streamed piece per token).
        yield llm.n_tokens - generated

    return stream, llama_cpp.__version__


LOADERS = {"xllamacpp": load_xllamacpp, "llama-cpp-python": load_llama_cpp_python}


def timed_call(stream: StreamFn, messages: list[dict[str, str]], max_tokens: int) -> Call:
    start = time.perf_counter()
    stamps: list[float] = []
    reported = None
    for item in stream(messages, max_tokens):
        if isinstance(item, tuple):
            stamps.append(item[0])
        else:
            reported = item
    if not stamps:
        raise RuntimeError("the runtime produced no tokens")
    gen_time = stamps[-1] - stamps[0]
    tok_s = (len(stamps) - 1) / gen_time if gen_time > 0 else float("nan")
    return Call(stamps[0] - start, len(stamps), tok_s, reported)


def bench_runtime(name: str, args: argparse.Namespace) -> RuntimeResult:
    start = time.perf_counter()
    stream, version = LOADERS[name](args.model, args.threads, args.ctx)
    load_s = time.perf_counter() - start
    # Warm-up: first decode pays one-off costs (page faults, thread pool start).
    timed_call(stream, [{"role": "user", "content": "Say OK."}], 4)
    result = RuntimeResult(name, version, load_s)
    for size in args.sizes:
        cold: list[Call] = []
        warm: list[Call] = []
        for repeat in range(args.repeats):
            system = system_prompt(size, variant=size + repeat)
            first = [
                {"role": "system", "content": system},
                {"role": "user", "content": _QUESTIONS[repeat % len(_QUESTIONS)]},
            ]
            cold.append(timed_call(stream, first, args.max_tokens))
            second = [first[0], {"role": "user", "content": "What time is breakfast?"}]
            warm.append(timed_call(stream, second, 16))
        med = statistics.median
        result.results[f"~{size}"] = {
            "prompt_tokens": cold[0].prompt_tokens,
            "ttft_s": round(med(c.ttft_s for c in cold), 3),
            "gen_tokens": int(med(c.gen_tokens for c in cold)),
            "gen_tok_s": round(med(c.gen_tok_s for c in cold), 1),
            "ttft_cached_s": round(med(c.ttft_s for c in warm), 3),
        }
    return result


def bench_prompt_cache(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """Frontdesk's own provider: does the generator's long system prompt stay cached while
    validator and router calls (different prompts) run in between, as in a real turn?

    Modes: `auto` (default: llama.cpp picks the slot with the longest shared prefix),
    `pinned` (one named slot per call kind) and `one-slot` (everything in one slot: the
    other calls evict the generator's prompt; llama.cpp may restore it from its RAM cache).
    Then the same sequence on llama-cpp-python (one sequence, no slots), if installed.
    """
    from frontdesk.llm.embedded import EmbeddedChatModel

    model = EmbeddedChatModel(
        model_path=args.model,
        context_tokens=args.ctx,
        threads=args.threads,
        temperature=0.0,
        max_tokens=8,
    )
    model.load()

    def ttft(slot: str | None, messages: list[tuple[str, str]]) -> float:
        start = time.perf_counter()
        for chunk in model.with_cache_slot(slot).stream(messages):
            if chunk.content:
                return time.perf_counter() - start
        raise RuntimeError("the model produced no tokens")

    modes = {
        "auto": (None, None, None),
        "pinned": ("generator", "validator", "router"),
        "one-slot": ("default", "default", "default"),
    }
    results: dict[str, dict[str, float]] = {}
    for index, (mode, (generator, validator, router)) in enumerate(modes.items()):
        system = system_prompt(900, variant=1000 + index)
        cold = ttft(generator, [("system", system), ("human", _QUESTIONS[0])])
        check = system_prompt(400, variant=2000 + index).replace("concierge", "fact checker")
        ttft(validator, [("system", check), ("human", "Answer: breakfast is at 7. PASS or FAIL?")])
        ttft(router, [("human", f"Classify (request {index}): where is the spa?")])
        warm = ttft(generator, [("system", system), ("human", "What time is breakfast?")])
        results[mode] = {"first_turn_ttft_s": round(cold, 3), "next_turn_ttft_s": round(warm, 3)}
    model.runtime.close()
    # For comparison: llama-cpp-python keeps one sequence, reusing only the previous prompt.
    try:
        stream, _ = load_llama_cpp_python(args.model, args.threads, args.ctx)
    except ImportError:
        return results
    system = system_prompt(900, variant=3000)
    check = system_prompt(400, variant=3001).replace("concierge", "fact checker")
    first = timed_call(
        stream,
        [{"role": "system", "content": system}, {"role": "user", "content": _QUESTIONS[0]}],
        8,
    )
    timed_call(
        stream,
        [
            {"role": "system", "content": check},
            {"role": "user", "content": "Answer: breakfast is at 7. PASS or FAIL?"},
        ],
        8,
    )
    timed_call(stream, [{"role": "user", "content": "Classify: where is the spa?"}], 8)
    again = timed_call(
        stream,
        [
            {"role": "system", "content": system},
            {"role": "user", "content": "What time is breakfast?"},
        ],
        8,
    )
    results["llama-cpp-python"] = {
        "first_turn_ttft_s": round(first.ttft_s, 3),
        "next_turn_ttft_s": round(again.ttft_s, 3),
    }
    return results


def machine() -> dict[str, str | int | float]:
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        model = next(
            (ln.split(":", 1)[1].strip() for ln in lscpu.splitlines() if "Model name" in ln),
            platform.processor(),
        )
    except (OSError, subprocess.CalledProcessError):
        model = platform.processor()
    return {
        "cpu": model,
        "cores": os.cpu_count() or 0,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
    }


def print_table(results: list[RuntimeResult], info: dict) -> None:
    print(f"machine: {info['cpu']}, {info['cores']} cores, load {info['load_avg_1m']}")
    header = "runtime            size  prompt_tok  load_s  ttft_s  gen_tok/s  ttft_cached_s"
    print(header)
    print("-" * len(header))
    for res in results:
        for size, row in res.results.items():
            print(
                f"{res.runtime:<18} {size:>5}  {row['prompt_tokens']!s:>10}  {res.load_s:>6.2f}"
                f"  {row['ttft_s']:>6.3f}  {row['gen_tok_s']:>9}  {row['ttft_cached_s']:>13.3f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", choices=[*LOADERS, "both", "none"], default="both")
    parser.add_argument("--model", type=Path, default=None, help="GGUF (default: settings)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 900])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--prompt-cache",
        action="store_true",
        help="also measure Frontdesk's provider: next-turn TTFT with other calls in between",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.model is None or args.threads is None:
        from frontdesk.config import Settings
        from frontdesk.llm.weights import chat_model_path

        settings = Settings()
        args.model = args.model or chat_model_path(settings.llm_model, settings.models_dir)
        args.threads = args.threads or settings.llm_threads
    if not args.model.is_file():
        parser.error(f"model file not found: {args.model}")
    names = {"both": list(LOADERS), "none": []}.get(args.runtime, [args.runtime])
    results = []
    for name in names:
        try:
            results.append(bench_runtime(name, args))
        except ImportError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    cache = bench_prompt_cache(args) if args.prompt_cache else None
    info = machine()
    if args.json:
        payload = {
            "machine": info,
            "threads": args.threads,
            "max_tokens": args.max_tokens,
            "repeats": args.repeats,
            "runtimes": [asdict(r) for r in results],
            "prompt_cache": cache,
        }
        print(json.dumps(payload, indent=2))
    else:
        print_table(results, info)
        for mode, row in (cache or {}).items():
            print(
                f"prompt cache, {mode:<8}: first turn TTFT {row['first_turn_ttft_s']:.3f} s, "
                f"next turn TTFT {row['next_turn_ttft_s']:.3f} s"
            )
    return 0 if results or cache else 1


if __name__ == "__main__":
    raise SystemExit(main())
