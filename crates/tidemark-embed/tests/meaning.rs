//! Does the bundled model find a fact from a question asked in other words?
//!
//! Twenty facts an agent might remember, each with a question that asks for it
//! while sharing few or no words with it. The pairs were written before the
//! model was run on them and are not tuned to it.

use tidemark_core::recall::{Passage, RecallQuery, combine};
use tidemark_core::{Role, Seq};
use tidemark_embed::{Embedder, StaticModel};

const PAIRS: [(&str, &str); 20] = [
    ("where do our servers live?", "We host everything in Frankfurt."),
    ("what should I cook for her?", "My wife is vegetarian and hates mushrooms."),
    ("when can I ship the release?", "Deploys are only allowed on Tuesdays and Thursdays."),
    ("who do I page at night?", "Alice is on call this week."),
    ("how long do we keep old snapshots?", "Backups are retained for thirty days."),
    ("what's my pet's name?", "The user's cat is called Miso."),
    ("which language should replies use?", "Always answer in British English."),
    ("why did the site go down yesterday?", "The outage was caused by an expired TLS certificate."),
    ("how fast can a client call the API?", "The rate limit is 600 requests per minute per key."),
    ("when is my flight?", "The plane to Lisbon departs at 06:45 on Monday."),
    ("what's the budget situation?", "Our spending for the third quarter was cut by fifteen percent."),
    ("what database do we use?", "We decided to go with PostgreSQL instead of MySQL."),
    ("is the kid's school out early today?", "Classes end at half past three on weekdays."),
    ("how do I get into the staging box?", "SSH to staging uses port 2222 and the deploy key."),
    ("what does the customer pay per year?", "The annual contract is worth forty thousand euros."),
    ("what is the doctor visit about?", "The dentist appointment is for a broken tooth."),
    ("which editor does the user like?", "The user writes code in Neovim."),
    ("what is the weather going to be like?", "Heavy rain and strong wind are forecast for tomorrow."),
    ("how many people approve a merge?", "Pull requests need two reviews before merging."),
    ("what sport does the user do?", "The user runs five kilometres every morning."),
];

#[test]
fn questions_find_their_facts() {
    let model = StaticModel::bundled();
    let embed = |text: &str| model.embed(text).expect("known words");
    let questions: Vec<_> = PAIRS.iter().map(|(question, _)| embed(question)).collect();
    let facts: Vec<_> = PAIRS.iter().map(|(_, fact)| embed(fact)).collect();

    // A question finds its fact when the fact is nearer to it than the other facts are on average;
    // it finds it first when no other fact is nearer.
    let mut above_average = 0;
    let mut first = 0;
    let (mut own_total, mut others_total) = (0.0, 0.0);
    for (index, question) in questions.iter().enumerate() {
        let own = question.similarity(&facts[index]);
        let others: Vec<f64> = facts
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != index)
            .map(|(_, fact)| question.similarity(fact))
            .collect();
        let average = others.iter().sum::<f64>() / others.len() as f64;
        above_average += usize::from(own > average);
        own_total += own;
        others_total += average;
        first += usize::from(others.iter().all(|other| own > *other));
    }
    eprintln!(
        "above the average: {above_average} of 20; nearest: {first} of 20; mean cosine {:.3} to its fact, {:.3} to the others",
        own_total / 20.0,
        others_total / 20.0,
    );
    assert!(above_average >= 15, "only {above_average} of 20 questions find their fact above the average");
    // Picking one fact of twenty at random would find the right one once.
    assert!(first >= 4, "only {first} of 20 questions find their fact first");
}

/// Lines an agent's tool output is full of, none about any fact above: each fact is buried among three of them.
const FILLER: [&str; 20] = [
    "build 4812 finished in 3m12s with 0 warnings",
    "pod api-7f9c restarted 0 times in the last hour",
    "disk usage on /var is 61% of 200G",
    "certificate for status page renews in 54 days",
    "queue depth steady at 12 messages",
    "npm audit found 0 vulnerabilities in 912 packages",
    "cache hit ratio 0.93 over the last 15 minutes",
    "last commit on main: bump lockfile",
    "terraform plan shows no changes",
    "cron job cleanup-tmp ran at 03:00 and exited 0",
    "replica lag is under 200 ms",
    "load average 0.42 0.51 0.48",
    "linter passed on 214 files",
    "swap is disabled on every node",
    "image size shrank from 412MB to 389MB",
    "p95 latency 180 ms on the checkout route",
    "three open pull requests await review",
    "the nightly report was emailed to finance",
    "feature flag dark-mode is at 25% rollout",
    "log volume is 3.1 GB per day",
];

/// A fact among twenty lines of other output: does a question in other words still find its passage?
///
/// One embedding of the whole passage is mostly the filler's; weighing the
/// question piece by piece against the passage's pieces finds the words that
/// answer it wherever they stand. This counts both on the twenty pairs above,
/// each fact placed in its own passage with three filler lines, and asks that
/// weighing by pieces finds more passages first than the embedding alone.
#[test]
fn pieces_find_a_fact_buried_in_a_longer_passage() {
    let model = StaticModel::bundled();
    let passages: Vec<Passage> = PAIRS
        .iter()
        .enumerate()
        .map(|(at, (_, fact))| {
            let filler = [FILLER[at], FILLER[(at + 7) % 20], FILLER[(at + 13) % 20]];
            let text = format!("{}\n{fact}\n{}\n{}", filler[0], filler[1], filler[2]);
            Passage::new(Seq(at as u64), Role::Tool, 0, text, 0.0)
        })
        .collect();
    let vectors: Vec<_> =
        passages.iter().map(|passage| model.embed(&passage.text).expect("known words")).collect();
    let (mut by_embedding, mut by_pieces) = (0, 0);
    for (at, (question, _)) in PAIRS.iter().enumerate() {
        let wanted = model.embed(question).expect("known words");
        let best = (0..20)
            .max_by(|a, b| wanted.similarity(&vectors[*a]).total_cmp(&wanted.similarity(&vectors[*b])));
        by_embedding += usize::from(best == Some(at));
        let query = RecallQuery::new(*question, Seq(100), 1);
        let found = combine(&query, Vec::new(), passages.clone(), &*model);
        by_pieces += usize::from(found.first().map(|passage| passage.seq) == Some(Seq(at as u64)));
    }
    eprintln!("found first among 20 buried facts: by one embedding {by_embedding}, by pieces {by_pieces}");
    assert!(by_pieces > by_embedding, "by pieces {by_pieces} of 20, by one embedding {by_embedding}");
    assert!(by_pieces >= 10, "by pieces only {by_pieces} of 20");
}
