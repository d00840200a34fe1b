"""Set A: DevOps agent for a small invoicing SaaS ("Tallyhop").

The fact-bearing episodes are written by hand below; the filler episodes are
small, randomised but hand-phrased generators of everyday ops work.
"""
import random

from build_lib import A, J, Pool, T, TM, U, d, make_set, pick, redate

NOTE = (
    "Domain: an ops/DevOps agent with shell access helping the one-person infra team of a small "
    "invoicing SaaS (EKS, RDS Postgres, Terraform, ArgoCD, a CDN migration and a Postgres 13->16 "
    "upgrade). conv-1 is one long working day (2026-11-24) of pods, CI, Terraform plans, logs, cost "
    "questions and small talk; conv-2 is a later session (2026-12-07) about a new support case and "
    "upgrade prep. Facts were written by hand into user asides, assistant calculations/decisions and "
    "tool outputs (terraform JSON, logfmt inside a 120-line log, Helm values YAML, key=value host/"
    "build info, Cost Explorer JSON, openssl output). Four values get corrected later (on-call person, "
    "maintenance window, DR region, live release). Filler comes from ~24 randomised generators of "
    "routine ops work. Turn indices are 0-based. Written blind, without reading the library."
)

SVCS = ["api", "worker", "webhooks-dispatcher", "pdf-renderer", "billing-sync", "mailer", "scheduler", "web"]


