#!/usr/bin/env python3
"""Counts wire messages by the rule of OpenAI's cookbook, with OpenAI's Python tiktoken, for `tidemark-compare count`.

    python cookbook_count.py MESSAGES.jsonl

Each line of MESSAGES.jsonl is a JSON array: the OpenAI chat-completions
messages that one tidemark message is sent as (a tool message with several
results is several). The script prints one JSON line,

    {"tiktoken": version, "counts": [...]}

with one count per input line: for each wire message, 3 tokens, plus the
o200k_base tokens (`encode_ordinary`) of every string value in it, recursively
(role, content, name, tool_call_id, each tool call's id, type, function name
and arguments, each content part's type and text), plus 1 for a `name`. This is
"How to count tokens with tiktoken" from OpenAI's cookbook, whose loop adds the
tokens of every string field of a message, extended to the nested fields of
tool calls and content parts. An image or file part costs 85, OpenAI's base
cost of an image, whatever its URL or data: providers price images by size.

tiktoken must find its rank file without the network: the caller points
TIKTOKEN_CACHE_DIR at a cache filled by `cargo xtask` (see xtask/src/pyenv.rs).
Any failure exits non-zero with a one-line reason on stderr.
"""

import json
import sys

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
IMAGE_TOKENS = 85


def fail(reason):
    print(f"cookbook_count.py: {reason}", file=sys.stderr)
    sys.exit(1)


def value_tokens(encode, value):
    if isinstance(value, str):
        return len(encode(value))
    if isinstance(value, list):
        return sum(value_tokens(encode, item) for item in value)
    if isinstance(value, dict):
        if value.get("type") in ("image_url", "file"):
            return IMAGE_TOKENS
        return sum(value_tokens(encode, item) for item in value.values())
    return 0


def cookbook(encode, messages):
    total = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE
        for key, value in message.items():
            total += value_tokens(encode, value)
            if key == "name" and isinstance(value, str):
                total += TOKENS_PER_NAME
    return total


def main():
    if len(sys.argv) != 2:
        fail("usage: cookbook_count.py MESSAGES.jsonl")
    # Split on "\n" only: str.splitlines would also split at U+2028 inside strings.
    with open(sys.argv[1], "rb") as source:
        lines = source.read().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows = [json.loads(line) for line in lines]
    if not all(isinstance(row, list) and all(isinstance(m, dict) for m in row) for row in rows):
        fail(f"{sys.argv[1]} must hold one JSON array of message objects per line")

    import tiktoken

    encode = tiktoken.get_encoding("o200k_base").encode_ordinary
    counts = [cookbook(encode, row) for row in rows]
    print(json.dumps({"tiktoken": tiktoken.__version__, "counts": counts}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - any failure becomes the one-line reason
        fail(f"{type(error).__name__}: {error}")
