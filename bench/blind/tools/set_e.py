"""Set E: assistant agent for the owner of a two-site bakery-cafe (Wren & Rye).

Written 2026-12-01 by a third outside writer who read only the blind README's
"Format", "Rules the sets follow" and "Things to know when reading results"
sections plus build_lib.py, build.py and check.py.  Every fact episode, its
value and its two questions are written by hand below, one at a time.  The
generators at the top only produce everyday filler (stock checks, fridge logs,
review replies, cash-ups, ...) from hand-phrased variants with fixed seeds.

The set leans on corrections (seven links, one value corrected twice), on
cross-conversation recall (ten facts asked in conv-2), on values buried in
tool output next to look-alikes (one order ref in a table of twenty, one day's
takings among fourteen, one instance id among three, one date among several),
and on paraphrases that share no content word with the stating turn.
"""
import datetime
import random

from build_lib import A, J, Pool, T, TM, U, make_set, pick

SEED = 52026
USER = "user-6147"

SITES = [("fore_street", "Fore Street"), ("corbridge", "Corbridge")]
STAFF = ["Sunita", "Tomasz", "Freya", "Ollie", "Grace", "Bilal", "Keziah"]


# ---------------------------------------------------------------------------
# Filler generators (everyday work, no facts)
# ---------------------------------------------------------------------------

