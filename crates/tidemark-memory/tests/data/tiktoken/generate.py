#!/usr/bin/env python3
"""Compute expected.jsonl and prompt.json: OpenAI tiktoken's counts of every message in corpus.jsonl.

The `token_counts` test of tidemark-memory checks `TiktokenCounter` against these
files. Neither the tests nor CI run this script; its output is checked in.

What it computes, for each encoding (o200k_base and cl100k_base), with OpenAI's
Python tiktoken and `encode_ordinary` (so `<|endoftext|>` in a message is plain
text, never a special token), the chat accounting documented on `TiktokenCounter`:
the message is written as the OpenAI chat messages a request sends for it (the
mapping of tidemark-providers' `wire::message_to_wire`, restated in `to_wire`
below), and each wire message costs, by the rule of OpenAI's cookbook,

    3 + tokens of every string value in its JSON object, recursively
      + 1 for a `name`
      (an image or file content part costs 85 instead of its strings)

expected.jsonl has one object per corpus line, in order:
`{"index": i, "o200k_base": n, "cl100k_base": m, "o200k_base_parts": [...], "cl100k_base_parts": [...]}`,
where the part lists hold each part's share of the count: a text part its text
(plus "text" when the content is an array of parts), a tool call its id,
"function", name and arguments, a tool result its call id and content (plus
"text" and its text form outside a tool message), an attachment 85, and a part
the wire drops 0.
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


def to_wire(message):
    """The OpenAI chat messages a request sends for a tidemark message, as `wire::message_to_wire` writes them."""
    parts = message.get("parts", [])
    name = message.get("name")
    if message["role"] == "tool":
        wire = []
        for part in parts:
            if part["type"] != "tool_result":
                continue
            one = {"role": "tool", "tool_call_id": part["call_id"], "content": part["content"]}
            if name is not None:
                one["name"] = name
            wire.append(one)
        return wire
    one = {"role": message["role"]}
    if name is not None:
        one["name"] = name
    calls = [
        {"id": p["id"], "type": "function", "function": {"name": p["name"], "arguments": p["arguments"]}}
        for p in parts
        if p["type"] == "tool_call"
    ]
    content = [p for p in parts if p["type"] != "tool_call"]
    if not content:
        one["content"] = None if calls else ""
    elif len(content) == 1 and content[0]["type"] == "text":
        one["content"] = content[0]["text"]
    else:
        one["content"] = [content_part(p) for p in content]
    if calls:
        one["tool_calls"] = calls
    return [one]


def content_part(part):
    if part["type"] == "text":
        return {"type": "text", "text": part["text"]}
    if part["type"] == "tool_result":
        return {"type": "text", "text": f"[result of {part['call_id']}] {part['content']}"}
    if part["type"] == "attachment":
        return {"type": "image_url", "image_url": {"url": "(priced as an image)"}}
    raise ValueError(f"unknown part type {part['type']!r}")


def value_tokens(encoding, value):
    """The cookbook's price of a JSON value: the tokens of every string in it; an image or file part is 85."""
    if isinstance(value, str):
        return len(encoding.encode_ordinary(value))
    if isinstance(value, list):
        return sum(value_tokens(encoding, item) for item in value)
    if isinstance(value, dict):
        if value.get("type") in ("image_url", "file"):
            return ATTACHMENT_TOKENS
        return sum(value_tokens(encoding, item) for item in value.values())
    return 0


def wire_tokens(encoding, wire):
    total = 0
    for one in wire:
        total += FRAMING + value_tokens(encoding, one)
        if one.get("name") is not None:
            total += NAME_EXTRA
    return total


def part_tokens(encoding, message, part):
    """One part's share of the message's count, excluding framing, role and name."""
    tokens = lambda text: len(encoding.encode_ordinary(text))
    kind = part["type"]
    if message["role"] == "tool":
        return tokens(part["call_id"]) + tokens(part["content"]) if kind == "tool_result" else 0
    if kind == "tool_call":
        return tokens(part["id"]) + tokens("function") + tokens(part["name"]) + tokens(part["arguments"])
    content = [p for p in message.get("parts", []) if p["type"] != "tool_call"]
    if len(content) == 1 and kind == "text":
        return tokens(part["text"])
    return value_tokens(encoding, content_part(part))


def message_tokens(encoding, message):
    parts = [part_tokens(encoding, message, part) for part in message.get("parts", [])]
    return wire_tokens(encoding, to_wire(message)), parts


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
