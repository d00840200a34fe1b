"""Set C: research assistant for a marine-ecology postdoc (kelp restoration).

Literature, R/Python analysis, HPC and cloud jobs, fieldwork logistics, grant
admin. Fact episodes are hand-written; filler comes from randomised generators.
"""
import random

from build_lib import A, J, Pool, T, TM, U, d, make_set, pick, shift_dates

NOTE = (
    "Domain: a research-assistant agent (paper search, PDF reading, R and Python runs, an HPC queue, "
    "a cloud batch pipeline, email drafts, tide/marine lookups, procurement and IT systems) for a "
    "marine-ecology postdoc running kelp-restoration field trials. conv-1 (2026-11-16) is a long "
    "working day of analysis, writing and field planning; conv-2 (2026-12-10) is a later, shorter "
    "session about a permit, a bootstrap run and the manuscript. Facts were written into chatty user "
    "remarks, assistant calculations/decisions, and tool outputs (pipeline YAML, ServiceNow JSON, "
    "procurement key=value, gcloud JSON, an R tibble, Zenodo JSON, a boat-booking key=value record, a "
    "grant lookup). Three values are corrected later (survey site, first field date via a booking "
    "record, special-issue deadline). Long outputs: a 110-line transect CSV and a 100+ line model "
    "summary. Turn indices are 0-based. Written blind, without reading the library."
)

SPECIES = ["Macrocystis pyrifera", "Ecklonia radiata", "Phyllospora comosa", "Centrostephanus rodgersii",
           "Heliocidaris erythrogramma", "Jasus edwardsii", "Undaria pinnatifida", "Lessonia corrugata"]
SITES = ["Site A (north arm)", "Site B (reef flat)", "Site C (barrens edge)", "Site D (deep reef)"]