def fillers(ctx):
    """ctx["today"] is read at call time, so the caller can move the clock
    between Pool.take calls; ctx["used"] keeps dated items from repeating."""
    used = ctx.setdefault("used", set())

    def today():
        return ctx["today"]

    def day(k):
        return (today() + datetime.timedelta(days=k)).isoformat()

    def wday(k):
        return (today() + datetime.timedelta(days=k)).strftime("%A")

    def first_unused(kind, options):
        """options: (key, value) pairs; returns the first value whose key is unused."""
        for key, val in options:
            if (kind, key) not in used:
                used.add((kind, key))
                return val
        return options[-1][1]

    def ask(r, key, items):
        return pick(r, "e_ask_" + key, items)

    # -- 1. stock check ------------------------------------------------------
    STOCK = [
        # sku, item, unit, supplier, par, (fs range), (cb range), (use range per day)
        ("OAT-1L", "oat milk", "cartons", "Hadrian Dairy", 48, (6, 36), (2, 18), (6.0, 14.0)),
        ("EGG-FR-30", "free-range eggs", "trays", "Tyne Valley Eggs", 30, (4, 26), (1, 9), (3.0, 8.0)),
        ("SUG-DEM-25", "demerara sugar", "25kg sacks", "Northgate Wholesale", 6, (1, 5), (0, 2), (0.3, 0.8)),
        ("PIS-PASTE-1", "pistachio paste", "1kg tubs", "Sorrento Foods", 8, (1, 6), (0, 2), (0.3, 1.0)),
        ("COF-ESP-1", "espresso blend", "1kg bags", "Kettle Roasters", 40, (6, 30), (2, 12), (4.0, 9.0)),
        ("CUP-12OZ", "12oz cups", "sleeves of 50", "Packright", 60, (8, 40), (2, 16), (5.0, 12.0)),
        ("RYE-WM-16", "wholemeal rye", "16kg sacks", "Greenwell Mill", 8, (1, 7), (0, 2), (0.5, 1.5)),
        ("CHO-DK-5", "dark chocolate callets", "5kg bags", "Sorrento Foods", 10, (1, 8), (0, 3), (0.5, 1.5)),
    ]
    STOCK_ASK = [
        "How are we fixed for {name}? I've a feeling we're low.",
        "Can you check the {name} before I ring {sup}?",
        "Quick one: have we got enough {name} to see us through the weekend?",
        "Sunita reckons we're nearly out of {name}, is she right?",
        "Check {name} across both shops for me.",
        "Before I forget, what's the {name} position?",
        "Grace asked about {name}, are we OK?",
    ]
    STOCK_LOW = [
        "That's roughly {d} at the current rate, so I'd add {q} {unit} to the next {sup} order.",
        "Tighter than I'd like: about {d} left. Want me to put {q} {unit} on the {sup} order?",
        "She's right, it's around {d} of use, so {q} more {unit} would get you back to par.",
    ]
    STOCK_OK = [
        "You're fine: about {d} of use on hand between the two shops, and {sup} deliver again on {nd}.",
        "Plenty for now, roughly {d}' worth, with the next {sup} drop on {nd}.",
        "No panic, there's about {d}' worth, mostly at Fore Street, so Corbridge can borrow if it runs short.",
    ]

    def stock_check(r, n):
        sku, name, unit, sup, par, fsr, cbr, user = pick(r, "e_stock", STOCK)
        fs, cb = r.randint(*fsr), r.randint(*cbr)
        use = round(r.uniform(*user), 1)
        nd = day(r.randint(1, 4))
        out = "\n".join([
            "sku=%s" % sku, "item=%s" % name, "unit=%s" % unit,
            "on_hand_fore_street=%d" % fs, "on_hand_corbridge=%d" % cb,
            "par_level=%d" % par, "avg_daily_use=%.1f" % use,
            "supplier=%s" % sup, "next_delivery=%s" % nd,
        ])
        left = max(1, int((fs + cb) / use))
        dtxt = "%d day%s" % (left, "" if left == 1 else "s")
        if left < 5:
            reply = r.choice(STOCK_LOW).format(d=dtxt, q=max(1, par - fs - cb), unit=unit, sup=sup)
        else:
            reply = r.choice(STOCK_OK).format(d=dtxt, sup=sup, nd=nd)
        return (U(ask(r, "stock", STOCK_ASK).format(name=name, sup=sup))
                + T(r.choice(["Checking stock.", "Looking it up.", "One moment."]),
                    "inventory_query", {"sku": sku, "sites": "all"}, out)
                + A(reply))

    # -- 2. fridge log -------------------------------------------------------
    SLOTS = {
        "opening": (6, ["Did this morning's fridge checks all get logged?",
                        "Have the opening temperature checks been done at both shops?",
                        "Run your eye over the chiller readings from this morning."]),
        "midday": (12, ["Did the midday fridge checks go in?",
                        "Anything odd in the lunchtime temperature log?",
                        "Check the midday chiller readings for me."]),
        "closing": (17, ["Have the closing fridge checks been logged?",
                         "Anything odd in this afternoon's closing temperatures?",
                         "Make sure the end-of-day chiller readings went in."]),
    }
    UNITS = {"fore_street": ["walk-in-1", "walk-in-2", "display-1", "display-2", "freezer-1"],
             "corbridge": ["display-1", "undercounter-1", "undercounter-2", "freezer-1"]}

    def fridge_log(r, n):
        slot = first_unused("fridge", [((day(0), x), x) for x in ("opening", "midday", "closing")])
        hour, asks = SLOTS[slot]
        lines, warn = [], None
        for key, _ in SITES:
            who = r.choice(STAFF)
            mm = r.randint(2, 20)
            for u in UNITS[key]:
                lo, hi = (-21.0, -17.0) if u.startswith("freezer") else (1.5, 4.9)
                t = round(r.uniform(lo, hi), 1)
                chk = "ok"
                if warn is None and not u.startswith("freezer") and r.random() < 0.12:
                    t = round(r.uniform(5.2, 6.4), 1)
                    chk = "warn"
                    warn = (key, u, t)
                lines.append("%sT%02d:%02d site=%s unit=%s temp=%.1fC check=%s by=%s"
                             % (day(0), hour, mm, key, u, t, chk, who))
                mm += r.randint(1, 3)
        if warn:
            reply = r.choice([
                "All logged, but {u} at {s} read {t}C. If it's still above 5 at the next check, move the dairy to the other unit.",
                "Everything's in, with one amber: {u} at {s} at {t}C. Worth a second reading in half an hour.",
            ]).format(u=warn[1], s=dict(SITES)[warn[0]], t=warn[2])
        else:
            reply = r.choice([
                "All in and all in range at both shops.",
                "Both shops logged every unit, nothing out of range.",
                "Done and clean: every reading inside limits.",
            ])
        return (U(r.choice(asks))
                + T("Pulling the %s checks." % slot, "haccp_records", {"section": "temperature_log", "date": day(0), "slot": slot},
                    "\n".join(lines))
                + A(reply))

    # -- 3. review replies ---------------------------------------------------
    REVIEWS = [
        ("5", "Best almond croissant I've had outside Paris, and the staff were lovely to my mum.",
         "Thank you so much, that's made the whole team's morning. We'll pass the compliment on and hope to see you and your mum again soon."),
        ("2", "Waited fifteen minutes for a flat white at Corbridge on Sunday, only one person on the machine.",
         "Sorry about the wait, that's not the service we aim for. Sundays have caught us short-handed lately and we're adding a second barista from next week."),
        ("4", "Great sourdough, just wish you opened earlier at the weekend.",
         "Thank you, glad the sourdough is hitting the spot. We're looking at earlier weekend opening for the new year and will say so here when it happens."),
        ("3", "Lovely cakes but nowhere to leave the pram inside.",
         "Thanks for the honest feedback. Space is tight at the front, but ask the team and we'll happily clear the corner table for you next time."),
        ("5", "Ordered a birthday cake online and collection was smooth and on time.",
         "Thank you for ordering with us, and happy belated birthday to whoever got the cake. Glad collection went smoothly."),
        ("1", "Very limited gluten-free choice for a bakery this size.",
         "Thank you for telling us. We've only two gluten-free bakes at the moment and we're trialling a third this month; we'd love your verdict on it."),
    ]
    REV_ASK = [
        "Can you draft a reply to this {s}-star review: \"{t}\"",
        "New {s}-star review came in, write me something back: \"{t}\"",
        "Reply to this one for me ({s} stars): \"{t}\"",
        "Someone left {s} stars saying \"{t}\" Can you draft a response?",
    ]

    def review_reply(r, n):
        s, text, draft = pick(r, "e_review", REVIEWS)
        eps = (U(ask(r, "review", REV_ASK).format(s=s, t=text))
               + A("Draft, signed off as the Wren & Rye team: \"%s\"" % draft))
        if r.random() < 0.6:
            out = "\n".join(["platform=google", "status=published", "review_stars=%s" % s,
                             "reply_chars=%d" % len(draft), "published_at=%sT%02d:%02d:00Z" % (day(0), r.randint(8, 16), r.randint(0, 59))])
            eps += U(r.choice(["Fine, post it.", "Good, put that up.", "Yes, go ahead and post."]))
            eps += T("Posting it.", "reviews", {"action": "reply", "platform": "google"}, out)
            eps += A(r.choice(["Posted.", "It's up.", "Published on Google."]))
        else:
            eps += U(r.choice(["Leave it with me, I'll post it tonight.", "Hold that, I want Sunita to see it first."]))
            eps += A(r.choice(["It's saved in drafts.", "Saved as a draft for later."]))
        return eps

    # -- 4. social posts -----------------------------------------------------
    BAKES = [
        ("pear and rye galette", "Pear and rye galette is out of the oven at Fore Street: brown butter, a little rye in the pastry, local pears. Here until they're gone."),
        ("stollen bites", "Stollen bites are back for the season, marzipan all the way through and a proper dusting of sugar. Both shops from today."),
        ("miso caramel brownie", "New on the counter: a miso caramel brownie, salty, dark and very hard to share. Try one with a flat white."),
        ("seeded spelt loaf", "Our seeded spelt loaf is baked fresh every morning, sunflower, pumpkin and linseed in a slow-proved dough. Reserve one online for collection."),
        ("lemon polenta cake", "Lemon polenta cake, naturally gluten-free and soaked in syrup while it's warm. At Corbridge this weekend."),
        ("chocolate sourdough", "Today's special: chocolate sourdough with dark chocolate chunks. Toast it, butter it, thank us later."),
    ]
    SOC_ASK = [
        "Write me an Instagram caption for today's {b}.",
        "Can you do a short post for the {b}? Photo's already up on the shared drive.",
        "Need something for socials about the {b}, nothing too gushing.",
        "Caption for the {b} please, two lines max.",
    ]
    SOC_TWEAK = [
        ("Lose the last sentence.", "Trimmed to the first sentence and scheduled for 11:00."),
        ("Shorter.", "Cut down to one line and queued for lunchtime."),
        ("Good, schedule it for 11.", "Scheduled for 11:00 on both accounts."),
        ("Fine, post it now.", "Posted on Instagram and Facebook."),
    ]

    def social_post(r, n):
        b, cap = pick(r, "e_social", BAKES)
        eps = U(ask(r, "social", SOC_ASK).format(b=b)) + A("How about: \"%s\"" % cap)
        tw, rep = r.choice(SOC_TWEAK)
        return eps + U(tw) + A(rep)

    # -- 5. weather ----------------------------------------------------------
    WX_ASK = [
        "What's the weather doing {w}? Trying to decide how many extra loaves for the market crowd.",
        "Check {w}'s forecast, if it's wet I'll cut the Corbridge bake.",
        "Is it going to be cold {w}? Soup sells when it's grim.",
        "Forecast for {w} please, I'm planning the bake sheet.",
    ]

    def weather(r, n):
        k = first_unused("wx", [(day(1), 1), (day(2), 2), (day(3), 3)])
        w = "tomorrow" if k == 1 else wday(k)
        hi = r.randint(3, 11)
        rain = r.randint(0, 90)
        wind = r.randint(5, 35)
        summ = "light rain" if rain >= 60 else ("showers" if rain >= 30 else r.choice(["dry and cold", "sunny spells", "overcast"]))
        out = J({"location": "Tyne Valley", "date": day(k), "summary": summ,
                 "temp_max_c": hi, "temp_min_c": hi - r.randint(3, 7), "precip_prob_pct": rain, "wind_kmh": wind})
        if rain >= 60:
            reply = r.choice(["It's wet, {p}% chance of rain, so I'd trim the Corbridge bake by a fifth and push soup.",
                              "Rain likely ({p}%). Fewer pastries at Corbridge, more loaves for the online collections."]).format(p=rain)
        elif rain >= 30:
            reply = r.choice(["Mixed: {p}% chance of showers and {h}C. Bake as normal but hold one tray back until you see the lunchtime footfall.",
                              "Showery, {p}%, top of {h}C. I'd keep the normal bake and push the soup board."]).format(p=rain, h=hi)
        else:
            reply = r.choice(["Dry, only {p}% chance of rain and a top of {h}C, so the usual bake plus a tray extra at Fore Street.",
                              "Looks decent: {h}C and {p}% chance of rain. Normal bake, maybe extra loaves for the market."]).format(p=rain, h=hi)
        return (U(ask(r, "wx", WX_ASK).format(w=w))
                + T("Fetching the forecast.", "web_fetch", {"url": "https://api.weather.example/v1/forecast?loc=tyne-valley&date=%s" % day(k)}, out)
                + A(reply))

    # -- 6. cash-up ----------------------------------------------------------
    CASH_ASK = [
        "Did {w} cash-up balance at both shops?",
        "Check the tills from {w2}, Grace thought Corbridge was out.",
        "How did the cash-up look for {w2}?",
        "Any variance on {w} tills?",
    ]

    def cash_up(r, n):
        k = first_unused("cash", [(day(-1), -1), (day(-2), -2), (day(-3), -3), (day(-4), -4)])
        w = "yesterday's" if k == -1 else wday(k) + "'s"
        w2 = "yesterday" if k == -1 else wday(k)
        rows, bad = [], None
        for key, name in SITES:
            exp = round(r.uniform(180, 720), 2)
            var = r.choice([0.0, 0.0, 0.0, -0.5, 1.2, -3.4, -10.0, 0.3])
            rows += ["site=%s float=150.00 expected_cash=%.2f counted_cash=%.2f variance=%.2f closed_by=%s"
                     % (key, exp, exp + var, var, r.choice(STAFF))]
            if abs(var) >= 3 and bad is None:
                bad = (name, abs(var), "short" if var < 0 else "over")
        rows.append("report=cash_up date=%s generated=%sT06:00:04Z" % (day(k), day(k + 1)))
        rows.append("card_batches_settled=2 pending=0")
        rows.append("safe_drop_recorded=yes")
        if bad:
            reply = "%s is %.2f %s, which is usually a miscounted note bag. Worth a recount before the bank run." % bad
        else:
            reply = r.choice(["Both balanced within pennies.", "All square at both shops.", "No meaningful variance, both tills balanced."])
        return (U(ask(r, "cash", CASH_ASK).format(w=w, w2=w2))
                + T("Pulling the cash-up.", "pos_export", {"report": "cash_up", "date": day(k)}, "\n".join(rows)) + A(reply))

    # -- 7. allergens --------------------------------------------------------
    ALLERG = [
        ("stollen bites", ["gluten", "milk", "eggs", "almonds"]),
        ("seeded spelt loaf", ["gluten", "sesame"]),
        ("lemon polenta cake", ["eggs", "milk", "almonds"]),
        ("cheese and chive scone", ["gluten", "milk", "eggs", "mustard"]),
        ("miso caramel brownie", ["eggs", "milk", "soya"]),
        ("pear and rye galette", ["gluten", "milk", "eggs"]),
    ]
    AL_ASK = [
        "A customer at Corbridge wants to know what allergens are in the {x}.",
        "Someone's asking whether the {x} is safe for a nut allergy.",
        "Can you check the allergens on the {x}? Lady at the counter is asking.",
        "What's in the {x} allergen-wise? Customer's asking about milk.",
    ]

    def allergens(r, n):
        x, al = pick(r, "e_allerg", ALLERG)
        rows = ["recipe,allergen,source_ingredient"]
        src = {"gluten": "wheat flour", "milk": "butter", "eggs": "whole egg", "almonds": "ground almond",
               "sesame": "sesame seed", "mustard": "english mustard", "soya": "white miso"}
        for a in al:
            rows.append("%s,%s,%s" % (x, a, src[a]))
        rows.append("-- %d rows, matrix version 2026-10, may-contain: nuts (shared kitchen)" % len(al))
        reply = "It contains %s, and like everything from our kitchen it carries a may-contain warning for nuts." % (", ".join(al[:-1]) + " and " + al[-1])
        return (U(ask(r, "allerg", AL_ASK).format(x=x))
                + T("Checking the allergen matrix.", "run_sql", {"db": "recipes", "query": "SELECT * FROM allergen_matrix WHERE recipe = '%s'" % x}, "\n".join(rows))
                + A(reply))

    # -- 8. collections --------------------------------------------------------
    NAMES = ["A. Charlton", "R. Milburn", "S. Ridley", "P. Errington", "K. Fenwick", "D. Robson", "L. Heron", "T. Armstrong"]
    GOODS = ["sourdough loaf x2", "birthday cake 8in", "cardamom knots x6", "seeded spelt x1", "brownie box x12", "stollen x1", "sausage rolls x10"]
    COL_ASK = [
        "What online collections have we got for {w}?",
        "Who's collecting {w}? I need to tell the morning team.",
        "Run through {w}'s click-and-collect list.",
        "Any big collections {w} I should know about?",
    ]

    def collections(r, n):
        k = first_unused("col", [(day(1), 1), (day(2), 2), (day(3), 3)])
        w = "tomorrow" if k == 1 else wday(k)
        cnt = r.randint(3, 5)
        orders, early = [], False
        for _ in range(cnt):
            hh = r.randint(8, 15)
            early = early or hh < 9
            orders.append('  {"id": "WR-1%04d", "customer": "%s", "items": "%s", "site": "%s", "slot": "%02d:%s"}'
                          % (r.randint(8000, 9899), r.choice(NAMES), r.choice(GOODS), r.choice(["fore_street", "corbridge"]),
                             hh, r.choice(["00", "30"])))
        out = '{"date": "%s", "collections": [\n%s\n], "count": %d}' % (day(k), ",\n".join(orders), cnt)
        if early:
            reply = "%d collections; one is before nine, so bag it the night before." % cnt
        else:
            reply = r.choice(["%d orders, spread across both shops, nothing unusual." % cnt,
                              "Just %d, all standard. I'll send the list to the morning team." % cnt])
        return (U(ask(r, "col", COL_ASK).format(w=w))
                + T("Pulling the collection list.", "shop_admin", {"action": "collections", "date": day(k)}, out) + A(reply))

    # -- 9. delivery tracking -----------------------------------------------
    TRACK = [
        ("Hadrian Dairy", "HDY-2%05d", "cream and butter"),
        ("Greenwell Mill", "GWM-SO-5%04d", "flour"),
        ("Packright", "PKR-%05d", "boxes"),
        ("Kettle Roasters", "KR-%04d", "coffee"),
        ("Tyne Valley Eggs", "TVE-%04d", "eggs"),
    ]
    TR_ASK = [
        "Where's the {sup} delivery? It was due first thing.",
        "Has {sup} dispatched yet?",
        "Track the {what} from {sup}, Corbridge is asking.",
        "Is the {sup} van still coming today?",
    ]

    def delivery_track(r, n):
        sup, fmt, what = pick(r, "e_track", TRACK)
        num = r.randint(1000, 9999)
        if fmt.startswith("GWM") and num == 8817:
            num = 8818
        ref = fmt % num
        eta = "%02d:%02d" % (r.randint(9, 15), r.choice([0, 15, 30, 45]))
        out = "\n".join(["order_ref=%s" % ref, "supplier=%s" % sup, "status=out_for_delivery",
                         "vehicle=%s" % r.choice(["van 3", "van 7", "courier"]), "eta=%s" % eta,
                         "drop=%s" % r.choice(["fore_street", "corbridge", "fore_street then corbridge"]),
                         "updated=%sT%02d:%02d:00Z" % (day(0), r.randint(7, 9), r.randint(0, 59))])
        return (U(ask(r, "track", TR_ASK).format(sup=sup, what=what))
                + T("Checking the portal.", "supplier_portal", {"action": "track", "order": ref}, out)
                + A(r.choice(["It's out for delivery, ETA %s.", "On its way, expected around %s.", "Running late but moving: now due %s."]) % eta))

    # -- 10. quick emails ----------------------------------------------------
    MAILS = [
        ("tomasz.w@wrenandrye.co.uk", "Saturday cover", "Ask Tomasz if he can cover Freya's Saturday close at Fore Street.",
         "Hi Tomasz, could you cover Freya's Saturday close at Fore Street this week? Let me know by Thursday."),
        ("accounts@packright.co.uk", "Invoice copy", "Ask Packright for a copy of last month's invoice, the PDF was blank.",
         "Hello, the PDF of last month's invoice came through blank. Could you resend it, please?"),
        ("hello@theoldforgecafe.co.uk", "Wholesale order", "Confirm the Old Forge Cafe's standing order of 10 sourdough and 24 croissants for Fridays.",
         "Hi both, confirming your standing Friday order of 10 sourdough and 24 croissants, delivered by 8am. Thanks as ever."),
        ("bookings@clearviewwindows.co.uk", "Change of day", "Tell the window cleaner to come Tuesdays instead of Mondays from now on.",
         "Hello, could we move our window clean from Mondays to Tuesdays from now on? Mondays clash with deliveries."),
        ("freya.h@wrenandrye.co.uk", "Food hygiene course", "Remind Freya her Level 2 food hygiene refresher needs doing this month.",
         "Hi Freya, a reminder that your Level 2 food hygiene refresher is due this month. The online course takes about two hours."),
        ("orders@kettleroasters.co.uk", "Decaf", "Ask Kettle Roasters if they can add 2kg of decaf to this week's delivery.",
         "Hello, could you add 2kg of the Swiss-water decaf to this week's delivery? Thank you."),
    ]

    def quick_email(r, n):
        to, subj, q, body = pick(r, "e_mail", MAILS)
        out = J({"status": "sent", "to": to, "subject": subj, "message_id": "<%s.%d@mail.wrenandrye.co.uk>" % (day(0).replace("-", ""), r.randint(100000, 999999)),
                 "queued_at": "%sT%02d:%02d:%02dZ" % (day(0), r.randint(7, 17), r.randint(0, 59), r.randint(0, 59))})
        return (U(q) + A("Draft: \"%s\" Send it?" % body)
                + U(r.choice(["Yes.", "Send.", "Go on then.", "Fine, send it."]))
                + T("Sending.", "send_email", {"to": to, "subject": subj, "body": body}, out)
                + A(r.choice(["Sent.", "Gone.", "Sent, I'll flag any reply."])))

    # -- 11. recipe scaling (no tool) ------------------------------------------
    RECIPES = [("brioche", "flour", 1.2, 24), ("cardamom knot dough", "flour", 2.5, 40), ("scone mix", "flour", 1.6, 30),
               ("brownie batter", "chocolate", 0.9, 24), ("stollen", "marzipan", 1.1, 12), ("shortbread", "butter", 0.75, 36)]
    SC_ASK = [
        "If the {rec} recipe uses {w} kg of {ing} for {b}, how much for {m}?",
        "Scale the {rec}: it's {w} kg {ing} per {b}, I need {m}.",
        "Quick maths, {rec} at {w} kg {ing} makes {b}. What for {m}?",
    ]

    def scale_recipe(r, n):
        rec, ing, w, b = pick(r, "e_scale", RECIPES)
        m = b * r.choice([2, 3]) + r.choice([6, 12, -6])
        need = w * m / b
        return (U(ask(r, "scale", SC_ASK).format(rec=rec, w=w, ing=ing, b=b, m=m))
                + A(r.choice(["That's %.2f kg of %s for %d, so call it %.1f with a little spare.",
                              "%.2f kg %s for %d; I'd weigh out %.1f to be safe."]) % (need, ing, m, need + 0.1)))

    # -- 12. payroll hours ---------------------------------------------------
    HRS_ASK = {
        0: ["Can you total this week's hours so far for payroll?", "Who's over contract hours this week?"],
        -1: ["Total last week's hours for me, the payroll cut-off is today.", "Did anyone go over contract last week?"],
        -2: ["Can you pull the hours from the week before last? Ewan's querying an overtime line."],
    }

    def payroll_hours(r, n):
        wk_no = today().isocalendar()[1]
        opts = [((wk_no, -1), -1), ((day(0), 0), 0), ((wk_no, -2), -2)]
        if today().weekday() == 0:
            opts = [o for o in opts if o[1] != 0]
        k = first_unused("hrs", opts)
        wk = today() - datetime.timedelta(days=today().weekday()) + datetime.timedelta(weeks=k)
        frac = 1.0 if k < 0 else (today().weekday() + 1) / 7.0
        rows = ["staff,site,contract_h,worked_h"]
        over, tot = [], 0.0
        for s in STAFF:
            c = r.choice([16, 20, 24, 30, 37.5])
            w = round(c * frac * r.uniform(0.8, 1.15) / 0.5) * 0.5
            tot += w
            rows.append("%s,%s,%s,%.1f" % (s, r.choice(["fore_street", "corbridge"]), c, w))
            if w > c:
                over.append(s)
        rows.append("-- week starting %s, %d rows" % (wk.isoformat(), len(STAFF)))
        reply = "%.1f hours in total%s." % (tot, " so far" if k == 0 else "")
        reply += (" %s %s over contract." % (" and ".join(over), "is" if len(over) == 1 else "are")) if over else " Nobody is over contract."
        return (U(r.choice(HRS_ASK[k]))
                + T("Summing the timesheets.", "run_sql", {"db": "rota", "query": "SELECT staff, site, contract_h, worked_h FROM week_hours WHERE week_start = '%s'" % wk.isoformat()}, "\n".join(rows))
                + A(reply))

    # -- 13. wholesale pricing (no tool) --------------------------------------
    WHOLE = [("sourdough loaf", 1.35), ("croissant", 0.52), ("cardamom knot", 0.61), ("sausage roll", 0.88), ("brownie", 0.47)]
    WH_ASK = [
        "The Old Forge want a price on {q} {x}s a week. Cost is about {c} each, what would you quote at 55% margin?",
        "What should I charge the deli for {q} {x}s weekly if each costs us {c} to make? Aim for 55% margin.",
        "Price check: {x}, cost {c}, {q} a week for a wholesale customer, 55% margin.",
    ]

    def wholesale(r, n):
        x, c = pick(r, "e_whole", WHOLE)
        q = r.choice([20, 30, 40, 60])
        p = c / 0.45
        rp = round(p * 20) / 20
        tail = ("I'd quote %.2f each to keep it tidy." % rp) if abs(rp - p) >= 0.005 else "That's a tidy number already."
        return (U(ask(r, "whole", WH_ASK).format(q=q, x=x, c="%.2f" % c))
                + A("At 55%% margin that's %.2f each, so %.2f a week for %d. %s" % (p, p * q, q, tail)))

    # -- 14. small equipment ---------------------------------------------------
    EQ = [
        ("coffee machine", "cm-fs-01", ["descale.start", "descale.rinse", "descale.done", "boiler.temp 121C", "group1.pressure 9.1bar", "group2.pressure 9.0bar"],
         "Descale ran cleanly and both groups are at pressure, so it's probably the steam wand seal; I'd ask Kettle's tech to look."),
        ("coffee machine", "cm-cb-01", ["boiler.temp 118C", "group1.pressure 8.2bar", "group1.pressure 8.0bar", "pump.runtime 3412h", "water.hardness 14dH", "filter.change_due overdue"],
         "Group pressure is sagging to 8 bar and the water filter is overdue, so change the filter first and see if the shots recover."),
        ("glasswasher", "gw-cb-01", ["cycle.start", "rinse.temp 82C", "detergent.level low", "cycle.done", "door.open", "cycle.start"],
         "Detergent is low, which would explain the cloudy glasses. Swap the drum and it should settle."),
        ("grinder", "gr-fs-02", ["burr.hours 1412", "dose.avg 18.4g", "dose.avg 18.9g", "motor.temp 44C", "burr.replace_due soon", "idle"],
         "It's past 1,400 burr hours and flagging a replacement, which fits the inconsistent doses."),
        ("dishwasher", "dw-fs-01", ["cycle.start", "wash.temp 61C", "rinse.temp 83C", "salt.level ok", "cycle.done", "filter.clean_due"],
         "Temps are fine; it just wants its filter cleaned."),
        ("bread slicer", "sl-fs-01", ["power.on", "blade.cycles 48210", "guard.interlock ok", "motor.temp 51C", "motor.temp 58C", "thermal.trip"],
         "The motor tripped on temperature after a long run; let it rest and keep the vents clear. If it trips again it's a service call."),
    ]
    EQ_ASK = [
        "The {e} at {s} is playing up, anything in its log?",
        "Check the {e} log at {s}, {w} said it's making a noise.",
        "Is the {e} at {s} due any maintenance?",
    ]

    def equipment_log(r, n):
        e, dev, ev, reply = pick(r, "e_equip", EQ)
        s = "Corbridge" if "-cb-" in dev else "Fore Street"
        lines = []
        h, m = 6, r.randint(0, 20)
        for x in ev:
            m += r.randint(1, 9)
            if m >= 60:
                h, m = h + 1, m - 60
            parts = x.split(" ", 1)
            evt = "event=%s" % parts[0] + (" value=%s" % parts[1] if len(parts) > 1 else "")
            lines.append("%sT%02d:%02d:%02d device=%s %s" % (day(0), h, m, r.randint(0, 59), dev, evt))
        return (U(ask(r, "equip", EQ_ASK).format(e=e, s=s, w=r.choice(STAFF)))
                + T("Reading the device log.", "equipment_log", {"device": dev, "date": day(0)}, "\n".join(lines)) + A(reply))

    return [stock_check, fridge_log, review_reply, social_post, weather, cash_up, allergens,
            collections, delivery_track, quick_email, scale_recipe, payroll_hours, wholesale, equipment_log]


