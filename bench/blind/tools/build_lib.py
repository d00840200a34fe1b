"""Small helpers to assemble the blind test sets.

Episodes are plain lists of turn dicts.  Turns that state a fact carry a
private "_f" list with fact ids; the assembler strips it and records the
0-based index of the turn inside its conversation.  Tool-call ids are
assigned here so that every tool message answers the call right before it.
"""
import json
import random
import string
import textwrap

ALNUM = string.ascii_letters + string.digits


def d(s):
    """Dedent a triple-quoted block and drop the surrounding blank lines."""
    if not isinstance(s, str):
        return s
    return textwrap.dedent(s).strip("\n")


def J(obj, indent=2):
    return json.dumps(obj, indent=indent, ensure_ascii=False)


def _marks(f):
    if f is None:
        return []
    return [f] if isinstance(f, str) else list(f)


def U(text, f=None):
    return [{"role": "user", "content": d(text), "_f": _marks(f)}]


def A(text, f=None):
    return [{"role": "assistant", "content": d(text), "_f": _marks(f)}]


def T(text, name, args, out, f=None, af=None):
    """One assistant tool call followed by its tool result."""
    return TM(text, [(name, args, out, f)], af=af)


def TM(text, calls, af=None):
    """Assistant message with several tool calls, answered in sequence.

    calls: list of (name, arguments, output[, fact ids marked on the output]).
    """
    a = {"role": "assistant", "content": d(text), "_f": _marks(af),
         "_calls": [(c[0], c[1]) for c in calls]}
    res = [a]
    for c in calls:
        f = c[3] if len(c) > 3 else None
        res.append({"role": "tool", "content": d(c[2]), "_f": _marks(f)})
    return res


class Pool:
    """Cycles through filler-episode generators in shuffled order."""

    def __init__(self, gens, rng):
        self.gens = list(gens)
        self.rng = rng
        self.queue = []
        self.used = {}

    def take(self, n=1):
        eps = []
        for _ in range(n):
            if not self.queue:
                self.queue = list(self.gens)
                self.rng.shuffle(self.queue)
            g = self.queue.pop()
            self.used[g.__name__] = self.used.get(g.__name__, 0) + 1
            eps.append(g(self.rng, self.used[g.__name__]))
        return eps


def assemble(conv_id, episodes, rng):
    turns, marks, pending = [], {}, []
    flat = []
    for ep in episodes:
        if isinstance(ep, dict):
            flat.append(ep)
        else:
            for t in ep:
                if isinstance(t, list):
                    flat.extend(t)
                else:
                    flat.append(t)
    for t in flat:
        t = dict(t)
        f = t.pop("_f", [])
        calls = t.pop("_calls", None)
        if t["role"] == "tool":
            if not pending:
                raise ValueError("tool message without pending call in %s at %d" % (conv_id, len(turns)))
            t = {"role": "tool", "tool_call_id": pending.pop(0), "content": t["content"]}
        elif calls:
            if pending:
                raise ValueError("unanswered calls before turn %d in %s" % (len(turns), conv_id))
            tc = []
            for name, args in calls:
                cid = "call_" + "".join(rng.choice(ALNUM) for _ in range(14))
                tc.append({"id": cid, "name": name, "arguments": args})
                pending.append(cid)
            t = {"role": t["role"], "content": t["content"], "tool_calls": tc}
        else:
            if pending:
                raise ValueError("unanswered calls before turn %d in %s" % (len(turns), conv_id))
        for fid in f:
            if fid in marks:
                raise ValueError("fact %s marked twice" % fid)
            marks[fid] = (conv_id, len(turns))
        turns.append(t)
    if pending:
        raise ValueError("conversation %s ends with unanswered calls" % conv_id)
    return turns, marks


def make_set(name, note, user, convs, facts, seed):
    """convs: list of (conv_id, episodes). facts: list of dicts with keys
    id, kind, value, lexical, para, ask_in, corrects (optional)."""
    rng = random.Random(seed)
    out_convs, marks = [], {}
    for cid, eps in convs:
        turns, m = assemble(cid, eps, rng)
        out_convs.append({"id": cid, "turns": turns})
        marks.update(m)
    by_id = {c["id"]: c for c in out_convs}
    out_facts = []
    for f in facts:
        if f["id"] not in marks:
            raise ValueError("fact %s never marked in a turn" % f["id"])
        conv, idx = marks[f["id"]]
        role = by_id[conv]["turns"][idx]["role"]
        out_facts.append({
            "id": f["id"],
            "conversation": conv,
            "turn": idx,
            "source": role,
            "kind": f["kind"],
            "value": f["value"],
            "lexical_question": f.get("lexical"),
            "paraphrased_question": f.get("para"),
            "ask_in": f["ask_in"],
            "corrects": f.get("corrects"),
        })
    unused = set(marks) - {f["id"] for f in facts}
    if unused:
        raise ValueError("marked but undefined facts: %s" % sorted(unused))
    return {"name": name, "writer_note": note, "user": user,
            "conversations": out_convs, "facts": out_facts}


def write(path, data):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False)
        fh.write("\n")


def redate(episodes, mapping):
    """Replace day strings in generated filler (content and call arguments)."""
    def fix(x):
        if isinstance(x, str):
            for a, b in mapping.items():
                x = x.replace(a, b)
            return x
        if isinstance(x, list):
            return [fix(i) for i in x]
        if isinstance(x, tuple):
            return tuple(fix(i) for i in x)
        if isinstance(x, dict):
            return {k: fix(v) for k, v in x.items()}
        return x
    return fix(episodes)


def shift_dates(episodes, prefix, days):
    """Shift every ISO date starting with prefix (e.g. "2026-11-") by a number of days."""
    import datetime
    import re
    pat = re.compile(re.escape(prefix) + r"(\d\d)")

    def sub(m):
        dt = datetime.date.fromisoformat(m.group(0)) + datetime.timedelta(days=days)
        return dt.isoformat()

    def fix(x):
        if isinstance(x, str):
            return pat.sub(sub, x)
        if isinstance(x, list):
            return [fix(i) for i in x]
        if isinstance(x, dict):
            return {k: fix(v) for k, v in x.items()}
        return x
    return fix(episodes)


_USED = {}


def pick(r, key, items):
    """Pick an item not used before under this key (cycles once exhausted)."""
    used = _USED.setdefault(key, [])
    avail = [i for i in range(len(items)) if i not in used]
    if not avail:
        used.clear()
        avail = list(range(len(items)))
    i = r.choice(avail)
    used.append(i)
    return items[i]
