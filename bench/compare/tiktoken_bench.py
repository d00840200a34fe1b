#!/usr/bin/env python3
"""Times OpenAI's Python tiktoken on the counting corpus of `tidemark-compare count`.

    python tiktoken_bench.py CORPUS.jsonl

CORPUS.jsonl holds one JSON string per line, the texts to count. The script
loads o200k_base and counts every text once with `encode_ordinary` (untimed;
loading is not timed either, just as the Rust side builds its tables before
timing), then prints one JSON line:

    {"tiktoken": version, "python": version, "texts": n, "tokens": total, "counts": [...]}

After that, each line `pass START END` on stdin times one count of the texts
START to END - 1 (a slice of the corpus, in Python's slice notation
texts[START:END]) on one thread, and prints `{"tokens": total, "seconds": time}`.
The caller interleaves these timings with its own and keeps each slice's
fastest. The script ends at the end of its input, so
`echo pass 0 100 | python tiktoken_bench.py CORPUS.jsonl` times the first 100
texts by hand.

tiktoken must find its rank file without the network: the caller points
TIKTOKEN_CACHE_DIR at a cache filled by `cargo xtask` (see xtask/src/pyenv.rs).
Any failure exits non-zero with a one-line reason on stderr.
"""

import json
import platform
import sys
import time


def fail(reason):
    print(f"tiktoken_bench.py: {reason}", file=sys.stderr)
    sys.exit(1)


def read_texts(path):
    # Split on "\n" only: str.splitlines would also split inside texts at
    # U+2028 and other separators that JSON leaves unescaped.
    with open(path, "rb") as corpus:
        lines = corpus.read().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    texts = [json.loads(line) for line in lines]
    if not all(isinstance(text, str) for text in texts):
        fail(f"{path} must hold one JSON string per line")
    return texts


def one_pass(encode, texts):
    tokens = 0
    for text in texts:
        tokens += len(encode(text))
    return tokens


def emit(report):
    print(json.dumps(report), flush=True)


def main():
    if len(sys.argv) != 2:
        fail("usage: tiktoken_bench.py CORPUS.jsonl, then lines `pass START END` on stdin")
    texts = read_texts(sys.argv[1])

    import tiktoken

    encode = tiktoken.get_encoding("o200k_base").encode_ordinary
    counts = [len(encode(text)) for text in texts]
    emit(
        {
            "tiktoken": tiktoken.__version__,
            "python": platform.python_version(),
            "texts": len(texts),
            "tokens": sum(counts),
            "counts": counts,
        }
    )
    while True:
        command = sys.stdin.readline()
        if command == "":
            return
        words = command.split()
        try:
            first, end = int(words[1]), int(words[2])
            valid = len(words) == 3 and words[0] == "pass" and 0 <= first <= end <= len(texts)
        except (IndexError, ValueError):
            valid = False
        if not valid:
            fail(f"expected `pass START END` with 0 <= START <= END <= {len(texts)}, got {command.strip()!r}")
        part = texts[first:end]
        start = time.perf_counter()
        tokens = one_pass(encode, part)
        seconds = time.perf_counter() - start
        emit({"tokens": tokens, "seconds": seconds})


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - any failure becomes the one-line reason
        fail(f"{type(error).__name__}: {error}")