# ---------------------------------------------------------------------------
# Long tool outputs (100+ lines, no facts)
# ---------------------------------------------------------------------------

def big_till_log(r):
    t = datetime.datetime(2026, 11, 9, 5, 41, 7)
    devs = ["till-fs-01", "till-fs-02", "till-cb-01", "reader-fs-01", "reader-cb-02", "kds-fs-01"]
    lines = []
    for i in range(126):
        t += datetime.timedelta(seconds=r.randint(6, 95))
        dev = r.choice(devs)
        ts = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        if dev == "reader-cb-02" and r.random() < 0.45:
            lvl, msg = "WARN ", r.choice(["ble.link lost rssi=-88 retry=1", "ble.link lost rssi=-91 retry=2",
                                          "payment.auth timeout after=30000ms", "ble.link restored after=41s"])
        elif dev.startswith("reader"):
            lvl, msg = "INFO ", "payment.auth approved amount=%.2f ms=%d" % (r.choice([2.9, 3.4, 3.85, 4.2, 6.1, 7.75, 12.4]), r.randint(600, 1900))
        elif dev.startswith("kds"):
            lvl, msg = "INFO ", "ticket.bump order=%d station=%s" % (r.randint(100, 999), r.choice(["bar", "kitchen"]))
        else:
            lvl, msg = "INFO ", r.choice(["sync.push ok items=%d ms=%d" % (r.randint(1, 30), r.randint(120, 900)),
                                          "heartbeat ok", "drawer.open reason=sale", "sale.close lines=%d" % r.randint(1, 6)])
        if i in (37, 88):
            lvl, msg = "ERROR", "sync.push failed http=503 retry_in=30s"
        lines.append("%s %s %-12s %s" % (ts, lvl, dev, msg))
    return "\n".join(lines)


