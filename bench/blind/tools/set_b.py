"""Set B: personal assistant for a freelance motion designer / illustrator.

Travel planning (a workshop in Porto), invoices, taxes, email and calendar.
Fact episodes are hand-written; filler comes from randomised generators.
"""
import random

from build_lib import A, J, Pool, T, TM, U, d, make_set, pick, shift_dates

NOTE = (
    "Domain: a personal-assistant agent (email, calendar, flights, hotels, bank export, invoices, "
    "spreadsheets) for a freelance motion designer and illustrator. conv-1 (2026-11-12) is a long "
    "admin day: email triage, a Porto workshop trip, quotes and invoices, tax payments, a new pen "
    "display order, her portfolio server, receipts, small talk. conv-2 (2026-12-02) is a shorter later "
    "session with a new client and a London trip. Facts sit in chatty user asides, in assistant "
    "calculations/recommendations, and in tool outputs (flight-booking JSON, order JSON, droplet JSON, "
    "render-job YAML, key=value invoice output, a markdown tax table, an email whose body moves a date). "
    "Three values are corrected later (workshop start date via an organiser email, day rate, trip "
    "budget). One long output is a 110-line bank CSV. Turn indices are 0-based. Written blind, without "
    "reading the library."
)

CLIENTS = ["Halden Studio", "Norrland Coffee", "Pip & Thistle Books", "Gaffer Audio", "Kestrel Outdoor", "the Wellcome zine collective"]


