#!/usr/bin/env python3
"""Build set-a.json, set-b.json, set-c.json, set-d.json and set-e.json next to this tools/ folder."""
import importlib
import os
import sys

from build_lib import write

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

if __name__ == "__main__":
    names = sys.argv[1:] or ["a", "b", "c", "d", "e"]
    for n in names:
        mod = importlib.import_module("set_" + n)
        data = mod.build()
        path = os.path.join(OUT, "set-%s.json" % n)
        write(path, data)
        print("wrote", path, [len(c["turns"]) for c in data["conversations"]], "turns,", len(data["facts"]), "facts")