def big_item_csv(r):
    items = [("sourdough loaf", 3.80), ("seeded spelt loaf", 4.20), ("almond croissant", 3.15), ("pain au chocolat", 2.90),
             ("cardamom knot", 2.70), ("sausage roll", 3.40), ("flat white", 2.80), ("brownie", 2.95)]
    rows = ["date,site,item,qty,net_gbp"]
    for dd in range(2, 9):
        for key, _ in SITES:
            for name, price in items:
                base = 40 if key == "fore_street" else 18
                q = max(3, int(r.gauss(base, base * 0.3)))
                if dd in (7, 8):
                    q = int(q * 1.4)
                rows.append("2026-11-%02d,%s,%s,%d,%.2f" % (dd, key, name, q, q * price / 1.2))
    return "\n".join(rows)


def big_catalogue(r):
    prods = [("SOR-XM-01", "marzipan block 1kg", 9.80), ("SOR-XM-02", "candied orange peel 1kg", 11.40),
             ("SOR-XM-03", "candied lemon peel 1kg", 11.10), ("SOR-XM-04", "mixed spice 500g", 6.25),
             ("SOR-XM-05", "glace cherries 1kg", 8.90), ("SOR-XM-06", "sultanas 5kg", 17.50),
             ("SOR-XM-07", "currants 5kg", 18.20), ("SOR-XM-08", "ground almonds 2kg", 19.60),
             ("SOR-XM-09", "flaked almonds 1kg", 12.30), ("SOR-XM-10", "dark rum essence 500ml", 7.40),
             ("SOR-XM-11", "vanilla bean paste 500g", 24.00), ("SOR-XM-12", "icing sugar 12.5kg", 14.75),
             ("SOR-XM-13", "fondant white 5kg", 21.90), ("SOR-XM-14", "edible gold lustre 10g", 5.60),
             ("SOR-XM-15", "cinnamon ground 500g", 6.80), ("SOR-XM-16", "nutmeg whole 250g", 9.10)]
    items = []
    for sku, name, price in prods:
        items.append({"sku": sku, "name": name, "unit_price_gbp": price, "case_qty": r.choice([1, 4, 6, 10]),
                      "in_stock": r.random() > 0.15, "lead_days": r.choice([2, 3, 5])})
    return J({"supplier": "Sorrento Foods", "catalogue": "seasonal-2026", "currency": "GBP", "items": items})


# ---------------------------------------------------------------------------
# Conversation 1 (Monday 2026-11-09 onwards): hand-written fact episodes
# ---------------------------------------------------------------------------

def ep_intro():
    return (
        U("Morning. Officially I'm Wilhelmina Achterberg and I own Wren & Rye, but nobody at either shop has used that mouthful in years, it's Mina to everyone, so use that too.", f="e-01")
        + A("Morning, Mina. Happy to help with both shops; what's first?")
        + U("Quick bit of context before we start: the main bakehouse is on Fore Street, the little second site is out at Corbridge, and my flat is in Hexham itself, four minutes from the ovens, which is why I'm the one who gets the 5am phone calls when the proofer trips.", f="e-02")
        + A("Noted: Fore Street is the main bakehouse and Corbridge the satellite. I'll keep the two apart whenever we look at numbers.")
    )


def ep_preference():
    return (
        U("Before you draft anything for me, one standing rule: I can't abide exclamation marks in anything that goes out under my name, so suppliers, the bank and customers all get plain full stops however cheerful the news is.", f="e-03")
        + A("Understood, full stops only in everything I write for you. I'll keep the tone warm without the shouting.")
    )


def ep_rota():
    out = "\n".join([
        "week_start,site,day,shift,staff",
        "2026-11-16,corbridge,sat,open 06:00-14:00,Dariusz",
        "2026-11-16,corbridge,sat,close 12:00-18:00,Keziah",
        "2026-11-16,corbridge,sun,open 07:00-15:00,Grace",
        "2026-11-16,fore_street,thu,close 13:00-19:00,Sunita",
        "2026-11-16,fore_street,fri,close 13:00-19:00,Sunita",
        "2026-11-16,fore_street,sat,close 13:00-19:00,Sunita",
        "2026-11-16,fore_street,sat,open 05:00-13:00,Tomasz",
        "2026-11-16,fore_street,sun,open 06:00-14:00,Ollie",
        "-- 9 rows (weekend and late shifts only)",
    ])
    return (
        U("For the rota, the fixed bits are that Dariusz opens Corbridge every Saturday because he lives round the corner, and Sunita does the Fore Street close Thursday to Saturday.", f="e-04")
        + T("Let me check next week's draft against that.", "rota", {"action": "show", "week": "2026-11-16", "filter": "weekend,late"}, out)
        + A("Next week already matches both. I'll treat them as fixed when I juggle anything else.")
    )


