#!/usr/bin/env python3
"""Validate the blind memory test sets (set-a.json, set-b.json, set-c.json).

Usage: python3 check.py [set.json ...]   (defaults to ../set-*.json)

Exit code 0 when every set passes; errors are listed per set, followed by a
summary of sizes and fact counts.  Turn indices are 0-based positions in a
conversation's "turns" list.
"""
import glob
import json
import os
import re
import sys

KINDS = {"name", "place", "code", "region", "id", "preference", "date", "number", "other"}
SOURCES = {"user", "assistant", "tool"}

STOP = set("""
a an the and or but if of to in on at by for with from as into onto about than then so
is are was were be been being am do does did done have has had having will would should could can
may might must shall i me my mine myself we us our ours you your yours he him his she her hers
they them their theirs it its itself this that these those what which who whom whose where when
why how there here not no nor just also any some all each every again ever still now up out
over off only own same too very s t d ll re ve m o y one once both either neither
get got let lets please while because since until whether although
""".split())

CONV1_RANGE = (250, 350)
CONV2_RANGE = (40, 80)
FACT_RANGE = (24, 30)


def split_words(text):
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]+|[0-9]+", text)]


def stem(w):
    for suf in ("ies", "ing", "ed", "ly", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            return w[: -len(suf)] + ("y" if suf == "ies" else "")
    return w


def content_words(text):
    return {w for w in split_words(text) if w not in STOP and len(w) > 1}


def related(a, b):
    if a == b or stem(a) == stem(b):
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long_.startswith(short)


def shared(question, turn_text, value):
    vwords = content_words(value)
    q = {w for w in content_words(question) if not any(related(w, v) for v in vwords)}
    t = content_words(turn_text)
    return sorted({w for w in q for x in t if related(w, x)})


def shape_of(text):
    s = text.strip()
    shapes = set()
    try:
        json.loads(s)
        shapes.add("json")
    except Exception:
        if re.search(r"^\s*[\[{]", s, re.M) and re.search(r'"\w+"\s*:', s):
            shapes.add("json")
    lines = s.splitlines()
    if sum(1 for l in lines if re.match(r"^\s*[A-Za-z_][\w.\-]*\s*=\s*\S", l)) >= 3 \
            or len(re.findall(r"\b[a-z_]+=[^\s=]+", s)) >= 6:
        shapes.add("key=value")
    if "json" not in shapes and sum(1 for l in lines if re.match(r"^\s*(- )?[A-Za-z_][\w.\-]*:( |$)", l)) >= 3 \
            and any(re.match(r"^\s{2,}", l) for l in lines):
        shapes.add("yaml")
    return shapes


def check_set(path):
    errs, warns, info = [], [], {}
    data = json.load(open(path, encoding="utf-8"))
    for k in ("name", "writer_note", "user", "conversations", "facts"):
        if k not in data:
            errs.append("missing top-level key %s" % k)
    if errs:
        return errs, warns, info
    convs = data["conversations"]
    order = [c["id"] for c in convs]
    by_id = {c["id"]: c for c in convs}
    if order[:2] != ["conv-1", "conv-2"]:
        errs.append("conversations must be conv-1 then conv-2, got %s" % order)
    # ---- conversation structure
    for c in convs:
        turns = c["turns"]
        n = len(turns)
        lo, hi = CONV1_RANGE if c["id"] == "conv-1" else CONV2_RANGE
        if not lo <= n <= hi:
            errs.append("%s has %d turns, expected %d-%d" % (c["id"], n, lo, hi))
        if turns and turns[0]["role"] != "user":
            errs.append("%s does not start with a user turn" % c["id"])
        pending, seen_ids = [], set()
        for i, t in enumerate(turns):
            role = t.get("role")
            if role not in SOURCES:
                errs.append("%s[%d] bad role %r" % (c["id"], i, role))
                continue
            if not isinstance(t.get("content"), str):
                errs.append("%s[%d] content not a string" % (c["id"], i))
            if role == "tool":
                tid = t.get("tool_call_id")
                if not pending:
                    errs.append("%s[%d] tool message answers no pending call" % (c["id"], i))
                elif tid not in pending:
                    errs.append("%s[%d] tool_call_id %s not among pending %s" % (c["id"], i, tid, pending))
                else:
                    pending.remove(tid)
                if not t.get("content", "").strip():
                    errs.append("%s[%d] empty tool output" % (c["id"], i))
                continue
            if pending:
                errs.append("%s[%d] calls %s not answered before next message" % (c["id"], i, pending))
                pending = []
            calls = t.get("tool_calls")
            if calls:
                if role != "assistant":
                    errs.append("%s[%d] tool_calls on a %s turn" % (c["id"], i, role))
                for call in calls:
                    if not {"id", "name", "arguments"} <= set(call):
                        errs.append("%s[%d] malformed tool call %s" % (c["id"], i, call))
                        continue
                    if call["id"] in seen_ids:
                        errs.append("%s[%d] duplicate call id %s" % (c["id"], i, call["id"]))
                    seen_ids.add(call["id"])
                    if not isinstance(call["arguments"], dict):
                        errs.append("%s[%d] arguments must be an object" % (c["id"], i))
                    pending.append(call["id"])
            elif not t.get("content", "").strip():
                errs.append("%s[%d] empty %s message" % (c["id"], i, role))
        if pending:
            errs.append("%s ends with unanswered calls %s" % (c["id"], pending))
        for i in range(1, n):
            a, b = turns[i - 1], turns[i]
            if a["role"] == "user" and b["role"] == "user":
                errs.append("%s[%d] two user messages in a row" % (c["id"], i))
            if a["role"] == "assistant" and b["role"] == "assistant" and not a.get("tool_calls"):
                warns.append("%s[%d] two assistant messages in a row" % (c["id"], i))
        if turns and turns[-1]["role"] == "tool":
            warns.append("%s ends on a tool message" % c["id"])
    # ---- message size statistics
    tool_lines = [len(t["content"].splitlines()) for c in convs for t in c["turns"] if t["role"] == "tool"]
    chat_sent = [len(re.findall(r"[.!?](\s|$)", t["content"])) or 1
                 for c in convs for t in c["turns"] if t["role"] != "tool" and t["content"].strip()]
    big = sum(1 for n in tool_lines if n >= 100)
    in_range = sum(1 for n in tool_lines if 5 <= n <= 40)
    short_chat = sum(1 for s in chat_sent if s <= 3)
    info["tool_outputs"] = len(tool_lines)
    info["tool_outputs_5_40_lines"] = in_range
    info["tool_outputs_100plus_lines"] = big
    info["chat_messages_1_3_sentences"] = "%d/%d" % (short_chat, len(chat_sent))
    if big < 2:
        errs.append("fewer than 2 long (100+ line) tool outputs (%d)" % big)
    if tool_lines and in_range < 0.6 * len(tool_lines):
        errs.append("only %d/%d tool outputs have 5-40 lines" % (in_range, len(tool_lines)))
    if chat_sent and short_chat < 0.7 * len(chat_sent):
        errs.append("only %d/%d chat messages have 1-3 sentences" % (short_chat, len(chat_sent)))
    # ---- facts
    facts = data["facts"]
    fids = [f["id"] for f in facts]
    fmap = {f["id"]: f for f in facts}
    if len(set(fids)) != len(fids):
        errs.append("duplicate fact ids")
    if not FACT_RANGE[0] <= len(facts) <= FACT_RANGE[1]:
        errs.append("%d facts, expected %d-%d" % (len(facts), *FACT_RANGE))
    corrected_by = {}
    for f in facts:
        if f.get("corrects"):
            corrected_by.setdefault(f["corrects"], []).append(f["id"])
    pos = {}
    offset, conv_start = 0, {}
    for c in convs:
        conv_start[c["id"]] = offset
        offset += len(c["turns"])
    total_turns = offset
    conv_end = {c["id"]: conv_start[c["id"]] + len(c["turns"]) for c in convs}
    all_turns = [(c["id"], i, t) for c in convs for i, t in enumerate(c["turns"])]
    values = {}
    for f in facts:
        fid = f["id"]
        need = ("id", "conversation", "turn", "source", "kind", "value", "lexical_question",
                "paraphrased_question", "ask_in", "corrects")
        miss = [k for k in need if k not in f]
        if miss:
            errs.append("%s missing keys %s" % (fid, miss))
            continue
        if f["conversation"] not in by_id:
            errs.append("%s: unknown conversation" % fid)
            continue
        turns = by_id[f["conversation"]]["turns"]
        if not isinstance(f["turn"], int) or not 0 <= f["turn"] < len(turns):
            errs.append("%s: turn index %r out of range" % (fid, f["turn"]))
            continue
        turn = turns[f["turn"]]
        text = turn["content"]
        if f["source"] not in SOURCES or turn["role"] != f["source"]:
            errs.append("%s: source %s but turn role is %s" % (fid, f["source"], turn["role"]))
        if f["kind"] not in KINDS:
            errs.append("%s: bad kind %s" % (fid, f["kind"]))
        v = f["value"]
        if not v or v not in text:
            errs.append("%s: value %r not verbatim in its turn" % (fid, v))
        if len(v) < 4:
            errs.append("%s: value %r too short to be distinctive" % (fid, v))
        if v in values:
            errs.append("%s: value %r also used by %s" % (fid, v, values[v]))
        values[v] = fid
        gpos = conv_start[f["conversation"]] + f["turn"]
        pos[fid] = gpos
        # value must not appear before the stating turn
        earlier = [(cid, i) for (cid, i, t) in all_turns
                   if conv_start[cid] + i < gpos and v in t["content"]]
        if earlier:
            errs.append("%s: value %r already appears earlier at %s" % (fid, v, earlier[:3]))
        later = sum(1 for (cid, i, t) in all_turns if conv_start[cid] + i > gpos and v in t["content"])
        f["_later_mentions"] = later
        if f["ask_in"] not in by_id:
            errs.append("%s: ask_in %s unknown" % (fid, f["ask_in"]))
            continue
        if order.index(f["ask_in"]) < order.index(f["conversation"]):
            errs.append("%s: asked before it is stated" % fid)
        stale = fid in corrected_by
        if stale:
            if len(corrected_by[fid]) > 1:
                errs.append("%s corrected more than once: %s" % (fid, corrected_by[fid]))
            if f["lexical_question"] is not None or f["paraphrased_question"] is not None:
                errs.append("%s is corrected by %s, its questions must be null" % (fid, corrected_by[fid]))
        else:
            lq, pq = f["lexical_question"], f["paraphrased_question"]
            if not lq or not pq:
                errs.append("%s: live fact needs both questions" % fid)
                continue
            for q in (lq, pq):
                if v.lower() in q.lower():
                    errs.append("%s: question gives away the value: %r" % (fid, q))
                if not q.strip().endswith("?"):
                    warns.append("%s: question without '?': %r" % (fid, q))
            if not shared(lq, text, v):
                errs.append("%s: lexical question shares no content word with its turn" % fid)
            sh = shared(pq, text, v)
            if sh:
                errs.append("%s: paraphrase shares %s with its turn" % (fid, sh))
            if f["ask_in"] != f["conversation"]:
                leak = [i for i, t in enumerate(by_id[f["ask_in"]]["turns"]) if v in t["content"]]
                if leak:
                    errs.append("%s: cross-conversation value %r leaks into %s at %s" % (fid, v, f["ask_in"], leak[:3]))
            f["_distance"] = conv_end[f["ask_in"]] - gpos
    for f in facts:
        c = f.get("corrects")
        if not c:
            continue
        if c not in fmap:
            errs.append("%s corrects unknown fact %s" % (f["id"], c))
            continue
        if fids.index(c) > fids.index(f["id"]):
            errs.append("%s corrects %s which is listed later" % (f["id"], c))
        if pos.get(c, 10 ** 9) >= pos.get(f["id"], -1):
            errs.append("%s does not come after the fact it corrects (%s)" % (f["id"], c))
        if fmap[c]["value"] == f["value"]:
            errs.append("%s: correction keeps the same value" % f["id"])
        if fmap[c]["kind"] != f["kind"]:
            warns.append("%s: kind %s differs from corrected %s" % (f["id"], f["kind"], fmap[c]["kind"]))
    # ---- coverage rules
    live = [f for f in facts if f["id"] not in corrected_by]
    src = {s: sum(1 for f in facts if f["source"] == s) for s in SOURCES}
    kinds = {k: sum(1 for f in facts if f["kind"] == k) for k in sorted(KINDS)}
    info["facts"] = len(facts)
    info["by_source"] = src
    info["by_kind"] = kinds
    if src["tool"] < 6:
        errs.append("only %d tool facts" % src["tool"])
    if src["assistant"] < 3:
        errs.append("only %d assistant facts" % src["assistant"])
    long_user = [f for f in facts if f["source"] == "user"
                 and len(split_words(by_id[f["conversation"]]["turns"][f["turn"]]["content"])) >= 15
                 and by_id[f["conversation"]]["turns"][f["turn"]]["content"].strip() != f["value"]]
    info["user_facts_in_long_sentences"] = len(long_user)
    if len(long_user) < 6:
        errs.append("only %d user facts inside longer sentences" % len(long_user))
    shapes = {}
    for f in facts:
        if f["source"] == "tool":
            for s in shape_of(by_id[f["conversation"]]["turns"][f["turn"]]["content"]):
                shapes.setdefault(s, []).append(f["id"])
    info["tool_fact_shapes"] = {k: len(v) for k, v in sorted(shapes.items())}
    for s in ("json", "key=value", "yaml"):
        if s not in shapes:
            errs.append("no tool fact in %s shape" % s)
    for k in ("name", "place", "code", "region", "id", "preference", "date", "number"):
        if kinds[k] == 0:
            errs.append("no fact of kind %s" % k)
    qtext = lambda f: " ".join(x for x in (f["lexical_question"], f["paraphrased_question"]) if x).lower()
    if not any(f["kind"] == "name" and re.search(r"\bcall", qtext(f)) for f in live):
        errs.append("no question about what the user wants to be called")
    if not any(f["kind"] == "place" and re.search(r"\b(city|town|live|based|home)\b", qtext(f)) for f in live):
        errs.append("no question about the user's city")
    for what, pat in (("ticket", r"ticket|case|complaint|claim"),
                      ("order", r"order|purchase|po\b"),
                      ("instance", r"instance|vm\b|server|droplet|machine|host|box")):
        if not any(f["kind"] == "id" and re.search(pat, qtext(f)) for f in live):
            errs.append("no id fact about a %s" % what)
    if not any(f["kind"] == "code" and re.search(r"project|code", qtext(f)) for f in live):
        errs.append("no project-code question")
    corr = [f for f in facts if f.get("corrects")]
    info["corrections"] = len(corr)
    if len(corr) < 3:
        errs.append("only %d corrections" % len(corr))
    cross = [f for f in live if f["conversation"] == "conv-1" and f["ask_in"] == "conv-2"]
    info["cross_conversation"] = len(cross)
    if len(cross) < 6:
        errs.append("only %d cross-conversation facts" % len(cross))
    far = [f for f in live if f.get("_distance", 0) >= 100]
    info["live_facts_100plus_turns_before_end"] = "%d/%d" % (len(far), len(live))
    if len(far) * 2 <= len(live):
        errs.append("only %d/%d live facts are 100+ turns before the end" % (len(far), len(live)))
    # facts spread: at least a third of conv-1 facts in each half
    c1 = sorted(f["turn"] for f in facts if f["conversation"] == "conv-1")
    n1 = len(by_id["conv-1"]["turns"])
    first_half = sum(1 for t in c1 if t < n1 / 2)
    info["conv1_fact_turns"] = c1
    if c1 and not (0.3 * len(c1) <= first_half <= 0.85 * len(c1)):
        errs.append("conv-1 facts are not spread across the conversation")
    info["turns"] = {c["id"]: len(c["turns"]) for c in convs}
    info["total_turns"] = total_turns
    info["values_repeated_later"] = {f["id"]: f["_later_mentions"] for f in facts if f.get("_later_mentions")}
    return errs, warns, info


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    paths = argv[1:] or sorted(glob.glob(os.path.join(here, "..", "set-*.json")))
    if not paths:
        print("no sets found")
        return 1
    bad = 0
    for p in paths:
        errs, warns, info = check_set(p)
        name = os.path.basename(p)
        print("=" * 70)
        print("%s: %s" % (name, "PASS" if not errs else "FAIL (%d errors)" % len(errs)))
        for e in errs:
            print("  ERROR  " + e)
        for w in warns:
            print("  warn   " + w)
        for k, v in info.items():
            print("  %-36s %s" % (k, v))
        bad += bool(errs)
    print("=" * 70)
    print("ALL PASS" if not bad else "%d set(s) failing" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
