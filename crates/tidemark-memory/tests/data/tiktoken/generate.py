#!/usr/bin/env python3
"""Compute expected.jsonl and prompt.json: OpenAI tiktoken's counts of every message in corpus.jsonl.

The `token_counts` test of tidemark-memory checks `TiktokenCounter` against these
files. Neither the tests nor CI run this script; its output is checked in.

What it computes, for each encoding (o200k_base and cl100k_base), with OpenAI's
Python tiktoken and `encode_ordinary` (so `<|endoftext|>` in a message is plain
text, never a special token), the chat accounting documented on `TiktokenCounter`:

    3 + tokens(role)
    + (tokens(name) + 1 if the message has a name)
    + tokens(text)                          for each text part
    + tokens(tool name) + tokens(arguments) for each tool call
    + tokens(content)                       for each tool result
    + 85                                    for each attachment

expected.jsonl has one object per corpus line, in order:
`{"index": i, "o200k_base": n, "cl100k_base": m, "o200k_base_parts": [...], "cl100k_base_parts": [...]}`,
where the part lists hold each part's share of the count.
prompt.json holds the count of the whole corpus as one prompt: every message plus
the 3 reply-priming tokens.

How to run it offline
---------------------

Python tiktoken downloads its rank files from openaipublic.blob.core.windows.net on
first use. This script needs no network: it copies the identical rank files that the
tiktoken-rs crate ships (its `assets/` directory, found in the cargo registry) into a
fresh temporary cache directory, under the names tiktoken looks for (the sha1 of
each file's URL), and points TIKTOKEN_CACHE_DIR at it. Before that it checks each
file's sha256 against the hash OpenAI's tiktoken expects, prints both, and stops on
a mismatch (tiktoken checks the same hash again when it loads the file).

    python3 -m venv /tmp/tiktoken-venv
    /tmp/tiktoken-venv/bin/pip install tiktoken     # any 0.x with o200k_base; made with 0.14.0
    cargo fetch                                      # puts tiktoken-rs 0.12 in the cargo registry
    /tmp/tiktoken-venv/bin/python generate.py [TIKTOKEN_RS_ASSETS_DIR]
"""

import glob
import hashlib
import json
import os
import pathlib
import shutil
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

# The URL and sha256 of each rank file, as in tiktoken_ext/openai_public.py of OpenAI's tiktoken.
RANK_FILES = {
    "o200k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "cl100k_base": (
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
}

FRAMING = 3
NAME_EXTRA = 1
ATTACHMENT_TOKENS = 85
REPLY_PRIMING = 3


def find_assets():
    if len(sys.argv) > 1:
        return pathlib.Path(sys.argv[1])
    cargo_home = pathlib.Path(os.environ.get("CARGO_HOME", pathlib.Path.home() / ".cargo"))
    found = sorted(glob.glob(str(cargo_home / "registry/src/*/tiktoken-rs-0.12.*/assets")))
    if not found:
        sys.exit("tiktoken-rs 0.12 is not in the cargo registry: run `cargo fetch`, or pass its assets directory")
    return pathlib.Path(found[-1])


def prepare_offline_cache(assets):
    """Copy the rank files into a fresh tiktoken cache, after checking their hashes."""
    cache = pathlib.Path(tempfile.mkdtemp(prefix="tiktoken-cache-"))
    for encoding, (url, expected_sha256) in RANK_FILES.items():
        source = assets / f"{encoding}.tiktoken"
        actual_sha256 = hashlib.sha256(source.read_bytes()).hexdigest()
        print(f"{encoding}: sha256 of {source} is {actual_sha256}; OpenAI's tiktoken expects {expected_sha256}")
        if actual_sha256 != expected_sha256:
            sys.exit(f"{encoding}: the rank file differs from OpenAI's, so a comparison would be meaningless")
        shutil.copyfile(source, cache / hashlib.sha1(url.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    return cache


def part_tokens(encoding, part):
    tokens = lambda text: len(encoding.encode_ordinary(text))
    kind = part["type"]
    if kind == "text":
        return tokens(part["text"])
    if kind == "tool_call":
        return tokens(part["name"]) + tokens(part["arguments"])
    if kind == "tool_result":
        return tokens(part["content"])
    if kind == "attachment":
        return ATTACHMENT_TOKENS
    raise ValueError(f"unknown part type {kind!r}")


def message_tokens(encoding, message):
    parts = [part_tokens(encoding, part) for part in message.get("parts", [])]
    total = FRAMING + len(encoding.encode_ordinary(message["role"])) + sum(parts)
    if message.get("name") is not None:
        total += len(encoding.encode_ordinary(message["name"])) + NAME_EXTRA
    return total, parts


def main():
    cache = prepare_offline_cache(find_assets())
    try:
        import tiktoken

        encodings = {name: tiktoken.get_encoding(name) for name in RANK_FILES}
        messages = [json.loads(line) for line in (HERE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
        totals = {name: REPLY_PRIMING for name in encodings}
        with open(HERE / "expected.jsonl", "w", encoding="utf-8", newline="\n") as out:
            for index, message in enumerate(messages):
                row = {"index": index}
                for name, encoding in encodings.items():
                    total, parts = message_tokens(encoding, message)
                    row[name] = total
                    row[f"{name}_parts"] = parts
                    totals[name] += total
                out.write(json.dumps(row) + "\n")
        prompt = {"messages": len(messages), **totals}
        (HERE / "prompt.json").write_text(json.dumps(prompt) + "\n", encoding="utf-8")
        print(f"tiktoken {tiktoken.__version__}: wrote counts of {len(messages)} messages; prompt totals {totals}")
    finally:
        shutil.rmtree(cache)


if __name__ == "__main__":
    main()