def ep_refit_code():
    return (
        U("Ewan at the accountants wants every invoice connected with the Corbridge refit tagged with project code CBR-RF-0326 so it lands on the capital side rather than in repairs.", f="e-05")
        + A("Will do. Anything refit-related I file or forward will carry that tag in the reference.")
    )


def ep_hosting():
    yaml = """\
        app: wrenandrye-shop
        provider: aws
        environments:
          production:
            region: eu-west-2
            instance_type: t3.small
            autoscaling: false
            domain: shop.wrenandrye.co.uk
          staging:
            region: eu-west-1
            instance_type: t3.micro
            autoscaling: false
            domain: staging.wrenandrye.co.uk
        backups:
          snapshot_region: eu-central-1
          schedule: "03:30 daily"
          retention_days: 14
        cdn:
          enabled: true
          price_class: PriceClass_100
        """
    inst = """\
        {"instances": [
          {"id": "i-0e9f27b4c1a6d8e53", "name": "shop-prod-web-2025", "state": "stopped", "type": "t3.small", "launched": "2025-04-11", "cpu_avg_24h": 0.0},
          {"id": "i-07d3b5a9e1c42f86b", "name": "shop-prod-web", "state": "running", "type": "t3.small", "launched": "2026-03-02", "cpu_avg_24h": 88.6},
          {"id": "i-0a61c8e2f9b7d4035", "name": "shop-staging", "state": "running", "type": "t3.micro", "launched": "2026-03-02", "cpu_avg_24h": 3.1}
        ],
        "count": 3}
        """
    return (
        U("The online shop felt sluggish last night when I tried a test order from my phone, can you have a look at what the hosting says?")
        + TM("Checking the deployment config and the instances together.", [
            ("hosting_cli", {"cmd": "config show --app wrenandrye-shop"}, yaml, "e-06"),
            ("hosting_cli", {"cmd": "instances list --app wrenandrye-shop --output json"}, inst, "e-07"),
        ])
        + A("The live box is averaging 88.6% CPU over the last day, which would explain the sluggishness. The old 2025 machine is stopped and staging is idle.")
        + U("Is it worth going up a size before Christmas?")
        + A("Yes, a t3.medium roughly doubles the headroom for about eighteen pounds a month more. I'd do it on a quiet evening with a snapshot first.")
        + U("Do it Sunday night after close then.")
        + A("Pencilled for Sunday after close, snapshot first, and I'll check the shop loads before I stop.")
    )


def ep_supplier_orders():
    csv = """\
        order_ref,placed,supplier,sku,description,qty,deliver_on,status
        GWM-SO-58571,2026-10-19,Greenwell Mill,T55-25,T55 flour 25kg,12,2026-11-16,confirmed
        HDY-204418,2026-11-02,Hadrian Dairy,BUT-UNS-10,unsalted butter 10kg,9,2026-11-11,confirmed
        TVE-6120,2026-11-03,Tyne Valley Eggs,EGG-FR-30,free-range eggs tray 30,20,2026-11-11,confirmed
        GWM-SO-58718,2026-10-22,Greenwell Mill,RYE-WM-16,wholemeal rye 16kg,6,2026-11-18,confirmed
        PKR-44102,2026-11-04,Packright,BOX-CK-8,kraft cake box 8in,2000,2026-11-12,dispatched
        KR-3391,2026-11-05,Kettle Roasters,COF-ESP-1,espresso blend 1kg,14,2026-11-12,confirmed
        GWM-SO-58640,2026-10-20,Greenwell Mill,SW-16,strong white 16kg,18,2026-11-23,confirmed
        HDY-204455,2026-11-05,Hadrian Dairy,CRM-DBL-5,double cream 5L,8,2026-11-18,pending
        SOR-1187,2026-11-01,Sorrento Foods,PIS-PASTE-1,pistachio paste 1kg,4,2026-11-25,pending
        GWM-SO-58871,2026-10-27,Greenwell Mill,SW-16,strong white 16kg,24,2026-12-14,confirmed
        TVE-6152,2026-11-06,Tyne Valley Eggs,EGG-FR-30,free-range eggs tray 30,24,2026-11-30,pending
        GWM-SO-58817,2026-10-28,Greenwell Mill,T55-25,T55 flour 25kg,40,2026-12-21,confirmed
        HDY-204471,2026-11-06,Hadrian Dairy,BUT-UNS-10,unsalted butter 10kg,12,2026-12-02,pending
        PKR-44190,2026-11-06,Packright,CUP-12OZ,12oz cups sleeve 50,40,2026-11-25,confirmed
        GWM-SO-57881,2026-09-30,Greenwell Mill,RYE-LT-16,light rye 16kg,8,2026-12-07,confirmed
        SOR-1201,2026-11-06,Sorrento Foods,CHO-DK-5,dark chocolate callets 5kg,10,2026-12-09,pending
        KR-3402,2026-11-07,Kettle Roasters,COF-DEC-1,decaf 1kg,3,2026-11-19,pending
        GWM-SO-58812,2026-10-28,Greenwell Mill,SPL-16,white spelt 16kg,10,2026-12-15,confirmed
        HDY-204480,2026-11-07,Hadrian Dairy,CRM-DBL-5,double cream 5L,16,2026-12-22,pending
        TVE-6177,2026-11-07,Tyne Valley Eggs,EGG-FR-30,free-range eggs tray 30,30,2026-12-22,pending
        """
    return (
        U("Pull my open orders from the supplier portal, I want to be sure the Christmas flour is actually in there.")
        + T("Fetching everything open or scheduled.", "supplier_portal", {"action": "orders", "status": "open,scheduled", "format": "csv"}, csv, f="e-08")
        + U("Good, the one that matters is the forty sacks of T55 landing on the 21st, everything else I can juggle.")
        + A("That one's confirmed with Greenwell Mill for 21 December. I'll keep an eye on it and tell you the moment its status changes.")
    )


def ep_till_log(r):
    return (
        U("Grace says the card reader at Corbridge keeps dropping out, can you see anything in the till log from this morning?")
        + T("Pulling this morning's device log from the till system.", "pos_export", {"report": "device_log", "from": "2026-11-09T05:40:00Z", "sites": "all"}, big_till_log(r))
        + A("It's only reader-cb-02: repeated Bluetooth drops at -88 to -91 dBm and two payment timeouts, while the Fore Street reader is clean. The two sync 503s are unrelated and recovered on their own.")
    )


def ep_ticket():
    kv = """\
        status=created
        case_ref=TW-310552
        queue=hardware
        priority=P2
        site=corbridge
        device=reader-cb-02
        sla_first_response=4h
        linked_previous=TW-298140 (closed 2026-09-30)
        engineer_dispatch=pending_triage
        """
    return (
        U("Right, raise it with Tillwise then, Grace is on cash only and we're losing sales.")
        + T("Raising a hardware case with Tillwise.", "pos_support", {"vendor": "tillwise", "site": "corbridge", "device": "reader-cb-02", "summary": "Card reader dropping Bluetooth link, 2 payment timeouts since opening"}, kv, f="e-09")
        + A("Opened at P2 with a four-hour first response target. I linked the September one in case it's the same fault coming back.")
    )


def ep_oven_booking():
    yaml = """\
        booking:
          ref: RCE-BK-44190
          status: confirmed
          site: Fore Street
          equipment: Tagliavini deck oven (deck 3)
          engineer: M. Kovac
          visit_date: 2026-12-08
          window: "07:00-11:00"
          parts:
            - heating element 4.2kW, ordered
          callout_fee_gbp: 95.00
        previous_visits:
          - 2026-06-17
          - 2025-12-02
        """
    return (
        U("Deck three on the Fore Street oven is taking forty minutes to recover heat between batches, the element's on its way out, so book Rowan's for the first slot they have.")
        + T("Booking through Rowan Catering Engineers' portal.", "service_portal", {"provider": "rowan-catering", "equipment": "deck oven", "fault": "deck 3 slow heat recovery, suspected element"}, yaml, f="e-10")
        + A("Booked with Kovac, first thing on the Tuesday, and they've ordered the element ahead so he can fit it on the day.")
    )


def ep_loan():
    kv = """\
        application_ref=NBL-7734-2291
        product=business_term_loan
        amount=41250.00
        term_months=60
        rate_type=fixed
        status=conditional_offer
        conditions=personal_guarantee_signed;two_equipment_quotes
        decision_date=2026-11-06
        offer_expires=2026-12-04
        relationship_manager=Harriet Quayle
        """
    return (
        U("Letter from the bank about the oven-and-refit loan: they're offering the 41,250 over five years at 6.35% fixed, subject to a personal guarantee and two equipment quotes.", f="e-11")
        + A("That's competitive for an unsecured business loan. Shall I work out what it costs you each month?")
        + U("Sorry, I misread the letter: the interest is 6.85%, not 6.35%, the lower one only applied if we'd secured it against the house, and I'm not doing that.", f="e-12")
        + A("At 6.85% on 41,250 over sixty months the repayment comes to £813.88 a month, about ten pounds more than the house-backed version would have been.", f="e-13")
        + U("Fine. Log into the bank portal and tell me where the application's got to.")
        + T("Checking the application on the bank's portal.", "bank_portal", {"action": "application_status"}, kv, f="e-14")
        + A("It's at conditional offer: they need your signed guarantee and two equipment quotes before 4 December. Harriet Quayle is the manager handling it.")
    )