def hx(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def rs(r, n):
    return "".join(r.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(n))


def pod(r, svc):
    return "%s-%s-%s" % (svc, hx(r, 9 if r.random() < 0.5 else 10), rs(r, 5))


# ---------------------------------------------------------------- filler
def g_pods(r, k):
    ns = r.choice(["prod", "staging", "tools"])
    lines = ["NAME                                      READY   STATUS             RESTARTS        AGE"]
    bad = None
    for s in r.sample(SVCS, 6):
        for _ in range(r.choice([1, 2, 2, 3])):
            p = pod(r, s)
            st, rst = "Running", str(r.choice([0, 0, 0, 1]))
            if bad is None and r.random() < 0.15:
                st, rst, bad = "CrashLoopBackOff", "%d (%dm ago)" % (r.randint(6, 30), r.randint(1, 5)), p
            lines.append("%-41s %-7s %-18s %-15s %s" % (p, "1/1" if st == "Running" else "0/1", st, rst,
                                                         "%dd" % r.randint(1, 12)))
    ep = U(r.choice([
        "Can you do a quick sweep of the %s namespace? Just want to know nothing is on fire." % ns,
        "Are all pods in %s happy right now?" % ns,
        "Give me a pod status for %s, I got a weird Slack ping." % ns,
    ]))
    ep += T("Listing pods in %s." % ns, "run_shell", {"cmd": "kubectl get pods -n %s" % ns}, "\n".join(lines))
    if bad:
        svc = bad.rsplit("-", 2)[0]
        hh, mm = r.randint(8, 11), r.randint(10, 58)
        cause = pick(r, "a.crash", [
            ('{"level":"error","ts":"2026-11-24T%02d:%02d:13Z","msg":"config error","error":"env var SMTP_RELAY_HOST is empty"}',
             "It dies on startup because SMTP_RELAY_HOST is empty — looks like the secret key was renamed in the last config change. "
             "The other replicas started before the change, so they're fine.",
             "Ugh, that was me. I'll fix the secret, leave it for now.", "Okay, leaving it. Only one replica is affected."),
            ('{"level":"error","ts":"2026-11-24T%02d:%02d:13Z","msg":"db connect failed","error":"connect ECONNREFUSED 10.40.3.41:6432"}',
             "It can't reach pgbouncer — the pgbouncer pod on that node was rescheduled a minute ago. It should recover on the next restart.",
             "Give it five minutes and check again.", "Will do — I'll look again in five minutes and only dig further if it's still looping."),
            ('{"level":"fatal","ts":"2026-11-24T%02d:%02d:13Z","msg":"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"}',
             "Heap exhaustion on startup: it replays a big backlog into memory before serving. The other replicas got through it because "
             "they started when the backlog was smaller.",
             "Delete the pod, the backlog is smaller now.", "Deleted; the replacement came up cleanly and is Ready."),
        ])
        tail = "\n".join([
            '{"level":"info","ts":"2026-11-24T%02d:%02d:11Z","msg":"starting %s","version":"sha-%s"}' % (hh, mm, svc, hx(r, 7)),
            '{"level":"info","ts":"2026-11-24T%02d:%02d:12Z","msg":"connecting to redis","addr":"redis-master.%s.svc:6379"}' % (hh, mm, ns),
            cause[0] % (hh, mm),
            '{"level":"info","ts":"2026-11-24T%02d:%02d:13Z","msg":"exiting","code":1}' % (hh, mm),
            '{"level":"info","ts":"2026-11-24T%02d:%02d:13Z","msg":"shutdown complete"}' % (hh, mm)])
        ep += T("One pod is crash-looping; pulling its previous logs.", "run_shell",
                {"cmd": "kubectl logs -n %s %s --previous --tail=20" % (ns, bad)}, tail)
        ep += A(cause[1])
        ep += U(cause[2])
        ep += A(cause[3])
    else:
        ep += A(r.choice([
            "All green: everything is Running, a couple of single restarts from days ago but nothing recent.",
            "Nothing on fire. All pods Running and ready; the odd restart is older than a day.",
            "Looks healthy — every pod is ready, no crash loops, no pending pods.",
        ]))
    return ep


def g_latency(r, k):
    ep_path = r.choice(["/v1/invoices", "/v1/customers/search", "/v1/reports/aging", "/v1/payments", "/v1/exports"])
    base = r.uniform(0.18, 0.6)
    rows = ["time                 p95_seconds"]
    for h in range(12):
        v = base * r.uniform(0.85, 1.25) * (1.8 if h in (8, 9) and k % 2 else 1)
        rows.append("2026-11-24 %02d:00     %.3f" % (h, v))
    ep = U(r.choice([
        "Somebody in sales says %s feels sluggish this morning. Can you check p95?" % ep_path,
        "What's p95 latency on %s been doing since midnight?" % ep_path,
    ]))
    ep += T("Querying the request-duration histogram.", "query_metrics",
            {"promql": 'histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket{route="%s"}[5m])))' % ep_path,
             "range": "12h", "step": "1h"}, "\n".join(rows))
    if k % 2:
        ep += A("There was a bump between 08:00 and 10:00 (roughly double the usual p95), and it has settled since. "
                "That lines up with the morning batch of recurring invoices.")
        ep += U("Fine, as long as it recovered. Note it for the capacity review.")
        ep += A("Noted in the capacity-review doc under 'morning batch contention'.")
    else:
        ep += A("Flat all night, p95 stays in the %d–%d ms band. If sales sees slowness it's probably on the client side "
                "or a specific customer with huge data." % (int(base * 850), int(base * 1250)))
    return ep


def g_tf_plan(r, k):
    bucket = pick(r, "a.tfbucket", ["tallyhop-prod-exports", "tallyhop-prod-pdf-cache", "tallyhop-ci-artifacts", "tallyhop-prod-logs-archive"])
    days = r.choice([14, 30, 45, 60, 90])
    ep = U("Can you add a lifecycle rule so objects in %s expire after %d days? It keeps growing and nobody reads old stuff." % (bucket, days))
    ep += T("Adding the rule in the storage module.", "run_shell",
            {"cmd": "cd ~/src/infra && git diff modules/storage/%s.tf" % bucket.replace("tallyhop-", "")},
            d("""
            diff --git a/modules/storage/{f}.tf b/modules/storage/{f}.tf
            @@ -18,6 +18,18 @@ resource "aws_s3_bucket_versioning" "this" {{
             }}
            +
            +resource "aws_s3_bucket_lifecycle_configuration" "expire_old" {{
            +  bucket = aws_s3_bucket.this.id
            +
            +  rule {{
            +    id     = "expire-after-{n}-days"
            +    status = "Enabled"
            +    filter {{}}
            +    expiration {{
            +      days = {n}
            +    }}
            +  }}
            +}}
            """.format(f=bucket.replace("tallyhop-", ""), n=days)))
    ep += T("Planning it.", "run_shell", {"cmd": "cd ~/src/infra/live/prod && terraform plan -target=module.storage -no-color | tail -25"},
            d("""
            module.storage.aws_s3_bucket.this["{b}"]: Refreshing state... [id={b}]
            module.storage.aws_s3_bucket_versioning.this["{b}"]: Refreshing state... [id={b}]

            Terraform used the selected providers to generate the following execution
            plan. Resource actions are indicated with the following symbols:
              + create

            Terraform will perform the following actions:

              # module.storage.aws_s3_bucket_lifecycle_configuration.expire_old["{b}"] will be created
              + resource "aws_s3_bucket_lifecycle_configuration" "expire_old" {{
                  + bucket                                 = "{b}"
                  + expected_bucket_owner                  = null
                  + id                                     = (known after apply)

                  + rule {{
                      + id     = "expire-after-{n}-days"
                      + status = "Enabled"

                      + expiration {{
                          + days                         = {n}
                          + expired_object_delete_marker = (known after apply)
                        }}
                    }}
                }}

            Plan: 1 to add, 0 to change, 0 to destroy.
            """.format(b=bucket, n=days)))
    ep += A("Plan is clean: one resource added, nothing changed or destroyed. Apply?")
    ep += U(r.choice(["Go.", "Yep, apply it.", "Ship it."]))
    ep += T("Applying.", "run_shell", {"cmd": "cd ~/src/infra/live/prod && terraform apply -target=module.storage -auto-approve -no-color | tail -6"},
            d("""
            module.storage.aws_s3_bucket_lifecycle_configuration.expire_old["{b}"]: Creating...
            module.storage.aws_s3_bucket_lifecycle_configuration.expire_old["{b}"]: Still creating... [10s elapsed]
            module.storage.aws_s3_bucket_lifecycle_configuration.expire_old["{b}"]: Creation complete after 14s [id={b}]

            Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
            """.format(b=bucket)))
    ep += A("Applied. S3 processes lifecycle rules asynchronously, so expect the first deletions within a day or two.")
    return ep


def g_ci(r, k):
    run = r.randint(8700, 8999)
    test = pick(r, "a.citest", [
        ("InvoicePdfService", "renders multi-page invoices with a totals footer", "Timeout - Async callback was not invoked within the 5000 ms timeout"),
        ("RecurringScheduler", "creates the next draft on the anniversary date", "Expected: 2026-12-24 Received: 2026-12-23"),
        ("WebhookSigner", "rejects signatures older than 5 minutes", "expect(received).toBe(expected) Expected: 401 Received: 200"),
    ])
    log = d("""
        test	Run npm test -- --ci --shard={s}/4
        test	> tallyhop-api@4.19.0 test
        test	> jest --ci --shard={s}/4
        test	PASS src/customers/customers.service.spec.ts (8.12 s)
        test	PASS src/auth/session.spec.ts
        test	FAIL src/{mod}/{mod2}.spec.ts (31.4 s)
        test	  ● {cls} › {name}
        test
        test	    {err}
        test
        test	      at Object.<anonymous> (src/{mod}/{mod2}.spec.ts:{ln}:{col})
        test
        test	PASS src/payments/stripe-events.spec.ts (12.9 s)
        test	Test Suites: 1 failed, 57 passed, 58 total
        test	Tests:       1 failed, 611 passed, 612 total
        test	Snapshots:   0 total
        test	Time:        94.315 s
        test	Ran all test suites.
        test	##[error]Process completed with exit code 1.
        """).format(s=r.randint(1, 4), mod=test[0].lower(), mod2=test[0][0].lower() + test[0][1:], cls=test[0], name=test[1],
                    err=test[2], ln=r.randint(40, 300), col=r.randint(5, 30))
    ep = U(r.choice(["CI is red on main again. What broke this time?", "Main pipeline failed, can you look?",
                     "Why is the build on main failing? I merged nothing scary."]))
    ep += T("Pulling the failed job log.", "run_shell", {"cmd": "gh run view %d --log-failed | tail -20" % run}, log)
    if "Timeout" in test[2]:
        ep += A("A timeout in the PDF test, which is the known flaky one — it renders with a real headless Chromium and the shared "
                "runners are slow at the moment. Nothing in your change touches it.")
    elif "Received: 2026-12-23" in test[2]:
        ep += A("The recurring-invoice test is off by one day. It computes 'one month from now' in local time and the runner is "
                "UTC, so it breaks around month ends. It's a test bug, not a product bug.")
    else:
        ep += A("The signature-age test got a 200 instead of 401. It freezes time with fake timers but the signer reads "
                "Date.now() through a module that was imported before the fake clock — flaky by ordering.")
    ep += U(r.choice(["Rerun it and I'll open an issue for the flake.", "Just rerun, I'll deal with it after lunch."]))
    ep += T("Rerunning the failed jobs.", "run_shell", {"cmd": "gh run rerun %d --failed && gh run watch %d --exit-status | tail -6" % (run, run)},
            d("""
            ✓ Requested rerun (failed jobs) of run {run}
            ✓ lint in 1m02s (ID 31{a})
            ✓ test (1) in 3m41s (ID 31{b})
            ✓ test (2) in 3m58s (ID 31{c})
            ✓ test (3) in 4m12s (ID 31{e})
            ✓ build-image in 2m20s (ID 31{f})
            """).format(run=run, a=r.randint(100000, 999999), b=r.randint(100000, 999999), c=r.randint(100000, 999999),
                        e=r.randint(100000, 999999), f=r.randint(100000, 999999)))
    ep += A("Green on the rerun.")
    return ep


def g_disk(r, k):
    node = "ip-10-40-%d-%d.compute.internal" % (r.randint(10, 40), r.randint(2, 250))
    used = r.randint(86, 93)
    ep = U("Got a DiskPressure warning for %s. Is it the usual image cache thing?" % node)
    ep += T("Checking filesystem usage on the node through a debug pod.", "run_shell",
            {"cmd": "kubectl debug node/%s -it --image=busybox -- df -h /host /host/var/lib/containerd" % node},
            d("""
            Creating debugging pod node-debugger-{n}-{s} with container debugger on node {node}.
            Filesystem                Size      Used Available Use% Mounted on
            /dev/nvme0n1p1           80.0G     {u:.1f}G     {a:.1f}G  {p}% /host
            /dev/nvme0n1p1           80.0G     {u:.1f}G     {a:.1f}G  {p}% /host/var/lib/containerd
            overlay                  80.0G     {u:.1f}G     {a:.1f}G  {p}% /
            tmpfs                     7.6G         0      7.6G   0% /host/dev/shm
            """).format(n=node.split(".")[0], s=rs(r, 5), node=node, u=80 * used / 100, a=80 - 80 * used / 100, p=used))
    ep += T("Most of that is usually unused images; listing the largest.", "run_shell",
            {"cmd": "kubectl debug node/%s -it --image=alpine -- chroot /host crictl images | sort -k4 -h | tail -8" % node},
            "\n".join(["IMAGE                                                             TAG              IMAGE ID        SIZE"] +
                      ["471198836420.dkr.ecr.amazonaws.com/tallyhop/%-20s sha-%s      %s   %dMB" % (
                          s, hx(r, 7), hx(r, 13), r.randint(300, 1400))
                       for s in r.sample(SVCS, 7)]))
    ep += A("Yes, the usual: lots of old tagged images from previous deploys. Kubelet GC only kicks in at 85% with our "
            "settings and then deletes slowly. I can prune unused images now.")
    ep += U("Do it.")
    ep += T("Pruning unused images.", "run_shell", {"cmd": "kubectl debug node/%s -it --image=alpine -- chroot /host crictl rmi --prune | tail -5" % node},
            "\n".join(["Deleted: sha256:%s" % hx(r, 64) for _ in range(5)]))
    ep += A("Pruned; the node is down to about %d%% disk and the DiskPressure condition cleared." % r.randint(48, 61))
    return ep


SMALLTALK = [
    ("Coffee machine in my flat just died. Worst possible day for it.", "Condolences. I'll keep answers short until caffeine is restored."),
    ("Sorry, slow replies for a bit — the neighbour is drilling again.", "No problem, I'll keep going on the read-only stuff."),
    ("Did you see the football last night? No, of course you didn't.", "I didn't, but I gather from your tone it wasn't a good result."),
    ("Brb, the cat is trying to sit on the keyboard.", "Take your time. Nothing is running right now."),
    ("I swear every Tuesday something in billing-sync gets weird.", "Statistically it does look that way — the weekly customer export runs Tuesday mornings."),
    ("Grabbing a coffee, ten minutes. Don't deploy anything while I'm gone.", "Understood, nothing gets applied until you're back."),
    ("Okay I'm back. What did I miss?", "Nothing new — the last command finished and no alerts fired."),
    ("Honestly this is the most productive day I've had in weeks.", "Good. Want to keep the momentum on the backlog after this?"),
    ("Rain again. At least it's good weather for staring at Grafana.", "Perfect dashboard weather."),
    ("My manager just asked if we can 'make the cloud cheaper'. Sure, let me flip that switch.", "If you want, I can prepare a short list of concrete savings candidates for that conversation."),
]


def g_smalltalk(r, k):
    u, a = pick(r, "a.smalltalk", SMALLTALK)
    return U(u) + A(a)


def g_dns(r, k):
    name = pick(r, "a.dns", ["status.tallyhop.io", "docs.tallyhop.io", "mail.tallyhop.io", "pay.tallyhop.io"])
    ep = U("Can you check what %s resolves to? A customer says it's broken for them." % name)
    ep += T("Resolving it against a couple of public resolvers.", "run_shell",
            {"cmd": "for ns in 1.1.1.1 8.8.8.8; do dig @$ns +noall +answer %s; done" % name},
            d("""
            {n}.		300	IN	CNAME	{t}.
            {t}.	60	IN	A	{ip1}
            {t}.	60	IN	A	{ip2}
            {n}.		300	IN	CNAME	{t}.
            {t}.	60	IN	A	{ip1}
            {t}.	60	IN	A	{ip2}
            """).format(n=name, t=r.choice(["tallyhop.statuspage-hosting.net", "hosting.gitbook-sites.io", "ghs.googlehosted.com", "pay-edge.tallyhop.io"]),
                        ip1="104.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(1, 254)),
                        ip2="172.%d.%d.%d" % (r.randint(64, 71), r.randint(0, 255), r.randint(1, 254))))
    ep += A("Resolves fine and consistently from both resolvers. If it's broken for them it's probably a stale cache on "
            "their network or a corporate proxy; the TTL on the CNAME is five minutes.")
    return ep


def g_s3(r, k):
    bucket = pick(r, "a.s3", ["tallyhop-prod-exports", "tallyhop-prod-uploads", "tallyhop-prod-pdf-cache", "tallyhop-ci-artifacts"])
    ep = U("How big is %s these days? Finance keeps pointing at S3 on the bill." % bucket)
    rows = []
    for p in r.sample(["2024/", "2025/", "2026/", "tmp/", "tenants/", "exports/", "archive/", "thumbnails/"], 6):
        rows.append("%s  %8.1f GiB  %9d objects" % (p.ljust(12), r.uniform(2, 420), r.randint(1000, 2500000)))
    ep += T("Summing per prefix.", "run_shell", {"cmd": "./scripts/s3-prefix-sizes %s --depth 1" % bucket},
            "\n".join(["PREFIX        SIZE           OBJECTS"] + rows + ["TOTAL         %8.1f GiB" % r.uniform(500, 1500)]))
    ep += A("It's mostly old prefixes nobody touches. Moving anything older than a year to Glacier Instant Retrieval "
            "would cut that line by roughly two thirds, without changing how the app reads it.")
    u, a = r.choice([("Write that down for the cost review, not today.", "Added to the cost-review list."),
                     ("Good to know. Later.", "Okay, parked until the cost review."),
                     ("Do it now for anything older than two years, the rest later.", "I'll prepare a lifecycle rule for prefixes older than two years and show you the plan.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_sentry(r, k):
    issues = []
    for _ in range(4):
        t = r.choice([
            ("TypeError", "Cannot read properties of undefined (reading 'taxRate')", "src/invoices/totals.ts"),
            ("QueryFailedError", "duplicate key value violates unique constraint \"payments_external_id_key\"", "src/payments/import.ts"),
            ("TimeoutError", "Navigation timeout of 30000 ms exceeded", "src/pdf/render.ts"),
            ("AxiosError", "Request failed with status code 429", "src/integrations/bank-feed.ts"),
            ("ZodError", "Expected string, received null at customer.vatId", "src/customers/dto.ts"),
            ("Error", "SMTP 451 4.7.0 Temporary server error", "src/mail/send.ts"),
        ])
        issues.append({"id": str(r.randint(4100000000, 4199999999)), "shortId": "TALLYHOP-API-%s" % r.randint(300, 999).__str__(),
                       "title": "%s: %s" % (t[0], t[1]), "culprit": t[2], "count": str(r.randint(3, 900)),
                       "userCount": r.randint(1, 60), "firstSeen": "2026-11-%02dT%02d:%02d:00Z" % (r.randint(10, 24), r.randint(0, 23), r.randint(0, 59)),
                       "level": "error", "status": "unresolved"})
    ep = U("Anything new in Sentry for the api in the last 24h?")
    ep += T("Fetching unresolved issues sorted by frequency.", "http_request",
            {"method": "GET", "url": "https://sentry.io/api/0/projects/tallyhop/api/issues/?statsPeriod=24h&query=is:unresolved&sort=freq&limit=4"},
            J(issues))
    top = max(issues, key=lambda x: int(x["count"]))
    ep += A("The noisiest is %s (%s events, %d users) from %s. The rest are low-volume and look like old friends." % (
        top["shortId"], top["count"], top["userCount"], top["culprit"]))
    ep += U(r.choice(["Assign the top one to the backend folks.", "Leave it, they know about it.", "Ok, I'll mention it at standup."]))
    ep += A("Done." if "Assign" in ep[-1]["content"] else "Okay.")
    return ep


def g_argocd(r, k):
    apps = ["api", "worker", "web", "webhooks-dispatcher", "pdf-renderer", "mailer", "scheduler", "billing-sync"]
    rows = ["NAME                          CLUSTER                         NAMESPACE  PROJECT  STATUS     HEALTH       SYNCPOLICY"]
    outofsync = r.choice(apps)
    for a in apps:
        rows.append("argocd/%-22s https://kubernetes.default.svc  staging    default  %-10s %-12s Auto-Prune" % (
            a + "-staging", "OutOfSync" if a == outofsync else "Synced", "Progressing" if a == outofsync else "Healthy"))
    ep = U("What's the sync state of staging in Argo?")
    ep += T("Listing the staging apps.", "run_shell", {"cmd": "argocd app list -l env=staging"}, "\n".join(rows))
    ep += A("Everything is synced and healthy except %s-staging, which is mid-rollout from the merge ten minutes ago." % outofsync)
    ep += U("Fine, let it finish.")
    ep += A("Will do — auto-sync will take it through.")
    return ep


def g_pg_slow(r, k):
    qs = [
        "SELECT * FROM invoices WHERE tenant_id = $1 AND status = $2 ORDER BY due_date LIMIT $3",
        "UPDATE payment_attempts SET status = $1, updated_at = now() WHERE id = $2",
        "SELECT count(*) FROM invoice_lines WHERE invoice_id = ANY($1)",
        "SELECT c.* FROM customers c WHERE c.tenant_id = $1 AND c.name ILIKE $2",
        "INSERT INTO audit_events (tenant_id, actor_id, kind, payload) VALUES ($1,$2,$3,$4)",
        "SELECT * FROM webhook_deliveries WHERE next_attempt_at < now() AND state = $1 FOR UPDATE SKIP LOCKED",
    ]
    rows = [" calls   | mean_ms | total_min | query", "---------+---------+-----------+------------------------------------------"]
    for q in r.sample(qs, 6):
        rows.append(" %7d | %7.1f | %9.1f | %s" % (r.randint(2000, 900000), r.uniform(0.4, 180), r.uniform(5, 900), q[:70]))
    rows.append("(6 rows)")
    ep = U("Which queries are eating the most time on the prod database this week?")
    ep += T("Checking pg_stat_statements on the read replica.", "run_shell",
            {"cmd": "psql \"$PG_REPLICA_URL\" -c \"select calls, round(mean_exec_time::numeric,1) mean_ms, round((total_exec_time/60000)::numeric,1) total_min, left(query,70) query from pg_stat_statements order by total_exec_time desc limit 6\""},
            "\n".join(rows))
    if k == 1:
        ep += A("The customer name search with ILIKE is the expensive one per call; a trigram index on customers.name would "
                "fix it. The rest are high-volume but cheap.")
        ep += U("Put the trigram index on the list for after the upgrade, I don't want schema changes right now.")
        ep += A("Parked in the post-upgrade list.")
    else:
        ep += A("Same picture as before, but the webhook_deliveries polling query has crept up: it runs every second with "
                "FOR UPDATE SKIP LOCKED and now accounts for a big share of total time. A partial index on "
                "next_attempt_at where state = 'pending' would make it nearly free.")
        ep += U("That one's small. Add it to the post-upgrade list too.")
        ep += A("Added next to the trigram index.")
    return ep


EXPLAIN = [
    ("What's the actual difference between a PodDisruptionBudget and just having minReplicas on the HPA?",
     "The HPA minimum only says how many replicas should exist. A PDB limits how many can be voluntarily evicted at the same "
     "time, e.g. during node drains, so it's what protects you while Karpenter or an upgrade rotates nodes."),
    ("Remind me why we set maxUnavailable to 0 on the api deployment?",
     "So rollouts always start a new pod before killing an old one. With only a few replicas, losing one during a deploy "
     "meant visible latency spikes."),
    ("Is there any reason to keep the old NAT instance around now that we have NAT gateways?",
     "Not really. The only thing that referenced it was the legacy FTP import, which you turned off in the spring. It's "
     "costing a bit every month for nothing."),
    ("Why does terraform keep wanting to update the launch template every plan?",
     "Usually because the AMI is looked up with most_recent = true, so every new AMI release shows up as a diff. Pinning the "
     "AMI version in a variable stops the churn."),
    ("Should we turn on RDS Performance Insights long-term retention?",
     "Seven days is free and enough for incident work. Long-term retention is billed per vCPU-month, so only worth it if "
     "you do monthly trend reviews."),
    ("What's the least painful way to rotate the Redis auth token?",
     "ElastiCache supports a ROTATE strategy: set the new token with rotation, roll the apps to the new secret, then SET to "
     "drop the old one. No downtime if the clients reconnect cleanly."),
    ("Explain like I'm tired: why are our ALB 5xx and app 5xx numbers different?",
     "ALB 5xx includes errors the load balancer produces itself — no healthy target, timeouts, resets. App 5xx is only what "
     "the pods return. The gap is mostly deploy-time target churn."),
]


def g_explain(r, k):
    q, a = pick(r, "a.explain", EXPLAIN)
    ep = U(q) + A(a)
    if r.random() < 0.4:
        ep += U(r.choice(["Makes sense, thanks.", "Right. I keep forgetting that.", "Ok, good enough for me."]))
        ep += A(r.choice(["Anytime.", "Happy to repeat it next time too.", "Sure."]))
    return ep


def g_ingress(r, k):
    hh, m0 = (10, 40) if k == 1 else (15, 10)
    lines = []
    for i in range(24):
        code = r.choice([200] * 8 + [201, 204, 304, 502 if i % 5 == 0 else 200])
        lines.append('10.40.%d.%d - - [24/Nov/2026:%02d:%02d:%02d +0000] "%s %s HTTP/1.1" %d %d "-" "%s" %d %.3f [prod-%s-80] [] 10.40.%d.%d:8080 %d %.3f %d %s' % (
            r.randint(0, 3), r.randint(2, 250), hh, m0 + i // 6, r.randint(0, 59), r.choice(["GET", "POST"]),
            r.choice(["/v1/invoices", "/v1/exports/csv", "/v1/customers", "/healthz", "/v1/payments/webhook"]), code, r.randint(120, 9000),
            r.choice(["Mozilla/5.0", "Tallyhop-iOS/3.2", "python-requests/2.32"]), r.randint(300, 900), r.uniform(0.002, 0.9),
            r.choice(["api", "api", "web"]), r.randint(10, 40), r.randint(2, 250), r.randint(120, 9000), r.uniform(0.002, 0.9), code, hx(r, 32)))
    ep = U("There were a handful of 502s around 10:40. Can you see what the ingress says?" if k == 1 else
           "Another little 502 spike, around 15:10 this time. What does the ingress log say?")
    ep += T("Tailing the ingress controller around that time.", "run_shell",
            {"cmd": "kubectl logs -n ingress-nginx deploy/ingress-nginx-controller --since-time=2026-11-24T%02d:%02d:00Z | head -24" % (hh, m0)},
            "\n".join(lines))
    ep += A("The 502s all hit upstreams that were being replaced at that moment — the api rollout at %02d:%02d. The pods got "
            "SIGTERM before the ingress removed them. A short preStop sleep would close that gap." % (hh, m0 + 1))
    if k == 1:
        ep += U("Add the preStop sleep to the backlog, 10 seconds.")
        ep += A("Added.")
    else:
        ep += U("Didn't we already add that preStop sleep?")
        ep += A("It's in the backlog but not deployed yet — this is the same gap again. It's a two-line change to the chart.")
        ep += U("Fine, do it now for the api chart, staging first.")
        ep += A("Done on staging; I'll promote it to prod with the next api release.")
    return ep


def g_snapshots(r, k):
    rows = ["SNAPSHOT                                      CREATED               STATUS     SIZE_GB"]
    for i in range(8):
        rows.append("rds:tallyhop-prod-pg-2026-11-%02d-03-10          2026-11-%02dT03:10:%02dZ  available  %d" % (
            24 - i, 24 - i, r.randint(0, 59), 1000))
    ep = U("Are the automated RDS snapshots still happening every night?")
    ep += T("Listing the last automated snapshots.", "run_shell",
            {"cmd": "aws rds describe-db-snapshots --db-instance-identifier tallyhop-prod-pg --snapshot-type automated --query 'reverse(sort_by(DBSnapshots,&SnapshotCreateTime))[:8].[DBSnapshotIdentifier,SnapshotCreateTime,Status,AllocatedStorage]' --output text"},
            "\n".join(rows))
    ep += A("Yes, one per night at 03:10 UTC, all available, retention is working.")
    return ep


def g_iam(r, k):
    role = pick(r, "a.iam", ["pdf-renderer-irsa", "mailer-irsa", "exports-irsa"])
    pol = {"Version": "2012-10-17", "Statement": [
        {"Sid": "ReadWriteOwnPrefix", "Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
         "Resource": "arn:aws:s3:::tallyhop-prod-%s/*" % role.split("-")[0]},
        {"Sid": "ListBucket", "Effect": "Allow", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::tallyhop-prod-%s" % role.split("-")[0]},
        {"Sid": "Legacy", "Effect": "Allow", "Action": ["sqs:*"], "Resource": "*"},
    ]}
    ep = U("Can you sanity-check the policy on the %s role? Security questionnaire season again." % role)
    ep += T("Reading the policy file.", "read_file", {"path": "infra/modules/irsa/policies/%s.json" % role}, J(pol))
    ep += A("The S3 parts are scoped fine. The 'Legacy' statement grants sqs:* on every queue, which a questionnaire will "
            "flag. I can narrow it to the one queue the service actually uses.")
    ep += U(r.choice(["Yes please, open a PR.", "Do it, PR against main."]))
    ep += T("Opening the PR.", "run_shell", {"cmd": "gh pr create --title 'irsa: scope %s sqs access' --body 'Narrows sqs:* to the single queue used.'" % role},
            "https://github.com/tallyhop/infra/pull/%d" % r.randint(700, 980))
    ep += A("PR is up.")
    return ep


def g_redis(r, k):
    used = r.randint(900, 2600)
    out = d("""
        # Memory
        used_memory:{u}
        used_memory_human:{uh:.2f}M
        used_memory_rss:{rss}
        used_memory_rss_human:{rssh:.2f}M
        used_memory_peak:{p}
        used_memory_peak_human:{ph:.2f}M
        maxmemory:{mx}
        maxmemory_human:{mxh:.2f}G
        maxmemory_policy:volatile-lru
        mem_fragmentation_ratio:{fr:.2f}
        evicted_keys:{ev}
        """).format(u=used * 1048576, uh=used, rss=int(used * 1.12 * 1048576), rssh=used * 1.12, p=int(used * 1.3 * 1048576),
                    ph=used * 1.3, mx=6 * 1073741824, mxh=6.0, fr=r.uniform(1.02, 1.3), ev=r.choice([0, 0, 12, 318]))
    ep = U("Is Redis anywhere close to its memory limit?")
    ep += T("Asking Redis directly.", "run_shell", {"cmd": "kubectl exec -n prod deploy/redis-cli -- redis-cli -h $REDIS_HOST INFO memory"}, out)
    ep += A("No — about %d MB used of 6 GB, fragmentation is fine. Plenty of room." % used)
    return ep


def g_long_worker_logs(r, k):
    lines = []
    h, m, s = 9, 0, 0
    jobs = ["send-reminder", "sync-bank-feed", "generate-pdf", "recalc-aging", "push-webhook", "import-csv"]
    for i in range(130):
        s += r.randint(1, 20)
        if s >= 60:
            m += s // 60
            s %= 60
        job = r.choice(jobs)
        lvl = "info" if r.random() > 0.06 else "warn"
        if lvl == "info":
            msg = r.choice(["job completed", "job started", "job completed", "batch flushed"])
        else:
            msg = r.choice(["job retry scheduled", "slow job"])
        lines.append("ts=2026-11-24T%02d:%02d:%02dZ level=%s msg=\"%s\" queue=default job=%s job_id=%s duration_ms=%d" % (
            h, m, s, lvl, msg, job, hx(r, 12), r.randint(4, 4800)))
    ep = U(r.choice(["Dump the last couple of hours of worker logs, I want to eyeball the job mix.",
                     "Show me the worker logs from this morning, raw."]))
    ep += T("Here they are.", "run_shell", {"cmd": "kubectl logs -n prod deploy/worker --since=2h --tail=130"}, "\n".join(lines))
    ep += A("Mostly reminders and PDF generation; a few slow-job warnings from import-csv with very large files, and a handful "
            "of retries on push-webhook. Nothing stuck.")
    return ep


def g_certs(r, k):
    rows = ["NAMESPACE   NAME                     READY   SECRET                       AGE"]
    for ns, n in [("staging", "api-staging-tls"), ("staging", "web-staging-tls"), ("tools", "grafana-tls"),
                  ("tools", "argocd-server-tls"), ("monitoring", "alertmanager-tls"), ("staging", "pay-staging-tls")]:
        rows.append("%-11s %-24s %-7s %-28s %dd" % (ns, n, "True", n, r.randint(3, 80)))
    ep = U("Quick one: are all the cert-manager certificates outside prod ready?")
    ep += T("Checking.", "run_shell", {"cmd": "kubectl get certificates -A | grep -v ' prod '"}, "\n".join(rows))
    ep += A("All ready, and cert-manager renews them 30 days before expiry, so nothing to do.")
    return ep


ONELINERS = [
    ("Give me a jq one-liner that lists pod names with more than 3 restarts from kubectl get pods -o json.",
     "```\nkubectl get pods -A -o json | jq -r '.items[] | select([.status.containerStatuses[]?.restartCount] | add > 3) | \"\\(.metadata.namespace)/\\(.metadata.name)\"'\n```"),
    ("How do I count 5xx per minute in an nginx access log with awk?",
     "```\nawk '$9 ~ /^5/ { split($4, t, \":\"); print t[2]\":\"t[3] }' access.log | sort | uniq -c\n```\nThat buckets by hour:minute from the timestamp field."),
    ("What's the kubectl incantation to see which pods use the most memory right now?",
     "`kubectl top pods -A --sort-by=memory | head -15` — needs metrics-server, which we have."),
    ("One-liner to find terraform resources that mention a given security group id?",
     "`terraform state list | xargs -n1 terraform state show 2>/dev/null | grep -B30 sg-XXXX | grep '^# '` — slow but it works on our state size."),
]


def g_oneliner(r, k):
    q, a = pick(r, "a.oneliner", ONELINERS)
    return U(q) + A(a)


def g_alert_rule(r, k):
    alert = pick(r, "a.alert", [("WorkerQueueBacklog", "bull_queue_waiting{queue=\"default\"} > 500", "10m"),
                      ("PdfRenderSlow", "histogram_quantile(0.9, sum by (le) (rate(pdf_render_seconds_bucket[10m]))) > 20", "15m"),
                      ("MailerBounceRate", "rate(mailer_bounces_total[30m]) / rate(mailer_sent_total[30m]) > 0.08", "30m")])
    yaml = d("""
        groups:
          - name: tallyhop-app
            rules:
              - alert: {n}
                expr: {e}
                for: {f}
                labels:
                  severity: warning
                  team: platform
                annotations:
                  summary: "{n} firing"
                  runbook_url: https://wiki.tallyhop.io/runbooks/{rl}
        """).format(n=alert[0], e=alert[1], f=alert[2], rl=alert[0].lower())
    ep = U("%s fires way too often and it's always a false alarm. Where is that rule defined?" % alert[0])
    ep += T("Looking it up in the monitoring repo.", "read_file", {"path": "monitoring/rules/app.yaml"}, yaml)
    ep += A("It fires after %s at a fairly tight threshold. I'd lengthen the 'for' to double and keep the threshold — most "
            "hits are short bursts that clear on their own." % alert[2])
    ep += U(r.choice(["Agreed, change it.", "Fine, do that."]))
    ep += A("Changed in a branch and opened a PR; it goes live when the monitoring app syncs.")
    return ep


def g_long_events(r, k):
    reasons = [("Normal", "Scheduled", "Successfully assigned prod/{p} to {n}"),
               ("Normal", "Pulled", "Container image \"471198836420.dkr.ecr.amazonaws.com/tallyhop/{s}:sha-{h}\" already present on machine"),
               ("Normal", "Created", "Created container {s}"),
               ("Normal", "Started", "Started container {s}"),
               ("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"),
               ("Normal", "Killing", "Stopping container {s}"),
               ("Normal", "SuccessfulCreate", "Created pod: {p}"),
               ("Normal", "ScalingReplicaSet", "Scaled up replica set {s}-{h} to {c}")]
    rows = ["LAST SEEN   TYPE      REASON              OBJECT                                      MESSAGE"]
    for i in range(112):
        s = r.choice(SVCS)
        p = pod(r, s)
        t, rsn, msg = r.choice(reasons)
        msg = msg.format(p=p, n="ip-10-40-%d-%d.compute.internal" % (r.randint(10, 40), r.randint(2, 250)),
                         a=r.randint(10000000, 99999999), s=s, h=hx(r, 9), c=r.randint(2, 6))
        rows.append("%-11s %-9s %-19s %-43s %s" % ("%dm" % (112 - i), t, rsn, "pod/" + p, msg))
    ep = U("Deploys felt slow this morning. Dump the prod events so I can see the sequence.")
    ep += T("Here are the recent prod events, oldest first.", "run_shell",
            {"cmd": "kubectl get events -n prod --sort-by=.lastTimestamp | tail -112"}, "\n".join(rows))
    ep += A("Nothing pathological: the rollouts wait on readiness probes failing with 503 for the first 20–30 seconds while "
            "caches warm. Raising initialDelaySeconds a bit would stop the churn in the event stream but not make deploys faster.")
    ep += U("Leave it then.")
    ep += A("Leaving it.")
    return ep


def g_queue(r, k):
    stats = {q: {"waiting": r.randint(0, 400), "active": r.randint(0, 12), "delayed": r.randint(0, 90),
                 "failed": r.randint(0, 30), "completed_last_hour": r.randint(300, 9000)}
             for q in ["default", "pdf", "webhooks", "mail", "imports"]}
    ep = U("What do the job queues look like right now?")
    ep += T("Reading queue stats from the worker admin endpoint.", "http_request",
            {"method": "GET", "url": "http://worker-admin.prod.svc:9090/queues/stats"}, J(stats))
    worst = max(stats, key=lambda q: stats[q]["waiting"])
    ep += A("The %s queue has the most waiting (%d), but it's draining — completed-per-hour is healthy. No queue is stuck." % (
        worst, stats[worst]["waiting"]))
    return ep


def g_runbook(r, k):
    topic = pick(r, "a.runbook", ["restoring a single tenant from a snapshot", "rotating the Stripe webhook secret", "draining a node safely"])
    ep = U("Could you draft a short runbook section for %s? Bullet points are fine." % topic)
    if "tenant" in topic:
        body = ("1. Restore the latest automated snapshot to a temporary instance (db.r6g.large is enough).\n"
                "2. `pg_dump --data-only` filtered by tenant_id for the affected tables.\n"
                "3. Load into a scratch schema on prod, diff row counts with the support engineer.\n"
                "4. Copy back inside one transaction; delete the temporary instance the same day.")
    elif "Stripe" in topic:
        body = ("1. Create the new endpoint secret in Stripe, keep the old one active.\n"
                "2. Add the new secret as STRIPE_WEBHOOK_SECRET_NEXT; the verifier accepts both.\n"
                "3. Deploy, watch signature failures for 30 minutes.\n"
                "4. Promote NEXT to primary, remove the old secret in Stripe and in the config.")
    else:
        body = ("1. `kubectl cordon <node>` and check PDBs allow an eviction.\n"
                "2. `kubectl drain <node> --ignore-daemonsets --delete-emptydir-data --timeout=10m`.\n"
                "3. Watch for pods stuck in Terminating; never force-delete stateful ones.\n"
                "4. Terminate the instance only after the drain reports success.")
    ep += A("Draft:\n\n" + body)
    u, a = r.choice([("Good, paste it into the wiki.", "Done, it's under Runbooks."),
                     ("Nice. Step 3 is exactly where I messed up last time.", "It's the step everyone skips. I've saved it to the wiki as well."),
                     ("Perfect, thanks. Wiki please.", "Saved.")])
    ep += U(u)
    ep += A(a)
    return ep


def g_cron(r, k):
    job = pick(r, "a.cron", ["nightly-aging-report", "weekly-usage-export", "purge-expired-sessions"])
    ep = U("The %s CronJob shows a failed run. What happened?" % job)
    ep += T("Getting the last job's logs.", "run_shell", {"cmd": "kubectl logs -n prod job/%s-%d --tail=12" % (job, r.randint(29380000, 29389999))},
            d("""
            2026-11-24T02:00:04Z INFO  starting {j}
            2026-11-24T02:00:04Z INFO  tenants to process: {n}
            2026-11-24T02:07:51Z INFO  processed {p}/{n}
            2026-11-24T02:15:12Z INFO  processed {q}/{n}
            2026-11-24T02:16:40Z ERROR tenant {t}: statement timeout (canceling statement due to statement timeout)
            2026-11-24T02:16:40Z INFO  continuing with remaining tenants
            2026-11-24T02:24:02Z INFO  processed {n}/{n}, errors=1
            2026-11-24T02:24:02Z ERROR exiting with status 1 because errors > 0
            """).format(j=job, n=r.randint(1100, 1400), p=r.randint(300, 500), q=r.randint(800, 1000), t="ten_" + rs(r, 8)))
    ep += A("One tenant hit the statement timeout, everything else completed. The job marks the whole run failed if any tenant "
            "errors. That tenant has a lot of history; the report query for it needs the larger timeout.")
    ep += U("Rerun just that tenant manually later. Not urgent.")
    ep += A("Noted for this afternoon.")
    return ep


FILLER = [g_pods, g_latency, g_tf_plan, g_ci, g_disk, g_smalltalk, g_dns, g_s3, g_sentry, g_argocd, g_pg_slow,
          g_explain, g_ingress, g_snapshots, g_iam, g_redis, g_certs, g_oneliner, g_alert_rule, g_queue, g_runbook,
          g_cron, g_smalltalk, g_explain]
LONG = [g_long_worker_logs, g_long_events]


# ---------------------------------------------------------------- scripted episodes (facts)
def ep_intro():
    ep = U("""Morning. Quick intro since this is a fresh session: I'm Radosław Wieczorek, but honestly nobody gets through that,
so just call me Radek like the rest of the team does. I look after infra at Tallyhop — which mostly means me, one Terraform
repo and far too many dashboards.""".replace("\n", " "), f="a-01")
    ep += A("Nice to meet you. I have shell access on the ops box with kubectl, aws, terraform, argocd and gh configured. "
            "Where do you want to start?")
    return ep


def ep_tf_outputs():
    out = {
        "alb_dns_name": {"sensitive": False, "type": "string", "value": "k8s-prod-ingress-5e1c0f7a2b-1843922711.elb.amazonaws.com"},
        "cluster_name": {"sensitive": False, "type": "string", "value": "tallyhop-prod-eks"},
        "cluster_version": {"sensitive": False, "type": "string", "value": "1.29"},
        "primary_region": {"sensitive": False, "type": "string", "value": "eu-north-1"},
        "private_subnet_ids": {"sensitive": False, "type": ["list", "string"],
                               "value": ["subnet-0a4c19e7f2d83b615", "subnet-07e2b8c4d91f0a3e2", "subnet-0d93f1a6c28e47b50"]},
        "rds_endpoint": {"sensitive": False, "type": "string", "value": "tallyhop-prod-pg.c9xk2mfa0w1e.eu-north-1.rds.amazonaws.com:5432"},
        "redis_primary_endpoint": {"sensitive": False, "type": "string", "value": "master.tallyhop-prod-redis.q1xw0c.cache.amazonaws.com:6379"},
        "vpc_id": {"sensitive": False, "type": "string", "value": "vpc-04c1e9a7d2b3f6e18"},
    }
    ep = U("Let's start boring: pull the terraform outputs for the prod stack so we both have the basics in one place.")
    ep += T("Reading the outputs from the prod workspace.", "run_shell",
            {"cmd": "cd ~/src/infra/live/prod && terraform output -json"}, J(out), f="a-03")
    ep += A("Got them. One EKS cluster on 1.29, RDS Postgres and ElastiCache Redis in the private subnets of a single VPC, "
            "and the ALB as the only public entry point.")
    ep += U("Yep, that's the whole empire. Now the nodes.")
    rows = ["NAME                                STATUS   ROLES    AGE   VERSION               INSTANCE-TYPE"]
    rng = random.Random(11)
    for _ in range(6):
        rows.append("ip-10-40-%d-%d.compute.internal   Ready    <none>   %dd   v1.29.8-eks-a737599   %s" % (
            rng.randint(10, 40), rng.randint(2, 250), rng.randint(2, 30), rng.choice(["m6g.xlarge", "m6g.xlarge", "r6g.large"])))
    ep += T("Listing nodes.", "run_shell", {"cmd": "kubectl get nodes -L node.kubernetes.io/instance-type"}, "\n".join(rows))
    ep += A("Six nodes, all Ready, all on the same kubelet patch version. Four general-purpose Graviton nodes and two "
            "memory-optimised ones.")
    return ep


def ep_home():
    ep = U("""By the way, the company is officially registered in Warsaw, but I work from home in Gdynia, so anything that needs
hands in the colo cage — or a wet signature on paper — isn't me, it's our office manager.""".replace("\n", " "), f="a-02")
    ep += A("Good to know. I'll route physical or paperwork tasks to the office manager and keep everything else with you.")
    return ep


def ep_webhooks():
    rng = random.Random(23)
    tenants = [("ten_" + "".join(rng.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8)), slug)
               for slug in ["kowalski-auto", "greenleaf-vets", "harbourside-physio", "nordic-bikes", "mill-lane-bakery",
                            "atlas-legal", "sunny-side-dental-care", "fernhill-pharmacy", "ostrava-print", "luma-salon"]]
    lines = []
    mm, ss = 10, 0
    bw_lines = 0
    for i in range(120):
        ss += rng.randint(2, 14)
        if ss >= 60:
            mm += 1
            ss -= 60
        ts = "2026-11-24T%02d:%02d:%02dZ" % (9 + mm // 60, mm % 60, ss)
        if i in (17, 46, 71, 98):
            bw_lines += 1
            lines.append('ts=%s level=warn msg="delivery attempt errored" tenant_id=ten_4kq8ZP2x tenant_slug=brightwater-dental '
                         'event=invoice.paid endpoint_host=hooks.brightwaterdental.co.uk status=526 attempt=%d next_retry_in=%ds' % (
                             ts, 5 + bw_lines, 240 * 2 ** bw_lines))
            continue
        t = rng.choice(tenants)
        kind = rng.random()
        if kind < 0.78:
            lines.append('ts=%s level=info msg="delivered" tenant_id=%s tenant_slug=%s event=%s status=%d attempt=1 duration_ms=%d' % (
                ts, t[0], t[1], rng.choice(["invoice.created", "invoice.sent", "invoice.paid", "payment.refunded", "customer.updated"]),
                rng.choice([200, 200, 200, 202, 204]), rng.randint(40, 900)))
        elif kind < 0.9:
            lines.append('ts=%s level=info msg="batch flushed" deliveries=%d pending=%d' % (ts, rng.randint(5, 40), rng.randint(0, 30)))
        else:
            lines.append('ts=%s level=warn msg="delivery attempt errored" tenant_id=%s tenant_slug=%s event=invoice.sent status=%d attempt=2 next_retry_in=120s' % (
                ts, t[0], t[1], rng.choice([500, 502, 504, 408])))
    ep = U("""Support just escalated ticket SUP-48213 to me: Brightwater Dental say none of their invoice webhooks have arrived
since Sunday afternoon, and they're threatening to go back to paper invoices, which honestly would be a first.""".replace("\n", " "), f="a-05")
    ep += T("Let me look at the dispatcher's recent log output.", "run_shell",
            {"cmd": "kubectl logs -n prod deploy/webhooks-dispatcher --since=90m --tail=120"}, "\n".join(lines), f="a-06")
    ep += A("Found it. Every attempt for Brightwater fails with status 526 — that's Cloudflare saying their origin presents an "
            "invalid TLS certificate. Our dispatcher is fine and keeps retrying with exponential backoff; it gives up after 72 hours.")
    ep += U("Ha, so it's on their side. Can you write a short note support can forward to them?")
    ep += A("""Suggested note:

"Hi — we checked our delivery logs. Your webhook endpoint currently answers with error 526, which means the TLS certificate
on your server behind Cloudflare is invalid or expired. Once it's renewed, our system will resume delivery automatically
and retry the missed events for up to 72 hours from the first failure."
""")
    ep += U("Perfect. Sent to support.")
    ep += A("Good. If they fix it within the retry window, nothing needs replaying by hand.")
    return ep


def ep_fish():
    ep = U("""Side note so I stop repeating myself: my laptop runs the fish shell, so when you hand me snippets to paste locally,
skip bash-isms like `export FOO=bar` or heredoc tricks. On the ops box it's plain bash, do whatever you like there.""".replace("\n", " "), f="a-07")
    ep += A("Noted — local snippets will use `set -x FOO bar` style and no heredocs; scripts on the ops box stay bash.")
    return ep


def ep_migr():
    ep = U("""Okay, the big one for this quarter: we're finally moving from Postgres 13 to 16. It's tracked in Jira under
project code MIGR-2291, so please tag every change request, PR title and Terraform commit with that, otherwise finance
can't bill the consultant hours against it.""".replace("\n", " "), f="a-12")
    ep += A("Understood. I'll prefix PR titles and commit subjects with it and add it to change-request templates. Do you "
            "want a blue/green approach with logical replication, or an in-place major version upgrade?")
    ep += U("Blue/green if we can afford the second instance for a week. In-place scares me after what happened at my last job.")
    ep += A("Blue/green it is. RDS has a managed blue/green deployment feature that supports 13 → 16; the switchover itself "
            "usually takes under a minute, but we still want a maintenance window for safety.")
    return ep


def ep_window_stale():
    ep = U("""If the Postgres upgrade needs real downtime, the window I can defend to sales is Thursday 22:30 until midnight,
Warsaw time — the US customers have mostly gone quiet by then.""".replace("\n", " "), f="a-08")
    ep += A("Okay. A blue/green switchover fits comfortably in 90 minutes, including verification.")
    return ep


def ep_helm_yaml():
    yaml = d("""
        # deploy/helm/api/values-prod.yaml
        image:
          repository: 471198836420.dkr.ecr.amazonaws.com/tallyhop/api
          tag: sha-3be02d1
          pullPolicy: IfNotPresent
        resources:
          requests:
            cpu: 500m
            memory: 1792Mi
          limits:
            cpu: "2"
            memory: 2816Mi
        env:
          NODE_ENV: production
          LOG_LEVEL: info
          PDF_RENDERER_URL: http://pdf-renderer.prod.svc:8080
          NODE_OPTIONS: --max-old-space-size=2304
        service:
          port: 8080
        probes:
          readiness:
            path: /healthz/ready
            initialDelaySeconds: 10
          liveness:
            path: /healthz/live
            initialDelaySeconds: 30
        podDisruptionBudget:
          maxUnavailable: 1
        """)
    ep = U("The api pods got OOMKilled twice overnight. What resource settings are we shipping in prod?")
    ep += T("Reading the prod values file.", "read_file", {"path": "deploy/helm/api/values-prod.yaml"}, yaml, f="a-09")
    ep += A("The heap flag allows 2.25 GiB of V8 old space, which leaves only about half a GiB of headroom for buffers, "
            "PDF streams and native memory before the limit. That matches OOM kills rather than a slow leak.")
    ep += U("Don't touch the limit yet. I want to find out what's allocating first — we had a leak in the CSV exporter last year.")
    ep += A("Fine. I'll enable heap snapshots on one replica next time memory crosses 80% so you have something to look at.")
    return ep


def ep_hetzner_order():
    tx = [{"transaction": {
        "id": "B20261123-3318275",
        "date": "2026-11-23T00:58:12+01:00",
        "status": "in process",
        "server_number": None,
        "server_ip": None,
        "authorized_key": [{"key": {"name": "ops-ci-2026", "fingerprint": "7e:1c:09:aa:3f:52:d4:88:61:0b:c3:9e:47:f2:15:d0", "type": "ED25519", "size": 256}}],
        "host_key": [],
        "comment": None,
        "product": {"id": "AX52", "name": "Dedicated Server AX52",
                    "description": ["AMD Ryzen 7 7700", "64 GB DDR5 ECC", "2 x 1 TB NVMe SSD"],
                    "traffic": "unlimited", "dist": "Ubuntu 24.04 LTS base", "arch": 64, "lang": "en", "location": "FSN1"},
        "addons": ["primary_ipv4"]}}]
    ep = U("The Hetzner box for the CI runners — did the order actually go through? I clicked through the checkout at 1am, "
           "so who knows what I bought.")
    ep += T("Checking the Robot API for recent server orders.", "http_request",
            {"method": "GET", "url": "https://robot-ws.your-server.de/order/server/transaction"}, J(tx), f="a-10")
    ep += A("It went through: an AX52 (Ryzen 7 7700, 64 GB ECC, two 1 TB NVMe) in Falkenstein with Ubuntu 24.04 and your "
            "ops-ci-2026 key. Status is still 'in process', which usually turns into a ready server within a few hours.")
    ep += U("Good, at least drunk-me chose sensibly. Not drunk. Tired.")
    ep += A("Tired-you picked the right size for four parallel runners.")
    return ep


def ep_bastion():
    out = d("""
        name=bastion-prod
        instance_id=i-0b7e4c19a2f35d801
        instance_type=t4g.small
        state=running
        private_ip=10.40.0.23
        public_ip=none
        ami=ami-0c3f9a61d2e7b4480
        launched=2026-08-19T07:41:55Z
        ssm_agent=3.3.987.0 (online)
        security_groups=sg-bastion-prod
        iam_profile=bastion-ssm-profile
        """)
    ep = U("I need to get onto the bastion later for the psql session. What's its instance id again? The SSM session wants it.")
    ep += T("Asking the host inventory script.", "run_shell", {"cmd": "./scripts/hostinfo bastion-prod"}, out, f="a-11")
    ep += A("Here's a fish-friendly way to start the session without copying the id around:\n\n"
            "```\naws ssm start-session --target (./scripts/hostinfo bastion-prod --field instance_id)\n```")
    ep += U("Ha, you remembered. Thanks.")
    ep += A("Sure. The session drops after 20 idle minutes, just rerun it.")
    return ep


def ep_growth():
    rng = random.Random(5)
    rows = ["date         free_storage_gb"]
    start, end = 612.4, 433.6
    for i in range(31):
        v = start - (start - end) * i / 30 + (rng.uniform(-1.5, 1.5) if 0 < i < 30 else 0)
        rows.append("2026-%s   %.1f" % (("10-%02d" % (25 + i)) if i < 7 else ("11-%02d" % (i - 6)), v))
    ep = U("How quickly is the prod database volume filling up? I want to know whether we can do the upgrade first and "
           "resize afterwards.")
    ep += T("Pulling 30 days of FreeStorageSpace.", "query_metrics",
            {"promql": 'aws_rds_free_storage_space_average{dbinstance_identifier="tallyhop-prod-pg"} / 1e9', "range": "30d", "step": "1d"},
            "\n".join(rows))
    ep += A("Free space went from 612.4 GB to 433.6 GB over the last 30 days, so it's shrinking by roughly 41.7 GB per week. "
            "At that rate we cross the 15% free alarm around mid-January, so the upgrade can go first as long as it doesn't slip.",
            f="a-14")
    ep += U("Okay, that's tighter than I hoped but workable.")
    ep += A("I'll add a dashboard panel with the projection so we notice if the trend changes.")
    return ep


def ep_cdn():
    ep = U("""Also, for the planning doc: our contract with EdgeNova, the CDN we use in front of the app, ends on 2027-02-28,
and I want the move to CloudFront fully done at least a month before that — no last-minute heroics this time.""".replace("\n", " "), f="a-15")
    ep += A("Noted in the planning doc. Given the Postgres work, I'd start the CloudFront side with the static assets "
            "distribution in December and move the API behind it in January.")
    ep += U("Sounds right.")
    ep += A("I'll put both phases into the planning doc with the dates blank for now.")
    return ep


def ep_cert():
    out = d("""
        issuer=C = GB, ST = Greater Manchester, L = Salford, O = Sectigo Limited, CN = Sectigo RSA Domain Validation Secure Server CA
        subject=CN = *.tallyhop.io
        notBefore=Jan 19 00:00:00 2026 GMT
        notAfter=Jan 19 23:59:59 2027 GMT
        serial=7A3E0C92D1B44F0E8C5A61B29D03F7E4
        """)
    ep = U("Can you check when the wildcard cert on app.tallyhop.io runs out? We had a scare last year when it lapsed on a Saturday.")
    ep += T("Reading the certificate the edge currently serves.", "run_shell",
            {"cmd": "echo | openssl s_client -servername app.tallyhop.io -connect app.tallyhop.io:443 2>/dev/null | openssl x509 -noout -issuer -subject -dates -serial"},
            out, f="a-16")
    ep += A("It's a one-year Sectigo DV wildcard, so it will not auto-renew. Once we are on CloudFront we can switch to an "
            "ACM certificate, which renews itself. I've added a calendar reminder three weeks ahead.")
    return ep


def ep_cost():
    out = {"GroupDefinitions": [], "ResultsByTime": [{"TimePeriod": {"Start": "2026-10-01", "End": "2026-11-01"},
                                                      "Total": {"UnblendedCost": {"Amount": "11482.17", "Unit": "USD"}},
                                                      "Groups": [], "Estimated": False}],
           "DimensionValueAttributes": []}
    ep = U("Finance is asking what AWS cost us in October. Can you grab the number from Cost Explorer?")
    ep += T("Querying Cost Explorer.", "run_shell",
            {"cmd": "aws ce get-cost-and-usage --time-period Start=2026-10-01,End=2026-11-01 --granularity MONTHLY --metrics UnblendedCost"},
            J(out), f="a-17")
    ep += A("October came to a bit under 11.5k USD unblended, final (not estimated). Want a per-service breakdown for them too?")
    ep += U("No, they only want the total. They'll ask for the breakdown next week, they always do.")
    ep += A("Then I'll keep the per-service query ready for next week.")
    return ep


def ep_release_stale():
    out = d("""
        RELEASE_TAG=v4.18.2-hotfix3
        GIT_SHA=9f31c7e0a4
        BUILD_TIME=2026-11-20T16:02:41Z
        BUILT_BY=github-actions
        PIPELINE_RUN=8812
        ROLLBACK_OF=v4.19.0
        """)
    ep = U("What's actually live in prod right now? Someone said we rolled back on Friday and nobody told me.")
    ep += T("Reading the build-info config map the api mounts.", "run_shell",
            {"cmd": "kubectl -n prod get configmap app-build-info -o jsonpath='{.data.build\\.env}'"}, out, f="a-18")
    ep += A("Confirmed: Friday afternoon someone rolled back from v4.19.0 to the previous hotfix build. The rollback was "
            "done through the pipeline, so at least it's recorded.")
    ep += U("Great, communication as usual. I'll ask in the channel.")
    ep += A("The pipeline run links to the PR that triggered it, if that helps find who did it.")
    return ep


def ep_sla():
    ep = U("""For context on why I'm twitchy about downtime: the enterprise contract with Kessler Logistics promises 99.95%
monthly uptime, and one bad evening would blow most of that error budget.""".replace("\n", " "), f="a-19")
    ep += A("That's about 22 minutes a month. It's a good argument for the blue/green route and for doing the switchover in "
            "a window that's agreed with them in writing.")
    return ep


def ep_oncall_stale():
    ep = U("""I'm off this Friday for my cousin's wedding, so hand the pager to Ifeoma for the day — she's the only other person
with prod access, and she knows the billing-sync quirks better than I do anyway.""".replace("\n", " "), f="a-04")
    ep += A("Okay. I'll prepare the PagerDuty override for Friday and send her a summary of anything still open on Thursday evening.")
    return ep


def ep_dr_stale():
    ep = U("""For disaster recovery I'd like the nightly RDS snapshots copied out of region — let's send them to eu-west-3,
Paris is close enough and the storage pricing is fine.""".replace("\n", " "), f="a-13")
    ep += A("I'll add a cross-region snapshot copy with 14 days retention and a KMS key in the target region. I'll show you the plan first.")
    ep += U("Plan first, yes. No rush, this week is enough.")
    ep += A("Okay, I'll have it ready before Thursday.")
    return ep


def ep_iam_role():
    ep = U("The AX52 is up. How do we let the runners on it push images to ECR without static AWS keys lying around?")
    ep += A("""I've written Terraform for a role called ci-hetzner-ecr-push, trusted only through the GitHub OIDC provider for
our org's self-hosted runner group, with push rights on the four ECR repos and nothing else. No long-lived keys on the box.""".replace("\n", " "),
            f="a-25")
    ep += U("Show me the plan before anything gets applied.")
    plan = d("""
        Terraform will perform the following actions:

          # aws_iam_role.ci_hetzner_ecr_push will be created
          + resource "aws_iam_role" "ci_hetzner_ecr_push" {
              + arn                   = (known after apply)
              + assume_role_policy    = jsonencode(
                    {
                      + Statement = [
                          + {
                              + Action    = "sts:AssumeRoleWithWebIdentity"
                              + Condition = {
                                  + StringLike = {
                                      + "token.actions.githubusercontent.com:sub" = "repo:tallyhop/*:environment:ci"
                                    }
                                }
                              + Effect    = "Allow"
                              + Principal = {
                                  + Federated = "arn:aws:iam::471198836420:oidc-provider/token.actions.githubusercontent.com"
                                }
                            },
                        ]
                      + Version   = "2012-10-17"
                    }
                )
              + max_session_duration  = 3600
              + name                  = "ci-hetzner-ecr-push"
            }

          # aws_iam_role_policy.ci_hetzner_ecr_push will be created
          + resource "aws_iam_role_policy" "ci_hetzner_ecr_push" {
              + name   = "ecr-push"
              + role   = (known after apply)
            }

        Plan: 2 to add, 0 to change, 0 to destroy.
        """)
    ep += T("Sure, planning just that module.", "run_shell", {"cmd": "cd ~/src/infra/live/prod && terraform plan -target=module.ci_oidc -no-color | tail -40"}, plan)
    ep += U("Looks tight. Apply it and I'll wire the runner config tonight.")
    ep += T("Applying.", "run_shell", {"cmd": "cd ~/src/infra/live/prod && terraform apply -target=module.ci_oidc -auto-approve -no-color | tail -5"},
            d("""
            aws_iam_role.ci_hetzner_ecr_push: Creating...
            aws_iam_role.ci_hetzner_ecr_push: Creation complete after 2s
            aws_iam_role_policy.ci_hetzner_ecr_push: Creating...
            aws_iam_role_policy.ci_hetzner_ecr_push: Creation complete after 1s

            Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
            """))
    ep += A("Applied. In the workflow you only need `aws-actions/configure-aws-credentials` with role-to-assume and the "
            "`id-token: write` permission.")
    return ep


def ep_window_new():
    ep = U("""Bad news on the downtime front: sales vetoed Thursdays because Kessler runs their month-end batch then, so the window
is now Sunday 06:00 to 08:00 instead. Fewer people awake, fewer people angry.""".replace("\n", " "), f="a-20")
    ep += A("Updated in the planning doc. A two-hour early-morning slot is enough for the switchover plus checks.")
    return ep


def ep_cutover_date():
    ep = U("So when's the first of those slots we could realistically use for the cutover? Remember the December change "
           "freeze runs until January 10, and I want a full rehearsal on staging the weekend before.")
    ep += A("""The freeze ends on Sunday 10 January, so the rehearsal takes that weekend and the earliest production slot is
17 January 2027, 06:00. That also stays clear of the disk-alarm projection.""".replace("\n", " "), f="a-24")
    ep += U("Good. Put it in the calendar and tell Kessler's account manager.")
    ep += A("Calendar entry created and a draft notice for the account manager is in your inbox to review.")
    return ep


def ep_oncall_new():
    ep = U("""Change of plan for Friday: Ifeoma's down with flu, so Bartek takes the pager instead. He's newer, so please write
him a short cheat sheet for the two alerts that actually page.""".replace("\n", " "), f="a-21")
    ep += A("""Override moved. Cheat sheet:

- ApiErrorRateHigh: check the last deploy in Argo first; if it's less than an hour old, roll back through the pipeline.
- WebhookBacklog: check the dispatcher pods and the queue stats; a single customer endpoint failing is not an incident.""")
    ep += U("Good, forward it to him.")
    ep += A("Sent.")
    return ep


def ep_dr_new():
    ep = U("""Update on the DR copies: our DPO read the Kessler DPA and wants the backups to land in Switzerland, so make the
snapshot copy target eu-central-2 rather than Paris. Same retention as before.""".replace("\n", " "), f="a-22")
    ep += A("Changed the target in the branch before applying anything, so nothing needs cleaning up. The KMS key moves with it.")
    ep += U("Nice, nothing to undo for once.")
    ep += A("Rare but pleasant. The plan shows one copy rule and one key, I'll apply after you glance at it.")
    return ep


def ep_release_new():
    out = d("""
        Name:               argocd/api-prod
        Project:            default
        Server:             https://kubernetes.default.svc
        Namespace:          prod
        URL:                https://argocd.tallyhop.io/applications/api-prod
        Repo:               https://github.com/tallyhop/deploy.git
        Target:             v4.19.1
        Path:               helm/api
        SyncWindow:         Sync Allowed
        Sync Policy:        Manual
        Sync Status:        Synced to v4.19.1 (3be02d1)
        Health Status:      Healthy

        GROUP  KIND        NAMESPACE  NAME            STATUS  HEALTH   HOOK  MESSAGE
               ConfigMap   prod       app-build-info  Synced                 configmap/app-build-info configured
               Service     prod       api             Synced  Healthy        service/api unchanged
        apps   Deployment  prod       api             Synced  Healthy        deployment.apps/api configured
        policy PodDisruptionBudget prod api          Synced                 poddisruptionbudget.policy/api unchanged
        """)
    ep = U("The team says the fix for Friday's problem is merged. Sync the api app in prod and tell me what we end up on.")
    ep += T("Syncing and waiting for health.", "run_shell", {"cmd": "argocd app sync api-prod --timeout 600 && argocd app get api-prod"}, out, f="a-23")
    ep += A("Synced and healthy; the rollout finished without restarts. Error rate is flat so far.")
    ep += U("Finally. Keep an eye on it for an hour.")
    ep += A("Will do.")
    return ep


# ---------------------------------------------------------------- conv-2
def ep2_open():
    ep = U("Morning, back at it after a few days off. Anything weird in prod over the weekend?")
    ep += T("Checking alerts from the last 72 hours.", "http_request",
            {"method": "GET", "url": "http://alertmanager.monitoring.svc:9093/api/v2/alerts?active=false&silenced=false"},
            J([{"labels": {"alertname": "WorkerQueueBacklog", "severity": "warning", "queue": "imports"},
                "startsAt": "2026-12-05T22:14:00Z", "endsAt": "2026-12-05T22:41:00Z", "status": {"state": "resolved"}},
               {"labels": {"alertname": "PdfRenderSlow", "severity": "warning"},
                "startsAt": "2026-12-06T09:02:00Z", "endsAt": "2026-12-06T09:20:00Z", "status": {"state": "resolved"}},
               {"labels": {"alertname": "NodeDiskPressure", "severity": "warning", "node": "ip-10-40-21-77.compute.internal"},
                "startsAt": "2026-12-06T17:48:00Z", "endsAt": "2026-12-06T18:05:00Z", "status": {"state": "resolved"}}]))
    ep += A("Quiet weekend: three warnings, all resolved on their own — an imports backlog Saturday night, slow PDF renders "
            "Sunday morning and a disk-pressure blip on one node.")
    ep += U("The PDF one is interesting given what support sent me. Hold that thought.")
    ep += A("Holding it. I'll keep the renderer metrics handy.")
    return ep


def ep2_pdf():
    env = d("""
        RENDER_CONCURRENCY=4
        RENDER_TIMEOUT_MS=28000
        CHROMIUM_ARGS=--no-sandbox --disable-dev-shm-usage
        MAX_PAGES=250
        FONT_CACHE_DIR=/var/cache/fonts
        S3_BUCKET=tallyhop-prod-pdf-cache
        """)
    ep = U("""New one from support, SUP-50762: Kessler's finance team says PDF exports time out for invoices with more than
400 lines, and they batch-export at month end, so this will hurt soon.""".replace("\n", " "), f="a-26")
    ep += T("Reading the renderer's environment.", "run_shell",
            {"cmd": "kubectl -n prod exec deploy/pdf-renderer -- printenv | grep -E '^(RENDER|CHROMIUM|MAX_PAGES|FONT|S3_)'"}, env, f="a-27")
    ep += A("Two limits bite here: the page cap of 250 and the render timeout. A 400-line invoice is roughly 14 pages, so "
            "it's the timeout, not the page cap. The api gives up even earlier, at 25 seconds.")
    ep += U("So raising only the renderer's timeout wouldn't help.")
    ep += A("Right — both need to move, or better, large exports go through the async job queue and the user gets an email.")
    ep += U("Async it is. Write that up for the backend team.")
    ep += A("Drafted as a short proposal in the backend channel: exports over 150 lines go async, with a progress toast in the UI.")
    return ep


def ep2_rehearsal():
    ep = U("Let's start prepping the staging rehearsal for the Postgres upgrade. What's the state of the staging blue/green?")
    ep += T("Checking the staging blue/green deployment.", "run_shell",
            {"cmd": "aws rds describe-blue-green-deployments --filters Name=source,Values=tallyhop-staging-pg --query 'BlueGreenDeployments[].[BlueGreenDeploymentName,Status,Target]' --output text"},
            d("""
            tallyhop-staging-pg-bg	AVAILABLE	arn:aws:rds:::db:tallyhop-staging-pg-green-k3n1x0
            SWITCHOVER_DETAILS
              SourceMember   tallyhop-staging-pg                 AVAILABLE
              TargetMember   tallyhop-staging-pg-green-k3n1x0    AVAILABLE
              EngineVersion  16.4
              Replica lag    0.4 s
            """))
    ep += A("The green environment on staging is available on 16.4 with replication lag under half a second. We can run the "
            "switchover rehearsal whenever you like.")
    ep += U("Let's do a dry run of the checklist first, no switchover.")
    ep += A("""Checklist dry run:

1. Freeze deploys (Argo sync windows) — ready.
2. Verify extensions on green: pg_trgm, pgcrypto, uuid-ossp — all present.
3. Compare row counts on the 12 largest tables — script ready.
4. Switchover with 300 s timeout, then smoke tests — ready.
5. Rollback plan: old blue stays for 72 h.""")
    ep += U("Good. We'll do the real rehearsal later this week.")
    ep += A("I'll prepare the row-count script output format so we can diff before and after.")
    return ep


def ep2_close():
    ep = U("That's it for today, I think. Give me a three-line summary for my notes.")
    ep += A("""- PDF export timeouts: cause is the render/api timeouts, proposal for async exports sent to backend.
- Weekend alerts: three warnings, all self-resolved.
- Postgres upgrade: staging green environment ready, checklist dry-run done, rehearsal later this week.""")
    ep += U("Perfect, thanks.")
    ep += A("Anytime — talk tomorrow.")
    return ep


FACTS = [
    dict(id="a-01", kind="name", value="Radek", ask_in="conv-2",
         lexical="What did I ask you to call me?",
         para="Which short form of my first name do I prefer?"),
    dict(id="a-02", kind="place", value="Gdynia", ask_in="conv-2",
         lexical="Which city do I work from home in?",
         para="In what coastal town do I live?"),
    dict(id="a-03", kind="region", value="eu-north-1", ask_in="conv-2",
         lexical="What is the primary region of our prod stack?",
         para="Which geographic area hosts our main infrastructure?"),
    dict(id="a-04", kind="name", value="Ifeoma", ask_in="conv-1"),
    dict(id="a-05", kind="id", value="SUP-48213", ask_in="conv-1",
         lexical="What was the number of the support ticket about Brightwater Dental's webhooks?",
         para="Which case number did the helpdesk give the complaint about notifications not reaching that clinic?"),
    dict(id="a-06", kind="id", value="ten_4kq8ZP2x", ask_in="conv-1",
         lexical="What is Brightwater Dental's tenant_id in the dispatcher logs?",
         para="Which internal identifier belongs to the clinic that complained about missing callbacks?"),
    dict(id="a-07", kind="preference", value="fish shell", ask_in="conv-2",
         lexical="Which shell does my laptop run?",
         para="What command interpreter do I use on my personal machine?"),
    dict(id="a-08", kind="other", value="Thursday 22:30", ask_in="conv-1"),
    dict(id="a-09", kind="number", value="2816Mi", ask_in="conv-1",
         lexical="What memory limit is set for the api in values-prod.yaml?",
         para="How much RAM may each backend replica consume at most?"),
    dict(id="a-10", kind="id", value="B20261123-3318275", ask_in="conv-1",
         lexical="What is the transaction id of the Hetzner server order?",
         para="What's the purchase reference for the new build machine we bought?"),
    dict(id="a-11", kind="id", value="i-0b7e4c19a2f35d801", ask_in="conv-2",
         lexical="What's the instance_id of bastion-prod?",
         para="What is the EC2 identifier of our jump host?"),
    dict(id="a-12", kind="code", value="MIGR-2291", ask_in="conv-2",
         lexical="Under which project code is the Postgres upgrade tracked in Jira?",
         para="What key should we put on tickets for the DB version bump?"),
    dict(id="a-13", kind="region", value="eu-west-3", ask_in="conv-1"),
    dict(id="a-14", kind="number", value="41.7 GB", ask_in="conv-1",
         lexical="By how much per week is free space on the prod database shrinking?",
         para="How quickly is the Postgres disk being eaten up, according to your calculation?"),
    dict(id="a-15", kind="date", value="2027-02-28", ask_in="conv-2",
         lexical="When does our contract with EdgeNova end?",
         para="By what day does the agreement with our content delivery supplier lapse?"),
    dict(id="a-16", kind="date", value="Jan 19 23:59:59 2027", ask_in="conv-1",
         lexical="When does the wildcard cert for tallyhop.io hit its notAfter date?",
         para="Until what day does the TLS certificate protecting the customer-facing site stay good?"),
    dict(id="a-17", kind="number", value="11482.17", ask_in="conv-1",
         lexical="What was the unblended AWS cost for October according to Cost Explorer?",
         para="How much did Amazon charge us for October?"),
    dict(id="a-18", kind="code", value="v4.18.2-hotfix3", ask_in="conv-1"),
    dict(id="a-19", kind="number", value="99.95%", ask_in="conv-2",
         lexical="What monthly uptime does the Kessler Logistics contract promise?",
         para="What availability percentage did we guarantee our biggest corporate client?"),
    dict(id="a-20", kind="other", value="Sunday 06:00", ask_in="conv-2", corrects="a-08",
         lexical="When does the downtime window start now that sales vetoed Thursdays?",
         para="When is our agreed outage slot for maintenance?"),
    dict(id="a-21", kind="name", value="Bartek", ask_in="conv-1", corrects="a-04",
         lexical="Who takes the pager on Friday?",
         para="Who is covering emergencies while I'm at the family celebration?"),
    dict(id="a-22", kind="region", value="eu-central-2", ask_in="conv-2", corrects="a-13",
         lexical="Which region is the target for the DR snapshot copies?",
         para="Where should the offsite database duplicates be stored?"),
    dict(id="a-23", kind="code", value="v4.19.1", ask_in="conv-1", corrects="a-18",
         lexical="Which version is the api-prod app synced to in Argo?",
         para="Which software release are customers running at the moment?"),
    dict(id="a-24", kind="date", value="17 January 2027", ask_in="conv-2",
         lexical="What is the earliest production slot for the cutover?",
         para="On which date is the switch to the new database major release planned?"),
    dict(id="a-25", kind="other", value="ci-hetzner-ecr-push", ask_in="conv-1",
         lexical="What is the IAM role for the Hetzner runners called?",
         para="What did you name the permission identity that lets our build agents upload container images?"),
    dict(id="a-26", kind="id", value="SUP-50762", ask_in="conv-2",
         lexical="What is the support ticket about Kessler's PDF exports timing out?",
         para="What's the case number of the complaint about document downloads hanging?"),
    dict(id="a-27", kind="number", value="28000", ask_in="conv-2",
         lexical="What is RENDER_TIMEOUT_MS set to on the renderer?",
         para="How long may generating a single document take before it's abandoned?"),
]


def build(seed=20261124):
    rng = random.Random(seed)
    pool = Pool(FILLER, rng)
    longs = Pool(LONG, rng)
    F = pool.take
    c1 = [
        ep_intro(), ep_tf_outputs(), F(1), ep_home(), F(2), ep_webhooks(), F(2), ep_fish(), F(2),
        ep_migr(), F(1), ep_window_stale(), F(2), ep_helm_yaml(), F(2), longs.take(1), ep_hetzner_order(), F(2),
        ep_bastion(), F(2), ep_oncall_stale(), F(1), ep_growth(), F(2), ep_cdn(), F(2), ep_cert(), F(1), ep_dr_stale(), F(2),
        ep_cost(), F(2), ep_release_stale(), F(1), ep_sla(), F(2), ep_iam_role(), F(1), ep_window_new(), F(1),
        ep_cutover_date(), F(2), longs.take(1), ep_oncall_new(), F(2), ep_dr_new(), F(1), ep_release_new(), F(6),
    ]
    # conv-2 uses a fresh pool so its filler differs from the tail of conv-1
    pool2 = Pool([g_pods, g_latency, g_ci, g_sentry, g_redis, g_smalltalk, g_queue, g_explain, g_dns], random.Random(seed + 1))
    c2 = [ep2_open(), pool2.take(2), ep2_pdf(), pool2.take(3), ep2_rehearsal(), pool2.take(2), ep2_close()]
    c2 = redate(c2, {"2026-11-24": "2026-12-07", "24/Nov/2026": "07/Dec/2026"})
    return make_set("set-a", NOTE, "user-3071", [("conv-1", c1), ("conv-2", c2)], FACTS, seed)