def hx(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


# ---------------------------------------------------------------- filler
PAPERS = [
    ("Layton C. et al.", 2020, "Kelp forest restoration in Australia", "Frontiers in Marine Science", "10.3389/fmars.2020.00074"),
    ("Butler C. L. et al.", 2020, "Historical loss of giant kelp forests in eastern Tasmania", "Marine Ecology Progress Series", "10.3354/meps13300"),
    ("Eger A. M. et al.", 2022, "The value of ecosystem services in global marine kelp forests", "Nature Communications", "10.1038/s41467-023-37385-0"),
    ("Ling S. D. et al.", 2015, "Global regime shift dynamics of catastrophic sea urchin overgrazing", "Phil. Trans. R. Soc. B", "10.1098/rstb.2013.0269"),
    ("Wernberg T. et al.", 2016, "Climate-driven regime shift of a temperate marine ecosystem", "Science", "10.1126/science.aad8745"),
    ("Johnson C. R. et al.", 2011, "Climate change cascades: shifts in oceanography, species' ranges and subtidal marine community dynamics in eastern Tasmania", "JEMBE", "10.1016/j.jembe.2011.02.032"),
    ("Filbee-Dexter K. & Scheibling R.", 2014, "Sea urchin barrens as alternative stable states of collapsed kelp ecosystems", "MEPS", "10.3354/meps10573"),
    ("Smale D. A.", 2020, "Impacts of ocean warming on kelp forest ecosystems", "New Phytologist", "10.1111/nph.16107"),
]


def g_lit(r, k):
    topic = pick(r, "c.lit", ["urchin barrens hysteresis", "kelp transplant survival temperature", "restoration outplanting density",
                              "marine heatwave kelp recovery"])
    res = [{"authors": p[0], "year": p[1], "title": p[2], "venue": p[3], "doi": p[4], "cited_by": r.randint(40, 900)}
           for p in r.sample(PAPERS, 4)]
    ep = U(r.choice(["Find me a few solid papers on %s, I need something to cite in the intro.",
                     "What's the key literature on %s? Just the heavy hitters.",
                     "Can you pull up recent work on %s?"]) % topic)
    ep += T("Searching the literature index.", "search_papers", {"query": topic, "limit": 4, "sort": "relevance"}, J(res))
    top = max(res, key=lambda x: x["cited_by"])
    ep += A("The most cited of these is %s (%d) in %s. For the intro I'd cite that plus the most recent one for currency." % (
        top["authors"].split(" et al.")[0].split(" &")[0], top["year"], top["venue"]))
    u, a = r.choice([("Add them to the Zotero collection.", "Added to the 'intro' collection."),
                     ("Good, put them in the intro folder.", "Done — in the intro folder with tags."),
                     ("Fine, I'll skim them tonight.", "I've left them in a reading list for you.")])
    ep += U(u)
    ep += A(a)
    return ep


PDF_METHODS = [
    ("Permanent 50 m transects were surveyed at each site by two divers, recording all canopy-forming algae within 1 m "
     "either side of the tape. Quadrats (0.25 m2) were placed every 5 m for understorey cover, and urchins were counted in "
     "10 x 1 m2 quadrats along the same line. Depth was standardised to 8-12 m below chart datum.",
     "Permanent 50 m transects, 1 m either side for canopy algae, 0.25 m² quadrats every 5 m for understorey, urchins in ten "
     "1 m² quadrats, at 8–12 m."),
    ("Historical kelp extent was reconstructed from aerial photographs (1946-2016) digitised at 1:5000. Canopy polygons "
     "were ground-truthed by snorkel at 40 haphazard points per site in 2016-2017, and classification accuracy was assessed "
     "with a confusion matrix (overall accuracy 91%).",
     "No diving transects at all: they digitised aerial photos from 1946 to 2016 and ground-truthed the canopy polygons "
     "by snorkel at 40 points per site."),
    ("Temperature was logged hourly at 5 and 15 m (HOBO TidbiT v2). Kelp condition was scored on 30 haphazardly selected "
     "sporophytes per site per visit using a five-level necrosis index, and recruitment was counted in 1 m2 quadrats "
     "cleared the previous season.",
     "Loggers at 5 and 15 m, a five-level necrosis score on 30 plants per site and visit, and recruit counts in cleared "
     "1 m² quadrats."),
]


def g_pdf(r, k):
    p = PAPERS[(k - 1) % 3 + 1]
    body, summ = PDF_METHODS[(k - 1) % len(PDF_METHODS)]
    words = body.split()
    lines, cur = [], ""
    for w in words:
        if len(cur) + len(w) > 86:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + " " + w).strip()
    lines.append(cur)
    sec = "2.%d Methods\n" % r.randint(2, 4) + "\n".join(lines)
    ep = U("What did %s actually do for their survey design? Just the methods." % p[0].split(" et al.")[0])
    ep += T("Reading the methods section.", "read_pdf", {"doi": p[4], "section": "methods", "max_chars": 1500}, sec)
    ep += A(summ)
    u, a = r.choice([("Basically what we do, good.", "Yes — comparable enough to cite as precedent."),
                     ("Our quadrats are bigger, but close enough to compare.", "Close enough, as long as you convert to per-m² densities."),
                     ("Hm, not directly comparable then.", "Not directly — I'd cite it for context rather than as a methods precedent.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_na(r, k):
    cols = ["site", "transect", "quadrat", "date", "depth_m", "stipe_count", "canopy_pct", "urchin_count", "diver", "temp_c"]
    vals = [0, 0, 0, 0, r.randint(0, 30), r.randint(0, 12), r.randint(5, 60), r.randint(0, 9), r.randint(0, 3), r.randint(40, 300)]
    out = "\n".join(["%-14s %d" % (c, v) for c, v in zip(cols, vals)] + ["dtype: int64"])
    ep = U("How many missing values are in the transect data now that the October dives are in?" if k == 1 else
           "Recount the NAs per column after the latest merge, please.")
    ep += T("Counting NAs per column.", "run_python", {"code": "import pandas as pd\ndf = pd.read_csv('data/raw/transects_all.csv')\nprint(df.isna().sum())"}, out)
    ep += A("Mostly complete. The biggest gap is temp_c (%d missing), which is the logger that flooded in winter; the %d "
            "canopy gaps are low-visibility dives." % (vals[-1], vals[6]))
    u, a = r.choice([("Leave NAs as they are for now.", "Leaving them."),
                     ("Flag the low-vis dives in a column instead of dropping them.", "Added a vis_flag column; nothing dropped.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_plot(r, k):
    what = pick(r, "c.plot", [("the canopy time series", "year", "canopy cover (%)"), ("the urchin density boxplot", "site", "urchins per m²"),
                              ("the temperature anomaly panel", "month", "SST anomaly (°C)")])
    ep = U("The axis labels on %s are tiny and the x-axis says '%s'. Can you fix it?" % (what[0], what[1]))
    ep += T("Patching the plotting function and re-rendering.", "run_r",
            {"code": "source('R/plots.R')\np <- plot_%s(dat) + labs(x = '%s', y = '%s') + theme_bw(base_size = 13)\nggsave('figs/%s.png', p, width = 170, height = 110, units = 'mm', dpi = 300)" % (
                what[0].split()[1], what[1].title(), what[2], what[0].split()[1])},
            d("""
            Saving 170 x 110 mm image
            Warning message:
            Removed {n} rows containing missing values or values outside the scale range
            (`geom_point()`).
            figs/{f}.png written (1,{kb} kB)
            """).format(n=r.randint(2, 40), f=what[0].split()[1], kb=r.randint(100, 900)))
    ep += A("Re-rendered at base size 13 with proper labels. The warning is just the NA rows being dropped from the points layer.")
    return ep


STATS = [
    ("Remind me why we'd use a negative binomial instead of Poisson for the stipe counts?",
     "Because the counts are overdispersed — the variance is far bigger than the mean, with lots of zeros and a few dense "
     "patches. Poisson would make the standard errors too small and the effects look more certain than they are."),
    ("Is it okay to have site as a random effect with only four sites?",
     "It's borderline. With four levels the variance estimate is shaky; many people would fit site as a fixed effect instead, "
     "or keep it random but not interpret the variance. Transect nested in site as random is fine."),
    ("What's the difference between a zero-inflated and a hurdle model in plain words?",
     "Zero-inflated: zeros come from two places — structural 'no kelp possible' and chance zeros. Hurdle: one process decides "
     "zero vs non-zero, a second one models how many given at least one. For barrens vs kelp, hurdle is often easier to explain."),
    ("Should I report AIC or just p-values for the model comparison?",
     "Report AIC (or AICc with this sample size) for the candidate set and the likelihood-ratio test for the key term. "
     "Reviewers in this field will expect both."),
    ("How do I explain a random slope to a reviewer who clearly hates mixed models?",
     "Say it plainly: we let the effect of year differ between sites, because sites clearly recovered at different rates, "
     "and we estimate the average trend while accounting for that."),
]


def g_stats(r, k):
    q, a = pick(r, "c.stats", STATS)
    ep = U(q) + A(a)
    if r.random() < 0.4:
        u, a = r.choice([("Okay, that's what I thought.", "Sure."),
                         ("Good, that's going in the response letter.", "Happy to write the sentence for it if you want."),
                         ("Thanks, brain is slow today.", "No worries.")])
        ep += U(u)
        ep += A(a)
    return ep


SMALLTALK = [
    ("It's blowing a gale outside. Very glad I'm not diving today.", "Good day for data instead — shall we keep going?"),
    ("Coffee number two. The lab machine is broken again so this is instant. Tragic.", "Condolences. Let's make the work worth it."),
    ("Someone left a bucket of urchins in the wet lab sink. Science!", "Hopefully labelled. What's next on the list?"),
    ("I've been staring at residual plots for an hour, my eyes hurt.", "Take five — I can queue the next model meanwhile."),
    ("Quick break, back in ten.", "Okay, nothing is running."),
    ("Reviewer 2 strikes again, by the way. Different paper.", "Of course they do. Want help with that one later?"),
    ("The penguins on the harbour cam are hilarious today.", "A very reasonable distraction."),
]


def g_smalltalk(r, k):
    u, a = pick(r, "c.smalltalk", SMALLTALK)
    return U(u) + A(a)


EMAILS = [
    ("Draft a short email to the boat operator asking whether they can carry 12 scuba tanks plus the compressor.",
     "Draft:\n\n\"Hi — for our upcoming field days we'd be carrying 12 scuba cylinders plus a portable compressor (about "
     "45 kg). Is that within your load limits, and is there anything you need from us in advance? Thanks!\""),
    ("Write to the honours student that her draft is good but the methods need the depth range and the dates.",
     "Draft:\n\n\"Great work on the draft — the results read well. Before the next version, please add the depth range and "
     "the survey dates to the methods; reviewers will ask for both.\""),
    ("Email the lab manager to ask if the wet lab tanks are free in the last week of January.",
     "Draft:\n\n\"Hi — could we book two of the flow-through tanks for the last week of January for a short grazing trial? "
     "Happy to work around anything already scheduled.\""),
]


def g_email(r, k):
    q, a = pick(r, "c.emails", EMAILS)
    ep = U(q) + A(a)
    ep += U(r.choice(["Send it.", "Good, send.", "Tweak the tone to be less formal, then send."]))
    ep += T("Sending.", "send_email", {"draft": "last", "send": True},
            J({"status": "sent", "id": "msg_%s" % hx(r, 10), "timestamp": "2026-11-16T%02d:%02d:00+11:00" % (r.randint(9, 17), r.randint(0, 59))}))
    ep += A("Sent.")
    return ep


def g_squeue(r, k):
    rows = ["JOBID     PARTITION  NAME              USER      ST  TIME      NODES  NODELIST(REASON)"]
    for i in range(r.randint(5, 9)):
        st = r.choice(["R", "R", "R", "PD"])
        rows.append("%-9d %-10s %-17s %-9s %-3s %-9s %-6d %s" % (
            7720000 + r.randint(0, 9999), r.choice(["general", "highmem", "general"]),
            r.choice(["sdm_fit_%02d" % i, "boot_nb_%02d" % i, "raster_tile_%02d" % i]), "lachterb", st,
            "%d:%02d:%02d" % (r.randint(0, 5), r.randint(0, 59), r.randint(0, 59)) if st == "R" else "0:00",
            1, "node%03d" % r.randint(1, 120) if st == "R" else "(Priority)"))
    ep = U(r.choice(["How are my jobs on the cluster doing?", "Anything of mine still queued on the HPC?"]))
    ep += T("Checking the queue.", "run_shell", {"cmd": "squeue -u lachterb"}, "\n".join(rows))
    n_pd = sum(1 for l in rows[1:] if " PD " in l)
    ep += A("%d running%s." % (len(rows) - 1 - n_pd, ", %d waiting on priority" % n_pd if n_pd else ", nothing pending"))
    return ep


def g_tides(r, k):
    stn = pick(r, "c.tides", ["Spring Bay", "Stanley", "Low Head", "Devonport"])
    rows = ["station: %s   datum: LAT   tz: AEDT" % stn, "date        time   height_m  type"]
    for dd in range(3):
        for t, typ in [("0%d:%02d" % (r.randint(1, 5), r.randint(0, 59)), "low"), ("%02d:%02d" % (r.randint(7, 11), r.randint(0, 59)), "high"),
                       ("%02d:%02d" % (r.randint(13, 17), r.randint(0, 59)), "low"), ("%02d:%02d" % (r.randint(19, 23), r.randint(0, 59)), "high")]:
            rows.append("2026-11-%02d  %s  %.2f      %s" % (20 + dd, t, r.uniform(0.2, 0.5) if typ == "low" else r.uniform(1.1, 1.6), typ))
    ep = U("What do the tides look like at %s at the end of the week? For the snorkel checks." % stn)
    ep += T("Looking up the tide predictions.", "tide_lookup", {"station": stn, "from": "2026-11-20", "days": 3}, "\n".join(rows))
    ep += A("Morning lows are best for snorkel checks; the Friday one is the lowest of the three days.")
    return ep


def g_worms(r, k):
    sp = pick(r, "c.worms", SPECIES)
    auth = {"Macrocystis pyrifera": "(Linnaeus) C.Agardh, 1820", "Ecklonia radiata": "(C.Agardh) J.Agardh, 1848",
            "Phyllospora comosa": "(Labillardière) C.Agardh, 1839", "Centrostephanus rodgersii": "(A. Agassiz, 1864)",
            "Heliocidaris erythrogramma": "(Valenciennes, 1846)", "Jasus edwardsii": "(Hutton, 1875)",
            "Undaria pinnatifida": "(Harvey) Suringar, 1873", "Lessonia corrugata": "A.H.S.Lucas, 1931"}[sp]
    out = {"AphiaID": r.randint(140000, 500000), "scientificname": sp, "authority": auth, "status": "accepted",
           "rank": "Species", "valid_name": sp, "kingdom": "Chromista" if sp.split()[0] in ("Macrocystis", "Ecklonia", "Phyllospora", "Undaria", "Lessonia") else "Animalia",
           "isMarine": 1, "isBrackish": 0, "modified": "2024-0%d-1%dT09:12:00Z" % (r.randint(1, 9), r.randint(0, 9))}
    ep = U("Is '%s' still the accepted name, and what's the authority? The copy editor is asking." % sp)
    ep += T("Checking WoRMS.", "worms_lookup", {"name": sp}, J(out))
    ep += A("Yes, accepted as %s %s." % (sp, auth))
    return ep


def g_sst(r, k):
    rows = ["logger_id,site,first,last,n_obs,mean_c,min_c,max_c"]
    for i, s in enumerate(SITES):
        mean = r.uniform(13.5, 16.5)
        rows.append("HOBO-%d,%s,2026-08-0%d,2026-11-1%d,%d,%.2f,%.2f,%.2f" % (21040 + i * 7, s.split(" (")[0], r.randint(1, 9), r.randint(0, 5),
                                                                          r.randint(4000, 4800), mean, mean - r.uniform(1, 2), mean + r.uniform(1.5, 3)))
    ep = U("Summarise the temperature loggers we pulled last week.")
    ep += T("Summarising the logger files.", "run_python", {"code": "summarise_loggers('data/raw/loggers/2026-11/')"}, "\n".join(rows))
    ep += A("All four loggers ran the full deployment. The deep reef stayed coolest, as expected; no heatwave-level maxima.")
    return ep


def g_git(r, k):
    out = d("""
        On branch {b}
        Your branch is ahead of 'origin/{b}' by {n} commits.

        Changes not staged for commit:
          modified:   R/models.R
          modified:   R/plots.R
          modified:   analysis/{rmd}

        Untracked files:
          figs/draft_{f}.png
          scratch/
        """).format(b=pick(r, "c.branch", ["main", "nb-models", "revision-2"]), n=r.randint(1, 6),
                    rmd=r.choice(["03_models.Rmd", "04_figures.Rmd"]), f=hx(r, 4))
    ep = U("What's the state of the analysis repo? I don't want to lose anything.")
    ep += T("Checking git.", "run_shell", {"cmd": "cd ~/kelp-analysis && git status"}, out)
    ep += A(r.choice(["Uncommitted edits in the model and plot scripts plus an Rmd, and some commits not pushed yet. Shall I "
                      "commit the scripts and push? I'd leave scratch/ out.",
                      "Nothing lost, but there are unpushed commits and edits in three files. Want me to commit the scripts and "
                      "push, leaving scratch/ alone?"]))
    u, a = r.choice([("Yes, commit and push.", "Committed and pushed."), ("Commit, but don't push yet.", "Committed locally; nothing pushed."),
                     ("Commit the R files only.", "Committed the two R scripts; the Rmd and scratch are untouched.")])
    ep += U(u)
    ep += A(a)
    return ep


REVIEWS = [
    ("Reviewer 1 says our transplant plots might be pseudoreplicated. Draft a response?",
     "Draft: \"We agree this is important. Transplant plots were nested within sites and the model includes site and plot as "
     "random effects, so inference on treatment is made at the plot level, not the quadrat level. We have clarified this in "
     "Methods 2.4.\""),
    ("Reviewer 2 wants us to cite their own 2009 paper. It's barely relevant. Response?",
     "Draft: \"We thank the reviewer for the suggestion and have added the reference where we discuss early barren "
     "formation (Discussion, para 2).\" — one sentence, minimal fuss."),
    ("Reviewer 3 asks why we didn't measure light. How do we answer?",
     "Draft: \"Light was not measured directly; turbidity was similar among sites (Secchi depth, Table S2) and depth was "
     "standardised, so we expect light differences to be small. We note this as a limitation.\""),
]


def g_review(r, k):
    q, a = pick(r, "c.review", REVIEWS)
    ep = U(q) + A(a)
    u, a = r.choice([("Perfect, into the response doc.", "Added to the response document."),
                     ("Slightly less grovelling, please.", "Toned it down and added it."),
                     ("Good.", "Saved.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_caption(r, k):
    fig = pick(r, "c.caption", ["urchin density by site and year", "canopy cover before and after transplanting", "temperature anomalies 2019-2026"])
    ep = U("Write a caption for the figure showing %s. Journal style, under 60 words." % fig)
    ep += A("\"Figure %d. %s at the four study sites. Points show quadrat means; lines are model predictions with 95%% "
            "confidence intervals. Shaded band marks the 2022–23 marine heatwave.\"" % (r.randint(2, 5), fig[0].upper() + fig[1:]))
    u, a = r.choice([("Good.", "Okay."), ("Drop the heatwave band sentence, it's not in this one.", "Removed."), ("Nice, thanks.", "Anytime.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_units(r, k):
    cnt, size = r.randint(8, 40), pick(r, "c.units", [0.25, 1.0, 0.5])
    ep = U("Quick sanity check: %d urchins in a %.2f m² quadrat is how many per m²?" % (cnt, size))
    ep += A("%.1f per m²." % (cnt / size))
    return ep


def g_zotero(r, k):
    p = pick(r, "c.zotero", PAPERS[3:])
    out = {"key": hx(r, 8).upper(), "itemType": "journalArticle", "title": p[2], "creators": p[0], "date": str(p[1]),
           "publicationTitle": p[3], "DOI": p[4], "tags": ["kelp", "to-cite"], "collections": ["Intro", "Discussion"]}
    ep = U("Do we already have the %s paper in Zotero? The one about '%s'." % (p[0].split(" et al.")[0].split(" &")[0], p[2][:40]))
    ep += T("Searching the group library.", "zotero_search", {"q": p[2][:40], "library": "group"}, J(out))
    ep += A("Yes — it's in the group library, tagged to-cite, in the Intro and Discussion collections.")
    return ep


def g_long_dataset(r, k):
    rows = ["site,transect,quadrat,date,depth_m,stipe_count,canopy_pct,urchin_count,diver"]
    for i in range(112):
        s = r.choice(["A", "B", "C", "D"])
        rows.append("%s,T%d,Q%02d,2026-10-%02d,%.1f,%d,%d,%d,%s" % (s, r.randint(1, 4), r.randint(1, 10), r.randint(5, 28), r.uniform(7.5, 12.5),
                                                                   r.choice([0, 0, 1, 2, 3, 5, 8]), r.randint(0, 80), r.randint(0, 14),
                                                                   r.choice(["NW", "LA", "TK", "JB"])))
    ep = U("Print the October dives from the raw transect file so I can eyeball them before we merge.")
    ep += T("Here's October, as recorded.", "run_shell", {"cmd": "csvgrep -c date -r '^2026-10' data/raw/transects_all.csv | head -113"}, "\n".join(rows))
    ep += A("Looks clean overall. A few quadrats show high urchin counts with non-zero canopy at site C, which fits the barrens "
            "edge. No obvious typos in depth.")
    ep += U("Good, merge them.")
    ep += A("Merged into the working dataset.")
    return ep


def g_long_model(r, k):
    lines = [" Family: nbinom2  ( log )", "Formula:          stipe_count ~ treatment * year_c + (1 | site/transect)",
             "Data: dat", "", "     AIC      BIC   logLik deviance df.resid",
             "  %.1f   %.1f  %.1f   %.1f     %d" % (r.uniform(5000, 5200), r.uniform(5200, 5300), -r.uniform(2500, 2600), r.uniform(5000, 5200), r.randint(1180, 1190)),
             "", "Random effects:", "", "Conditional model:", " Groups        Name        Variance Std.Dev.",
             " transect:site (Intercept) %.3f    %.3f" % (r.uniform(0.1, 0.4), r.uniform(0.3, 0.6)),
             " site          (Intercept) %.3f    %.3f" % (r.uniform(0.2, 0.8), r.uniform(0.4, 0.9)),
             "Number of obs: 1196, groups:  transect:site, 16; site, 4", "",
             "Dispersion parameter for nbinom2 family (): %.2f" % r.uniform(0.8, 1.6), "", "Conditional model:",
             "                               Estimate Std. Error z value Pr(>|z|)"]
    for term in ["(Intercept)", "treatmenttransplant", "treatmenturchin_removal", "year_c", "treatmenttransplant:year_c", "treatmenturchin_removal:year_c"]:
        est = r.uniform(-1, 1.6)
        se = r.uniform(0.05, 0.3)
        lines.append("%-30s %8.4f %10.4f %7.2f %8.3g" % (term, est, se, est / se, r.uniform(0.00001, 0.3)))
    lines += ["---", "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1", "", "DHARMa residual diagnostics", "=" * 40]
    for i in range(80):
        lines.append("quantile_bin %02d  expected %.3f  observed %.3f  %s" % (i + 1, (i + 0.5) / 80, min(1, max(0, (i + 0.5) / 80 + r.uniform(-0.02, 0.02))),
                                                                              "ok" if r.random() > 0.05 else "dev"))
    lines += ["", "KS test: D = %.4f, p-value = %.3f" % (r.uniform(0.01, 0.04), r.uniform(0.2, 0.9)),
              "Dispersion test: ratio = %.3f, p-value = %.3f" % (r.uniform(0.9, 1.1), r.uniform(0.3, 0.9)),
              "Zero-inflation test: ratio = %.3f, p-value = %.3f" % (r.uniform(0.95, 1.08), r.uniform(0.3, 0.9)),
              "Outlier test: %d outliers, p-value = %.3f" % (r.randint(0, 3), r.uniform(0.3, 0.9))]
    ep = U("Refit the negative binomial with the October data and show me the whole summary plus the DHARMa checks.")
    ep += T("Refitting and printing everything.", "run_r",
            {"code": "m <- glmmTMB(stipe_count ~ treatment * year_c + (1 | site/transect), family = nbinom2, data = dat)\nsummary(m)\nprint_dharma(m, bins = 80)"},
            "\n".join(lines))
    ep += A("Residual diagnostics are fine: no dispersion, zero-inflation or outlier problems, and the quantile bins track "
            "the expectation. The transplant-by-year interaction carries the story.")
    return ep


def g_meeting(r, k):
    ep = U(pick(r, "c.meeting", ["When's the next lab meeting and am I presenting?", "Did the lab meeting move this week?"]))
    ep += T("Checking the lab calendar.", "calendar_list", {"calendar": "lab", "from": "2026-11-16", "days": 7},
            d("""
            Tue 17 Nov  10:00-11:00  Lab meeting — presenter: Tom (urchin culling update)
            Wed 18 Nov  14:00-15:00  Dive safety briefing (compulsory)
            Thu 19 Nov  12:30-13:30  Seminar: "Seaweed aquaculture in Tasmania"
            Tue 24 Nov  10:00-11:00  Lab meeting — presenter: you (transplant results)
            Fri 27 Nov  16:00-17:00  End-of-year drinks planning
            """))
    if k == 1:
        ep += A("Tomorrow at 10 is Tom; you're presenting the week after, on the 24th. The dive safety briefing on Wednesday is compulsory.")
    else:
        ep += A("No, still tomorrow at 10 with Tom presenting. Yours is on the 24th.")
    return ep


def g_marine_wx(r, k):
    day = pick(r, "c.mwx", ["Thursday", "Friday", "Saturday"])
    out = {"location": "Tasman Peninsula (east coast)", "day": day,
           "periods": [{"time": t, "wind_kts": "%s %d-%d" % (r.choice(["SW", "W", "NW", "S"]), a, a + 8), "swell_m": round(r.uniform(0.8, 2.6), 1),
                        "period_s": r.randint(8, 13)} for t, a in [("06:00", r.randint(5, 15)), ("12:00", r.randint(10, 20)), ("18:00", r.randint(5, 20))]]}
    ep = U("What's the marine forecast for %s off the peninsula? Thinking about a quick snorkel check." % day)
    ep += T("Fetching the coastal forecast.", "marine_forecast", {"area": "Tasman Peninsula", "day": day}, J(out))
    mx = max(p["swell_m"] for p in out["periods"])
    ep += A("Swell peaks at %.1f m; %s" % (mx, "fine for snorkelling in the morning." if mx < 1.8 else "I'd skip it — too much surge in the shallows."))
    return ep


def g_grant_text(r, k):
    part = pick(r, "c.grant", ["progress against milestone 2", "the engagement and outreach section", "the data management statement"])
    ep = U("Draft a short paragraph for the annual grant report on %s." % part)
    if "milestone" in part:
        txt = ("Milestone 2 (establish transplant plots at four sites) is complete. Plots were established in autumn 2026 "
               "and surveyed twice; early survival exceeds the target and monitoring continues through the summer season.")
    elif "outreach" in part:
        txt = ("The team delivered four public talks, two school visits and a citizen-science snorkel day, and contributed "
               "footage to a regional documentary on kelp loss.")
    else:
        txt = ("Raw and processed survey data are stored on the institutional research data store with nightly backups. Data "
               "will be published with a DOI on acceptance of the first paper, under a CC-BY licence.")
    ep += A("Draft:\n\n" + txt)
    u, a = r.choice([("Good enough for the funder.", "Saved to the report draft."), ("Perfect.", "Added."),
                     ("Make it one sentence shorter and it's done.", "Trimmed and saved.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_conda(r, k):
    pkg = pick(r, "c.conda", ["terra", "sf", "glmmTMB"])
    out = d("""
        Collecting package metadata (repodata.json): done
        Solving environment: failed

        LibMambaUnsatisfiableError: Encountered problems while solving:
          - package r-{p}-1.7_78 requires r-base >=4.4,<4.5.0a0, but none of the providers can be installed

        Could not solve for environment specs
        The following packages are incompatible
        ├─ r-base 4.3.3** is requested and can be installed;
        └─ r-{p} 1.7_78** is not installable because it requires
           └─ r-base >=4.4,<4.5.0a0 , which conflicts with any installable versions previously reported.
        """).format(p=pkg)
    ep = U("Install the latest %s into the analysis env, please." % pkg)
    ep += T("Installing.", "run_shell", {"cmd": "mamba install -n kelp-r -c conda-forge r-%s" % pkg}, out)
    ep += A("The newest build needs R 4.4 and the env is pinned to 4.3. Either pin the older %s version or upgrade the whole "
            "env to R 4.4 — the second is cleaner but means re-checking the models." % pkg)
    ep += U("Pin the older one, I'm not touching R versions mid-revision.")
    ep += A("Pinned; installed the last build that supports R 4.3.")
    return ep


FILLER = [g_lit, g_pdf, g_na, g_plot, g_stats, g_smalltalk, g_email, g_squeue, g_tides, g_worms, g_sst, g_git,
          g_review, g_caption, g_units, g_zotero, g_meeting, g_marine_wx, g_grant_text, g_conda, g_stats, g_smalltalk]
LONG = [g_long_dataset, g_long_model]


# ---------------------------------------------------------------- scripted
def ep_intro():
    ep = U("Hi — I'm Lorraine Achterberg, postdoc in the kelp restoration group, though if you call me Lorraine I'll assume "
           "I'm in trouble; it's Rainey to everyone.", f="c-01")
    ep += A("Nice to meet you. I can search papers, run R and Python on the analysis repo, use the cluster and the cloud "
            "project, and draft emails. What's first?")
    ep += U("First, context dump, then real work. Bear with me.")
    ep += A("Go ahead, I'm listening.")
    return ep


def ep_city():
    ep = U("I'm in Hobart, so times are AEDT unless I say otherwise — and yes, that means I answer emails from Europe at 11pm "
           "like a fool.", f="c-02")
    ep += A("Noted: I'll give times in AEDT and convert anything from collaborators abroad.")
    return ep


def ep_code():
    ep = U("Everything for the restoration trials lives under our internal project code SFR-2207 — data folders, the cost "
           "centre, the lot — so please name new files and folders with it.", f="c-03")
    ep += A("Will do; new outputs will carry it as a prefix.")
    ep += U("Thanks. The old files are a mess, don't rename those.")
    ep += A("Understood, only new files.")
    return ep


def ep_viridis():
    ep = U("For every figure, use the viridis palette — two of our co-authors are colour-blind and I got burned by a rainbow "
           "heatmap in review once. Never again.", f="c-05")
    ep += A("Noted for all figures, continuous and discrete.")
    return ep


def ep_citation():
    ep = U("And references in Chicago author-date, please. The journal wants it and I've given up fighting about it.", f="c-06")
    ep += A("Okay — I'll switch the Zotero export style for this manuscript.")
    return ep


def ep_site_stale():
    ep = U("Main survey site for the transplants is Fortescue Bay — sheltered, good visibility, and the boat ramp there doesn't "
           "fall apart every winter.", f="c-07")
    ep += A("Got it. I'll use it as the default site for the field planning.")
    return ep


def ep_trip_stale():
    ep = U("First field trip of the season is 2027-02-08, four days on the water if the weather plays along.", f="c-08")
    ep += A("Noted. I'll start the tide and forecast checks a week before.")
    ep += U("And the dive plan has to go to the safety officer two weeks ahead, don't let me forget.")
    ep += A("I'll set a reminder for that too.")
    return ep


def ep_ngaio():
    ep = U("Ngaio is our field tech — she's the one with the dive logs and the boat licence, so anything about the dive "
           "schedule goes through her before it goes anywhere else.", f="c-09")
    ep += A("Understood. I'll copy her on anything that touches the dive schedule.")
    return ep


def ep_deadline_stale():
    ep = U("The special issue deadline is 2027-04-30, which is tight but doable if the February trip actually happens.", f="c-15")
    ep += A("That gives roughly ten weeks after the trip for analysis and writing. Tight, but workable if the models are ready beforehand.")
    return ep


def ep_aroha():
    ep = U("Aroha Pene from Auckland is second author and does the genetics — send her the draft before anyone else sees it, "
           "she's earned that.", f="c-20")
    ep += A("Noted: she gets the draft first.")
    return ep


def ep_budget():
    ep = U("Budget check for planning: we've got A$14,300 left in consumables for this financial year, and the boat days come "
           "out of a different line, thankfully.", f="c-22")
    ep += A("Good. The quadrat frames and tags are the big consumable items; I'll keep a running total against that.")
    return ep


def ep_vpn_ticket():
    out = {"result": {"number": "INC0482917", "short_description": "GlobalProtect VPN fails with 'gateway unreachable' off campus",
                      "state": "In Progress", "priority": "3 - Moderate", "assignment_group": "Campus Digital Services - Network",
                      "assigned_to": "K. Marsh", "opened_at": "2026-11-13 16:40:12", "caller_id": "lachterb",
                      "comments": "Known issue with the new gateway certificate for some macOS clients. Workaround: use the "
                                  "web portal until the client update is pushed (expected this week)."}}
    ep = U("My VPN has been broken since Friday and I logged something with IT. Can you check where that's at? I can't reach "
           "the data store from home.")
    ep += T("Looking up your open incidents.", "servicenow_query", {"table": "incident", "caller": "lachterb", "state": "open"}, J(out), f="c-10")
    ep += A("It's in progress with the network team: a known certificate problem on the new gateway for some Macs. The "
            "workaround is the web portal until they push a client update this week.")
    ep += U("Web portal it is. Ugh.")
    ep += A("I'll check the incident again on Thursday if it's still open.")
    return ep


def ep_po():
    out = d("""
        po_number=4500193826
        status=Approved
        supplier=Marine Field Supplies Pty Ltd
        cost_centre=SFR-2207
        raised_by=lachterb
        lines=4
        line_1=Stainless quadrat frame 0.25 m2 x 12
        line_2=Cable ties UV-stable 300 mm x 1000
        line_3=Writing slates A4 x 6
        line_4=Mesh catch bags 20 L x 10
        total_aud=3184.60
        expected_delivery=2026-11-27
        """)
    ep = U("Did the order for the quadrat frames go through? Finance sat on it for two weeks last time.")
    ep += T("Checking the procurement system.", "procurement_lookup", {"raised_by": "lachterb", "since": "2026-11-01"}, out, f="c-11")
    ep += A("Approved this time, delivery expected on the 27th. About A$3.2k, so well within the consumables budget.")
    ep += U("Miracles happen.")
    ep += A("Apparently. I'll watch for the delivery notice.")
    return ep


def ep_yaml_region():
    yaml = d("""
        # config/batch.yaml — species distribution model pipeline
        project: kelp-lab-analysis
        batch:
          region: australia-southeast2
          machine_type: c2d-highmem-16
          spot: true
          max_parallel_tasks: 24
        storage:
          bucket: gs://kelp-lab-rasters
          scratch_gb: 200
        container:
          image: ghcr.io/kelp-lab/sdm-pipeline:2.3.1
        retry:
          max_attempts: 3
          on_preemption: true
        """)
    ep = U("Before I launch the big SDM run on the cloud, show me the batch config. Last time somebody left it pointing at a "
           "US bucket and we paid egress for a month.")
    ep += T("Reading the pipeline config.", "read_file", {"path": "~/kelp-sdm/config/batch.yaml"}, yaml, f="c-04")
    ep += A("Region and bucket are both local this time, spot instances with up to 24 tasks in parallel, and preemptions "
            "retry up to three times. Safe to launch.")
    ep += U("Launch it.")
    ep += T("Submitting.", "run_shell", {"cmd": "cd ~/kelp-sdm && ./run_batch.sh --config config/batch.yaml --tiles all"},
            d("""
            Submitting 96 tiles as 1 batch job (24 parallel)...
            Job name: sdm-tiles-20261116-1422
            State: QUEUED
            Monitor: gcloud batch jobs describe sdm-tiles-20261116-1422
            Estimated runtime: 1h50m at full parallelism
            """))
    ep += A("Queued; it should be done in about two hours.")
    return ep


def ep_vm():
    out = {"id": "8391027745112093318", "name": "kelp-sdm-worker-01", "machineType": "n2-standard-8", "status": "RUNNING",
           "creationTimestamp": "2026-03-04T18:22:51.482-08:00", "lastStartTimestamp": "2026-11-02T09:11:04.116-08:00",
           "disks": [{"deviceName": "boot", "diskSizeGb": "200", "type": "PERSISTENT"}],
           "labels": {"owner": "lachterb", "purpose": "rstudio-server"},
           "networkInterfaces": [{"networkIP": "10.152.0.14"}]}
    ep = U("The persistent RStudio box is still running, isn't it? IT want the instance id for their asset register.")
    ep += T("Describing it.", "run_shell",
            {"cmd": "gcloud compute instances describe kelp-sdm-worker-01 --format=json(id,name,machineType.basename(),status,creationTimestamp,lastStartTimestamp,disks,labels,networkInterfaces[].networkIP)"},
            J(out), f="c-12")
    ep += A("Yes, running since the 2nd on an n2-standard-8 with a 200 GB disk. It's been up two weeks straight — if you "
            "don't use it at night, a stop schedule would halve its cost.")
    ep += U("Good idea, stop it at 8pm and start at 7am on weekdays.")
    ep += A("Instance schedule created: weekdays 07:00–20:00 AEDT.")
    return ep


def ep_density():
    out = d("""
        # A tibble: 3 × 5
          treatment      n_quadrats mean_density    sd    se
          <chr>               <int>        <dbl> <dbl> <dbl>
        1 control               396        0.912  1.20 0.061
        2 transplant            412        3.874  2.34 0.115
        3 urchin_removal        388        1.657  1.87 0.095
        """)
    ep = U("What's the mean stipe density by treatment across all surveys so far?")
    ep += T("Summarising.", "run_r",
            {"code": "dat |> group_by(treatment) |> summarise(n_quadrats = n(), mean_density = mean(stipe_count / quadrat_m2), sd = sd(stipe_count / quadrat_m2), se = sd / sqrt(n_quadrats))"},
            out, f="c-13")
    ep += A("Transplant plots are far ahead of both other treatments, roughly four times the controls. Urchin removal alone "
            "helps, but much less.")
    ep += U("That's the headline, basically.")
    ep += A("It is — and the model agrees once site variation is accounted for.")
    return ep


def ep_decline():
    ep = U("For the intro I need the historical decline in canopy at our sites. We have the 2019 and 2026 aerial estimates, right?")
    ep += T("Pulling both estimates.", "run_python", {"code": "canopy = pd.read_csv('data/aerial/canopy_cover.csv'); print(canopy.groupby('year').cover_pct.mean().round(1))"},
            d("""
            year
            2019    61.2
            2022    49.8
            2026    44.3
            Name: cover_pct, dtype: float64
            """))
    ep += A("Canopy cover fell from 61.2% in 2019 to 44.3% in 2026, a relative decline of 27.6% across the four sites, with "
            "most of the drop before 2022.", f="c-14")
    ep += U("Nice, that's a clean sentence for the intro.")
    ep += A("I'll put it in with the aerial survey as the source.")
    return ep


def ep_power():
    ep = U("For the new sites next year: how many quadrats per site do we need to detect a 20% difference in density?")
    ep += T("Running a simulation-based power analysis on the current model.", "run_r",
            {"code": "pw <- power_sim(m, effect = 0.20, alpha = 0.05, target_power = 0.8, nsim = 1000)\nprint(pw)"},
            d("""
            Power simulation (nsim = 1000, nbinom2, effect = 20%)
            n_per_site   power   95% CI
                    30   0.52    0.49-0.55
                    40   0.64    0.61-0.67
                    50   0.74    0.71-0.77
                    60   0.82    0.80-0.84
            Interpolated n for power 0.80: 57.3
            """))
    ep += A("You'd need 58 quadrats per site for 80% power at a 20% effect — round it to 60 to leave room for a lost dive.", f="c-21")
    ep += U("60 it is. Ngaio will groan.")
    ep += A("Maybe warn her before the planning meeting rather than during.")
    return ep


def ep_clean_file():
    ep = U("Can you dedupe the merged transect data, convert depth to metres everywhere and save a clean copy for the models?")
    ep += T("Cleaning.", "run_python",
            {"code": "df = clean_transects('data/working/transects_merged.csv')\nprint(df.shape, df.duplicated().sum())"},
            d("""
            removed 37 exact duplicates
            converted 212 depth values from feet to metres
            (12408, 11) 0
            """))
    ep += A("I've saved the cleaned data as data/clean/transects_2019_2026_v4.parquet — 12,408 rows, duplicates removed, all "
            "depths in metres. The models now read from that file.", f="c-24")
    ep += U("Great. Delete the v3 one so nobody uses it by accident.")
    ep += A("Moved v3 to the archive folder instead of deleting it, just in case.")
    return ep


def ep_site_new():
    ep = U("Change of plan: Parks closed the Fortescue ramp for repairs until April, so the main transplant site moves to "
           "Eaglehawk Neck. Same depth range, slightly more swell.", f="c-17")
    ep += A("Updated the field plan. The new spot is more exposed, so I'll add a swell cut-off to the go/no-go checklist.")
    return ep


def ep_boat_booking():
    out = d("""
        booking_ref=TSC-7741
        vessel=MV Tessellate
        operator=Tasman Sea Charters
        date=2027-02-15
        days=4
        departure=07:00 from Pirates Bay jetty
        divers=6
        note=Requested start 2027-02-08 unavailable (slipway maintenance); moved to next free block
        status=CONFIRMED
        """)
    ep = U("Did the charter company confirm the boat for the February trip?")
    ep += T("Checking the booking portal.", "charter_booking_status", {"operator": "tasman-sea-charters", "customer": "kelp-lab"}, out, f="c-18")
    ep += A("Confirmed, but not on the week you asked for — their slipway is booked, so the four days moved one week later. "
            "Ngaio will need the new dates for the dive plan.")
    ep += U("Annoying but fine. Tell her, and move everything else in the plan by a week.")
    ep += A("Told her and shifted the plan, including the safety-officer deadline.")
    return ep


def ep_deadline_new():
    ep = U("Good news from the editors: the special issue deadline moved to 2027-05-31, so the February data can go in "
           "without a panic.", f="c-16")
    ep += A("That's a relief given the boat delay. I'll update the writing timeline.")
    return ep


def ep_zenodo():
    out = {"id": 14820377, "doi": "10.5281/zenodo.14820377", "conceptdoi": "10.5281/zenodo.14820376", "state": "done",
           "submitted": True, "metadata": {"title": "Giant kelp transplant monitoring, Tasman Peninsula 2019-2026 (v1.0)",
                                           "upload_type": "dataset", "access_right": "embargoed", "embargo_date": "2027-06-30",
                                           "license": "cc-by-4.0", "creators": [{"name": "Achterberg, L."}, {"name": "Pene, A."}, {"name": "Walker, N."}]},
           "links": {"html": "https://zenodo.org/records/14820377"}}
    ep = U("Publish the dataset on Zenodo under embargo until the end of June, so the journal's data-availability box isn't empty.")
    ep += T("Publishing the prepared deposition.", "zenodo_publish", {"deposition": "draft-kelp-2019-2026", "embargo_until": "2027-06-30"}, J(out), f="c-19")
    ep += A("Published under embargo until 30 June 2027, CC-BY. The concept DOI always points at the latest version; for "
            "the paper I'd cite the version DOI.")
    ep += U("Version one, yes.")
    ep += A("Added to the data availability statement.")
    return ep


def ep_grant_lookup():
    out = d("""
        grant_id=DP260101847
        scheme=Discovery Projects 2026
        title=Restoring giant kelp forests under marine heatwaves
        lead_ci=Prof. M. Walsh
        project_code=SFR-2207
        start=2026-01-01
        end=2028-12-31
        consumables_budget_2026=40000.00
        boat_days_budget_2026=22500.00
        status=Active
        """)
    ep = U("The acknowledgements section needs the grant number. Can you look it up? I never remember it.")
    ep += T("Looking it up in the research office system.", "grants_lookup", {"project_code": "SFR-2207"}, out, f="c-23")
    ep += A("Found it — the Discovery Project led by Prof. Walsh, running to the end of 2028. I've added the standard "
            "acknowledgement sentence with that number.")
    return ep


# ---------------------------------------------------------------- conv-2
def ep2_open():
    ep = U("Morning. Short day today, I've got a dentist at 3. Anything from the co-authors overnight?")
    ep += T("Checking the inbox.", "search_email", {"query": "is:unread newer_than:1d", "limit": 5},
            J([{"from": "Dr A. Pene", "subject": "Re: draft v3 — genetics section edits", "received": "2026-12-09T21:40:00+11:00"},
               {"from": "Tom Walker", "subject": "Culling numbers for Nov", "received": "2026-12-10T06:12:00+11:00"},
               {"from": "Research Office", "subject": "Permit approved", "received": "2026-12-10T07:55:00+11:00"}]))
    ep += A("Three: edits on the genetics section from your second author, Tom's November culling numbers, and the research "
            "office saying your permit was approved.")
    ep += U("The permit! Finally.")
    ep += A("Want me to file it with the field documents?")
    return ep


def ep2_permit():
    ep = U("Yes. Our DNRE research permit came through — number TFA 26112 — and it has to be written on every field-day log "
           "sheet or Parks will have words with us.", f="c-25")
    ep += A("Filed with the field documents and added to the log-sheet template header.")
    return ep


def ep2_boot():
    ep = U("Can you launch the bootstrap for the density model on the cluster? 2000 resamples, it'll take a while.")
    ep += T("Submitting the array job.", "run_shell", {"cmd": "cd ~/kelp-analysis && sbatch slurm/boot_nb.sbatch"},
            d("""
            sbatch: Account: kelp-lab (remaining allocation 41,220 SU)
            sbatch: Requested 20 tasks x 100 resamples, mem 8G, time 04:00:00
            sbatch: Partition: general
            Submitted batch job 7731650
            """), f="c-26")
    ep += A("Submitted as an array of 20 tasks, 100 resamples each. At current queue times it should finish this afternoon.")
    ep += U("Perfect, I'll check after the dentist.")
    ep += A("I'll have the combined intervals ready by then.")
    return ep


def ep2_draft():
    ep = U("Merge the genetics edits into the draft, and tell me if anything conflicts with the methods.")
    ep += T("Comparing her version with the current draft.", "run_shell", {"cmd": "cd ~/kelp-paper && latexdiff draft_v3.tex draft_v3_AP.tex | grep -c DIF"},
            d("""
            54
            Sections changed: 2.6 Genetic sampling; 3.4 Genetic diversity; Table 2; References (3 added)
            Conflicts with current Methods: 1 (extraction kit name differs between 2.6 and Supplementary S3)
            """))
    ep += A("Fifty-odd small edits in the genetics sections and three new references. One real conflict: the DNA extraction "
            "kit is named differently in Methods and in the supplement.")
    ep += U("She's right, the supplement is old. Use her version everywhere.")
    ep += A("Done — both now use her kit name.")
    return ep


def ep2_close():
    ep = U("Okay, I'm off to the dentist. Summary please, two lines.")
    ep += A("- Permit filed and added to the log-sheet template; bootstrap running on the cluster (20 tasks).\n- Genetics edits "
            "merged, extraction-kit naming fixed in the supplement.")
    ep += U("Legend. Bye!")
    ep += A("Good luck at the dentist.")
    return ep


FACTS = [
    dict(id="c-01", kind="name", value="Rainey", ask_in="conv-2",
         lexical="What does everyone call me instead of Lorraine?",
         para="Which nickname do I go by?"),
    dict(id="c-02", kind="place", value="Hobart", ask_in="conv-2",
         lexical="Which city am I in, given my times are AEDT?",
         para="Where do I live?"),
    dict(id="c-03", kind="code", value="SFR-2207", ask_in="conv-2",
         lexical="What is the internal project code for the restoration trials?",
         para="Which identifier do we use for the kelp replanting experiment?"),
    dict(id="c-04", kind="region", value="australia-southeast2", ask_in="conv-2",
         lexical="Which region is the batch config of the SDM pipeline set to?",
         para="Where does Google execute our heavy number-crunching jobs?"),
    dict(id="c-05", kind="preference", value="viridis", ask_in="conv-2",
         lexical="Which palette should every figure use?",
         para="What colormap do I want on all my plots?"),
    dict(id="c-06", kind="preference", value="Chicago author-date", ask_in="conv-2",
         lexical="Which style should the references be in?",
         para="How should citations be formatted in my manuscripts?"),
    dict(id="c-07", kind="place", value="Fortescue Bay", ask_in="conv-1"),
    dict(id="c-08", kind="date", value="2027-02-08", ask_in="conv-1"),
    dict(id="c-09", kind="name", value="Ngaio", ask_in="conv-1",
         lexical="Who is our field tech with the dive logs?",
         para="Who holds the skipper certification on our team?"),
    dict(id="c-10", kind="id", value="INC0482917", ask_in="conv-1",
         lexical="What is the incident number of my VPN ticket with IT?",
         para="What reference did the university helpdesk give my remote-access problem?"),
    dict(id="c-11", kind="id", value="4500193826", ask_in="conv-1",
         lexical="What is the PO number for the quadrat frames order?",
         para="Which procurement reference belongs to the survey equipment I asked the university to buy?"),
    dict(id="c-12", kind="id", value="8391027745112093318", ask_in="conv-1",
         lexical="What is the instance id of kelp-sdm-worker-01?",
         para="What's the numeric identifier of the cloud computer I use for interactive analysis?"),
    dict(id="c-13", kind="number", value="3.874", ask_in="conv-1",
         lexical="What is the mean_density for the transplant treatment?",
         para="On average, how many stalks per square metre grew where we replanted?"),
    dict(id="c-14", kind="number", value="27.6%", ask_in="conv-1",
         lexical="What was the relative decline in canopy cover between 2019 and 2026?",
         para="By what proportion did the forest shrink, according to your calculation?"),
    dict(id="c-15", kind="date", value="2027-04-30", ask_in="conv-1"),
    dict(id="c-16", kind="date", value="2027-05-31", ask_in="conv-2", corrects="c-15",
         lexical="When is the special issue deadline now?",
         para="By when must the manuscript reach the journal?"),
    dict(id="c-17", kind="place", value="Eaglehawk Neck", ask_in="conv-2", corrects="c-07",
         lexical="Where is the main transplant site now?",
         para="At which location will the divers be putting out the seedlings?"),
    dict(id="c-18", kind="date", value="2027-02-15", ask_in="conv-2", corrects="c-08",
         lexical="What date is the boat booking for the February trip?",
         para="When do we now first go out on the water this season?"),
    dict(id="c-19", kind="id", value="10.5281/zenodo.14820377", ask_in="conv-1",
         lexical="What is the version DOI of the dataset on Zenodo?",
         para="Which permanent identifier did our deposited observations receive?"),
    dict(id="c-20", kind="name", value="Aroha", ask_in="conv-2",
         lexical="Who is second author and does the genetics?",
         para="Which co-writer handles the DNA side of the paper?"),
    dict(id="c-21", kind="number", value="58 quadrats", ask_in="conv-1",
         lexical="How many quadrats per site do we need to detect a 20% difference?",
         para="What sample size did your simulation suggest for each new location?"),
    dict(id="c-22", kind="number", value="A$14,300", ask_in="conv-1",
         lexical="How much is left in consumables this financial year?",
         para="How much money remains for lab supplies?"),
    dict(id="c-23", kind="code", value="DP260101847", ask_in="conv-1",
         lexical="What is the grant_id for the acknowledgements?",
         para="Which award number from the research council pays for this work?"),
    dict(id="c-24", kind="other", value="transects_2019_2026_v4.parquet", ask_in="conv-1",
         lexical="What file did you save the cleaned data as?",
         para="What filename holds the tidied observations now?"),
    dict(id="c-25", kind="id", value="TFA 26112", ask_in="conv-2",
         lexical="What is our DNRE research permit number?",
         para="Which licence reference did the state issue allowing our sampling?"),
    dict(id="c-26", kind="id", value="7731650", ask_in="conv-2",
         lexical="What is the batch job number of the bootstrap I submitted?",
         para="Which number did the cluster scheduler assign to my uncertainty run?"),
]


def build(seed=20261116):
    rng = random.Random(seed)
    pool = Pool(FILLER, rng)
    longs = Pool(LONG, rng)
    F = pool.take
    c1 = [
        ep_intro(), ep_city(), ep_code(), F(2), ep_viridis(), F(1), ep_citation(), F(2), ep_site_stale(), F(1),
        ep_trip_stale(), F(2), ep_ngaio(), F(1), ep_deadline_stale(), F(2), ep_aroha(), F(2), ep_budget(), F(1),
        ep_vpn_ticket(), F(2), longs.take(1), ep_po(), F(2), ep_yaml_region(), F(2), ep_vm(), F(2), ep_density(), F(2),
        ep_decline(), F(2), ep_power(), F(2), ep_clean_file(), F(2), ep_site_new(), F(1), ep_boat_booking(), F(2),
        ep_deadline_new(), F(2), ep_zenodo(), F(2), longs.take(1), ep_grant_lookup(), F(6),
    ]
    pool2 = Pool([g_lit, g_stats, g_smalltalk, g_worms, g_units, g_caption, g_squeue, g_git], random.Random(seed + 1))
    c2 = [ep2_open(), ep2_permit(), pool2.take(2), ep2_boot(), pool2.take(3), ep2_draft(), pool2.take(2), ep2_close()]
    c2 = shift_dates(c2, "2026-11-", 24)
    return make_set("set-c", NOTE, "user-8842", [("conv-1", c1), ("conv-2", c2)], FACTS, seed)