def ep_butter():
    js = """\
        {"item": "unsalted butter 10kg", "unit": "kg", "weeks": [
          {"week_start": "2026-10-12", "fore_street": 58.0, "corbridge": 24.5},
          {"week_start": "2026-10-19", "fore_street": 61.5, "corbridge": 26.0},
          {"week_start": "2026-10-26", "fore_street": 57.0, "corbridge": 25.5},
          {"week_start": "2026-11-02", "fore_street": 60.5, "corbridge": 25.0}
        ]}
        """
    return (
        U("How much butter are we getting through a week across both sites? I want to know if Hadrian's bulk tier is worth it.")
        + T("Pulling the last four weeks of butter usage.", "inventory_query", {"sku": "BUT-UNS-10", "metric": "usage_kg", "weeks": 4, "group_by": "site"}, js)
        + A("Averaged over the last four weeks you're using about 48.5 kg a week across both sites.", f="e-15")
        + U("That can't be right, we do more croissants than that in a weekend.")
        + A("You're right to doubt it, I swapped the digits: it's 84.5 kg a week, not 48.5, which clears Hadrian's 60 kg bulk threshold comfortably.", f="e-16")
        + U("Then switch us to the bulk tier from the next order.")
        + A("I'll note the switch on the next Hadrian order and ask them to confirm the new price.")
    )


def ep_takings():
    kv = """\
        site=fore_street date=2026-11-02 gross=2998.40 net_sales=2531.06 transactions=402 refunds=2
        site=corbridge date=2026-11-02 gross=1204.10 net_sales=1011.87 transactions=188 refunds=0
        site=fore_street date=2026-11-03 gross=2871.55 net_sales=2419.20 transactions=391 refunds=1
        site=corbridge date=2026-11-03 gross=1150.30 net_sales=968.44 transactions=176 refunds=0
        site=fore_street date=2026-11-04 gross=3012.90 net_sales=2540.18 transactions=409 refunds=0
        site=corbridge date=2026-11-04 gross=1233.65 net_sales=1040.52 transactions=191 refunds=1
        site=fore_street date=2026-11-05 gross=3106.20 net_sales=2617.75 transactions=417 refunds=3
        site=corbridge date=2026-11-05 gross=1298.00 net_sales=1092.61 transactions=199 refunds=0
        site=fore_street date=2026-11-06 gross=3544.85 net_sales=2986.30 transactions=462 refunds=1
        site=corbridge date=2026-11-06 gross=1417.25 net_sales=1194.02 transactions=214 refunds=0
        site=fore_street date=2026-11-07 gross=4662.10 net_sales=3926.45 transactions=598 refunds=2
        site=corbridge date=2026-11-07 gross=1623.40 net_sales=1367.95 transactions=240 refunds=1
        site=fore_street date=2026-11-08 gross=3980.60 net_sales=3354.12 transactions=521 refunds=0
        site=corbridge date=2026-11-08 gross=1539.75 net_sales=1297.73 transactions=229 refunds=0
        """
    return (
        U("What did Fore Street take on Saturday? I think the fair in the Abbey Grounds helped a lot.")
        + T("Pulling the daily summary for both sites for last week.", "pos_export", {"report": "daily_summary", "from": "2026-11-02", "to": "2026-11-08", "format": "kv"}, kv, f="e-17")
        + A("Saturday was Fore Street's best day of the week by a distance, about a third up on the Saturday before. Corbridge barely noticed the fair.")
    )


def ep_bestsellers():
    tab = """\
        item              | units | net
        ------------------+-------+---------
        flat white        | 2,903 | 6,774.33
        cardamom knot     | 1,284 | 2,889.00
        sourdough loaf    | 1,166 | 3,692.33
        almond croissant  |   948 | 2,488.50
        pain au chocolat  |   911 | 2,201.58
        oat latte         |   874 | 2,258.17
        seeded spelt loaf |   602 | 2,107.00
        brownie           |   577 | 1,418.46
        sausage roll      |   540 | 1,530.00
        cheese scone      |   319 |   731.04
        (10 rows)
        """
    return (
        U("Which bakes sold best at Corbridge in October? I'm deciding what to drop when the Christmas range goes in.")
        + T("Querying the till database.", "run_sql", {"db": "pos", "query": "SELECT item, SUM(qty) AS units, SUM(net) AS net FROM sales WHERE site = 'corbridge' AND sold_at >= '2026-10-01' AND sold_at < '2026-11-01' GROUP BY item ORDER BY units DESC LIMIT 10"}, tab, f="e-18")
        + A("Coffee aside, the cardamom knot is your top bake there, comfortably ahead of the sourdough. The cheese scone is the obvious one to drop.")
    )


def ep_item_export(r):
    return (
        U("Ewan wants last week's item-level sales for both shops as a CSV, can you export it and send it over?")
        + T("Exporting item-level sales for 2 to 8 November.", "pos_export", {"report": "item_sales", "from": "2026-11-02", "to": "2026-11-08", "format": "csv"}, big_item_csv(r))
        + T("Exported, 112 rows. Sending it to Ewan with a short note.", "send_email", {"to": "ewan.mcbride@tynebooks.co.uk", "subject": "Item sales 2-8 November", "attachments": ["item_sales_2026-11-02_08.csv"]},
            J({"status": "sent", "to": "ewan.mcbride@tynebooks.co.uk", "subject": "Item sales 2-8 November", "attachments": 1, "queued_at": "2026-11-11T09:12:40Z"}))
        + A("Sent to Ewan with the CSV attached.")
    )


def ep_pest():
    yaml = """\
        site: fore_street
        fsa_rating: 5
        last_inspection: 2025-02-18
        temperature_checks:
          fridges_logged_7d: 42
          out_of_range: 1
          last_out_of_range: "2026-11-04 walk-in-2 8.9C, product moved"
        probe_calibration:
          last: 2026-08-21
          due: 2027-02-21
        pest_control:
          contractor: Tyne Valley Pest Services
          last_visit: 2026-09-03
          next_visit: 2026-12-03
          findings: none
        cleaning_schedule:
          deep_clean_due: 2026-11-29
        training:
          level2_certificates_expiring_90d: 1
        """
    return (
        U("The EHO is due some time in the new year, so show me where we are on the food safety records for Fore Street.")
        + T("Pulling the HACCP summary.", "haccp_records", {"site": "fore_street", "section": "summary"}, yaml, f="e-19")
        + A("You're in decent shape: one fridge excursion last week, logged with the action taken, and the probe is calibrated until February. One Level 2 certificate runs out within ninety days.")
    )


def ep_interview():
    js = """\
        {"free_slots": [
          {"start": "2026-11-10T15:00", "end": "2026-11-10T16:00"},
          {"start": "2026-11-12T09:30", "end": "2026-11-12T10:30"},
          {"start": "2026-11-19T14:00", "end": "2026-11-19T16:30"},
          {"start": "2026-11-20T07:00", "end": "2026-11-20T08:00"},
          {"start": "2026-11-24T10:00", "end": "2026-11-24T11:30"}
        ], "timezone": "Europe/London"}
        """
    return (
        U("The Tynedale Courier wants to run a piece on small food businesses, and the reporter, Priyanka Dunmore, has asked for an hour with me plus some photos of the bakehouse sometime this week or next.", f="e-20")
        + T("Checking your calendar for a free hour with daylight for photos.", "calendar", {"action": "free_slots", "from": "2026-11-10", "to": "2026-11-27", "min_minutes": 60}, js)
        + A("You're free Thursday 19 November from two, so I've pencilled Priyanka in for 14:30 at Fore Street while the light's still good and sent her an invite.", f="e-21")
        + U("Perfect, she'll want the cardamom knots in the photos.")
        + A("I'll ask Sunita to hold a tray back for half two that day.")
    )


def ep_discount():
    js = """\
        {
          "discount": {
            "code": "FESTIVE12",
            "type": "percentage",
            "value": 12,
            "applies_to": "collection",
            "starts_at": "2026-11-10T00:00:00Z",
            "ends_at": "2026-12-18T23:59:59Z",
            "status": "active"
          }
        }
        """
    return (
        U("For the website I'd like a Christmas code, FESTIVE12, giving twelve percent off anything ordered for collection before the 18th, could you set that up on the shop?", f="e-22")
        + T("Creating the discount in the shop admin.", "shop_admin", {"action": "create_discount", "code": "FESTIVE12", "percent": 12, "applies_to": "collection", "ends": "2026-12-18"}, js)
        + A("It's active now and switches itself off at midnight on the 18th.")
    )


def ep_inbox_refit():
    js = """\
        {"unread": 3, "messages": [
          {"from": "deliveries@packright.co.uk", "received": "2026-11-10T16:04:52Z", "subject": "Dispatch note 44102",
           "body": "Your 2,000 kraft cake boxes have left our depot and will arrive Thursday."},
          {"from": "ewan.mcbride@tynebooks.co.uk", "received": "2026-11-11T08:31:08Z", "subject": "Refit coding",
           "body": "Hi Mina, small change on our side: we've moved to one code per capital project this year, so please tag the Corbridge refit invoices WRY-CAP-2611 rather than CBR-RF-0326 from now on. Anything already sent under the old one we'll recode ourselves. Ewan"},
          {"from": "noreply@tynedalecourier.co.uk", "received": "2026-11-11T09:02:40Z", "subject": "Interview confirmation",
           "body": "Your invitation for next Thursday at 14:30 has been accepted."}
        ]}
        """
    return (
        U("Anything in my inbox I need to deal with before the lunch rush?")
        + T("Checking unread mail.", "read_inbox", {"folder": "INBOX", "unread_only": True, "limit": 3}, js, f="e-23")
        + A("Two worth your time: Packright's boxes land Thursday, and Ewan has changed how he wants the refit coded, which I'll follow from now on. The Courier has accepted the interview too.")
    )