def rs(r, n, alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789"):
    return "".join(r.choice(alphabet) for _ in range(n))


# ---------------------------------------------------------------- filler
def g_email_triage(r, k):
    senders = [("Norrland Coffee <hej@norrlandcoffee.se>", "Re: label animation — round 2 notes"),
               ("Substack <no-reply@substack.com>", "New post from Motion Mondays"),
               ("Figma <billing@figma.com>", "Your receipt for Figma Professional"),
               ("Pip & Thistle Books <ellie@pipandthistle.co.uk>", "Cover sketches — can we see a third option?"),
               ("LinkedIn <messages-noreply@linkedin.com>", "You appeared in 14 searches this week"),
               ("Gaffer Audio <studio@gaffer.audio>", "Invoice query"),
               ("Royal Mail <no-reply@royalmail.com>", "Your parcel is on its way"),
               ("Kestrel Outdoor <marketing@kestreloutdoor.com>", "Spring campaign — are you free in Feb?"),
               ("Behance <team@behance.net>", "Your project was featured in Illustration"),
               ("Mum <grace.okafor@btinternet.com>", "Sunday lunch?")]
    picks = r.sample(senders, 7)
    items = [{"id": "msg_%s" % rs(r, 10, "abcdef0123456789"), "from": s, "subject": sub,
              "received": "2026-11-12T%02d:%02d:00Z" % (r.randint(6, 9), r.randint(0, 59)), "unread": True}
             for s, sub in picks]
    ep = U(pick(r, "b.triage_ask", ["What's in the inbox that actually needs me?", "Triage my unread mail please, I'm drowning.",
                                    "Anything in email I need to answer today?", "Inbox check again? I've been ignoring it all afternoon."]))
    ep += T("Fetching unread messages.", "search_email", {"query": "is:unread newer_than:2d", "limit": 7}, J(items))
    need = [s.split(" <")[0] for s, sub in picks if any(w in sub for w in ["notes", "third", "query", "free in Feb", "lunch"])]
    ep += A("Of the seven, the ones that need you: %s. The rest are receipts and notifications I can archive." % (
        ", ".join(need) if need else "none really"))
    u, a = pick(r, "b.triage_reply", [("Archive the noise, star the rest.", "Done — noise archived, client threads starred."),
                                       ("Archive the junk. I'll answer the clients after lunch.", "Archived. The client threads are at the top for after lunch."),
                                       ("Leave it all, I'll skim it on my phone later.", "Okay, leaving everything as it is."),
                                       ("Mark the newsletters read and leave the rest.", "Newsletters marked as read; everything else untouched.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_calendar(r, k):
    evs = [("09:30", "10:00", "Norrland Coffee — feedback call"), ("11:00", "12:30", "Deep work: Pip & Thistle cover"),
           ("13:00", "13:45", "Gym"), ("14:00", "15:00", "Gaffer Audio — kick-off (Zoom)"), ("16:00", "16:30", "Call with Mum"),
           ("15:30", "16:15", "Portfolio review with Sam"), ("10:00", "11:00", "Dentist (moved?)")]
    day = pick(r, "b.calday", ["Mon 16 Nov", "Tue 17 Nov", "Wed 18 Nov", "Fri 20 Nov"])
    chosen = sorted(r.sample(evs, 5))
    lines = ["%s" % day] + ["  %s–%s  %s" % e for e in chosen]
    ep = U("What does %s look like?" % day.split(" ", 1)[0].replace("Mon", "Monday").replace("Tue", "Tuesday").replace("Wed", "Wednesday").replace("Fri", "Friday"))
    ep += T("Checking the calendar.", "calendar_list", {"date": day}, "\n".join(lines))
    clash = any(a[1] > b[0] for a, b in zip(chosen, chosen[1:]))
    if clash:
        ep += A("Busy, and two of those overlap. Want me to move the later one by half an hour?")
        ep += U("Yes, move it and let them know.")
        ep += A("Moved, with a short note to the other attendee.")
    else:
        ep += A("Five things, no overlaps. The longest free stretch is after the last item.")
    return ep


def g_fx(r, k):
    cur, amt = r.choice([("EUR", r.choice([850, 1200, 2400, 640])), ("USD", r.choice([1500, 900, 3200])), ("SEK", r.choice([12000, 8500]))])
    rate = {"EUR": r.uniform(0.84, 0.88), "USD": r.uniform(0.76, 0.8), "SEK": r.uniform(0.072, 0.076)}[cur]
    ep = U("A client is paying %s %s. Roughly what lands in my account in pounds?" % (f"{amt:,}", cur))
    ep += T("Converting at today's mid-market rate.", "currency_convert", {"from": cur, "to": "GBP", "amount": amt},
            J({"from": cur, "to": "GBP", "amount": amt, "rate": round(rate, 5), "result": round(amt * rate, 2), "source": "ECB reference", "as_of": "2026-11-12"}))
    ep += A("About £%s at mid-market. Through Wise you'd lose roughly half a percent in fees; through your high-street bank "
            "closer to three." % f"{amt * rate:,.0f}")
    return ep


DRAFTS = [
    ("Can you write a friendly nudge to Gaffer Audio? Their invoice is eleven days late.",
     "Draft:\n\n\"Hi both — hope the launch went well! Just a gentle nudge on invoice 0139, which was due on the 1st. "
     "Could you let me know when it's scheduled? Happy to resend it if it got lost. Thanks, B\""),
    ("Draft a reply to Pip & Thistle saying yes to a third cover option but that it's an extra half day.",
     "Draft:\n\n\"Hi Ellie — happy to do a third option! Since it goes beyond the two rounds we agreed, I'll add half a "
     "day to the final invoice. I can have it to you by Wednesday. Best, B\""),
    ("Write a polite no to Kestrel for February, but keep the door open.",
     "Draft:\n\n\"Thanks so much for thinking of me! February is fully booked, but I'd love to hear about anything from "
     "March on. Do keep me in mind for the summer campaign.\""),
    ("Reply to Norrland that round-two notes are fine and I'll deliver Friday.",
     "Draft:\n\n\"Hej! Thanks for the notes, all clear. I'll send the updated label animation on Friday afternoon, UK time.\""),
]


def g_draft(r, k):
    q, a = pick(r, "b.drafts", DRAFTS)
    ep = U(q) + A(a)
    ep += U(r.choice(["Perfect, send it.", "Make it a bit less formal and send.", "Good. Send."]))
    ep += T("Sending.", "send_email", {"draft": "last", "send": True},
            J({"status": "sent", "message_id": "<%s@mail.gmail.com>" % rs(r, 20, "abcdefghijklmnopqrstuvwxyz0123456789"),
               "thread_id": rs(r, 16, "0123456789abcdef"), "labels": ["SENT"], "timestamp": "2026-11-12T%02d:%02d:11Z" % (r.randint(10, 17), r.randint(0, 59))}))
    ep += A("Sent.")
    return ep


def g_weather(r, k):
    city = pick(r, "b.weather", ["Manchester", "Copenhagen", "Edinburgh", "York", "Berlin"])
    days = []
    for i in range(5):
        days.append({"date": "2026-11-%02d" % (13 + i), "summary": r.choice(["light rain", "overcast", "sunny intervals", "showers", "fog then cloud"]),
                     "high_c": r.randint(4, 12), "low_c": r.randint(-2, 5), "precip_mm": round(r.uniform(0, 9), 1), "wind_kph": r.randint(8, 40)})
    ep = U("What's the weather doing in %s over the next few days?" % city)
    ep += T("Checking the forecast.", "get_weather", {"location": city, "days": 5}, J({"location": city, "daily": days}))
    ep += A("Cool and changeable: highs around %d °C, and the wettest day is %s. Bring the proper coat." % (
        max(x["high_c"] for x in days), max(days, key=lambda x: x["precip_mm"])["date"]))
    return ep


def g_cowork(r, k):
    city = pick(r, "b.cowork", ["Manchester", "York", "Sheffield"])
    res = [{"title": t, "url": u, "snippet": s} for t, u, s in r.sample([
        ("Hatch Coworking — day passes from £18", "https://hatchcowork.example/daypass", "Quiet floor, phone booths, decent coffee."),
        ("The Loom — flexible desks", "https://theloom.example", "Creative studio space, monitor hire available."),
        ("Northern Print Works — studio desks", "https://npw.example/desks", "Risograph access for members."),
        ("Fold & Co — drop-in", "https://foldandco.example", "Open 8–8, weekend access for members."),
        ("Atelier Row — hot desks", "https://atelierrow.example", "Large tables, natural light, dog-friendly.")], 4)]
    ep = U("I'm in %s for a client day next week. Find me a coworking spot with a decent desk." % city)
    ep += T("Searching.", "web_search", {"q": "coworking day pass %s creative" % city, "num": 4}, J(res))
    ep += A("%s sounds best for you — %s I'd avoid anything that only has hot desks if you're bringing the tablet." % (
        res[0]["title"].split(" —")[0], res[0]["snippet"]))
    u, a = r.choice([("Book it for Tuesday.", "Booked a day pass for Tuesday; the confirmation is in your inbox."),
                     ("Ok, I'll just turn up.", "Fine — I added the address to the calendar entry so you have it on your phone."),
                     ("Good shout. Add it to my notes.", "Added to your travel notes.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_bank_long(r, k):
    merchants = [("TFL TRAVEL CH", "transport"), ("NORTHERN TRAINS", "transport"), ("LNER", "transport"), ("TESCO STORES", "groceries"),
                 ("PRET A MANGER", "food"), ("ADOBE CREATIVE CLD", "software"), ("FIGMA", "software"), ("SPOTIFY", "subscriptions"),
                 ("BLICK ART MATERIALS", "materials"), ("CASS ART", "materials"), ("UBER *TRIP", "transport"), ("AMAZON MKTPLACE", "misc"),
                 ("OCTOPUS ENERGY", "bills"), ("COUNCIL TAX", "bills"), ("PUREGYM", "health"), ("WISE TRANSFER IN", "income"),
                 ("STRIPE PAYOUT", "income"), ("BOOTS", "health"), ("WAITROSE", "groceries"), ("NATIONAL EXPRESS", "transport")]
    rows = ["date,description,amount,balance,category"]
    bal = 6420.0
    for i in range(110):
        m, cat = r.choice(merchants)
        amt = round(r.uniform(800, 3900), 2) if cat == "income" else -round(r.uniform(2.1, 140 if cat != "bills" else 180), 2)
        bal += amt
        rows.append("2026-%s,%s,%.2f,%.2f,%s" % (("10-%02d" % (1 + i // 4)) if i < 120 else "11-01", m, amt, bal, cat))
    ep = U("Pull last month's current-account transactions, I want to see where the money went.")
    ep += T("Exporting October from the bank feed.", "bank_transactions", {"account": "current", "from": "2026-10-01", "to": "2026-10-31", "format": "csv"},
            "\n".join(rows))
    ep += A("Groceries and transport are the two biggest outgoing categories, then software. Income came in as a few large "
            "Wise and Stripe payouts. Nothing unusual, no duplicate charges that I can see.")
    ep += U("Any subscriptions I forgot about?")
    ep += A("Only the usual — Adobe, Figma, Spotify and the gym. Nothing new or sneaky this month.")
    return ep


def g_budget_sheet(r, k):
    rows = ["| Category | Monthly budget | Spent so far | Left |", "|---|---|---|---|"]
    for c, b in [("Rent", 1050), ("Groceries", 320), ("Eating out", 160), ("Transport", 140), ("Software", 95), ("Materials", 120), ("Fun", 150)]:
        sp = round(r.uniform(0.3, 1.1) * b, 2) if c != "Rent" else b
        rows.append("| %s | £%d | £%.2f | £%.2f |" % (c, b, sp, b - sp))
    ep = U("How am I doing against the monthly budget sheet?")
    ep += T("Reading the November tab.", "sheets_read", {"spreadsheet": "Money 2026", "range": "Nov!A1:D9"}, "\n".join(rows))
    over = [l.split("|")[1].strip() for l in rows[2:] if "£-" in l]
    ep += A(("You're over on %s; everything else has room left for the second half of the month." % ", ".join(over))
            if over else "Everything is within budget so far, with most categories about half used.")
    return ep


SMALLTALK = [
    ("Tea number three. This is going to be one of those days.", "Then let's knock out the boring admin first while the tea works."),
    ("The cat just knocked my pen display stand over. Everything's fine. I'm fine.", "Glad everyone survived. Shall we carry on?"),
    ("Ugh, it's pouring again.", "Good day to stay in and get through the inbox."),
    ("Sorry, was on the phone with my mum for forty minutes. Where were we?", "No problem — we'd just finished the last task, nothing pending."),
    ("I should really go for a walk. Remind me in an hour?", "Reminder set for an hour from now: go outside."),
    ("Do you ever get bored of invoices? Don't answer that.", "I won't. Next invoice?"),
    ("Playlist recommendation for rendering-and-waiting music?", "Long ambient records work well — something like Hania Rani or a long Floating Points set."),
    ("Feeling weirdly productive today. Don't jinx it.", "Not a word."),
]


def g_smalltalk(r, k):
    u, a = pick(r, "b.smalltalk", SMALLTALK)
    return U(u) + A(a)


def g_reminder(r, k):
    what = pick(r, "b.reminder", [("renew the domain for the portfolio", "2026-12-01T09:00"), ("send Pip & Thistle the final files", "2026-11-19T10:00"),
                     ("book the boiler service", "2026-11-16T09:30"), ("post the VAT-free receipts to the expenses folder", "2026-11-30T17:00")])
    ep = U("Remind me to %s." % what[0])
    ep += T("Creating the reminder.", "create_reminder", {"text": what[0], "when": what[1]},
            J({"id": "rem_%s" % rs(r, 8, "abcdefghijklmnopqrstuvwxyz0123456789"), "text": what[0], "due": what[1] + ":00+00:00",
               "channel": "push", "repeat": None, "created": "2026-11-12T%02d:%02d:00Z" % (r.randint(9, 17), r.randint(0, 59))}))
    ep += A("Set for %s." % what[1].replace("T", " at "))
    return ep


CLAUSES = [
    ("Can you explain this clause like I'm five? 'The Contractor assigns to the Client all present and future intellectual property rights in the Deliverables, including moral rights to the extent permitted.'",
     "It means they own everything you make for them, including future uses, and you're waiving your right to be credited or "
     "object to edits. For illustration that's unusually broad — I'd ask for a licence instead of assignment, or at least keep "
     "portfolio rights."),
    ("What does 'payment within 60 days of end of month following invoice' actually mean in days?",
     "If you invoice on 12 November, the clock starts at the end of the following month — 31 December — and then 60 days, so "
     "around 1 March. Realistically 100+ days. Worth pushing back to 30 days from invoice."),
    ("Is 'kill fee of 25%' normal?",
     "25% is on the low side for commissioned illustration; 50% after sketches are approved is common. It's negotiable."),
]


def g_clause(r, k):
    q, a = pick(r, "b.clause", CLAUSES)
    ep = U(q) + A(a)
    u, a2 = r.choice([("Yeah, that's what I was afraid of.", "Want me to draft the counter-wording?"),
                      ("Okay, I'll push back.", "I can draft a short reply whenever you're ready."),
                      ("Useful, thanks.", "Anytime.")])
    ep += U(u)
    ep += A(a2)
    return ep


def g_subs(r, k):
    rows = ["service,plan,monthly_gbp,next_charge"]
    for s, p, m in [("Adobe Creative Cloud", "All Apps", 56.98), ("Figma", "Professional", 12.00), ("Spotify", "Individual", 11.99),
                    ("Dropbox", "Plus", 9.99), ("Procreate Dreams", "one-off", 0.00), ("Skillshare", "Annual", 13.99),
                    ("Frame.io", "Pro", 15.00), ("Google One", "2 TB", 7.99)]:
        rows.append("%s,%s,%.2f,2026-%s" % (s, p, m, "11-%02d" % r.randint(13, 30) if m else "n/a"))
    ep = U("List my subscriptions with what they cost per month — I think I'm paying for stuff I don't use.")
    ep += T("Pulling recurring charges.", "bank_recurring", {"account": "current", "months": 3}, "\n".join(rows))
    ep += A("About £128 a month in total. Candidates to cut: Skillshare (you haven't opened it since summer) and either Dropbox "
            "or Google One — you're paying for two cloud drives.")
    u, a = r.choice([("Cancel Skillshare.", "Cancelled; it stays active until the end of the paid period."),
                     ("Drop Dropbox, keep Google.", "Dropbox is set to downgrade to the free plan at the next renewal — move anything you need first."),
                     ("Leave them for now, I'll decide in January.", "Okay, I'll bring it up again in January.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_tz(r, k):
    city, off = pick(r, "b.tz", [("Toronto", -5), ("Singapore", 8), ("Los Angeles", -8), ("Melbourne", 11)])
    their = r.choice([9, 10, 14, 16, 17])
    uk = their - off
    day = "Tuesday" if 0 <= uk < 24 else ("Monday" if uk < 0 else "Wednesday")
    uk %= 24
    ep = U("A client in %s wants a call at %d:00 their time on Tuesday. What's that for me?" % (city, their))
    ep += A("That's %02d:00 UK time on %s." % (uk, day))
    if 8 <= uk <= 18:
        ep += U("That works, accept it.")
        ep += A("Accepted, with a 15-minute prep block before it.")
    else:
        ep += U("Absolutely not. Propose something that's daytime for both of us.")
        ep += A("Proposed a slot that lands inside UK working hours, with a short note explaining the time difference.")
    return ep


def g_receipt(r, k):
    shop = pick(r, "b.receipt", [("CASS ART LTD", "Materials"), ("LNER", "Travel"), ("PRET A MANGER", "Subsistence"), ("RYMAN", "Office"), ("APPLE STORE", "Equipment")])
    total = round(r.uniform(4.5, 240), 2)
    out = d("""
        merchant: {m}
        date: 2026-11-{dd:02d}
        total: {t:.2f}
        currency: GBP
        vat: {v:.2f}
        payment: VISA ****{c}
        items: {n}
        confidence: 0.{cf}
        """).format(m=shop[0], dd=r.randint(1, 11), t=total, v=total / 6, c=r.randint(1000, 9999), n=r.randint(1, 6), cf=r.randint(86, 99))
    ep = U("I just snapped a receipt, can you log it as an expense?")
    ep += T("Reading the receipt.", "ocr_receipt", {"image": "IMG_%d.HEIC" % r.randint(4000, 9999)}, out)
    names = {"CASS ART LTD": "Cass Art", "LNER": "LNER", "PRET A MANGER": "Pret", "RYMAN": "Ryman", "APPLE STORE": "the Apple Store"}
    ep += A("Logged £%.2f from %s under %s in the expenses sheet." % (total, names[shop[0]], shop[1]))
    return ep


def g_flight_search_long(r, k):
    dest = r.choice([("CPH", "Copenhagen"), ("BER", "Berlin"), ("AMS", "Amsterdam")])
    offers = []
    for i in range(12):
        dep_h = r.randint(6, 20)
        offers.append({"offer_id": "off_%s" % rs(r, 10, "abcdefghijklmnopqrstuvwxyz0123456789"),
                       "carrier": r.choice(["Jet2", "easyJet", "KLM", "SAS", "British Airways", "Lufthansa"]),
                       "from": "MAN", "to": dest[0], "depart": "2027-04-%02dT%02d:%02d" % (r.randint(13, 15), dep_h, r.choice([0, 10, 25, 40, 55])),
                       "stops": r.choice([0, 0, 0, 1]), "duration_min": r.randint(95, 260), "price_gbp": round(r.uniform(48, 290), 2),
                       "cabin_bag": r.choice([True, False])})
    offers.sort(key=lambda o: o["price_gbp"])
    ep = U("Just curious: what would flights to %s look like mid-April? Not booking yet." % dest[1])
    ep += T("Searching from Manchester.", "search_flights", {"from": "MAN", "to": dest[0], "depart_window": ["2027-04-13", "2027-04-15"], "adults": 1},
            J({"query": {"from": "MAN", "to": dest[0]}, "offers": offers}))
    best = [o for o in offers if o["stops"] == 0][0]
    ep += A("Cheapest direct is %s at £%.2f, departing %s. Prices look normal for April; no need to rush." % (
        best["carrier"], best["price_gbp"], best["depart"].replace("T", " ")))
    return ep


def g_pension(r, k):
    q, a = pick(r, "b.pension", [
        ("Should I be paying into a pension as a sole trader or is that a later-me problem?",
         "Earlier is much cheaper: contributions get tax relief at your marginal rate, so every £80 you put in becomes £100, "
         "and higher-rate relief on top via self-assessment. Even a small monthly amount adds up."),
        ("Do I need to register for VAT yet?",
         "Only once your taxable turnover over the last 12 months passes the threshold (£90k). You're well under it, but I'll "
         "keep a rolling 12-month total in the money sheet so it never surprises you."),
        ("Is it worth moving my savings to a Lifetime ISA?",
         "Only if you're buying a first home or saving for 60+ — withdrawing for anything else costs you 25%. For an "
         "emergency fund a normal easy-access account is better."),
    ])
    return U(q) + A(a)


def g_packing(r, k):
    if k == 1:
        ep = U("Make me a packing list for a two-night client trip with a workshop day in the middle.")
        ep += A("- Laptop, charger, pen display + cable, USB-C hub\n- HDMI adapter (venues never have the right one)\n- Printed "
                "agenda and 20 spare handouts\n- Two outfits + one 'presenting' outfit\n- Toiletries, meds, earplugs\n- Reusable "
                "bottle, snacks for the train")
        ep += U("Add a spare stylus nib. I always lose one.")
        ep += A("Added.")
    else:
        ep = U("What do I need to take to a client day where I'm just doing a review, no workshop?")
        ep += A("Short version: laptop and charger, the tablet only if you'll sketch live, the printed storyboard, and a notebook "
                "for feedback. Leave the handouts and the hub at home.")
    return ep


def g_uptime(r, k):
    if k == 1:
        ep = U("Is my portfolio site up? A recruiter said it didn't load.")
        out = d("""
            london     200  0.41 s  TLS ok  (expires 2027-01-30)
            frankfurt  200  0.52 s  TLS ok
            new-york   200  0.88 s  TLS ok
            content-length: {cl}
            server: nginx/1.26.2
            cache: HIT
            """).format(cl=r.randint(30000, 60000))
        tail = A("It loads fine from London, Frankfurt and New York. Probably a blip on their side, or their company network "
                 "blocks newer domains like .studio.")
    else:
        ep = U("The portfolio feels slow on my phone today. Is it just me?")
        out = d("""
            london     200  2.94 s  TLS ok  (expires 2027-01-30)
            frankfurt  200  3.12 s  TLS ok
            new-york   200  3.87 s  TLS ok
            content-length: {cl}
            server: nginx/1.26.2
            cache: MISS
            """).format(cl=r.randint(4000000, 6000000))
        tail = A("Not just you: the home page is now about 5 MB and the cache is missing, so every visit pulls the full-size "
                 "showreel poster. Compressing that image and re-enabling the cache header would bring it back under a second.")
        tail += U("Ugh, I uploaded the raw PNG, didn't I.")
        tail += A("You did. I can swap it for a WebP version if you like.")
    ep += T("Checking from a couple of locations.", "http_request",
            {"method": "GET", "url": "https://bridgetokafor.studio/", "probe_regions": ["london", "frankfurt", "new-york"]}, out)
    return ep + tail


def g_restaurant(r, k):
    city = pick(r, "b.rest_city", ["Manchester", "York", "Sheffield"])
    res = [{"name": n, "cuisine": c, "rating": round(r.uniform(4.2, 4.8), 1), "price": p, "distance_m": r.randint(150, 1400),
            "first_free_table": r.choice(["19:00", "19:30", "20:15", "none"])}
           for n, c, p in r.sample([("Osteria Nonna Lia", "Italian", "££"), ("Kin & Coast", "Seafood", "£££"), ("Bánh Mì Bay", "Vietnamese", "£"),
                                    ("The Salt Cellar", "Modern British", "£££"), ("Tandoor Lane", "Indian", "££"), ("Mercado", "Tapas", "££")], 4)]
    ep = U("I'm taking a client for dinner in %s next Thursday. Find somewhere that isn't a chain." % city)
    ep += T("Searching.", "restaurant_search", {"city": city, "date": "2026-11-19", "party": 2, "exclude_chains": True}, J(res))
    good = [x for x in res if x["first_free_table"] != "none"] or res
    slot = good[0]["first_free_table"] if good[0]["first_free_table"] != "none" else "19:30"
    ep += A("%s looks like the best fit (%s, rated %.1f, %s). Want me to book %s?" % (good[0]["name"], good[0]["cuisine"], good[0]["rating"], good[0]["price"], slot))
    ep += U(r.choice(["Yes, book it.", "Go on then."]))
    ep += A("Booked for two at %s under your name; the confirmation is in your inbox." % slot)
    return ep


def g_gift(r, k):
    who = pick(r, "b.gift", [("Mum's birthday", "she's into gardening and crime novels"), ("my studio-mate's leaving do", "he loves fountain pens"),
                             ("Ellie at Pip & Thistle, she just had a baby", "something small and not baby clothes")])
    ep = U("Gift ideas for %s? %s, budget around forty quid." % (who[0], who[1][0].upper() + who[1][1:]))
    if "gardening" in who[1]:
        ep += A("Three ideas: a good pair of Niwaki secateurs (about £38), a signed copy of a new crime novel from a local "
                "bookshop plus seeds, or an RHS garden day pass for two.")
    elif "pens" in who[1]:
        ep += A("A TWSBI Eco in a colour he doesn't have (about £35) with a bottle of nice ink, or a Lamy Safari plus a "
                "leather pen roll.")
    else:
        ep += A("A fancy food hamper for the sleepless weeks, a print of one of your own illustrations framed, or a voucher "
                "for a meal delivery service. The framed print is the most personal.")
    ep += U(r.choice(["Love the second one.", "The last one, definitely.", "Order the first one please."]))
    ep += A(r.choice(["Great choice — I'll put it in your basket for you to check out.", "Noted; I'll find a couple of options and send links."]))
    return ep


def g_font(r, k):
    font = pick(r, "b.font", [("Neue Haas Grotesk", "desktop licence covers print and static images, but animation for paid ads needs the 'digital ads' add-on"),
                              ("Recoleta", "the desktop licence allows video and motion work, including social ads, for up to 5 users"),
                              ("GT America", "motion use is allowed under the desktop licence, but broadcast TV needs a separate broadcast licence")])
    ep = U("Can I use %s in an animated social ad for a client with the licence I have?" % font[0])
    ep += T("Checking the licence terms on the foundry site.", "web_search", {"q": "%s licence motion video social ads" % font[0], "num": 3},
            J([{"title": "%s — Licensing FAQ" % font[0], "url": "https://foundry.example/%s/licensing" % font[0].lower().replace(" ", "-"),
                "snippet": font[1][0].upper() + font[1][1:] + "."},
               {"title": "Desktop licence EULA (PDF)", "url": "https://foundry.example/eula-desktop.pdf", "snippet": "Section 4: Permitted uses include..."}]))
    ep += A("According to their FAQ: %s. So check whether the client's ad runs as paid media before using it." % font[1])
    return ep


def g_linkedin(r, k):
    topic = pick(r, "b.post", ["the Pip & Thistle cover going to print", "the Norrland label animation launch", "being featured on Behance"])
    ep = U("Draft a LinkedIn post about %s. Not cringe, please." % topic)
    ep += A("Draft:\n\n\"Small win this week: %s. Huge thanks to the team for trusting the weird first sketch. More soon.\"\n\n"
            "Short, one image, no hashtags beyond two." % topic)
    ep += U(r.choice(["Acceptable levels of cringe. Post it.", "Good, but drop the 'small win' bit.", "Keep it in drafts, I'll post on Monday."]))
    ep += A("Done.")
    return ep


def g_invoices_overdue(r, k):
    rows = ["number        client                 issued      due         amount     status"]
    first = "overdue" if k == 1 else "paid"
    for n, c, st in [(139, "Gaffer Audio", first), (141, "Norrland Coffee", "paid"), (142, "Pip & Thistle Books", "sent"),
                     (143, "Kestrel Outdoor", "paid"), (144, "Norrland Coffee", "sent"), (145, "Gaffer Audio", "draft")]:
        rows.append("INV-2026-%04d %-22s 2026-%s  2026-%s  £%8.2f  %s" % (n, c, "10-%02d" % r.randint(1, 28), "11-%02d" % r.randint(1, 28),
                                                                       r.uniform(300, 3800), st))
    ep = U("Which invoices are still outstanding?" if k == 1 else "Did Gaffer finally pay?")
    ep += T("Listing invoices from the last two months.", "list_invoices", {"since": "2026-10-01"}, "\n".join(rows))
    if k == 1:
        ep += A("One is overdue (Gaffer Audio, 0139) and two are sent but not yet due. The Gaffer draft hasn't gone out.")
    else:
        ep += A("They did — 0139 is marked paid. Two Pip & Thistle and Norrland invoices are out but not due yet.")
    return ep


FILLER = [g_email_triage, g_calendar, g_fx, g_draft, g_weather, g_cowork, g_budget_sheet, g_smalltalk, g_reminder,
          g_clause, g_subs, g_tz, g_receipt, g_pension, g_packing, g_uptime, g_invoices_overdue, g_smalltalk, g_draft,
          g_restaurant, g_gift, g_font, g_linkedin]
LONG = [g_bank_long, g_flight_search_long]


# ---------------------------------------------------------------- scripted
def ep_intro():
    ep = U("Hi! Quick intro since you're new: contracts and invoices say Bridget Okafor, but Birdie is what everyone actually "
           "calls me, so go with that. I'm a freelance motion designer and illustrator, and my admin is a mess.", f="b-01")
    ep += A("Lovely to meet you. I can see your email, calendar, bank feed, the money spreadsheet and your invoicing tool. "
            "Where shall we start — inbox or calendar?")
    ep += U("Inbox, always inbox.")
    ep += g_email_triage(random.Random(3), 9)[1:]
    return ep


def ep_home():
    ep = U("Context for planning stuff: I'm based in Leeds, so anything in London before 10am means the 6:15 train and a very "
           "grumpy me — try to avoid that when clients suggest early meetings.", f="b-02")
    ep += A("Understood — I'll counter early London meetings with late-morning slots.")
    return ep


def ep_halden_code():
    ep = U("Also, Halden Studio — the Copenhagen agency I do most of my motion work for — wants their job code HLD-0923 on "
           "every invoice line, otherwise their accounts payable bounces it straight back. It's happened twice already.", f="b-05")
    ep += A("Got it. I'll add it as the reference on each line of their invoices.")
    ep += U("Thank you. The second time they bounced it I didn't get paid for six weeks.")
    ep += A("Then it's worth the extra care — I'll double-check it before anything goes out to them.")
    return ep


def ep_rate_stale():
    ep = U("For quotes, so you don't have to ask every time: my day rate is £425 for animation and £360 for straight illustration, "
           "and I don't do half-days below £250.", f="b-08")
    ep += A("Noted. I'll quote in days and round up to half-days.")
    return ep


def ep_accountant():
    ep = U("My accountant is Margit Sørensen at Kettlewell & Co — if anything tax-shaped comes up, draft it as an email to her "
           "rather than guessing, she's terrifyingly good.", f="b-06")
    ep += A("Will do. Anything about tax goes to her as a draft for you to approve.")
    return ep


def ep_porto_stale():
    ep = U("The Porto thing is confirmed! I'm running a two-day animation workshop at the Fio illustration festival, starting "
           "2027-03-11, so block the day before for travel and don't let anyone book me that week.", f="b-07")
    ep += T("Blocking the week.", "calendar_create",
            {"title": "Porto — Fio festival workshop (+ travel)", "start": "2027-03-10", "end": "2027-03-13", "all_day": True},
            J({"id": "evt_%s" % "q8v1m2n0c4", "title": "Porto — Fio festival workshop (+ travel)", "start": "2027-03-10", "end": "2027-03-13",
               "all_day": True, "busy": True, "calendar": "primary"}))
    ep += A("Blocked 10–13 March as busy. Congratulations — is it paid plus expenses?")
    ep += U("Fee plus they cover the hotel for two nights. Flights are on me, annoyingly.")
    ep += A("Then the flights can go on your expenses for the year — it's a business trip.")
    return ep


def ep_budget_stale():
    ep = U("Budget for the whole Porto trip, flights, food and the extra nights I want to tack on after: £1,800, and I'd "
           "like some of that left over, ideally.", f="b-22")
    ep += A("Okay, I'll plan against £1,800 total and flag anything that pushes it.")
    return ep


def ep_aisle():
    ep = U("When you book flights for me, always an aisle seat — I'm up every forty minutes to stretch my back, and climbing "
           "over strangers is not a vibe.", f="b-03")
    ep += A("Noted for every booking.")
    return ep


def ep_diet():
    ep = U("Oh and for dinner bookings: I'm pescatarian, so steakhouses are out, but a good seafood place is basically my love "
           "language.", f="b-04")
    ep += A("Good to know — especially useful in Porto.")
    return ep


def ep_invoice():
    out = d("""
        invoice_id=INV-2026-0147
        client=Halden Studio ApS
        client_ref=HLD-0923
        issue_date=2026-11-12
        due_date=2026-12-12
        currency=GBP
        lines=3
        line_1=HLD-0923 Motion toolkit: 6 days @ 425.00 = 2550.00
        line_2=HLD-0923 Icon loop set (12 loops) = 900.00
        line_3=HLD-0923 Revisions round 3 = 375.00
        subtotal=3825.00
        vat=0.00 (not VAT registered)
        total=3825.00
        status=sent
        pdf=https://app.invoicely.example/i/7fd0a1c3e9/pdf
        """)
    ep = U("Can you invoice Halden for the motion toolkit? Six days, plus the loop set at 900 flat and the third revision round.")
    ep += A("Round three: is that £375 as agreed in the thread from October?")
    ep += U("Yes, 375.")
    ep += T("Creating and sending the invoice.", "create_invoice",
            {"client": "Halden Studio ApS", "lines": [{"desc": "Motion toolkit", "days": 6, "rate": 425},
                                                       {"desc": "Icon loop set (12 loops)", "amount": 900},
                                                       {"desc": "Revisions round 3", "amount": 375}], "send": True}, out, f="b-09")
    ep += A("Sent, with the job code on every line and 30-day terms. Total £3,825.")
    return ep


def ep_tax_table():
    out = d("""
        Self Assessment — statement for UTR ****4417 (retrieved 12 Nov 2026)

        | Due date   | Description                                   | Amount    |
        |------------|-----------------------------------------------|-----------|
        | 2027-01-31 | Balancing payment 2025-26                     | £1,204.15 |
        | 2027-01-31 | 1st payment on account 2026-27                | £2,386.40 |
        | 2027-07-31 | 2nd payment on account 2026-27                | £2,386.40 |
        |            | Total due by 31 Jan 2027                      | £3,590.55 |

        Payments received this year: £4,102.00 (last: 2026-07-29)
        """)
    ep = U("How bad is January going to be, tax-wise? Be gentle.")
    ep += T("Reading your HMRC statement.", "hmrc_statement", {"tax_years": ["2025-26", "2026-27"]}, out, f="b-10")
    ep += A("January is £3,590.55 in total: the balancing payment for last year plus the first advance payment for this year. "
            "The second advance payment comes in July.")
    ep += U("Right. Less gentle than hoped.")
    ep += A("It's within what's in the tax pot, though — you'd have about £700 left in it afterwards.")
    return ep


def ep_save_tip():
    ep = U("How much should I move into the tax pot each month so July doesn't ambush me like this?")
    ep += A("If you put £398 a month aside from February to July, the July payment is covered in full by the time it's due. "
            "I'd set it as a standing order on the 1st.", f="b-24")
    ep += U("Do it, standing order on the 1st.")
    ep += T("Setting up the standing order.", "bank_standing_order",
            {"from": "current", "to": "tax-pot", "amount": 398.00, "day_of_month": 1, "start": "2027-02-01", "end": "2027-07-01"},
            J({"status": "scheduled", "id": "so_5b0e91", "payments": 6, "first": "2027-02-01", "last": "2027-07-01"}))
    ep += A("Scheduled: six payments, first one on 1 February.")
    return ep


def ep_tablet_order():
    out = {"order_number": "W4417782013", "placed": "2026-11-09T21:14:52Z", "store": "Wacom eStore UK",
           "items": [{"sku": "DTK2260K0B", "name": "Wacom Cintiq Pro 22", "qty": 1, "price_gbp": 1599.99},
                     {"sku": "ACK4472502Z", "name": "Pro Pen 3 nibs (10)", "qty": 1, "price_gbp": 24.99}],
           "shipping": {"carrier": "DPD", "service": "Next day", "status": "awaiting dispatch",
                        "estimated_delivery": "2026-11-16", "tracking": None},
           "payment": {"method": "Visa ****2291", "status": "captured"}}
    ep = U("Where's my Cintiq? I ordered it on Monday night and heard nothing since.")
    ep += T("Checking the order status with the store.", "order_status", {"store": "wacom_uk", "email": "hello@bridgetokafor.studio"}, J(out), f="b-12")
    ep += A("Payment went through but it's still awaiting dispatch; DPD next day, estimated delivery Monday the 16th. No tracking "
            "number yet.")
    ep += U("Monday is fine. The old one has a dead pixel that's been haunting me for a year.")
    ep += A("Only four more days of haunting.")
    return ep


def ep_printhaus():
    ep = U("Separate thing: I've got a ticket open with Printhaus about the misprinted zine run — it's PH-88213 — so if they "
           "email, flag it straight away. They owe me either a reprint or a refund and I'm not letting it go.", f="b-18")
    ep += A("I'll watch for anything from Printhaus and flag it at the top of the triage.")
    return ep


def ep_droplet():
    out = {"droplet": {"id": 381920447, "name": "portfolio-web-01", "memory": 1024, "vcpus": 1, "disk": 25, "locked": False,
                       "status": "active", "created_at": "2025-03-02T18:44:10Z",
                       "image": {"distribution": "Ubuntu", "name": "24.04 (LTS) x64"}, "size_slug": "s-1vcpu-1gb",
                       "networks": {"v4": [{"ip_address": "167.99.204.%d" % 57, "type": "public"}]},
                       "region": {"slug": "lon1", "name": "London 1"}, "tags": ["portfolio", "nginx"],
                       "features": ["monitoring", "ipv6"], "backup_ids": [], "next_backup_window": None}}
    ep = U("The DigitalOcean bill went up and I want to know what's actually running there. Just the one box, right?")
    ep += T("Listing your droplets.", "http_request", {"method": "GET", "url": "https://api.digitalocean.com/v2/droplets?per_page=20"}, J(out), f="b-14")
    ep += A("Just one droplet, 1 GB, in London, running Ubuntu 24.04. The increase is from the new monitoring add-on being "
            "billed, not a second machine. Backups are off, which I'd turn on for a dollar a month.")
    ep += U("Turn backups on, yes.")
    ep += A("Backups enabled; the first snapshot runs tonight.")
    return ep


def ep_porto_correction():
    mail = d("""
        From: Inês Carvalho <ines@fiofestival.pt>
        To: hello@bridgetokafor.studio
        Date: Thu, 12 Nov 2026 13:02:44 +0000
        Subject: Fio 2027 — schedule change for your workshop

        Olá Birdie,

        Apologies for the shuffle: the city moved our main venue booking, so the whole
        workshop programme shifts by one week. Your two-day workshop now begins on
        2027-03-18 (same hours, 10:00–16:00 both days, Armazém 14, room B).

        The hotel nights move with it. Could you confirm by the end of the month?

        Obrigada,
        Inês
        """)
    ep = U("Did the festival people reply about the projector question?")
    ep += T("Looking for mail from the festival.", "search_email", {"query": "from:fiofestival.pt newer_than:7d", "limit": 3},
            J([{"id": "msg_8e1f0c22b7", "from": "Inês Carvalho <ines@fiofestival.pt>", "subject": "Fio 2027 — schedule change for your workshop",
                "received": "2026-11-12T13:02:44Z", "unread": True}]))
    ep += T("Not the projector — but there's something more important. Opening it.", "read_email", {"id": "msg_8e1f0c22b7"}, mail, f="b-15")
    ep += A("Heads-up: they've moved your workshop back by a week because of a venue change. Hotel nights move too. They want "
            "confirmation by the end of the month. Shall I move the calendar block and confirm?")
    ep += U("Argh. Yes, move it and confirm. Good thing I hadn't booked flights yet.")
    ep += T("Moving the block.", "calendar_update", {"id": "evt_q8v1m2n0c4", "start": "2027-03-17", "end": "2027-03-20"},
            J({"id": "evt_q8v1m2n0c4", "title": "Porto — Fio festival workshop (+ travel)", "start": "2027-03-17", "end": "2027-03-20",
               "all_day": True, "busy": True, "updated": True}))
    ep += A("Calendar updated to 17–20 March, and I've sent Inês a short confirmation. The projector question is still open.")
    return ep


def ep_budget_new():
    ep = U("Update on the money side of Porto: Halden are chipping in because I'm doing a client dinner there for them, so "
           "let's say £2,250 for the trip all in — I'd like a nicer hotel for the extra nights.", f="b-23")
    ep += A("Updated the trip budget. That leaves room for a proper hotel for the two nights after the festival.")
    return ep


def ep_flights():
    out = {"booking_reference": "K7QZ4M", "status": "confirmed", "carrier": "easyJet",
           "passengers": [{"name": "MS BRIDGET OKAFOR", "seats": ["12C", "9D"], "bags": {"cabin": 1, "hold": 1}}],
           "segments": [{"flight": "EZY2143", "from": "MAN", "to": "OPO", "depart": "2027-03-17T06:40", "arrive": "2027-03-17T09:55"},
                        {"flight": "EZY2144", "from": "OPO", "to": "MAN", "depart": "2027-03-22T10:35", "arrive": "2027-03-22T12:05"}],
           "total_paid_gbp": 286.46, "payment": "Visa ****2291", "manage_url": "https://www.easyjet.com/manage/K7QZ4M"}
    ep = U("Okay, flights to Porto now please. Out on the 17th, back Monday the 22nd, from Manchester. One hold bag for the "
           "workshop materials.")
    ep += T("Searching direct options.", "search_flights", {"from": "MAN", "to": "OPO", "depart": "2027-03-17", "return": "2027-03-22", "adults": 1},
            J({"offers": [{"offer_id": "off_r2k9", "carrier": "easyJet", "out": "06:40–09:55", "back": "10:35–12:05", "stops": 0, "price_gbp": 241.46},
                          {"offer_id": "off_p0w3", "carrier": "Ryanair", "out": "13:20–16:30", "back": "17:05–18:40", "stops": 0, "price_gbp": 198.10},
                          {"offer_id": "off_b7c1", "carrier": "TAP", "out": "07:05–13:40", "back": "14:20–19:55", "stops": 1, "price_gbp": 312.90}]}))
    ep += A("The easyJet pair fits best: early enough to settle in before the festival, back by lunchtime Monday. Ryanair is "
            "£43 cheaper but lands late afternoon. With a hold bag easyJet comes to about £286.")
    ep += U("easyJet. Book it.")
    ep += T("Booking with your seat preference applied.", "book_flight", {"offer_id": "off_r2k9", "hold_bags": 1, "seat_rule": "aisle"}, J(out), f="b-11")
    ep += A("Booked. Seats 12C out and 9D back, both on the aisle. Confirmation is in your inbox.")
    return ep


def ep_neighbourhood():
    ep = U("Where should I stay for the extra nights? Somewhere with character but where I can actually sleep.")
    ep += A("I'd pick Bonfim — residential, lots of small cafés, and about a 15-minute walk to the venue. Ribeira is prettier "
            "but loud until 2am on weekends.", f="b-19")
    ep += U("Sold. Look for something nice there, under £140 a night.")
    ep += T("Searching.", "hotel_search", {"area": "Bonfim, Porto", "checkin": "2027-03-20", "checkout": "2027-03-22", "max_price_gbp": 140},
            J([{"name": "Casa do Jardim Azul", "rating": 9.1, "price_gbp_per_night": 128, "free_cancellation": True, "distance_to_centre_km": 1.4},
               {"name": "Oficina Guesthouse", "rating": 8.7, "price_gbp_per_night": 96, "free_cancellation": True, "distance_to_centre_km": 1.7},
               {"name": "Hotel Lumen Porto", "rating": 8.3, "price_gbp_per_night": 139, "free_cancellation": False, "distance_to_centre_km": 1.1}]))
    ep += A("Casa do Jardim Azul is the standout: 9.1, free cancellation, £128 a night. Shall I book it?")
    ep += U("Book it.")
    ep += A("Booked two nights, 20–22 March, free cancellation until 10 March.")
    return ep


def ep_render_yaml():
    yaml = d("""
        job:
          name: halden-toolkit-v3-final
          project: halden_toolkit.aep
          comp: MASTER_1080p
          range: 1-1440
          output: s3://renders/halden/toolkit-v3/
        compute:
          provider: gcp
          region: europe-west4
          machine_type: n2-highcpu-32
          nodes: 6
          preemptible: true
        limits:
          max_cost_gbp: 40
          timeout_h: 6
        notify:
          email: hello@bridgetokafor.studio
        """)
    ep = U("I queued the final Halden render on the render service last night. Can you check its config? I want to be sure "
           "it's not running in the US again — the egress fees last time were brutal.")
    ep += T("Reading the job spec.", "read_file", {"path": "~/Render/jobs/halden-toolkit-v3-final.yaml"}, yaml, f="b-13")
    ep += A("It's set to run in the Netherlands this time, six preemptible nodes, capped at £40. No US egress.")
    ep += U("Phew. Good.")
    ep += A("It should finish well inside the six-hour timeout at that node count.")
    return ep


def ep_passport():
    out = J([{"id": "evt_3k2p9d", "title": "Passport Office — fast track appointment (bring old passport + photos)",
              "start": "2027-01-21T10:40:00+00:00", "end": "2027-01-21T11:20:00+00:00", "location": "HM Passport Office, Durham",
              "reminders": [{"method": "popup", "minutes": 1440}]},
             {"id": "evt_7m1q0a", "title": "Halden — monthly check-in", "start": "2027-01-21T15:00:00+00:00",
              "end": "2027-01-21T15:30:00+00:00", "location": "Google Meet", "reminders": []}])
    ep = U("My passport runs out in May, which is fine for Porto, but I booked the renewal appointment — can you check it's "
           "actually in the calendar? I have a feeling I forgot to save it.")
    ep += T("Searching the calendar.", "calendar_search", {"query": "passport", "from": "2026-11-12", "to": "2027-06-30"}, out, f="b-16")
    ep += A("It's there, with a reminder the day before. Same day you have the Halden check-in in the afternoon, which is fine "
            "— Durham is close enough to be back in time.")
    ep += U("Good, past me did something right.")
    ep += A("Past you deserves a biscuit.")
    return ep


def ep_travel_spend():
    rows = ["date,description,amount,category"]
    rng = random.Random(77)
    travel = [("NORTHERN TRAINS", 14.60), ("LNER", 89.40), ("TRANSPENNINE EXP", 31.20), ("UBER *TRIP", 17.85), ("EASYJET", 154.31),
              ("LNER", 121.00), ("PREMIER INN", 84.00), ("NATIONAL EXPRESS", 22.50), ("TFL TRAVEL CH", 9.80), ("LNER", 96.20),
              ("JET2.COM", 212.44), ("BOOKING.COM HOTEL", 318.00), ("TRANSPENNINE EXP", 27.90), ("LNER", 143.60), ("UBER *TRIP", 24.10),
              ("EUROSTAR", 389.00), ("AIRBNB", 466.80), ("NORTHERN TRAINS", 11.30), ("LNER", 101.40), ("TFL TRAVEL CH", 14.60),
              ("RYANAIR", 186.45), ("BOOKING.COM HOTEL", 412.00), ("LNER", 117.00), ("UBER *TRIP", 11.20), ("TRANSPENNINE EXP", 44.30)]
    assert abs(sum(a for _, a in travel) - 3120.95) < 0.01, sum(a for _, a in travel)
    for i, (m, a) in enumerate(travel):
        rows.append("2026-%02d-%02d,%s,-%.2f,travel" % (4 + i // 4, rng.randint(6, 28), m, a))
    ep = U("Margit will ask: how much have I spent on travel this tax year so far? Everything since 6 April.")
    ep += T("Filtering the bank feed by the travel category since 6 April.", "bank_transactions",
            {"account": "all", "from": "2026-04-06", "to": "2026-11-12", "category": "travel", "format": "csv"}, "\n".join(rows))
    ep += A("The bank feed shows £3,120.95 on travel, plus the Porto flights booked today at £286.46 and the Berlin hotel "
            "you paid in cash and logged as a receipt (£505.14), so £3,912.55 in total across 27 items.", f="b-17")
    ep += U("Can you put that in a note for her? Just the number and the breakdown by type.")
    ep += A("Drafted: trains, flights, accommodation and local transport, with the total. It's in your drafts, addressed to her.")
    return ep


def ep_rate_new():
    ep = U("Decision made: new year, new prices — from January my animation day rate goes up to £460. Illustration stays "
           "where it is.", f="b-20")
    ep += A("Updated the quoting notes. Anything already quoted at the old rate I'll keep as is.")
    ep += U("Yes, honour existing quotes.")
    ep += A("Will do.")
    return ep


def ep_wedding():
    ep = U("Important: keep the weekend of 2027-05-22 completely free — it's my sister Adaeze's wedding in Lagos and I'm the "
           "maid of honour, so no work travel anywhere near it.", f="b-27")
    ep += T("Blocking it.", "calendar_create", {"title": "Adaeze's wedding (Lagos) — NO WORK", "start": "2027-05-19", "end": "2027-05-25", "all_day": True},
            J({"id": "evt_w3dd1n9", "title": "Adaeze's wedding (Lagos) — NO WORK", "start": "2027-05-19", "end": "2027-05-25", "busy": True}))
    ep += A("Blocked the whole week around it as busy, so nobody can book you either side. Congratulations to her!")
    ep += U("Thank you! I'm already stressed about the speech.")
    ep += A("We can draft it together whenever you like — plenty of time.")
    return ep


# ---------------------------------------------------------------- conv-2
def ep2_open():
    ep = U("Morning! Okay, a new week of chaos. Anything urgent in email?")
    ep += T("Checking unread mail.", "search_email", {"query": "is:unread newer_than:3d", "limit": 6},
            J([{"id": "msg_c10e7", "from": "Fennick & Rowe <studio@fennickrowe.co.uk>", "subject": "Purchase order for the brand animation", "unread": True},
               {"id": "msg_c10e8", "from": "Printhaus <support@printhaus.example>", "subject": "Re: your reprint", "unread": True},
               {"id": "msg_c10e9", "from": "Figma <billing@figma.com>", "subject": "Receipt", "unread": True},
               {"id": "msg_c10ea", "from": "Norrland Coffee <hej@norrlandcoffee.se>", "subject": "Christmas card animation?", "unread": True}]))
    ep += A("Two matter: the new client Fennick & Rowe sent their purchase order, and Printhaus replied about the reprint — "
            "they'll reprint the zines for free, ready next week. Norrland are asking about a Christmas card animation.")
    ep += U("Printhaus caved! Excellent.")
    ep += A("They did. I've filed the reply with the rest of that thread.")
    return ep


def ep2_po():
    ep = U("Fennick & Rowe are the new client from the Manchester design week — their PO number is FR-PO-33817 and it has to "
           "be quoted on every invoice, same drill as with the Danish lot.", f="b-25")
    ep += A("Noted for their invoices. Shall I set up the client record now?")
    ep += U("Yes, billing contact is their studio email.")
    ep += T("Creating the client.", "create_client", {"name": "Fennick & Rowe Ltd", "email": "studio@fennickrowe.co.uk", "default_reference": "FR-PO-33817"},
            J({"client_id": "cl_20fr", "name": "Fennick & Rowe Ltd", "payment_terms_days": 30, "currency": "GBP", "created": True}))
    ep += A("Client created with 30-day terms and the PO as default reference.")
    return ep


def ep2_train():
    out = d("""
        booking_status=CONFIRMED
        collection_ref=8KQ4XT7N
        journey_out=LDS 09:15 -> KGX 11:29 (LNER)
        journey_back=KGX 18:30 -> LDS 20:46 (LNER)
        date=2026-12-09
        ticket_type=Off-Peak Return
        price=GBP 96.40
        seat_out=Coach C, seat 41 (table)
        seat_back=Coach C, seat 18 (table)
        delivery=eTicket (app)
        """)
    ep = U("Fennick want a kick-off in their London office next Wednesday at 12. Book me trains that don't involve the crack "
           "of dawn.")
    ep += T("Booking the off-peak option that arrives before noon.", "book_train",
            {"date": "2026-12-09", "arrive_by": "11:45", "return_after": "18:00", "class": "standard"}, out, f="b-26")
    ep += A("Booked: out at 09:15, in London at 11:29, back at 18:30. Table seats both ways, e-tickets in the app.")
    ep += U("Lovely, civilised hours.")
    ep += A("And a 15-minute walk from King's Cross to their office, so no rush.")
    return ep


def ep2_christmas():
    ep = U("Norrland wants a Christmas card animation, 10 seconds, by the 18th. Is that doable with what's in the calendar?")
    ep += T("Checking the next two weeks.", "calendar_list", {"from": "2026-12-02", "to": "2026-12-18"},
            d("""
            Wed 02 Dec   admin day
            Thu 03 Dec   Pip & Thistle — final cover files
            Fri 04 Dec   (free)
            Mon 07 Dec   Fennick — prep
            Tue 08 Dec   (free)
            Wed 09 Dec   London — Fennick kick-off
            Thu 10 Dec   Halden check-in 15:00
            Fri 11 Dec   (free)
            Mon 14 Dec   (free)
            Tue 15 Dec   Dentist 10:00
            """))
    ep += A("Yes — you have four free days before the 18th. Two days of animation plus a feedback round fits.")
    ep += U("Quote them two days then.")
    ep += A("Drafted the quote for two days at your current animation rate, with one round of revisions included.")
    return ep


def ep2_close():
    ep = U("That's enough for today. Summarise what we did in three bullets?")
    ep += A("- New client Fennick & Rowe set up, London kick-off trains booked for Wednesday the 9th.\n- Printhaus agreed to a "
            "free reprint.\n- Norrland Christmas animation: two-day quote drafted, fits before the 18th.")
    ep += U("Perfect. Thank you!")
    ep += A("Have a good evening.")
    return ep


FACTS = [
    dict(id="b-01", kind="name", value="Birdie", ask_in="conv-2",
         lexical="What does everyone call me?",
         para="Which nickname should you address me by?"),
    dict(id="b-02", kind="place", value="Leeds", ask_in="conv-2",
         lexical="Where am I based?",
         para="Which city do I live in?"),
    dict(id="b-03", kind="preference", value="aisle seat", ask_in="conv-2",
         lexical="Which seat do I want when you book flights for me?",
         para="Where on an airplane do I like to sit?"),
    dict(id="b-04", kind="preference", value="pescatarian", ask_in="conv-2",
         lexical="What should dinner bookings take into account about what I eat?",
         para="What kind of diet do I follow?"),
    dict(id="b-05", kind="code", value="HLD-0923", ask_in="conv-2",
         lexical="What job code does Halden Studio want on every invoice line?",
         para="Which project reference must appear on bills for the Danish client?"),
    dict(id="b-06", kind="name", value="Margit", ask_in="conv-2",
         lexical="What is my accountant's first name?",
         para="Who handles my bookkeeping and returns?"),
    dict(id="b-07", kind="date", value="2027-03-11", ask_in="conv-1"),
    dict(id="b-08", kind="number", value="£425", ask_in="conv-1"),
    dict(id="b-09", kind="id", value="INV-2026-0147", ask_in="conv-1",
         lexical="What is the invoice_id of the Halden motion toolkit invoice?",
         para="Which number did the bill for the Danish agency's animation kit get?"),
    dict(id="b-10", kind="number", value="£2,386.40", ask_in="conv-1",
         lexical="How much is each payment on account for 2026-27?",
         para="How large is every advance instalment I owe the revenue service?"),
    dict(id="b-11", kind="id", value="K7QZ4M", ask_in="conv-1",
         lexical="What is the booking reference for the Porto flights?",
         para="What code did the airline give for my festival getaway?"),
    dict(id="b-12", kind="id", value="W4417782013", ask_in="conv-1",
         lexical="What is the order number for the Cintiq?",
         para="Which purchase reference belongs to the new drawing screen I bought?"),
    dict(id="b-13", kind="region", value="europe-west4", ask_in="conv-2",
         lexical="Which region is the Halden render job set to run in?",
         para="Where in Google's cloud does my animation get crunched?"),
    dict(id="b-14", kind="id", value="381920447", ask_in="conv-1",
         lexical="What is the droplet id of my portfolio server?",
         para="What's the numeric identifier of the VPS hosting my website?"),
    dict(id="b-15", kind="date", value="2027-03-18", ask_in="conv-2", corrects="b-07",
         lexical="When does my two-day workshop now begin?",
         para="When does the teaching gig in Portugal kick off?"),
    dict(id="b-16", kind="date", value="2027-01-21", ask_in="conv-1",
         lexical="On what date is my passport fast track appointment?",
         para="When must I turn up to get my travel document replaced?"),
    dict(id="b-17", kind="number", value="£3,912.55", ask_in="conv-1",
         lexical="How much have I spent on travel this tax year in total?",
         para="What did my journeys cost altogether since spring, by your count?"),
    dict(id="b-18", kind="id", value="PH-88213", ask_in="conv-1",
         lexical="What's the ticket number with Printhaus about the zine run?",
         para="What's the case reference for my complaint about the botched booklets?"),
    dict(id="b-19", kind="place", value="Bonfim", ask_in="conv-1",
         lexical="Which area did you pick for my extra nights in Porto?",
         para="What neighbourhood did you recommend as a quiet base?"),
    dict(id="b-20", kind="number", value="£460", ask_in="conv-2", corrects="b-08",
         lexical="What is my animation day rate from January?",
         para="What's my fee for a full working session of motion graphics in 2027?"),
    dict(id="b-22", kind="number", value="£1,800", ask_in="conv-1"),
    dict(id="b-23", kind="number", value="£2,250", ask_in="conv-2", corrects="b-22",
         lexical="What's the total budget for the Porto trip?",
         para="How much can I spend altogether on the festival journey, flights and lodging included?"),
    dict(id="b-24", kind="number", value="£398", ask_in="conv-1",
         lexical="How much should I put aside each month for the July tax payment?",
         para="What regular transfer into my savings for the revenue service did you suggest?"),
    dict(id="b-25", kind="id", value="FR-PO-33817", ask_in="conv-2",
         lexical="What is Fennick & Rowe's PO number?",
         para="Which purchase reference must accompany billing for our latest customer?"),
    dict(id="b-26", kind="id", value="8KQ4XT7N", ask_in="conv-2",
         lexical="What is the collection_ref for my London trains?",
         para="Which code do I need to pick up my train passes to the capital?"),
    dict(id="b-27", kind="date", value="2027-05-22", ask_in="conv-2",
         lexical="Which weekend must stay completely free for my sister's wedding?",
         para="When is my sibling's big day?"),
]


def build(seed=20261112):
    rng = random.Random(seed)
    pool = Pool(FILLER, rng)
    longs = Pool(LONG, rng)
    F = pool.take
    c1 = [
        ep_intro(), F(1), ep_home(), F(2), ep_halden_code(), F(2), ep_rate_stale(), F(1), ep_accountant(), F(2),
        ep_porto_stale(), F(1), ep_budget_stale(), F(2), ep_aisle(), F(1), ep_diet(), F(2), longs.take(1), ep_invoice(), F(2),
        ep_tax_table(), F(1), ep_save_tip(), F(2), ep_tablet_order(), F(2), ep_printhaus(), F(1), ep_droplet(), F(2),
        ep_porto_correction(), F(2), ep_budget_new(), F(1), ep_flights(), F(2), ep_neighbourhood(), F(2), ep_render_yaml(), F(1),
        ep_passport(), F(2), ep_travel_spend(), F(2), ep_rate_new(), F(1), longs.take(1), ep_wedding(), F(7),
    ]
    pool2 = Pool([g_subs, g_fx, g_smalltalk, g_receipt, g_weather, g_reminder, g_tz, g_clause], random.Random(seed + 1))
    c2 = [ep2_open(), pool2.take(2), ep2_po(), pool2.take(2), ep2_train(), pool2.take(2), ep2_christmas(), pool2.take(1), ep2_close()]
    c2 = shift_dates(c2, "2026-11-", 20)
    return make_set("set-b", NOTE, "user-5518", [("conv-1", c1), ("conv-2", c2)], FACTS, seed)
