"""Set D: project-manager assistant for a homeowner renovating an old house.

conv-1 is one long thread that runs from early October to late November 2026
(attic conversion, kitchen, downstairs bath, exterior trim).  conv-2 is a new
thread of the same user in early December.

Fact episodes are written by hand below (ep_* functions).  Everything else is
filler from the g_* generators, each with several hand-phrased variants.
"""
import datetime
import json
import random

from build_lib import A, J, T, TM, U, make_set

D = datetime.date
DAY = datetime.timedelta(days=1)

NOTE = ("I wrote every fact sentence, value and question for a homeowner's renovation assistant by hand, "
        "generated the everyday filler around them with small seeded generators that each have several "
        "hand-phrased variants, and checked the result only with check.py and my own value-placement scan, "
        "never against the library.")


# ---------------------------------------------------------------- small helpers

def hx(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def digits(r, n):
    return "".join(r.choice("0123456789") for _ in range(n))


def iso(day):
    return day.isoformat()


def short(day):
    return day.strftime("%b %-d")


def wname(day):
    return day.strftime("%A")


MINUTES = [0, 5, 10, 20, 25, 30, 35, 40, 45, 50, 55]   # never :15


def hm(r, lo=7, hi=17):
    return "%02d:%02d" % (r.randint(lo, hi), r.choice(MINUTES))


class Picker:
    """Draw items without repeats per key until a list is used up."""

    def __init__(self, r):
        self.r = r
        self.used = {}

    def __call__(self, key, items):
        used = self.used.setdefault(key, [])
        avail = [i for i in range(len(items)) if i not in used]
        if not avail:
            used.clear()
            avail = list(range(len(items)))
        i = self.r.choice(avail)
        used.append(i)
        return items[i]


PK = None  # set in build()


def jl(obj):
    return json.dumps(obj, ensure_ascii=False)


def json_rows(head, key, rows, tail=None):
    """A JSON object printed with one list item per line (like many CLI tools do)."""
    lines = ["{"]
    for k, v in head.items():
        lines.append('  "%s": %s,' % (k, jl(v)))
    lines.append('  "%s": [' % key)
    for i, row in enumerate(rows):
        lines.append("    " + jl(row) + ("," if i < len(rows) - 1 else ""))
    lines.append("  ]" + ("," if tail else ""))
    if tail:
        items = list(tail.items())
        for i, (k, v) in enumerate(items):
            lines.append('  "%s": %s%s' % (k, jl(v), "," if i < len(items) - 1 else ""))
    lines.append("}")
    return "\n".join(lines)


# ---------------------------------------------------------------- filler generators
# Each takes (r, day) and returns one episode: a list that starts with a user
# turn and ends with a plain assistant turn.

WEATHER_TASKS = [
    "pour the footings for the new porch steps",
    "rehang the fascia on the south side",
    "prime the new exterior trim",
    "replace the rotten sill under the back door",
    "cut in the new attic egress window",
    "caulk the gaps along the siding",
    "patch the flashing around the chimney",
    "stain the back steps",
    "reset the downspouts before the freeze",
    "tear off the old storm windows",
]


def g_weather(r, day):
    task = PK("wtask", WEATHER_TASKS)
    u = r.choice([
        "Is the weather going to cooperate if we %s this week?" % task,
        "Jonah wants to %s sometime in the next few days. What does the forecast say?" % task,
        "The crew would like to %s soon, but only if it stays dry. Any rain or hard frost coming?" % task,
        "Can you check the next five days before we %s? Caulk and paint hate the cold." % task,
        "Sam asked whether it makes sense to %s this week or wait, so what's the outlook?" % task,
        "Jonah would like to %s before the weekend, but last year the primer on the garage peeled after a cold night, so can you check the forecast properly?" % task,
    ])
    pre = r.choice(["Checking the five-day forecast.", "Let me pull the forecast.",
                    "Looking at the next few days.", "One moment, getting the outlook."])
    lo_hi = {10: (44, 63), 11: (27, 45), 12: (11, 29)}[day.month]
    daily = []
    for i in range(5):
        dd = day + i * DAY
        hi = r.randint(*lo_hi)
        lo = hi - r.randint(8, 17)
        pop = r.choice([0, 5, 10, 10, 20, 20, 30, 40, 60, 70, 80, 90])
        if pop >= 50:
            sky = "snow showers" if hi < 35 else r.choice(["rain", "showers", "rain, heavy at times"])
        elif pop >= 30:
            sky = "flurries possible" if hi < 34 else "mostly cloudy, chance of showers"
        else:
            sky = r.choice(["sunny", "mostly sunny", "partly cloudy", "cloudy", "clearing late"])
        daily.append({"date": iso(dd), "dow": dd.strftime("%a"), "high_f": hi, "low_f": lo,
                      "precip_pct": pop, "wind_mph": r.randint(4, 26), "sky": sky})
    out = json_rows({"issued": iso(day) + " 05:40", "units": "imperial", "point": "home"},
                    "daily", daily, {"source": "nws-gridpoint"})
    best = max(daily, key=lambda x: x["high_f"] - x["precip_pct"] * 0.6)
    worst = max(daily, key=lambda x: x["precip_pct"])
    bname = wname(D.fromisoformat(best["date"]))
    wn = wname(D.fromisoformat(worst["date"]))
    if best["precip_pct"] <= 30 and best["high_f"] >= 40:
        a = r.choice([
            "%s is your best window: a high of %d°F and only a %d%% chance of precipitation. I'd avoid %s at %d%%." % (
                bname, best["high_f"], best["precip_pct"], wn, worst["precip_pct"]),
            "Go for %s. It tops out at %d°F with %d%% odds of rain, while %s looks like a washout." % (
                bname, best["high_f"], best["precip_pct"], wn),
            "%s works: %d°F, %s, wind around %d mph. Tell the crew to plan around %s instead of the rest." % (
                bname, best["high_f"], best["sky"], best["wind_mph"], bname),
        ])
    else:
        a = r.choice([
            "Honestly the whole stretch is marginal; %s at %d°F and %d%% is the least bad option. For anything with caulk or paint I'd wait." % (
                bname, best["high_f"], best["precip_pct"]),
            "Not great. The warmest day is %s at %d°F, which is too cold for that kind of outdoor work, so I'd hold off." % (
                bname, best["high_f"]),
        ])
    return [U(u), T(pre, "weather_forecast", {"point": "home", "days": 5, "units": "imperial"}, out), A(a)]


INBOX = [
    ("Jonah Pietila", "Crew tomorrow + where to park the trailer", "Jonah wants to know where the crew can park the trailer tomorrow"),
    ("Ridgeline Plumbing", "Invoice 2231 - rough-in deposit", "Ridgeline sent the rough-in deposit invoice"),
    ("Superior Stone Works", "Template appointment - please confirm", "Superior Stone wants you to confirm the template appointment"),
    ("Northwoods Cabinetry", "Production update on your cabinets", "Northwoods posted a production update on the cabinets"),
    ("Ruben Alcala", "grout color samples (photos)", "Ruben sent photos of three grout samples for you to pick from"),
    ("Zenith Roll-Off", "Swap request received", "Zenith confirmed the dumpster swap request"),
    ("Sam", "did you see the tile invoice??", "Sam is asking whether you saw the tile invoice"),
    ("Nextdoor", "Digest: 14 new posts near you", None),
    ("Costco", "Your receipt from today", None),
    ("Lakeshore CU", "Your e-statement is ready", None),
    ("Arrowhead Spray Foam", "Prep checklist before foam day", "Arrowhead sent a prep checklist, which mostly means clearing the attic"),
    ("Little Acorns Daycare", "Picture day reminder", None),
    ("Houzz", "12 ideas for small mudrooms", None),
    ("Northstar Comfort", "How did we do? 2-minute survey", None),
    ("Gail (next door)", "your dumpster + my recycling day", "Gail next door asks if the dumpster can shift a few feet on recycling day"),
    ("Menards", "Order ready for pickup at the service desk", "your Menards order is ready for pickup"),
    ("Boreal Windows", "Fall maintenance tips", None),
    ("Jonah Pietila", "Change order CO-03 draft (stair rail)", "Jonah drafted a change order for the stair rail and wants a yes or no"),
    ("Ridgeline Plumbing", "Shower valve - which trim kit?", "Tomasz needs to know which shower trim kit you want before he sets the valve"),
    ("State Farm", "Your updated policy documents", None),
    ("Superior Stone Works", "Remnant list for vanity tops", "Superior Stone sent a remnant list if you want a cheaper vanity top"),
    ("Sam", "dinner at my mom's sunday?", "Sam is asking about dinner at his mom's on Sunday"),
]


def g_inbox(r, day):
    u = r.choice([
        "Anything new from the trades in my inbox?",
        "Can you skim today's email and tell me if anything needs me?",
        "I've been in meetings all afternoon. What came in that I should care about?",
        "Quick inbox sweep please, I'm only interested in the house stuff.",
        "Before I log off, did any of the contractors write back today?",
        "I spent the whole afternoon at the tile showroom with the baby and never looked at my phone, so could you tell me whether any of the trades emailed?",
    ])
    pre = r.choice(["Searching the last day of mail.", "Let me look.", "Pulling today's messages.", "Checking now."])
    n = r.randint(6, 9)
    items = []
    while len(items) < n:
        it = PK("inbox", INBOX)
        if it not in items:
            items.append(it)
    lines = ["found %d messages (newer_than:1d)" % n]
    times = sorted(hm(r, 6, 20) for _ in range(n))
    for it, tm in zip(items, times):
        lines.append("msg_%s | %s %s | %-22s | %s" % (hx(r, 8), iso(day), tm, it[0], it[1]))
    acts = [it[2] for it in items if it[2]]
    if len(acts) >= 2:
        a = r.choice([
            "Two things need you: %s, and %s. The rest is newsletters and receipts." % (acts[0], acts[1]),
            "%s. Also, %s. Nothing else is urgent." % (acts[0][0].upper() + acts[0][1:], acts[1]),
            "Main ones: %s, and %s. I can draft replies if you tell me what to say." % (acts[0], acts[1]),
        ])
    elif acts:
        a = r.choice([
            "Only one real item: %s. Everything else can wait." % acts[0],
            "%s; I'd answer that today. Otherwise it's a digest and a receipt." % (acts[0][0].upper() + acts[0][1:]),
        ])
    else:
        a = "Nothing from the trades today, just newsletters and a receipt."
    return [U(u), T(pre, "email_search", {"query": "newer_than:1d", "limit": 12}, "\n".join(lines)), A(a)]


STORES = {
    "Menards": [("2x4x8 stud", 3.98), ("drywall screws 1-5/8 5lb", 21.97), ("construction adhesive", 6.48),
                ("poly sheeting 10x25", 24.99), ("shop vac filter", 18.49), ("utility knife blades 100pk", 13.99),
                ("painter's tape 3pk", 16.97), ("contractor bags 32ct", 22.49)],
    "Home Depot": [("5-gal bucket", 5.48), ("mixing paddle", 14.97), ("thinset 50lb", 27.98),
                   ("grout sponge", 4.47), ("tile spacers 1/16", 6.98), ("knee pads", 29.97),
                   ("outlet boxes 4pk", 8.36), ("wire nuts 100pk", 9.98)],
    "Ace Hardware": [("hinge pins", 7.99), ("caulk white 10oz", 7.49), ("sandpaper 120 grit", 8.99),
                     ("putty knife 3in", 9.49), ("shims 12pk", 4.29), ("furnace filter 16x25", 15.99)],
    "Sherwin-Williams": [("primer 1gal", 38.49), ("roller covers 3pk", 17.99), ("tray liners 10pk", 9.99),
                         ("angled brush 2.5in", 21.99), ("drop cloth 9x12", 26.49)],
    "Fleet Farm": [("work gloves 3pk", 19.99), ("extension cord 50ft", 36.99), ("LED work light", 44.99),
                   ("space heater", 59.99), ("boot tray", 12.99)],
}
CATEGORY = {"Menards": "Framing & lumber", "Home Depot": "Tile", "Ace Hardware": "Fixtures & hardware",
            "Sherwin-Williams": "Paint", "Fleet Farm": "Tools & site"}


def g_receipt(r, day):
    store = PK("store", list(STORES))
    items = r.sample(STORES[store], r.randint(3, 5))
    rows, sub = [], 0.0
    for name, price in items:
        q = r.randint(1, 4)
        sub += q * price
        rows.append("%-28s %2d @ %7.2f %9.2f" % (name, q, price, q * price))
    tax = round(sub * 0.08875, 2)
    tot = round(sub + tax, 2)
    img = "IMG_%04d.jpg" % r.randint(2000, 9800)
    u = r.choice([
        "I dropped a receipt photo in the uploads folder, can you log it?",
        "Log the %s receipt from this morning please, it's the newest photo in uploads." % store,
        "Another receipt for the pile. Newest photo in uploads, same as always.",
        "Can you add the %s run to the expenses? I took a picture of the slip." % store,
    ])
    pre = r.choice(["Reading the photo and adding it to Expenses.", "Running OCR on it, then I'll append the row.",
                    "On it."])
    receipt = "\n".join([store.upper(), "STORE %d" % r.randint(1000, 3999),
                         "%s %s  REG %d  TRN %s" % (iso(day), hm(r, 7, 19), r.randint(1, 9), digits(r, 5)), ""] + rows +
                        ["", "%-40s %9.2f" % ("SUBTOTAL", sub), "%-40s %9.2f" % ("TAX", tax),
                         "%-40s %9.2f" % ("TOTAL", tot), "VISA ****%s" % digits(r, 4)])
    row = r.randint(40, 140)
    app = "\n".join(["sheet=reno-budget", "tab=Expenses", "appended_row=%d" % row,
                     "values=[%s, %s, %s, %.2f]" % (iso(day), store, CATEGORY[store], tot),
                     "category_total_updated=true"])
    a = r.choice([
        "Logged %s for %.2f under %s." % (store, tot, CATEGORY[store]),
        "Done, %.2f from %s is in Expenses as row %d." % (tot, store, row),
        "Added it: %s, %.2f, filed under %s. The OCR read every line cleanly." % (store, tot, CATEGORY[store]),
    ])
    return [U(u), TM(pre, [("ocr_image", {"path": "uploads/" + img}, receipt),
                           ("sheet_append", {"sheet": "reno-budget", "tab": "Expenses",
                                             "row": [iso(day), store, CATEGORY[store], round(tot, 2)]}, app)]), A(a)]


BUDGET = [("Demolition", 6200), ("Framing & lumber", 9800), ("Electrical", 21000), ("Plumbing", 14500),
          ("HVAC", 12800), ("Insulation", 7400), ("Drywall", 11200), ("Tile", 8900), ("Cabinets", 19600),
          ("Countertops", 7300), ("Fixtures & hardware", 6100), ("Paint", 4200), ("Permits & fees", 2300),
          ("Dumpster", 1900), ("Tools & site", 1500)]


def g_budget(r, day):
    cat, _ = PK("bcat", BUDGET)
    frac = (day - D(2026, 10, 1)).days / 70.0
    lines = ["category,budget,committed,spent,remaining"]
    info = {}
    for c, b in BUDGET:
        committed = int(b * r.uniform(0.55, 1.08) / 10) * 10
        spent = int(committed * min(1.0, r.uniform(0.2, 0.9) + frac * 0.3) / 10) * 10
        lines.append("%s,%d,%d,%d,%d" % (c, b, committed, spent, b - committed))
        info[c] = (b, committed, spent)
    b, cm, sp = info[cat]
    u = r.choice([
        "Where are we on %s compared to the budget?" % cat.lower(),
        "Sam wants a gut check on the %s line. Are we over?" % cat.lower(),
        "Can you pull the summary tab and tell me how %s is tracking?" % cat.lower(),
        "Before I approve anything else for %s, how much room is left there?" % cat.lower(),
        "Sam keeps saying we're bleeding money on %s, and I'd like to answer him with actual numbers from the sheet rather than a feeling." % cat.lower(),
    ])
    pre = r.choice(["Reading the Summary tab.", "Pulling the budget summary.", "Let me check the sheet."])
    if cm > b:
        a = r.choice([
            "%s is over: %d committed against a %d budget, so we're %d in the red there. Contingency can cover it, but I'd flag it to Sam." % (cat, cm, b, cm - b),
            "That line is already %d over budget on commitments (%d vs %d). Spent so far is %d." % (cm - b, cm, b, sp),
        ])
    else:
        a = r.choice([
            "%s has %d of room left: %d committed out of %d, with %d actually paid so far." % (cat, b - cm, cm, b, sp),
            "Still under. Committed %d of %d, so %d is free for anything else on that line." % (cm, b, b - cm),
        ])
    return [U(u), T(pre, "sheet_read", {"sheet": "reno-budget", "tab": "Summary", "format": "csv"}, "\n".join(lines)), A(a)]


EVENTS = [
    ("Lakewalk crew on site", 7, 16), ("Ridgeline: supply line check", 10, 11), ("Daycare pickup", 16, 17),
    ("Superior Stone: template", 13, 14), ("Call with Jonah re: schedule", 12, 12), ("Zenith dumpster swap", 8, 9),
    ("Tile delivery window", 11, 14), ("Sam - dentist", 14, 15), ("Walkthrough with Jonah", 16, 17),
    ("Arrowhead site visit", 10, 11), ("Lumber delivery", 7, 10), ("Kid's swim lesson", 17, 18),
    ("Northstar: filter check", 9, 10), ("Cabinet layout review (video)", 19, 20), ("Pick up grout at Menards", 12, 13),
]


def g_calendar(r, day):
    u = r.choice([
        "What does the next week look like on the calendar?",
        "Remind me what's booked over the next seven days, house stuff and otherwise.",
        "I need to plan a dentist appointment for myself. Which days next week are already busy?",
        "Can you list everything scheduled through next weekend?",
        "My mother-in-law wants to come up for a couple of days, so before I answer her I'd like to see what's already booked over the next week.",
    ])
    pre = r.choice(["Pulling the calendar.", "Checking the shared calendar.", "Let me list the next seven days."])
    rows = []
    for i in range(1, 8):
        dd = day + i * DAY
        for _ in range(r.choice([0, 1, 1, 2])):
            name, h1, h2 = PK("event", EVENTS)
            m = r.choice([0, 30])
            rows.append((dd, "%02d:%02d" % (h1, m), "%02d:%02d" % (max(h2, h1 + 1), m), name))
    if len(rows) < 4:
        dd = day + 2 * DAY
        rows.append((dd, "07:00", "16:00", "Lakewalk crew on site"))
        rows.append((dd + DAY, "07:00", "16:00", "Lakewalk crew on site"))
        rows.append((dd + 3 * DAY, "16:30", "17:00", "Daycare pickup"))
    rows.sort()
    lines = ["calendar: household (shared)", "range: %s .. %s" % (iso(day + DAY), iso(day + 7 * DAY))]
    for dd, a1, a2, name in rows:
        lines.append("%s %s  %s-%s  %s" % (dd.strftime("%a"), iso(dd), a1, a2, name))
    busy = sorted({dd for dd, *_ in rows})
    counts = {}
    for dd, *_ in rows:
        counts[dd] = counts.get(dd, 0) + 1
    busiest = max(busy, key=lambda x: (counts[x], -x.toordinal()))
    free = [day + i * DAY for i in range(1, 8) if day + i * DAY not in busy and (day + i * DAY).weekday() < 5]
    if free:
        a = r.choice([
            "%d things booked. %s is completely open if you need a free day." % (len(rows), wname(free[0])),
            "It's busiest on %s. %s has nothing on it at all." % (wname(busiest), wname(free[0])),
        ])
    else:
        a = r.choice([
            "Every weekday has something, but most are short; the crew days are the only all-day blocks.",
            "%d entries and no fully empty weekday. Mornings after the crew arrives are your best bet." % len(rows),
        ])
    return [U(u), T(pre, "calendar_list", {"calendar": "household", "from": iso(day + DAY), "days": 7}, "\n".join(lines)), A(a)]


PRICE_ITEMS = [
    ("5/8 Type X drywall in 4x12 sheets", 17.0, 24.0), ("25 lb bags of unsanded grout", 19.0, 31.0),
    ("a 30-inch pocket door frame kit", 64.0, 99.0), ("a countdown timer switch for the bath fan", 24.0, 46.0),
    ("R-38 fiberglass batts", 52.0, 71.0), ("a 48-inch white oak vanity", 640.0, 990.0),
    ("uncoupling membrane by the roll", 88.0, 129.0), ("half-inch cement board", 12.0, 17.0),
    ("a 10-pack of LED wafer lights", 69.0, 119.0), ("a 32-inch solid core door slab", 139.0, 229.0),
    ("a 22x54 attic ladder", 189.0, 309.0), ("primed quarter-round in 8-foot lengths", 5.0, 9.0),
]


def g_price(r, day):
    item, lo, hi = PK("price", PRICE_ITEMS)
    u = r.choice([
        "Can you compare prices on %s?" % item,
        "Who has the best price on %s right now, in stock near us?" % item,
        "Jonah's list says %s. Where should I buy it?" % item,
        "Price check please: %s. I'd rather pick up than wait for shipping." % item,
        "Jonah quoted us a price for %s that seemed steep, so could you see what the stores around here are actually charging?" % item,
    ])
    pre = r.choice(["Checking the usual stores.", "Comparing a few retailers.", "Looking that up."])
    offers = []
    for store in r.sample(["Menards", "Home Depot", "Lowe's", "Ace Hardware", "Floor & Decor", "Amazon"], 4):
        price = round(r.uniform(lo, hi), 2)
        stock = r.choice(["in stock", "in stock", "limited", "ship to store 3-5 days", "out of stock"])
        offers.append({"store": store, "price": price, "availability": stock, "rating": round(r.uniform(3.6, 4.8), 1)})
    out = json_rows({"query": item, "results": len(offers)}, "offers", offers, {"fetched": iso(day)})
    ok = [o for o in offers if o["availability"] in ("in stock", "limited")]
    best = min(ok or offers, key=lambda o: o["price"])
    a = r.choice([
        "%s is cheapest with stock at %.2f. The others are within a few dollars except where it's out." % (best["store"], best["price"]),
        "Go with %s at %.2f; it's %s. Everything cheaper would have to be shipped." % (best["store"], best["price"], best["availability"]),
        "Best pickup option is %s for %.2f." % (best["store"], best["price"]),
    ])
    return [U(u), T(pre, "price_search", {"q": item, "pickup_near": "home"}, out), A(a)]


def sensor_line(r, ts, sensor, base_rh, base_t):
    rh = round(base_rh + r.uniform(-4, 4), 1)
    t = round(base_t + r.uniform(-3, 3), 1)
    dew = round(t - (100 - rh) / 2.6, 1)
    return "%s attic-watch rh-logger[%d]: sensor=%s rh=%.1f temp_f=%.1f dew_f=%.1f batt=%d" % (
        ts, 812, sensor, rh, t, dew, r.randint(71, 98)), rh


def g_sensor(r, day):
    variants = [
        "The dehumidifier sounded like it was running nonstop. Are the readings okay?",
        "Can you peek at the attic sensors? I want to know if we need a second fan.",
        "Check the humidity log for the last few hours, please.",
        "It smelled musty at the top of the stairs when I came home, which worries me with all that open framing, so can you look at the attic readings?",
    ]
    if day >= D(2026, 11, 20):
        variants.append("How's the attic humidity doing with all the wet mud up there?")
    u = r.choice(variants)
    pre = r.choice(["Reading the logger on the droplet.", "Tailing the sensor log.", "Let me look at the last few hours."])
    base_rh = r.uniform(46, 66)
    base_t = {10: 58, 11: 55, 12: 61}[day.month]
    lines, vals = [], []
    h = r.randint(6, 12)
    for i in range(r.randint(10, 14)):
        hh = h + i // 3
        mm = [0, 20, 40][i % 3]
        sensor = ["attic_n", "attic_s", "kneewall_e"][i % 3]
        ts = "%s %02d:%02d:%02d" % (day.strftime("%b %d"), hh, mm, r.randint(1, 9))
        line, rh = sensor_line(r, ts, sensor, base_rh, base_t)
        lines.append(line)
        vals.append(rh)
    mx, mn = max(vals), min(vals)
    if mx > 65:
        a = r.choice([
            "It's running high, up to %.1f%% on one sensor. I'd add a box fan and keep the dehumidifier on continuous until the mud cures." % mx,
            "Peaks at %.1f%%, which is damper than I'd like with open framing and fresh materials up there. A second fan would help." % mx,
        ])
    else:
        a = r.choice([
            "Between %.1f%% and %.1f%%, which is fine. No need for another fan." % (mn, mx),
            "All three sensors stay under %.1f%%. The dehumidifier is keeping up." % (mx + 0.1),
        ])
    cmd = "ssh attic-watch 'journalctl -u rh-logger --since \"-4h\" --no-pager | tail -n %d'" % len(lines)
    return [U(u), T(pre, "run_shell", {"cmd": cmd}, "\n".join(lines)), A(a)]


PARCELS = [
    ("the shower niche kit", "UPS", "it"), ("the replacement hinge set", "USPS", "it"),
    ("the grout haze remover", "FedEx", "it"), ("the outlet covers Sam picked", "UPS", "them"),
    ("the felt cabinet bumpers", "USPS", "them"), ("the new smoke detectors", "FedEx", "them"),
    ("the attic hatch gasket", "UPS", "it"), ("the tile leveling clips", "FedEx", "them"),
    ("the drain cover for the shower", "USPS", "it"),
]


def g_parcel(r, day):
    what, carrier, pro = PK("parcel", PARCELS)
    u = r.choice([
        "Where are we with %s? I expected %s by now." % (what, pro),
        "Can you track %s for me?" % what,
        "Has %s shipped yet? Jonah wants %s on site before the next phase." % (what, pro),
        "I ordered %s almost a week ago and the store's own tracking page just spins, so can you check with the carrier directly?" % what,
    ])
    pre = r.choice(["Tracking it.", "Checking the carrier.", "Let me look it up."])
    if carrier == "UPS":
        num = "1Z%sA%s" % (hx(r, 5).upper(), digits(r, 9))
    elif carrier == "FedEx":
        num = digits(r, 12)
    else:
        num = "9400" + digits(r, 18)
    evs = []
    hubs = ["Minneapolis MN", "Eagan MN", "Saint Paul MN", "Chicago IL", "Memphis TN", "Hodgkins IL"]
    for i in range(r.randint(3, 5)):
        dd = day - (4 - i) * DAY
        evs.append({"time": "%s %s" % (iso(dd), hm(r, 1, 23)), "location": r.choice(hubs),
                    "event": ["Label created", "Picked up", "Departed facility", "Arrived at facility", "In transit"][min(i, 4)]})
    eta = day + r.randint(1, 3) * DAY
    out = json_rows({"carrier": carrier, "tracking": num, "status": "in_transit", "service": "Ground"},
                    "events", evs, {"estimated_delivery": iso(eta)})
    a = r.choice([
        "It's moving: last scan %s, and %s estimates %s." % (evs[-1]["location"], carrier, wname(eta)),
        "In transit with %s, due %s. Nothing looks stuck." % (carrier, wname(eta)),
        "Should arrive %s; the last update was from %s." % (wname(eta), evs[-1]["location"]),
    ])
    return [U(u), T(pre, "track_shipment", {"carrier": carrier, "tracking": num}, out), A(a)]


MESSAGES = [
    ("Jonah Pietila", "the trailer can go on the street side tomorrow, not the driveway"),
    ("Tomasz (Ridgeline)", "we're going with the matte black trim kit for the shower valve"),
    ("Ruben Alcala", "the middle grout sample is the one we like"),
    ("Zenith Roll-Off", "the dumpster is full and we'd like a swap this week"),
    ("Sam", "I'll grab the kids today so he can stay late"),
    ("Jonah Pietila", "yes to change order CO-03 for the stair rail"),
    ("Superior Stone Works", "Thursday afternoon works for the template"),
    ("Gail (next door)", "we'll shift the dumpster a few feet on recycling day"),
]


def g_message(r, day):
    who, msg = PK("msg", MESSAGES)
    u = r.choice([
        "Text %s that %s." % (who, msg),
        "Can you let %s know %s? A quick text is fine." % (who, msg),
        "Please message %s: %s. Keep it friendly." % (who, msg),
    ])
    pre = r.choice(["Sending.", "Sending the text now.", "Drafting and sending it."])
    body = msg[0].upper() + msg[1:] + ". Thanks!"
    out = "\n".join(["status=queued", "to=%s" % who, "phone=+1 555-01%02d" % r.randint(10, 99),
                     "segments=1", "provider_id=SM%s" % hx(r, 24),
                     "queued_at=%s %s" % (iso(day), hm(r, 7, 20))])
    a = r.choice(["Sent to %s." % who.split(" (")[0], "Done, it's delivered to the carrier.",
                  "Text queued. I'll let you know if %s replies." % who.split(" (")[0].split(" ")[0]])
    return [U(u), T(pre, "send_sms", {"to": who, "body": body}, out), A(a)]


def g_calc(r, day):
    kind = PK("calc", ["sheets", "base", "batts", "thinset", "screws"])
    if kind == "sheets":
        L, W, H = r.choice([11, 12, 13, 14]), r.choice([9, 10, 11]), 8
        wall = 2 * (L + W) * H
        ceil = L * W
        sheets = -(-int((wall + ceil) * 1.1) // 48)
        u = "How many 4x12 drywall sheets do I need for a room that's %d by %d feet with 8-foot walls, ceiling included?" % (L, W)
        code = "L,W,H=%d,%d,8\nwall=2*(L+W)*H\nceil=L*W\nprint(wall, ceil)\nprint(-(-int((wall+ceil)*1.1)//48))" % (L, W)
        out = "walls_sqft=%d\nceiling_sqft=%d\nwith_10pct=%d\nsheet_sqft=48\nsheets=%d" % (wall, ceil, int((wall + ceil) * 1.1), sheets)
        a = "%d sheets, counting 10%% waste and not subtracting the door or window." % sheets
    elif kind == "base":
        runs = [round(r.uniform(6, 15), 1) for _ in range(r.randint(4, 6))]
        tot = sum(runs)
        pieces = -(-int(tot * 1.1) // 8)
        u = "The new baseboard runs are %s feet. How many 8-foot pieces should I buy?" % ", ".join("%.1f" % x for x in runs)
        code = "runs=%s\nt=sum(runs)\nprint(t, -(-int(t*1.1)//8))" % runs
        out = "runs=%d\ntotal_ft=%.1f\nwith_10pct=%d\npiece_ft=8\npieces=%d" % (len(runs), tot, int(tot * 1.1), pieces)
        a = "Buy %d pieces; that covers %.1f feet plus scarf joints and a bad cut or two." % (pieces, tot)
    elif kind == "batts":
        area = r.randint(380, 620)
        bags = -(-area // 43)
        u = "If the kneewall and slope area is about %d square feet, how many bags of R-21 batts is that?" % area
        code = "area=%d\nprint(-(-area//43))" % area
        out = "area_sqft=%d\nbag_coverage_sqft=43.0\nbags_exact=%.2f\nbags=%d\nnote=round_up" % (area, area / 43.0, bags)
        a = "%d bags at 43 square feet per bag. Get one extra for the odd bays around the chimney." % bags
    elif kind == "thinset":
        area = r.randint(60, 140)
        bags = -(-area // 45)
        u = "How many bags of thinset for roughly %d square feet of large-format tile, back-buttered?" % area
        code = "area=%d\nprint(-(-area//45))" % area
        out = "area_sqft=%d\ntrowel=1/2x1/2 square\ncoverage_per_50lb=45\nbags_exact=%.2f\nbags=%d" % (area, area / 45.0, bags)
        a = "%d bags, assuming a half-inch square notch and back-buttering every piece." % bags
    else:
        sheets = r.randint(30, 70)
        lbs = -(-sheets * 32 // 240)
        u = "Roughly how many pounds of drywall screws for %d sheets?" % sheets
        code = "sheets=%d\nscrews=sheets*32\nprint(screws, -(-screws//240))" % sheets
        out = "sheets=%d\nscrews_per_sheet=32\nscrews=%d\nscrews_per_lb=240\nlbs=%d" % (sheets, sheets * 32, lbs)
        a = "About %d pounds; round up to the next box size." % lbs
    pre = r.choice(["Quick calculation.", "Let me run the numbers.", "Working it out."])
    return [U(u), T(pre, "python", {"code": code}, out), A(a)]


def g_photos(r, day):
    u = r.choice([
        "Did today's progress photos make it up to the archive?",
        "Can you check that my phone synced today's pictures to the photo archive?",
        "I took a bunch of shots of the framing before it gets covered. Did they upload?",
    ])
    pre = r.choice(["Listing today's folder.", "Checking the archive folder for today.", "Let me list it."])
    n = r.randint(6, 12)
    lines = []
    for i in range(n):
        size = r.randint(1800000, 6400000)
        lines.append("%9d %s %s.%09d PXL_%s_%s.jpg" % (size, iso(day), hm(r, 8, 17), r.randint(0, 10 ** 9 - 1),
                                                         day.strftime("%Y%m%d"), digits(r, 9)))
    a = r.choice([
        "Yes, %d photos from today are there." % n,
        "All synced: %d files in today's folder." % n,
        "%d new pictures uploaded, the last one a few minutes ago." % n,
    ])
    cmd = "rclone lsl reno-photos:quist-reno-2026/%s/" % iso(day)
    return [U(u), T(pre, "run_shell", {"cmd": cmd}, "\n".join(lines)), A(a)]


SPECS = [
    ("the Panasonic bath fan", "a dedicated circuit",
     ["Model: FV-0511VQ1 WhisperCeiling DC", "Airflow: 50/80/110 CFM selectable", "Sound: <0.3 / 0.8 sones",
      "Power: 120 V, 60 Hz, 0.13 A at 110 CFM", "Duct: 4 in or 6 in (adapter included)",
      "Circuit: may share a 15 A lighting circuit", "Listed: UL, damp location; GFCI required over tub/shower",
      "Install: new construction or retrofit"],
     "No, it draws very little and can share the lighting circuit. It does need GFCI protection since it sits over the shower."),
    ("the induction range", "a 50-amp breaker",
     ["Model: 30 in freestanding induction, 5 elements", "Rating: 240 V, 11.6 kW", "Minimum circuit: 40 A",
      "Recommended circuit: 50 A", "Cord: 4-wire, not included", "Clearance: 0 in sides, 30 in above",
      "Cookware: magnetic base required"],
     "40 amps is the minimum, but the manual recommends 50. Ask Hallett to pull a 50-amp circuit while the walls are open."),
    ("the mini-split line set", "insulation on both lines",
     ["Type: pre-flared copper line set", "Sizes: 1/4 in liquid, 3/8 in suction", "Insulation: 3/8 in wall, both lines",
      "Max length: 65 ft per head", "UV jacket: required for exterior runs"],
     "Yes, both lines are insulated, and any run outside needs the UV jacket."),
    ("the shower pan liner", "a pre-slope",
     ["Material: 40 mil PVC", "Width: 6 ft", "Standard: meets IPC and UPC", "Pre-slope: 1/4 in per ft required under liner",
      "Seams: solvent weld only", "Corners: dam corners sold separately"],
     "Yes, a quarter inch per foot of pre-slope under the liner. Ruben usually mortars that in the day before."),
    ("the attic egress window", "a specific opening size",
     ["Model: casement, 30 x 48 rough opening", "Net clear opening: 5.9 sq ft", "Clear width: 24.1 in",
      "Clear height: 36.8 in", "Sill height limit: 44 in above finished surface", "Glazing: low-E, argon"],
     "It clears 5.9 square feet, which is over the 5.7 minimum for an upper floor. Just keep the sill under 44 inches."),
    ("the quartz slab", "sealing",
     ["Material: engineered quartz, 3 cm", "Finish: honed", "Sealing: not required", "Heat: use trivets above 300°F",
      "Cleaning: pH-neutral cleaner", "Warranty: 15-year residential"],
     "No sealing needed for quartz. Honed finishes show grease marks a little more, so a pH-neutral cleaner is the way to go."),
]


def g_spec(r, day):
    prod, req, lines, ans = PK("spec", SPECS)
    u = r.choice([
        "Does %s need %s? Jonah and Hallett disagree." % (prod, req),
        "Quick spec question: does %s want %s?" % (prod, req),
        "Can you check the spec sheet for %s and tell me whether it needs %s?" % (prod, req),
    ])
    pre = r.choice(["Opening the spec sheet.", "Checking the manufacturer's sheet.", "Let me read the spec."])
    return [U(u), T(pre, "web_fetch", {"url": "spec-sheet", "product": prod.replace("the ", "")}, "\n".join(lines)), A(ans)]


def g_ha_yaml(r, day):
    thr = r.choice([62, 64, 65, 68, 70])
    delay = r.choice([10, 15, 20, 30])
    quiet = r.choice(["22:00:00", "21:30:00", "23:00:00"])
    which = r.randrange(3)
    u = [
        "My phone buzzed about attic humidity at 3am again. Can you check how that alert is set up?",
        "Can you look at the humidity alert rules? I feel like they're too jumpy.",
        "Remind me what the attic automations actually do, because I set them up months ago and Sam asked me tonight.",
    ][which]
    pre = r.choice(["Reading the automations file.", "Opening the Home Assistant config.", "Let me check the YAML."])
    y = [
        "- id: attic_rh_high",
        "  alias: Attic humidity high",
        "  trigger:",
        "    - platform: numeric_state",
        "      entity_id: sensor.attic_n_humidity",
        "      above: %d" % thr,
        "      for:",
        "        minutes: %d" % delay,
        "  condition:",
        "    - condition: time",
        "      after: \"07:00:00\"",
        "      before: \"%s\"" % quiet,
        "  action:",
        "    - service: switch.turn_on",
        "      target:",
        "        entity_id: switch.attic_dehumidifier",
        "    - service: notify.family_phones",
        "      data:",
        "        message: \"Attic RH above %d%% for %d min\"" % (thr, delay),
        "- id: attic_rh_ok",
        "  alias: Attic humidity back to normal",
        "  trigger:",
        "    - platform: numeric_state",
        "      entity_id: sensor.attic_n_humidity",
        "      below: %d" % (thr - 8),
        "  action:",
        "    - service: switch.turn_off",
        "      target:",
        "        entity_id: switch.attic_dehumidifier",
    ]
    a = [
        "It alerts once the north sensor stays above %d%% for %d minutes, and only between 7am and %s. So a 3am buzz shouldn't happen unless the clock on the droplet is off; I'll check that next." % (thr, delay, quiet[:5]),
        "The threshold is %d%% held for %d minutes, with quiet hours after %s. If it feels jumpy, a longer hold time is the easy fix." % (thr, delay, quiet[:5]),
        "When the north sensor sits above %d%% for %d minutes during the day, it turns the dehumidifier on and pings both phones. It switches the dehumidifier off again below %d%%." % (thr, delay, thr - 8),
    ][which]
    return [U(u), T(pre, "run_shell", {"cmd": "ssh attic-watch 'cat /opt/homeassistant/config/automations.yaml'"}, "\n".join(y)), A(a)]


ADVICE = [
    ("Is it okay to paint the attic when it's 50 degrees up there?",
     "Most latex paints want 50°F or warmer through the drying period, so you're right at the edge. Run the space heater for a few hours before and after."),
    ("Should the vapor barrier go on the warm side or the cold side of the attic walls?",
     "Warm side, so facing into the living space. With closed-cell spray foam you usually skip the poly entirely, so check with Arrowhead first."),
    ("How long does thinset need before Ruben can grout?",
     "Usually 24 hours for standard thinset, less for rapid-set. In a cool house I'd give it the full day."),
    ("Can we run the dehumidifier and the space heater on the same circuit up there?",
     "I wouldn't; together they can pull close to 20 amps. Use the temporary circuit Hallett left for one of them."),
    ("What's a reasonable retainage to hold back on the final Lakewalk invoice?",
     "Five to ten percent until the punch list is done is common. Check what the contract says before you bring it up."),
    ("Is a 3/4 inch gap enough behind the stove for the backsplash tile?",
     "The range spec allows zero clearance at the back, so yes. Just make sure the outlet box sits flush with the finished tile."),
    ("Do I need to be home for the rough-in inspection, or can Jonah handle it?",
     "Jonah can handle it; inspectors deal with the contractor. You only need to make sure the house is unlocked and the permit card is posted."),
    ("How do I stop drywall dust from getting into the kids' rooms?",
     "Zip walls with a zipper door at the stair, blue tape on the door jambs, and a box fan blowing out an attic window. Change the furnace filter when they're done."),
    ("Would a pocket door in the bath be a bad idea for resale?",
     "Not really, buyers like them in small baths. Spend a bit more on a solid frame kit so it doesn't sag."),
    ("Is honed quartz harder to keep clean than polished?",
     "A little, since oils show more on a matte surface. A pH-neutral spray every day takes care of it."),
    ("Does the mudroom floor need a membrane under the tile if it's on a slab?",
     "An uncoupling membrane is cheap insurance over a slab with old cracks. On a clean, sound slab you can go without."),
    ("Should we insulate the interior walls of the bathroom for sound?",
     "Yes, mineral wool batts in the bath walls make a real difference and cost very little while the studs are open."),
    ("What's the difference between sanded and unsanded grout again?",
     "Sanded is for joints an eighth inch and wider, unsanded for tighter joints. For the herringbone with 1/16 joints you want unsanded."),
    ("How cold can it get before the crew shouldn't mix mortar outside?",
     "Below about 40°F mortar cures poorly unless they heat the water and cover the work. Below freezing they should stop."),
]


def g_advice(r, day):
    q, a = PK("advice", ADVICE)
    return [U(q), A(a)]


NOTES = [
    "Jonah says the plaster in the stairwell is worse than expected, add it to the open issues list.",
    "Write down that the kitchen window header is undersized and Lakewalk is sistering it at no charge.",
    "Add to the punch list: the attic hatch doesn't close flush on the hinge side.",
    "Please note that Tomasz moved the shower drain two inches toward the wall to center it.",
    "Put this in the issues file: the old knob-and-tube in the dining room wall is still live.",
    "Log that Arrowhead wants the attic cleared of everything but the ladder before foam day.",
    "Add a note that the stair tread third from the top squeaks and Lakewalk will fix it after drywall.",
    "Note for later: the chimney chase needs a fire-stop collar before insulation.",
    "Please record that the bathroom subfloor had rot near the toilet flange and got patched.",
    "Add that Sam wants a second outlet at the mudroom bench for charging.",
]


def g_note(r, day):
    u = PK("note", NOTES)
    pre = r.choice(["Adding it to the issues file.", "Writing that down.", "Appending it."])
    line = r.randint(12, 60)
    out = "\n".join(["file=~/reno/issues.md", "action=append", "line=%d" % line,
                     "open_items=%d" % r.randint(6, 19), "saved_at=%s %s" % (iso(day), hm(r, 7, 21))])
    a = r.choice(["Noted in the issues list.", "Added; it's item %d on the open list." % (line - 10),
                  "Saved. I'll bring it up at the next walkthrough with Jonah."])
    return [U(u), T(pre, "notes_append", {"file": "~/reno/issues.md", "text": u}, out), A(a)]


def g_email_read(r, day):
    k = PK("mailread", ["ridgeline", "stone", "northwoods", "arrowhead", "jonah", "zenith"])
    mid = "msg_" + hx(r, 8)
    when = "%s %s -0500" % (day.strftime("%a, %d %b %Y"), hm(r, 7, 18))
    if k == "ridgeline":
        inv, amt = r.randint(2232, 2299), round(r.uniform(1400, 3900), 2)
        due = day + 15 * DAY
        frm, subj = "Ridgeline Plumbing <office@ridgelineplumbing.example>", "Invoice %d - progress billing" % inv
        body = ["Hi Theodora,", "", "Attached is invoice %d for the work completed this week:" % inv,
                "  - supply and drain rough for the downstairs bath", "  - relocate kitchen sink drain 14 in",
                "  - pressure test, 100 psi for 30 min (passed)", "",
                "Amount due: $%.2f, net 15 (%s)." % (amt, short(due)),
                "We take check or ACH; card adds 3%.", "", "Thanks,", "Tomasz Wrobel", "Ridgeline Plumbing"]
        u = r.choice(["Ridgeline sent an invoice, I think. Can you open it and tell me the damage?",
                      "There's an email from Tomasz's office with an invoice attached. What do we owe and by when?"])
        a = r.choice(["Invoice %d is $%.2f, due %s, for the bath rough-in, the kitchen drain move and the pressure test." % (inv, amt, short(due)),
                      "They want $%.2f by %s. Pay by ACH or check, since a card adds 3%%." % (amt, short(due))])
    elif k == "stone":
        tday = day + r.randint(3, 6) * DAY
        slot = r.choice(["10:00", "13:30", "14:00"])
        frm, subj = "Superior Stone Works <schedule@superiorstone.example>", "Template appointment confirmed"
        body = ["Hello,", "", "Your template appointment is confirmed for %s, %s at %s." % (wname(tday), short(tday), slot),
                "Before we arrive, please make sure:", "  - all base cabinets are installed, level and screwed together",
                "  - the sink and faucet are on site (we template from the actual sink)",
                "  - the cooktop or range cut-out specs are printed", "  - someone who can make decisions is present",
                "", "The visit takes about 90 minutes.", "", "Superior Stone Works scheduling"]
        u = r.choice(["Superior Stone emailed about the template. What do I need to have ready?",
                      "Can you read me the countertop people's email? I just need the date and the to-do list."])
        a = r.choice(["They're coming %s at %s. Cabinets must be installed and level, the sink has to be on site, and someone who can decide on seams should be there." % (wname(tday), slot),
                      "%s at %s, about 90 minutes. The main catch is they template from the actual sink, so it has to be here by then." % (wname(tday), slot)])
    elif k == "northwoods":
        pct = r.choice([40, 55, 70, 85])
        frm, subj = "Northwoods Cabinetry <orders@northwoodscab.example>", "Production update"
        body = ["Hi Theodora,", "", "Quick update on your kitchen order:",
                "  door style: slab, rift white oak, natural matte", "  boxes: %d%% complete" % pct,
                "  doors & drawer fronts: in finishing", "  hardware: ships separately from our vendor", "",
                "We'll send freight details once it leaves the plant.", "", "Northwoods Customer Care"]
        u = r.choice(["Northwoods sent a production update. Anything useful in it?",
                      "Can you open the cabinet company's latest email? I want to know if they're on track."])
        a = r.choice(["Boxes are %d%% done and the fronts are in finishing. They'll send freight details once it ships." % pct,
                      "On track: %d%% of the boxes are built, and hardware ships separately." % pct])
    elif k == "arrowhead":
        frm, subj = "Arrowhead Spray Foam <crew@arrowheadfoam.example>", "Prep checklist before foam day"
        body = ["Hi,", "", "To keep foam day on schedule, please have the following done:",
                "  1. attic cleared except for the ladder", "  2. windows covered or removed by our crew (we bring film)",
                "  3. no one in the house for 24 hours after spraying", "  4. pets out of the house for the same window",
                "  5. HVAC off during spraying", "", "Questions: reply here or call the office.", "", "Arrowhead Spray Foam"]
        u = r.choice(["The foam company sent a checklist. What do we actually have to do?",
                      "Can you summarise Arrowhead's prep email? Sam wants to know if we have to leave the house."])
        a = r.choice(["Clear the attic except the ladder, HVAC off while they spray, and nobody home for 24 hours afterwards, pets included.",
                      "Yes, everyone has to be out for 24 hours after spraying, including the cat. Otherwise it's just clearing the attic and shutting off the HVAC."])
    elif k == "jonah":
        frm, subj = "Jonah Pietila <jonah@lakewalkbuilders.example>", "Weekly update"
        done = r.sample(["attic subfloor down", "kneewalls framed", "kitchen soffit removed", "bath floor leveled",
                         "stair opening reframed", "new header over kitchen window", "blocking for grab bars"], 3)
        nxt = r.sample(["hang attic door", "set bath tub", "frame pantry wall", "patch plaster in hall",
                        "install attic hatch", "cut in egress window"], 2)
        body = ["Hi Theodora and Sam,", "", "Done this week:"] + ["  - " + x for x in done] + \
               ["", "Next week:"] + ["  - " + x for x in nxt] + ["", "No change orders pending from our side.", "", "Jonah"]
        u = r.choice(["Jonah's weekly update came in. Give me the short version.",
                      "Can you read Jonah's Friday email? I'm driving and just want the gist."])
        a = "Done: %s. Next week they'll %s and %s." % (", ".join(done), nxt[0], nxt[1])
    else:
        sday = day + r.randint(1, 3) * DAY
        frm, subj = "Zenith Roll-Off <dispatch@zenithrolloff.example>", "Swap scheduled"
        body = ["Hello,", "", "Your 20-yard container swap is scheduled for %s." % short(sday),
                "Driver window: 7am-noon.", "Please keep the area in front of the container clear.",
                "Overweight fee applies above 3 tons.", "", "Zenith Roll-Off Dispatch"]
        u = r.choice(["Zenith emailed about the dumpster swap. When are they coming?",
                      "Is there an email from the dumpster people? I asked for a swap on Monday."])
        a = r.choice(["They'll swap it on %s between 7 and noon. Keep the front of the container clear." % short(sday),
                      "%s, morning window. Watch the weight; anything over 3 tons costs extra." % short(sday)])
    out = "\n".join(["From: " + frm, "To: Theodora Quist", "Date: " + when, "Subject: " + subj, ""] + body)
    pre = r.choice(["Opening it.", "Reading the message.", "Let me pull it up."])
    return [U(u), T(pre, "email_read", {"id": mid}, out), A(a)]


FILLERS = [g_weather, g_inbox, g_receipt, g_budget, g_calendar, g_price, g_sensor, g_parcel,
           g_message, g_calc, g_photos, g_spec, g_ha_yaml, g_advice, g_note, g_email_read]


class Filler:
    def __init__(self, r, gens):
        self.r = r
        self.gens = list(gens)
        self.queue = []

    def take(self, day):
        if not self.queue:
            self.queue = list(self.gens)
            self.r.shuffle(self.queue)
        return self.queue.pop()(self.r, day)


# ---------------------------------------------------------------- long outputs (no facts in them)

TAKEOFF = {
    "Demolition": [("dumpster 20yd haul", "EA"), ("poly sheeting 6mil", "ROLL"), ("zip wall poles", "EA"),
                   ("contractor bags", "BOX"), ("floor protection board", "ROLL")],
    "Framing": [("2x4x8 SPF stud", "EA"), ("2x6x10 SPF", "EA"), ("2x10x16 SPF", "EA"), ("LVL 1-3/4x11-7/8", "LF"),
                ("3/4 T&G OSB", "SHT"), ("joist hanger 2x10", "EA"), ("framing nails 3-1/4", "BOX"),
                ("hurricane tie H2.5", "EA"), ("PL400 adhesive", "TUBE"), ("2x4 PT plate", "EA")],
    "Electrical": [("14/2 NM-B 250ft", "ROLL"), ("12/2 NM-B 250ft", "ROLL"), ("old-work box 1g", "EA"),
                   ("new-work box 2g", "EA"), ("6in LED wafer", "EA"), ("AFCI/GFCI breaker 20A", "EA"),
                   ("smoke/CO combo", "EA"), ("staples 1in", "BOX")],
    "Plumbing": [("PEX-A 1/2 100ft", "ROLL"), ("PEX-A 3/4 100ft", "ROLL"), ("expansion rings 1/2", "BAG"),
                 ("shower valve body", "EA"), ("2in PVC DWV 10ft", "EA"), ("closet flange", "EA"),
                 ("vent 1-1/2 PVC", "EA"), ("stub-out 1/2", "EA")],
    "Insulation": [("closed-cell foam (board ft)", "BF"), ("R-21 batts", "BAG"), ("mineral wool R-15", "BAG"),
                   ("fire-stop foam", "CAN"), ("baffles 22in", "EA")],
    "Drywall": [("1/2 regular 4x12", "SHT"), ("5/8 Type X 4x12", "SHT"), ("1/2 moisture-res 4x8", "SHT"),
                ("all-purpose mud", "BOX"), ("lightweight mud", "BOX"), ("paper tape 500ft", "ROLL"),
                ("corner bead 8ft", "EA"), ("screws 1-5/8", "LB")],
    "Tile": [("porcelain plank 4x24", "SF"), ("hex mosaic 2in", "SF"), ("uncoupling membrane", "SF"),
             ("thinset LFT 50lb", "BAG"), ("unsanded grout 25lb", "BAG"), ("shower pan liner", "EA"),
             ("cement board 1/2", "SHT"), ("edge trim 8ft", "EA")],
    "Finish": [("primed MDF base 16ft", "EA"), ("door casing 7ft", "EA"), ("32in solid core slab", "EA"),
               ("passage set", "EA"), ("primer 5gal", "PAIL"), ("ceiling white 5gal", "PAIL"), ("caulk", "TUBE")],
}


def ep_long_takeoff(r, day):
    lines = ["line,phase,item,qty,uom,unit_cost,ext_cost,supplier,status"]
    n = 0
    suppliers = ["Northland", "Menards", "Ferguson", "Crescent", "Floor & Decor", "Sherwin-Williams", "L&M Supply"]
    while n < 124:
        for phase, items in TAKEOFF.items():
            for item, uom in items:
                if n >= 124:
                    break
                if r.random() < 0.35:
                    continue
                n += 1
                qty = r.randint(1, 60)
                unit = round(r.uniform(0.4, 180), 2)
                lines.append("%d,%s,%s,%d,%s,%.2f,%.2f,%s,%s" % (
                    n, phase, item, qty, uom, unit, qty * unit, r.choice(suppliers),
                    r.choice(["quoted", "quoted", "ordered", "delivered", "tbd"])))
    u = ("Jonah emailed the full materials takeoff as a CSV and I'd like it in the budget folder, "
         "but first tell me if anything on it looks like it's missing for the bath.")
    pre = "Loading the attachment."
    a = ("It's 124 lines across eight phases. For the bath I don't see a vanity, a toilet or the exhaust fan, "
         "which makes sense if those are owner-supplied, so let's confirm that with Jonah.")
    return [U(u), T(pre, "read_attachment", {"message": "latest from Jonah Pietila", "name": "takeoff_rev3.csv"},
                    "\n".join(lines)), A(a),
            U("Yes, those three are on us. Save the CSV to the budget folder."),
            T("Saving it.", "run_shell", {"cmd": "cp ~/Downloads/takeoff_rev3.csv ~/reno/budget/ && ls -l ~/reno/budget/"},
              "\n".join(["total 412", "-rw-r--r-- 1 tq tq  18842 %s budget-export.xlsx" % short(day - 3 * DAY),
                         "-rw-r--r-- 1 tq tq   6120 %s draws.csv" % short(day - 9 * DAY),
                         "-rw-r--r-- 1 tq tq 344100 %s quotes.pdf" % short(day - 14 * DAY),
                         "-rw-r--r-- 1 tq tq  11907 %s takeoff_rev3.csv" % short(day)])),
            A("Saved next to the budget export.")]


def ep_long_sensor_week(r, day):
    lines = []
    start = day - 7 * DAY
    base = 52.0
    for i in range(7):
        dd = start + i * DAY
        for hh in (0, 3, 6, 9, 12, 14, 16, 18, 20, 22):
            for sensor in ("attic_n", "attic_s"):
                if r.random() < 0.22:
                    continue
                ts = "%s %02d:%02d:%02d" % (dd.strftime("%b %d"), hh, r.choice([0, 30]), r.randint(1, 9))
                spike = 9 if (i in (2, 3) and 9 <= hh <= 16) else 0
                line, _ = sensor_line(r, ts, sensor, base + spike, 56)
                lines.append(line)
    while len(lines) < 110:
        ts = "%s 23:30:%02d" % ((day - DAY).strftime("%b %d"), r.randint(1, 9))
        line, _ = sensor_line(r, ts, "attic_n", base, 56)
        lines.append(line)
    u = ("Arrowhead wants to know if the attic was dry enough for foam all week, since they're worried "
         "about the drywall mud downstairs. Can you pull a week of readings?")
    pre = "Pulling seven days from the logger."
    a = ("Mostly low 50s, with two damp afternoons in the middle of the week when the mud crew was working "
         "below and it touched the low 60s. Overnight it always came back down, so I'd tell them it's fine.")
    return [U(u), T(pre, "run_shell", {"cmd": "ssh attic-watch 'journalctl -u rh-logger --since \"-7d\" --no-pager | grep -v batt_low'"},
                    "\n".join(lines)), A(a)]


def ep_long_transactions(r, day):
    lines = ["date,description,amount,card,category"]
    payees = [("MENARDS #3301", "Framing & lumber"), ("THE HOME DEPOT 2810", "Tile"), ("ACE HDWE", "Fixtures & hardware"),
              ("SHERWIN WILLIAMS", "Paint"), ("FLEET FARM", "Tools & site"), ("CUB FOODS", "household"),
              ("HOLIDAY STATIONSTORE", "household"), ("AMAZON MKTPL", "Fixtures & hardware"), ("FLOOR & DECOR", "Tile"),
              ("ZENITH ROLL-OFF", "Dumpster"), ("RIDGELINE PLUMBING", "Plumbing"), ("SPOTIFY", "household"),
              ("COSTCO WHSE", "household"), ("NORTHLAND LUMBER", "Framing & lumber"), ("LITTLE ACORNS", "household")]
    dd = D(2026, 11, 1)
    while len(lines) < 106:
        for _ in range(r.randint(2, 5)):
            p, cat = r.choice(payees)
            amt = round(r.uniform(4, 420), 2) if cat != "Plumbing" else round(r.uniform(600, 2400), 2)
            lines.append("%s,%s,-%.2f,%s,%s" % (iso(dd), p, amt, r.choice(["VISA 4417", "VISA 4417", "DEBIT 0932"]), cat))
        dd += DAY
        if dd.month == 12:
            dd = D(2026, 11, 1)
    lines = lines[:106]
    u = ("The November card statement is out and I want to reconcile it against the expenses tab before Sam "
         "does the household budget. Can you load the CSV and tell me what's not in the sheet?")
    pre = "Loading the statement export."
    a = ("That's 105 transactions. Everything tagged to renovation categories matches the Expenses tab except "
         "two Amazon orders and one Fleet Farm run, which I'll add now unless you say otherwise.")
    return [U(u), T(pre, "read_attachment", {"message": "Lakeshore CU statement", "name": "nov-2026.csv"},
                    "\n".join(lines)), A(a)]


# ---------------------------------------------------------------- fact episodes, conv-1

def ep_intro():
    return [
        U("Hi! I'm Theodora Quist on every contract and permit, but everybody calls me Teddie, "
          "and I'd like you to help me keep this renovation organised through the winter.", "d-01"),
        A("Happy to. Tell me what's in scope and who's already signed on, and I'll start a running plan we can both check against."),
        U("For context, the house is a 1924 foursquare on a steep street in Duluth, and the scope is an attic conversion, "
          "a full kitchen redo and the downstairs bath, with exterior trim done before the lake wind turns brutal.", "d-02"),
        A("Got it: attic, kitchen, downstairs bath, plus exterior trim on a weather deadline. I'll keep an eye on the forecast whenever outdoor work comes up."),
    ]


def ep_loan_code():
    return [
        U("One admin thing before I forget: the credit union set up the renovation loan so that every draw request "
          "has to carry our project code QRN-2611-B, otherwise their construction desk bounces it straight back.", "d-03"),
        A("Understood, I'll put it on every draw I prepare. Want me to keep a log of draws against the loan too?"),
        U("Yes please, nothing fancy, a tab in the budget sheet is fine."),
        T("Adding a Draws tab.", "sheet_add_tab", {"sheet": "reno-budget", "tab": "Draws",
                                                  "columns": ["date", "amount", "invoice", "status", "approved_on"]},
          "\n".join(["sheet=reno-budget", "tab=Draws", "columns=date,amount,invoice,status,approved_on",
                     "rows=0", "frozen_header=true"])),
        A("Done. The Draws tab has date, amount, invoice, status and approval date columns."),
    ]


def ep_ceiling():
    return [
        U("Sam and I sat down last night and agreed that the absolute ceiling for everything, contingency included, "
          "is $148,500, so flag anything that starts nudging us toward it.", "d-10"),
        A("Noted. I'll compare every signed quote and change order against that cap and warn you once committed spend passes 85% of it."),
    ]


def ep_droplet():
    droplets = [{
        "id": 387145290,
        "name": "attic-watch",
        "memory": 1024,
        "vcpus": 1,
        "disk": 25,
        "locked": False,
        "status": "active",
        "created_at": "2026-09-03T19:22:41Z",
        "image": {"distribution": "Ubuntu", "name": "24.04 (LTS) x64"},
        "size_slug": "s-1vcpu-1gb",
        "networks": {"v4": [
            {"ip_address": "159.203.88.41", "netmask": "255.255.240.0", "type": "public"},
            {"ip_address": "10.132.0.7", "netmask": "255.255.0.0", "type": "private"}]},
        "region": {"slug": "nyc3", "name": "New York 3"},
        "tags": ["sensors"],
        "vpc_uuid": "5f1e2c3a-8d47-4b8e-9a51-0c2e7d6b9f13",
    }]
    return [
        U("The humidity dashboard won't load on my phone this morning. Is the little server still alive?"),
        T("Let me check the droplet first.", "run_shell", {"cmd": "doctl compute droplet list --output json"},
          J(droplets), "d-05"),
        T("It's up, so the problem is probably one of the containers. Listing them.", "run_shell", {"cmd": "ssh attic-watch 'docker ps -a --format \"{{.Names}}  {{.Status}}\"'"},
          "\n".join(["NAMES       STATUS", "grafana     Exited (137) 3 hours ago", "influxdb    Up 5 weeks",
                     "rh-logger   Up 5 weeks", "caddy       Up 5 weeks", "homeassistant  Up 5 weeks"])),
        T("Grafana was killed for running out of memory, so I'm restarting it.", "run_shell", {"cmd": "ssh attic-watch 'docker start grafana && free -m'"},
          "\n".join(["grafana", "               total        used        free      shared  buff/cache   available",
                     "Mem:             961         702          61           4         197         241",
                     "Swap:              0           0           0", ""]).strip()),
        A("Grafana is back and the dashboard loads again. It's tight on memory with no swap, so if this repeats I'd add a swap file or resize to 2 GB."),
    ]


def ep_rclone():
    cfg = "\n".join([
        "[reno-photos]",
        "type = s3",
        "provider = Wasabi",
        "access_key_id = <redacted>",
        "secret_access_key = <redacted>",
        "region = us-central-1",
        "endpoint = s3.us-central-1.wasabisys.com",
        "acl = private",
        "no_check_bucket = true",
    ])
    size = "\n".join(["Total objects: 14.218k (14218)", "Total size: 61.347 GiB (65870212311 Byte)",
                      "  of which *.mp4: 19.002 GiB", "  of which *.jpg: 41.120 GiB", "  other: 1.225 GiB"])
    return [
        U("The storage bill for the progress photos jumped this month and I honestly don't remember how I set that up "
          "last spring. Can you look?"),
        TM("I'll read the rclone remote and check how much is in it.", [
            ("run_shell", {"cmd": "rclone config show reno-photos"}, cfg, "d-04"),
            ("run_shell", {"cmd": "rclone size reno-photos:quist-reno-2026 --json=false"}, size)]),
        A("It's a Wasabi bucket with about 61 GiB in it. The jump is the drone walkthrough videos, which are 19 GiB on their own."),
        U("Can we keep the videos somewhere cheaper?"),
        A("Wasabi has no cold tier, so the cheap option is moving raw video to the external drive and keeping only the edited clips in the bucket. I can script that whenever you want."),
    ]


def ep_electric_quote():
    return [
        U("Hallett's quote came in as three lines: 200-amp panel upgrade 6,850, attic and bath circuits 9,420, "
          "and the EV charger rough-in 2,670. Is that in line with the other bid?"),
        A("That adds up to 18,940 before tax, roughly 1,100 below the Birchwood bid, and it includes the permit fee Birchwood left out.", "d-13"),
        U("Great, let's go with Hallett then."),
        A("I'll mark Hallett as selected and ask them for the contract and a start date."),
    ]


def ep_lumber():
    data = {
        "account": {"id": "C-20417", "name": "QUIST, T", "terms": "deposit + COD"},
        "orders": [{
            "order_number": "NL-88417-AT",
            "status": "CONFIRMED",
            "created": "2026-10-06T15:02:11-05:00",
            "job_name": "ATTIC FRAMING PKG",
            "delivery": {"date": "2026-10-27", "window": "07:00-11:00", "method": "BOOM",
                         "notes": "drop in driveway left of garage, keep off lawn"},
            "lines": [
                {"sku": "LVL1311-20", "desc": "LVL 1-3/4 x 11-7/8 x 20ft", "qty": 3, "uom": "EA"},
                {"sku": "SPF210-16", "desc": "2x10x16 SPF #2&BTR", "qty": 28, "uom": "EA"},
                {"sku": "OSB34TG", "desc": "3/4 T&G OSB 4x8 sheathing", "qty": 22, "uom": "SHT"},
                {"sku": "JH210", "desc": "joist hanger 2x10 galv", "qty": 56, "uom": "EA"},
                {"sku": "PL400", "desc": "PL400 adhesive 28oz", "qty": 6, "uom": "TUBE"},
            ],
            "totals": {"subtotal": 4463.14, "tax": 224.30, "deposit_paid": 1500.00, "balance_due": 3187.44},
        }],
    }
    return [
        U("Did Northland ever confirm the framing package for the attic? I paid the deposit on Tuesday and haven't heard a peep."),
        T("Checking their contractor portal.", "http_get",
          {"url": "https://portal.northlandlumber.example/api/v2/accounts/C-20417/orders?status=open"}, J(data), "d-06"),
        A("Confirmed: the LVLs, the 2x10s and the sheathing, boom-truck drop on the 27th between 7 and 11. The balance of 3,187.44 is due on delivery."),
    ]


def ep_lockbox():
    return [
        U("The crews start Monday and they'll let themselves in through the lockbox on the back porch, combination 5-1-8-3, "
          "but I'll hand that to the foreman myself rather than put it in an email.", "d-18"),
        A("Makes sense to keep it out of writing. I'll send Jonah the start-day details with a note that you'll give him the access in person."),
    ]


def ep_hardware():
    return [
        U("For the kitchen I'd like the pulls and the faucet in brushed-brass, because chrome shows every fingerprint "
          "and the baby already treats the lower cabinets like a jungle gym.", "d-09"),
        A("Sensible with a toddler around. I'll filter the options to that finish and check that the faucet line has a matching soap pump."),
    ]


def ep_tile_area():
    return [
        U("The mudroom is 8 by 10 and the downstairs bath is 10 by 11, and both are getting the herringbone porcelain. How much should I get?"),
        A("The two rooms come to 190 square feet, and herringbone wastes a lot at the edges, so with 15% overage you want "
          "218.5 sq ft, which is nine of the 24.3 sq ft cartons.", "d-11"),
    ]


def ep_wifi():
    uci = "\n".join([
        "wireless.radio0=wifi-device",
        "wireless.radio0.type='mac80211'",
        "wireless.radio0.band='5g'",
        "wireless.radio0.channel='36'",
        "wireless.radio1=wifi-device",
        "wireless.radio1.type='mac80211'",
        "wireless.radio1.band='2g'",
        "wireless.radio1.channel='6'",
        "wireless.default_radio0=wifi-iface",
        "wireless.default_radio0.device='radio0'",
        "wireless.default_radio0.network='lan'",
        "wireless.default_radio0.mode='ap'",
        "wireless.default_radio0.ssid='QuistHaus'",
        "wireless.default_radio0.encryption='sae-mixed'",
        "wireless.guest_radio1=wifi-iface",
        "wireless.guest_radio1.device='radio1'",
        "wireless.guest_radio1.network='guest'",
        "wireless.guest_radio1.mode='ap'",
        "wireless.guest_radio1.ssid='LakeHill-Trades'",
        "wireless.guest_radio1.encryption='psk2'",
        "wireless.guest_radio1.key='<hidden>'",
        "wireless.guest_radio1.isolate='1'",
    ])
    return [
        U("Ruben the tile setter asked for the Wi-Fi so he can stream music while he works. Which network did we set up for the trades?"),
        T("I'll read the router's wireless config.", "run_shell", {"cmd": "ssh root@192.168.1.1 'uci show wireless'"}, uci, "d-14"),
        A("It's the isolated guest network on the 2.4 GHz radio. The password is on the card taped inside the pantry door, so he can grab it from there."),
    ]


def ep_electrician():
    return [
        U("Contract with Hallett is signed, and the licensed electrician they're sending for the panel upgrade and the attic "
          "circuits is Marguerite Osei, who apparently did our neighbours' service change.", "d-12"),
        A("Good to hear she's done a house on this block. I'll ask Hallett for her license number so it's on the permit before rough-in."),
    ]


def ep_row_permit():
    return [
        U("The city emailed the right-of-way permit for the dumpster as ROW-26-11839, and the roll-off company says they "
          "won't drop the bin at the curb until they have that number.", "d-15"),
        A("Do you want me to send it to Zenith now, or will you phone them?"),
        U("I'll phone them, they're quicker that way."),
        A("Sounds good. Tell me the drop date once they give it to you and I'll put it on the calendar."),
    ]


def ep_warranty():
    hits = "\n".join([
        "found 3 messages (from:borealwindows.example sash)",
        "msg_7c21e09a | 2026-10-21 09:47 | Boreal Windows Warranty | RE: Cracked sash - unit 3 north bedroom",
        "msg_51d0b7f3 | 2026-10-14 16:02 | Boreal Windows Warranty | Cracked sash - unit 3 north bedroom",
        "msg_0a9e44c2 | 2026-10-13 11:30 | Theodora Quist          | Cracked sash - unit 3 north bedroom",
        "(3 shown)",
    ])
    mail = "\n".join([
        "From: Boreal Windows Warranty <warranty@borealwindows.example>",
        "To: Theodora Quist",
        "Date: Wed, 21 Oct 2026 09:47 -0500",
        "Subject: RE: Cracked sash - unit 3 north bedroom",
        "",
        "Hi Theodora,",
        "",
        "Thanks for the photos and the label shot. This is covered: the seal",
        "failure plus the crack at the lower rail both fall under the 20-year",
        "glass warranty. I have opened warranty claim WCL-553024 for a",
        "replacement sash (unit 3, 30x54 double-hung, Cascade White exterior).",
        "",
        "Lead time on replacement sashes is currently 5-6 weeks. Our service",
        "partner will contact you to book the swap once it ships; please quote",
        "the claim number on any calls so we can find it quickly.",
        "",
        "Kind regards,",
        "Marit Engebretsen",
        "Warranty Coordinator, Boreal Windows",
    ])
    return [
        U("Boreal finally wrote back about the cracked sash in the north bedroom, right? Can you pull that email up?"),
        TM("Searching for it and opening the newest one.", [
            ("email_search", {"query": "from:borealwindows.example sash", "limit": 5}, hits),
            ("email_read", {"id": "msg_7c21e09a"}, mail, "d-07")]),
        A("Yes, they're replacing the sash under the glass warranty, with a five to six week lead time. Their service partner will reach out to book the swap once it ships."),
    ]


def ep_paint():
    return [
        U("Once drywall is done upstairs, walls and ceilings come to about 1,850 square feet. How much paint should I have "
          "on hand if we do primer and two finish coats?"),
        A("Two coats over 1,850 square feet at about 350 per gallon works out to 11 gallons of finish, plus 7 gallons of primer for the new board.", "d-23"),
        U("Okay, I'll order it closer to the date."),
        A("Sounds right; paint keeps, but there's no reason to store it in a cold garage for a month."),
    ]


def ep_plan_yaml():
    y = "\n".join([
        "project: quist-reno",
        "updated: 2026-10-27",
        "scope:",
        "  - attic conversion (bed + office)",
        "  - kitchen",
        "  - downstairs bath",
        "  - exterior trim",
        "hvac:",
        "  mini_split:",
        "    installer: Northstar Comfort",
        "    outdoor_unit: MXZ-2C20NL2",
        "    heads:",
        "      - room: attic bedroom",
        "        model: MSZ-GL09NA",
        "      - room: attic office",
        "        model: MSZ-GL06NA",
        "    commissioned: 2026-10-26",
        "    registered: true",
        "    warranty_until: 2038-10-26",
        "    line_set_ft: 42",
        "  bath_fan:",
        "    model: Panasonic FV-0511VQ1",
        "    cfm: 110",
        "    duct: 4in to soffit",
        "  dehumidifier:",
        "    location: attic",
        "    setpoint_rh: 50",
    ])
    return [
        U("I added the HVAC stuff to the plan file last night after the installer left. Can you read it and tell me if anything looks off?"),
        T("Reading it now.", "run_shell", {"cmd": "cat ~/reno/plan.yaml"}, y, "d-16"),
        A("It all matches the paperwork. The one thing I'd change is the dehumidifier setpoint: with fresh mud going up soon, 45% for the first couple of weeks will dry it more evenly."),
        U("Fine, change it to 45."),
        T("Updating the setpoint line.", "run_shell", {"cmd": "sed -i 's/setpoint_rh: 50/setpoint_rh: 45/' ~/reno/plan.yaml && grep -n setpoint ~/reno/plan.yaml"},
          "27:    setpoint_rh: 45"),
        A("Changed. I'll remind you to set it back once the drywall is painted."),
    ]


def permit_record(slot, status, note):
    return {
        "record_id": "BLD-2026-04187",
        "type": "Residential Alteration",
        "description": "Attic conversion; kitchen remodel; bath remodel",
        "status": "Issued",
        "issued": "2026-10-02",
        "contractor": {"license": "BC-771203", "business": "Lakewalk Builders LLC"},
        "inspections": [
            {"code": "101", "name": "Footings", "status": "Not Required"},
            {"code": "205", "name": "Rough-In (structural, electrical, plumbing, mechanical)",
             "status": status, "slot": slot, "inspector": "D. Lindqvist", "note": note},
            {"code": "310", "name": "Insulation", "status": "Not Scheduled"},
            {"code": "900", "name": "Final", "status": "Not Scheduled"},
        ],
    }


def ep_inspection():
    return [
        U("Is the rough-in inspection actually booked? The portal's emails are useless and Jonah keeps asking me."),
        T("Pulling the permit record.", "http_get", {"url": "https://permits.example.gov/api/records/BLD-2026-04187"},
          J(permit_record("2026-11-12T08:30", "Scheduled", "Requested by contractor")), "d-08"),
        A("Yes, the combined rough-in is booked with Lindqvist. Everything has to stay open and visible until then, so no insulation before it passes."),
    ]


def ep_inspection_moved():
    return [
        U("Jonah says somebody from the inspections office phoned him about moving the rough-in. Can you see what the portal shows now?"),
        T("Refreshing the record.", "http_get", {"url": "https://permits.example.gov/api/records/BLD-2026-04187"},
          J(permit_record("2026-11-23T13:00", "Rescheduled", "Moved by jurisdiction - inspector unavailable")), "d-22"),
        A("It moved to the afternoon of the 23rd. That pushes insulation back, so I'll tell Arrowhead to hold off until it passes."),
    ]


def ep_ceiling_up():
    return [
        U("Good news from the appraisal: the credit union raised our line, so the new all-in ceiling is $156,000, "
          "and that's the number to track against from now on.", "d-20"),
        A("Updated. Committed spend is now at about 71% of the cap, so we're comfortably away from the warning threshold."),
    ]


def ep_electrician_change():
    return [
        U("Change on the electrical side: the woman Hallett first assigned got poached by the hospital expansion, so our "
          "panel and rough-in are now with Declan Fairweather, same shop and same price.", "d-21"),
        A("Thanks, I've swapped the contact. I'll ask Hallett to confirm the new license number is on the permit before the 23rd."),
    ]


def ep_sister():
    return [
        U("Heads up that my sister and her three kids land on December 19 and stay through New Year's, so the downstairs "
          "bathroom absolutely needs a working toilet and shower by then.", "d-17"),
        A("That's a firm deadline, so I'll build the bath schedule backwards from it with a week of slack. The vanity and the shower glass are the long-lead items to watch."),
    ]


def ep_arrivals():
    return [
        U("Please don't book any trades to show up before 9:15 on weekdays, since that's when I'm back from daycare "
          "drop-off and I want to walk through the day's work with whoever arrives.", "d-19"),
        A("Understood. I'll keep weekday arrivals after that and push back on anyone who proposes an earlier slot."),
    ]


def ep_gc_schedule():
    y = "\n".join([
        "job: 26-114",
        "client: Quist",
        "exported: 2026-11-15 16:40",
        "phases:",
        "  - name: demolition",
        "    status: complete",
        "  - name: structural",
        "    status: complete",
        "    crew: north",
        "  - name: rough-in inspection",
        "    status: booked",
        "  - name: spray foam",
        "    sub: Arrowhead Spray Foam",
        "    start: 2026-11-24",
        "    days: 2",
        "  - name: gypsum board",
        "    sub: Iron Range Drywall",
        "    crew_size: 3",
        "    start: 2026-11-30",
        "    hang_days: 4",
        "    tape_days: 5",
        "  - name: paint",
        "    sub: in-house",
        "    start: 2026-12-10",
    ])
    return [
        U("Lakewalk shared their updated schedule export. When are the drywall people actually coming, and who are they?"),
        T("Opening the export.", "run_shell", {"cmd": "cat ~/Downloads/lakewalk-26-114-schedule.yaml"}, y, "d-27"),
        A("Spray foam goes in on the 24th, the day after the inspection, and the board crew starts on the 30th with about nine working days to hang and tape. Painting is penciled in for December 10."),
    ]


def ep_freight():
    data = {
        "pro_number": "0718442196",
        "carrier": "Estes Express Lines",
        "shipper": "Northwoods Cabinetry, Rice Lake WI",
        "pieces": 14,
        "weight_lb": 1260,
        "service": "LTL residential, liftgate, inside delivery",
        "status": "In transit",
        "events": [
            {"at": "2026-11-17 18:20", "where": "Rice Lake, WI", "what": "Picked up"},
            {"at": "2026-11-17 23:05", "where": "Eau Claire, WI", "what": "Arrived at terminal"},
            {"at": "2026-11-18 04:40", "where": "Eau Claire, WI", "what": "Departed terminal"},
        ],
        "appointment": {"required": True, "set": True, "window": "2026-11-30 13:00-17:00",
                        "contact": "T. Quist", "notes": "phone 30 min ahead"},
    }
    return [
        U("Northwoods said the cabinets shipped from their plant yesterday. Can you see when the freight company plans to bring them?"),
        T("Tracking the freight.", "track_shipment", {"carrier": "Estes", "pro": "0718442196"}, J(data), "d-24"),
        A("They're moving through Eau Claire, and the delivery slot is already booked with a heads-up call beforehand. Liftgate and inside delivery are included, so nobody has to carry 14 boxes up the steps."),
    ]


def ep_close1():
    return [
        U("I think that's it for today. Anything I should have on my radar for next week?"),
        A("The rough-in inspection, the foam right after it, and the cabinet freight at the end of the month. I'll remind you the day before each."),
    ]


# ---------------------------------------------------------------- fact episodes, conv-2

def ep_open2():
    return [
        U("Hi again, starting a fresh thread since the old one got enormous. Kitchen demo went fine, and now I'm trying to get ahead of the holidays."),
        A("Welcome back. What's first on the list today?"),
    ]


def ep_complaint():
    data = {
        "results": [{
            "service_request_id": "SR-1128-40716",
            "service_name": "Obstruction - Sidewalk/Right of Way",
            "status": "open",
            "requested_datetime": "2026-12-02T07:51:00-06:00",
            "description": "Roll-off container extends onto sidewalk, stroller had to go into street.",
            "agency_responsible": "Public Works - ROW",
            "expected_datetime": "2026-12-07T17:00:00-06:00",
            "status_notes": "Inspector to verify permit and placement.",
        }],
        "count": 1,
    }
    return [
        U("A neighbour apparently complained to the city about the dumpster blocking the sidewalk. Can you see if there's a record of it?"),
        T("Searching the 311 system for our address.", "http_get",
          {"url": "https://311.example.gov/open311/v2/requests.json?address_id=ours"}, J(data), "d-25"),
        A("There's one open request from yesterday morning, and someone from Public Works will verify the placement by the 7th. I'd ask Zenith to nudge the container back onto the apron today."),
        U("Yes, please text them."),
        T("Sending.", "send_sms", {"to": "Zenith Roll-Off", "body": "Could you shift our container fully off the sidewalk today? A neighbour filed a complaint. Thanks!"},
          "\n".join(["status=queued", "to=Zenith Roll-Off", "phone=+1 555-0177", "segments=1",
                     "provider_id=SM4be01c9a72f3d5e8a06b1c44", "queued_at=2026-12-03 10:05"])),
        A("Sent. I'll check for their reply this afternoon."),
    ]


def ep_lockbox_new():
    return [
        U("I changed the lockbox combination after the painters' helper left the porch door wide open, so it's 2-6-9-0 now "
          "and only the people actually on site this week get it.", "d-26"),
        A("Updated on my side. I'll keep it out of emails and texts, same as before."),
    ]


def ep_close2():
    return [
        U("Okay, that's enough house for one day. I'll be back tomorrow with more questions."),
        A("Sounds good. I'll have the reconciled expenses ready when you are."),
    ]


# ---------------------------------------------------------------- fact table

FACTS = [
    dict(id="d-01", kind="name", value="Teddie",
         lexical="What do I want to be called?",
         para="Which nickname should you use when addressing me?", ask_in="conv-2"),
    dict(id="d-02", kind="place", value="Duluth",
         lexical="Which city is our 1924 foursquare in?",
         para="What town do I live in?", ask_in="conv-2"),
    dict(id="d-03", kind="code", value="QRN-2611-B",
         lexical="What project code has to go on every draw request?",
         para="Which reference must appear on paperwork when I ask the bank to release money?", ask_in="conv-2"),
    dict(id="d-04", kind="region", value="us-central-1",
         lexical="Which region is the reno-photos remote set to?",
         para="In which datacenter area are our progress pictures kept?", ask_in="conv-2"),
    dict(id="d-05", kind="id", value="387145290",
         lexical="What is the id of the attic-watch droplet?",
         para="Which number identifies the cloud VM behind my moisture graphs?", ask_in="conv-2"),
    dict(id="d-06", kind="id", value="NL-88417-AT",
         lexical="What is Northland's order number for the attic framing package?",
         para="What reference did the timber merchant assign to my loft purchase?", ask_in="conv-1"),
    dict(id="d-07", kind="id", value="WCL-553024",
         lexical="What's the warranty claim number for the cracked sash?",
         para="Which case reference did the glazing manufacturer assign after I sent them pictures?", ask_in="conv-1"),
    dict(id="d-08", kind="date", value="2026-11-12T08:30", lexical=None, para=None, ask_in="conv-1"),
    dict(id="d-09", kind="preference", value="brushed-brass",
         lexical="What finish do I want for the kitchen pulls and faucet?",
         para="Which metal look did I choose for the drawer handles and tap?", ask_in="conv-1"),
    dict(id="d-10", kind="number", value="148,500", lexical=None, para=None, ask_in="conv-1"),
    dict(id="d-11", kind="number", value="218.5",
         lexical="How many square feet of herringbone tile should I get?",
         para="What quantity of the zigzag ceramic did you work out I need to buy?", ask_in="conv-1"),
    dict(id="d-12", kind="name", value="Marguerite Osei", lexical=None, para=None, ask_in="conv-2"),
    dict(id="d-13", kind="number", value="18,940",
         lexical="What did Hallett's electrical bid add up to before tax?",
         para="How much is the wiring contractor getting paid in total?", ask_in="conv-2"),
    dict(id="d-14", kind="other", value="LakeHill-Trades",
         lexical="What's the ssid of the guest Wi-Fi?",
         para="What's the internet connection name I give visiting workers?", ask_in="conv-1"),
    dict(id="d-15", kind="id", value="ROW-26-11839",
         lexical="What's the right-of-way permit number for the dumpster?",
         para="Which street-use authorisation did the municipality issue for the waste container?", ask_in="conv-1"),
    dict(id="d-16", kind="date", value="2038-10-26",
         lexical="Until when is the mini-split warranty good?",
         para="How long is the heat pump covered for?", ask_in="conv-2"),
    dict(id="d-17", kind="date", value="December 19",
         lexical="When does my sister land?",
         para="By what day must the guests' washroom be usable?", ask_in="conv-2"),
    dict(id="d-18", kind="code", value="5-1-8-3", lexical=None, para=None, ask_in="conv-2"),
    dict(id="d-19", kind="preference", value="9:15",
         lexical="What time can trades show up on weekdays?",
         para="What's the earliest workers may turn up Monday to Friday?", ask_in="conv-2"),
    dict(id="d-20", kind="number", value="156,000", corrects="d-10",
         lexical="What is the all-in ceiling now?",
         para="How much are we allowed to spend on the whole renovation in total?", ask_in="conv-1"),
    dict(id="d-21", kind="name", value="Declan Fairweather", corrects="d-12",
         lexical="Which electrician is doing our panel and rough-in?",
         para="Who is the sparky handling the house's breaker box and cabling these days?", ask_in="conv-2"),
    dict(id="d-22", kind="date", value="2026-11-23T13:00", corrects="d-08",
         lexical="When is the rough-in inspection slot now?",
         para="For what day and hour is the city's check of the wiring and framing booked?", ask_in="conv-1"),
    dict(id="d-23", kind="number", value="11 gallons",
         lexical="How much finish paint do we need upstairs?",
         para="What quantity of topcoat should I buy for the second-storey rooms?", ask_in="conv-1"),
    dict(id="d-24", kind="date", value="2026-11-30 13:00-17:00",
         lexical="When is the cabinet freight appointment window?",
         para="On what afternoon will the trucker drop off our new kitchen units?", ask_in="conv-1"),
    dict(id="d-25", kind="id", value="SR-1128-40716",
         lexical="What's the service request id for the sidewalk obstruction?",
         para="Which case did the municipality log after the neighbour grumbled about the bin?", ask_in="conv-2"),
    dict(id="d-26", kind="code", value="2-6-9-0", corrects="d-18",
         lexical="What's the lockbox combination now?",
         para="Which digits unlock the key safe out back?", ask_in="conv-2"),
    dict(id="d-27", kind="name", value="Iron Range Drywall",
         lexical="Which sub is on the gypsum board phase?",
         para="Which outfit is putting up the wallboard in the loft?", ask_in="conv-1"),
]

# fact order in the table: keep corrections after the facts they correct
FACTS.sort(key=lambda f: int(f["id"][2:]))


# ---------------------------------------------------------------- assembly

CONV1_PLAN = [
    # (date, fact episode or None, filler episodes after it)
    (D(2026, 10, 5), ep_intro, 2),
    (D(2026, 10, 6), ep_loan_code, 1),
    (D(2026, 10, 6), ep_ceiling, 2),
    (D(2026, 10, 8), ep_droplet, 2),
    (D(2026, 10, 9), ep_rclone, 2),
    (D(2026, 10, 10), ep_electric_quote, 2),
    (D(2026, 10, 12), ep_lumber, 2),
    (D(2026, 10, 13), ep_lockbox, 2),
    (D(2026, 10, 14), ep_hardware, 2),
    (D(2026, 10, 15), ep_tile_area, 2),
    (D(2026, 10, 16), ep_wifi, 2),
    (D(2026, 10, 19), ep_electrician, 2),
    (D(2026, 10, 20), ep_row_permit, 2),
    (D(2026, 10, 21), ep_warranty, 2),
    (D(2026, 10, 23), ep_paint, 2),
    (D(2026, 10, 26), "takeoff", 2),
    (D(2026, 10, 28), ep_plan_yaml, 3),
    (D(2026, 11, 2), ep_inspection, 3),
    (D(2026, 11, 5), ep_inspection_moved, 2),
    (D(2026, 11, 6), ep_ceiling_up, 2),
    (D(2026, 11, 9), ep_electrician_change, 2),
    (D(2026, 11, 11), ep_sister, 2),
    (D(2026, 11, 12), ep_arrivals, 2),
    (D(2026, 11, 14), "sensorweek", 2),
    (D(2026, 11, 16), ep_gc_schedule, 2),
    (D(2026, 11, 18), ep_freight, 2),
    (D(2026, 11, 20), ep_close1, 0),
]

CONV2_PLAN = [
    (D(2026, 12, 3), ep_open2, 3),
    (D(2026, 12, 3), ep_complaint, 3),
    (D(2026, 12, 3), "transactions", 2),
    (D(2026, 12, 3), ep_lockbox_new, 3),
    (D(2026, 12, 3), ep_close2, 0),
]


def run_plan(r, plan, filler, end_day):
    eps = []
    for i, (day, ep, nfill) in enumerate(plan):
        if ep == "takeoff":
            eps.append(ep_long_takeoff(r, day))
        elif ep == "sensorweek":
            eps.append(ep_long_sensor_week(r, day))
        elif ep == "transactions":
            eps.append(ep_long_transactions(r, day))
        else:
            eps.append(ep())
        nxt = plan[i + 1][0] if i + 1 < len(plan) else end_day
        span = max((nxt - day).days, 0)
        for k in range(nfill):
            fday = day + (span * (k + 1) // (nfill + 1)) * DAY if span else day
            eps.append(filler.take(fday))
    return eps


def scan_values(data):
    """Every fact value may appear only in its own stating turn (content or call arguments)."""
    problems = []
    convs = {c["id"]: c["turns"] for c in data["conversations"]}
    for f in data["facts"]:
        v = f["value"]
        for cid, turns in convs.items():
            for i, t in enumerate(turns):
                blob = t["content"] + " " + json.dumps(t.get("tool_calls", []), ensure_ascii=False)
                if v in blob and not (cid == f["conversation"] and i == f["turn"]):
                    problems.append("%s value %r also in %s[%d]" % (f["id"], v, cid, i))
    return problems


def build():
    global PK
    r = random.Random(20261129)
    PK = Picker(r)
    filler = Filler(r, FILLERS)
    conv1 = run_plan(r, CONV1_PLAN, filler, D(2026, 11, 20))
    conv2 = run_plan(r, CONV2_PLAN, filler, D(2026, 12, 3))
    data = make_set("set-d", NOTE, "user-8134", [("conv-1", conv1), ("conv-2", conv2)], FACTS, seed=4417)
    problems = scan_values(data)
    if problems:
        raise ValueError("value placement problems:\n  " + "\n  ".join(problems))
    return data