def ep_oven_moved():
    js = """\
        {"messages": [
          {"from": "bookings@rowan-catering.co.uk", "received": "2026-11-11T10:02:11Z", "subject": "Booking RCE-BK-44190 update",
           "body": "Due to engineer availability your visit has been moved to 2026-12-11. Arrival window 07:00-11:00 is unchanged. Reply to this email if the new date does not suit."}
        ]}
        """
    return (
        U("Has Rowan's been in touch about the oven at all?")
        + T("Looking for anything from Rowan.", "read_inbox", {"from": "rowan-catering.co.uk", "limit": 1}, js, f="e-24")
        + A("They have: the visit has slipped to Friday the 11th, same morning window. No action needed unless that clashes with something.")
        + U("No, that's fine, leave it.")
        + A("Left as is.")
    )


def ep_new_opener():
    kv = """\
        template=weekly_default
        site=corbridge
        day=sat
        shift=open 06:00-14:00
        staff=Leonie
        effective_from=2026-11-16
        updated_by=assistant
        """
    return (
        U("Rota news for next week onwards: Leonie's got the Saturday 6am opening at Corbridge, it fits round her college timetable and she already has keys, so update the template.", f="e-25")
        + T("Updating the rota template.", "rota", {"action": "set_default", "site": "corbridge", "day": "sat", "shift": "open"}, kv)
        + A("Template updated from the week of the 16th.")
    )


def ep_discount_rename():
    js = """\
        {
          "discount": {
            "code": "LOAFTIDE",
            "renamed_from": "FESTIVE12",
            "value": 12,
            "ends_at": "2026-12-18T23:59:59Z",
            "status": "active"
          }
        }
        """
    return (
        U("Ugh, FESTIVE12 reads like a pharmacy promo now that I see it on the banner. Go with LOAFTIDE instead, same twelve percent, same end date.", f="e-26")
        + T("Swapping it.", "shop_admin", {"action": "rename_discount", "from": "FESTIVE12", "to": "LOAFTIDE"}, js)
        + A("Swapped; the old one no longer works at checkout and the banner shows the new one.")
    )


def ep_oven_again():
    kv = """\
        calendar=shared
        event=Rowan - deck oven element (deck 3)
        old_start=2026-12-11T07:00
        new_start=2026-12-16T07:00
        new_end=2026-12-16T11:00
        attendees=Tomasz;Sunita
        status=updated
        """
    return (
        U("Kovac rang from his van, the element's still on backorder so he can't make the 11th after all, put him down for Wednesday 16 December instead, same early window.", f="e-27")
        + T("Moving the calendar entry.", "calendar", {"action": "move", "event": "Rowan - deck oven element (deck 3)", "to": "2026-12-16T07:00"}, kv)
        + A("Moved, and Tomasz and Sunita have the update. I'll drop Rowan a line so their booking matches.")
    )


def ep_wrap1():
    return (
        U("That's me done for today, I've got a tasting at four.")
        + A("Enjoy the tasting. Everything from today is logged and I'll pick up from here next time.")
    )


def ep_new_day(which):
    if which == "tue":
        return (U("Morning again, I'm in early for the bake so let's carry on from yesterday.")
                + A("Morning. Yesterday's loose ends are logged; the oven booking and the bank are both waiting on other people."))
    return (U("Wednesday, and I've already burnt one tray of knots, so be gentle with me.")
            + A("Noted. Let's start with the easy things."))


def conv1(rng):
    ctx = {"today": datetime.date(2026, 11, 9)}
    pool = Pool(fillers(ctx), random.Random(SEED + 1))
    F = pool.take
    eps = []
    eps += [ep_intro()]
    eps += F(2)
    eps += [ep_preference()]
    eps += F(4)
    eps += [ep_rota()]
    eps += F(2)
    eps += [ep_refit_code()]
    eps += F(3)
    eps += [ep_hosting()]
    eps += F(3)
    eps += [ep_supplier_orders()]
    eps += F(2)
    eps += [ep_till_log(rng), ep_ticket()]
    eps += F(2)
    eps += [ep_oven_booking()]
    eps += F(2)
    eps += [ep_loan()]
    eps += F(2)
    ctx["today"] = datetime.date(2026, 11, 10)
    eps += [ep_new_day("tue")]
    eps += F(1)
    eps += [ep_butter()]
    eps += F(2)
    eps += [ep_takings()]
    eps += F(2)
    eps += [ep_bestsellers()]
    eps += F(2)
    eps += [ep_pest()]
    eps += F(3)
    eps += [ep_interview()]
    eps += F(2)
    eps += [ep_discount()]
    eps += F(2)
    ctx["today"] = datetime.date(2026, 11, 11)
    eps += [ep_new_day("wed")]
    eps += [ep_item_export(rng)]
    eps += F(2)
    eps += [ep_inbox_refit()]
    eps += F(3)
    eps += [ep_oven_moved()]
    eps += F(3)
    eps += [ep_new_opener()]
    eps += F(3)
    eps += [ep_discount_rename()]
    eps += F(4)
    eps += [ep_oven_again()]
    eps += F(3)
    eps += [ep_wrap1()]
    return eps


# ---------------------------------------------------------------------------
# Conversation 2 (Thursday 2026-11-26): a later, separate session
# ---------------------------------------------------------------------------

def c2_preorders():
    js = """\
        {"orders": [
          {"id": "WR-20388", "placed": "2026-11-23", "customer": "J. Pattinson", "items": "stollen x2", "collect": "2026-12-23", "site": "fore_street", "total": 31.00},
          {"id": "WR-20402", "placed": "2026-11-24", "customer": "M. Dodd", "items": "sourdough x3, cardamom knots x12", "collect": "2026-12-24", "site": "corbridge", "total": 44.70},
          {"id": "WR-20417", "placed": "2026-11-25", "customer": "Bell Harrop Solicitors", "items": "mince pies x144", "collect": "2026-12-17", "site": "fore_street", "total": 259.20},
          {"id": "WR-20419", "placed": "2026-11-25", "customer": "C. Elliott", "items": "yule log 8in", "collect": "2026-12-24", "site": "fore_street", "total": 32.00},
          {"id": "WR-20431", "placed": "2026-11-26", "customer": "The Old Forge Cafe", "items": "mince pies x48", "collect": "2026-12-18", "site": "corbridge", "total": 86.40}
        ], "count": 5}
        """
    return (
        U("Morning, back again. Christmas planning day, so let's start with the online pre-orders that came in since Monday.")
        + T("Pulling new pre-orders.", "shop_admin", {"action": "orders", "since": "2026-11-23", "type": "preorder"}, js, f="e-28")
        + A("Five since Monday. The big one is Bell Harrop Solicitors, twelve dozen mince pies to collect from Fore Street on the 17th.")
        + U("Twelve dozen. Right, that needs its own bake slot.")
        + A("I'll block the afternoon of the 15th on the bake sheet for it.")
    )


def c2_market():
    form = """\
        request=electric_hookup
        event=abbey_grounds_christmas_market
        supply=16A single phase
        dates=2026-12-05,2026-12-06,2026-12-12,2026-12-13
        fee_gbp=48.00
        status=submitted
        confirmation=EHU-8812
        """
    return (
        U("The Abbey Grounds Christmas market confirmed us for both weekends, and our pitch reference is AGM-P31, which I have to quote when I book the electric hook-up and again on the insurance form.", f="e-29")
        + A("Noted. Do you want the hook-up booked now?")
        + U("Yes, 16 amp for all four days.")
        + T("Submitting the hook-up request.", "web_form", {"url": "https://abbeygroundsmarket.example/traders/hookup", "supply": "16A", "days": 4}, form)
        + A("Submitted for all four days, 48 pounds, and they'll confirm by email.")
    )


def c2_catalogue(r):
    kv = """\
        order_ref=SOR-1266
        supplier=Sorrento Foods
        lines=SOR-XM-01 x6; SOR-XM-02 x4
        total_gbp=104.40
        deliver_on=2026-12-01
        status=confirmed
        """
    return (
        U("Get me Sorrento's seasonal catalogue, I want to see what they charge for marzipan and candied peel this year.")
        + T("Fetching the seasonal catalogue.", "supplier_portal", {"action": "catalogue", "supplier": "sorrento", "season": "2026"}, big_catalogue(r))
        + A("Marzipan is 9.80 a kilo and candied orange peel 11.40, both in stock with short lead times. Lemon peel is a touch cheaper than orange.")
        + U("Order six marzipan and four orange peel.")
        + T("Placing the order.", "supplier_portal", {"action": "order", "lines": [["SOR-XM-01", 6], ["SOR-XM-02", 4]]}, kv)
        + A("Ordered, arriving on 1 December.")
    )


def c2_bank_note():
    js = J({"status": "sent", "to": "harriet.quayle@northbank.example", "subject": "Signed guarantee",
            "attachments": ["guarantee_signed.pdf"], "queued_at": "2026-11-26T10:41:19Z"})
    return (
        U("The bank needs the signed guarantee back this week. Draft a short cover note to Harriet and attach the scan, she knows which application it is.")
        + A("Draft: \"Dear Harriet, please find attached the signed personal guarantee. The two equipment quotes will follow by Monday. Kind regards, Wren & Rye.\" Send it?")
        + U("Send it.")
        + T("Sending to Harriet.", "send_email", {"to": "harriet.quayle@northbank.example", "subject": "Signed guarantee", "attachments": ["guarantee_signed.pdf"]}, js)
        + A("Sent with the scan attached.")
    )


def c2_christmas_rota():
    csv = """\
        date,site,shift,staff
        2026-12-24,fore_street,open 05:00-13:00,Tomasz
        2026-12-24,fore_street,close 11:00-15:00,Sunita
        2026-12-24,corbridge,open 07:00-14:00,Grace
        2026-12-23,fore_street,close 13:00-19:00,Freya
        2026-12-23,corbridge,close 12:00-18:00,Keziah
        -- 5 rows
        """
    return (
        U("Sunita wants Christmas Eve off after all; can Tomasz do the Fore Street close that day as well as the open?")
        + T("Checking Christmas week.", "rota", {"action": "show", "from": "2026-12-23", "to": "2026-12-24"}, csv)
        + A("That would be a ten-hour day for Tomasz. Freya is free on the 24th, so I'd give her the close instead.")
        + U("Yes, do that.")
        + A("Done, Freya has the Christmas Eve close and Sunita is off.")
    )


def c2_refit_invoice():
    js = J({"status": "sent", "to": "ewan.mcbride@tynebooks.co.uk", "subject": "Fwd: Invoice 0457-E, Corbridge electrics",
            "attachments": ["invoice_corbridge_electrics.pdf"], "queued_at": "2026-11-26T11:20:05Z"})
    return (
        U("The electrician's invoice for the Corbridge rewiring came in this morning; forward it to Ewan and tell him to code it his end.")
        + T("Forwarding it to Ewan.", "send_email", {"to": "ewan.mcbride@tynebooks.co.uk", "subject": "Fwd: Invoice 0457-E, Corbridge electrics", "forward_of": "msg-electrics-invoice"}, js)
        + A("Forwarded, with a line asking him to code it himself.")
    )


def c2_wrap():
    return (
        U("That'll do for today, thanks.")
        + A("Good session. The pre-orders, market hook-up, Sorrento order, the note to Harriet and the invoice to Ewan are all done.")
    )


def conv2(rng):
    pool = Pool(fillers({"today": datetime.date(2026, 11, 26)}), random.Random(SEED + 2))
    F = pool.take
    eps = []
    eps += [c2_preorders()]
    eps += F(2)
    eps += [c2_market()]
    eps += F(2)
    eps += [c2_catalogue(rng)]
    eps += F(2)
    eps += [c2_bank_note()]
    eps += F(2)
    eps += [c2_christmas_rota()]
    eps += F(1)
    eps += [c2_refit_invoice()]
    eps += F(1)
    eps += [c2_wrap()]
    return eps


# ---------------------------------------------------------------------------
# Fact table
# ---------------------------------------------------------------------------

FACTS = [
    dict(id="e-01", kind="name", value="Mina", ask_in="conv-2",
         lexical="Which name does everyone at the shop use for me?",
         para="What would I like to be called?"),
    dict(id="e-02", kind="place", value="Hexham", ask_in="conv-2",
         lexical="Which town is my flat in?",
         para="Where do I live?"),
    dict(id="e-03", kind="preference", value="exclamation marks", ask_in="conv-2",
         lexical="What did I say I can't abide in anything that goes out under my name?",
         para="Is there a punctuation habit I dislike in my outgoing messages?"),
    dict(id="e-04", kind="name", value="Dariusz", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-05", kind="code", value="CBR-RF-0326", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-06", kind="region", value="eu-west-2", ask_in="conv-1",
         lexical="Which region is the production shop deployed in?",
         para="Where geographically does Amazon host our live web store?"),
    dict(id="e-07", kind="id", value="i-07d3b5a9e1c42f86b", ask_in="conv-2",
         lexical="What's the instance id of the running shop-prod-web box?",
         para="Which server is actually taking customers' online orders right now?"),
    dict(id="e-08", kind="id", value="GWM-SO-58817", ask_in="conv-2",
         lexical="What's the order ref for the T55 flour due on 2026-12-21?",
         para="What's the PO for the big pre-Christmas sack drop?"),
    dict(id="e-09", kind="id", value="TW-310552", ask_in="conv-1",
         lexical="What case ref did we get for the Corbridge card reader?",
         para="What number did the till company give my complaint about the payment terminal?"),
    dict(id="e-10", kind="date", value="2026-12-08", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-11", kind="number", value="6.35%", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-12", kind="number", value="6.85%", ask_in="conv-1", corrects="e-11",
         lexical="What interest rate is actually on the letter?",
         para="What yearly percentage is the bank charging us to borrow?"),
    dict(id="e-13", kind="number", value="£813.88", ask_in="conv-1",
         lexical="What's the monthly repayment on the loan?",
         para="What will each instalment on the borrowing be?"),
    dict(id="e-14", kind="id", value="NBL-7734-2291", ask_in="conv-2",
         lexical="What's the application ref for the loan on the bank portal?",
         para="What reference should I give when I ring the lender about the borrowing?"),
    dict(id="e-15", kind="number", value="48.5 kg", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-16", kind="number", value="84.5 kg", ask_in="conv-1", corrects="e-15",
         lexical="How many kilos a week are we really using, against Hadrian's bulk threshold?",
         para="How much butter do both shops go through in seven days?"),
    dict(id="e-17", kind="number", value="3926.45", ask_in="conv-1",
         lexical="What were Fore Street's net sales on the 7th?",
         para="Excluding VAT, how much did the main bakehouse ring up last Saturday?"),
    dict(id="e-18", kind="number", value="1,284", ask_in="conv-1",
         lexical="How many units of cardamom knot did that October query show for Corbridge?",
         para="How many of the spiced Scandinavian twists did the smaller branch shift last month?"),
    dict(id="e-19", kind="date", value="2026-12-03", ask_in="conv-1",
         lexical="When is the next pest control visit at Fore Street?",
         para="When do the exterminators return to the main bakehouse?"),
    dict(id="e-20", kind="name", value="Priyanka Dunmore", ask_in="conv-2",
         lexical="Which reporter from the Courier asked for an hour with me?",
         para="Who's the journalist writing the newspaper feature about us?"),
    dict(id="e-21", kind="date", value="19 November", ask_in="conv-1",
         lexical="What date is the Courier slot pencilled in for?",
         para="When am I sitting down with the newspaper?"),
    dict(id="e-22", kind="code", value="FESTIVE12", ask_in="conv-1", lexical=None, para=None),
    dict(id="e-23", kind="code", value="WRY-CAP-2611", ask_in="conv-2", corrects="e-05",
         lexical="Which project code does Ewan want on the refit invoices now?",
         para="What label goes on the builders' bills for the second shop's makeover?"),
    dict(id="e-24", kind="date", value="2026-12-11", ask_in="conv-1", corrects="e-10", lexical=None, para=None),
    dict(id="e-25", kind="name", value="Leonie", ask_in="conv-2", corrects="e-04",
         lexical="Who has the Saturday opening at Corbridge now?",
         para="Who unlocks the smaller branch at dawn at the weekend?"),
    dict(id="e-26", kind="code", value="LOAFTIDE", ask_in="conv-1", corrects="e-22",
         lexical="What's the promo code on the banner now?",
         para="What do online customers type at checkout for the holiday money-off?"),
    dict(id="e-27", kind="date", value="Wednesday 16 December", ask_in="conv-2", corrects="e-24",
         lexical="Which day is Kovac down for now?",
         para="When does the oven guy come back?"),
    dict(id="e-28", kind="id", value="WR-20417", ask_in="conv-2",
         lexical="What's the order id for the solicitors' mince pies?",
         para="Which purchase number is the law firm's big festive pastry job?"),
    dict(id="e-29", kind="id", value="AGM-P31", ask_in="conv-2",
         lexical="What pitch reference did the Abbey Grounds market give us?",
         para="Which stall ID do I need for power and cover at the festive fair?"),
]

NOTE = (
    "Set E follows the owner of Wren & Rye, a two-site bakery-cafe (a main bakehouse and a smaller satellite shop), "
    "through one long working session with her assistant agent and a later Christmas-planning session. The work is "
    "ordinary small-business admin: supplier orders, the staff rota, till exports and a till log, the online shop and "
    "its hosting, food-safety records, an oven repair, a bank loan and a newspaper interview, with filler drawn from "
    "stock checks, fridge logs, cash-ups, review replies and emails. It leans on what is hard: seven corrections said "
    "in seven different ways (a sheepish 'I misread the letter', an assistant owning up to swapped digits, an accountant's "
    "email, a supplier's rescheduling email with no correction word, a rota change that never mentions who it replaces, "
    "a 'go with X instead' rename, and a phone call that moves an already-moved date again); ten facts stated in the "
    "first session and asked only in the second, three of them corrected first; values buried in tool output beside "
    "look-alikes of the same shape (one order ref among twenty, one day's takings among fourteen, one instance among "
    "three, one date among several); and paraphrased questions that avoid every content word of the stating turn."
)


def build():
    rng = random.Random(SEED)
    convs = [("conv-1", conv1(rng)), ("conv-2", conv2(rng))]
    return make_set("set-e", NOTE, USER, convs, FACTS, SEED)
