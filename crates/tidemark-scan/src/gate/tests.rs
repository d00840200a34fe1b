//! Unit tests of the gate: literals, places, branches, and spots that find what the regex finds.
use proptest::prelude::*;

use super::*;

/// Patterns with word boundaries, case folding, alternations, repeats and non-ASCII literals.
const SOURCES: &[&str] = &[
    r"(?i)\bignore (?:all |the )*rules\b",
    r"\b(?:to|for) (?:the )?(?:agent|bot)s?\b",
    r"(?-u:\b)rm -rf\b",
    r"(?i)\bolvida[\s_]+(?:las|tus) instrucciones",
    r"忽略(?:之前|以前)的?指示",
    r"a[a-z]*e",
    r"\s*x+",
    r"(?i)\bkiss (?:me|us)\b",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// `find_from` with the gate's reach finds what `regex::Regex::find_at` finds, from every place.
    #[test]
    fn a_spot_finds_what_the_regex_finds(
        words in prop::collection::vec(
            prop::sample::select(vec![
                "ignore", "IGNORE", "all", "the", "rules", "rulesx", "to", "for", "agent", "bots", "rm",
                "-rf", "olvida", "las", "instrucciones", "忽略", "之前", "的", "指示", "ape", "axe", "x",
                "é", "_", "\n", " ", "xx", "kiss", "KISS", "\u{212A}iss", "ki\u{17F}s", "me", "US",
            ]),
            0..30,
        ),
        glue in prop::collection::vec(prop::sample::select(vec![" ", "", "-", "\n", "é"]), 30),
    ) {
        let text: String = words.iter().zip(&glue).flat_map(|(word, glue)| [*word, *glue]).collect();
        let gate = Gate::new(SOURCES).expect("the gate builds");
        let hits = gate.hits(&text);
        for (index, source) in SOURCES.iter().enumerate() {
            let spot = Spot::new(source).expect("compiles");
            let regex = regex::Regex::new(source).expect("compiles");
            let boundaries = (0..=text.len()).filter(|&at| text.is_char_boundary(at));
            for at in boundaries {
                let want = regex.find_at(&text, at).map(|m| (m.start(), m.end()));
                let got = spot.find_from(&text, hits.reach(index), at).map(|m| (m.start(), m.end()));
                prop_assert_eq!(got, want, "pattern {} from {} in {:?}", source, at, text);
                let anywhere = spot.find_from(&text, &Reach::Anywhere, at).map(|m| (m.start(), m.end()));
                prop_assert_eq!(anywhere, want);
            }
        }
    }
}

#[test]
fn case_insensitive_patterns_keep_whole_literals() {
    let gate = Gate::new(&[r"(?i)\bdisregard (?:the|all) rules"]).expect("the gate builds");
    // Whole phrases, whatever their case: one per branch of the pattern and per spelling with
    // the long s (two words with an s, two branches), one inner literal, and nothing for a
    // text that only shares its first letters. Cut by the extractor, the thousands of
    // spellings were a few letters long.
    let literals: usize = gate.groups.iter().map(|group| group.ids.len()).sum();
    assert!(literals <= 12, "{literals}");
    assert_eq!(gate.hits("DisRegard the rules").reach(0), &Reach::At(vec![0]));
    assert_eq!(gate.hits("a discount on regards").reach(0), &Reach::Nowhere);
    // The Kelvin sign and the long s fold to k and s in a case-insensitive pattern: the gate still lets them through.
    let gate = Gate::new(&[r"(?i)kiss"]).expect("the gate builds");
    assert_eq!(gate.hits("a \u{212A}i\u{17F}s").reach(0), &Reach::At(vec![2]));
}

#[test]
fn places_inside_words_are_left_out_where_a_match_cannot_start() {
    let gate =
        Gate::with_word_starts(&[r"(?-u:\b)al(?-u:\b)", "ora", r"\bé", "tu"], &[false, false, false, true])
            .expect("the gate builds");
    let text = "legal al ora tutu (tu) étude";
    let hits = gate.hits(text);
    assert_eq!(hits.reach(0), &Reach::At(vec![6]), "a word boundary is needed before `al`");
    assert_eq!(hits.reach(1), &Reach::At(vec![9]), "no condition");
    assert_eq!(hits.reach(2), &Reach::At(vec![23]), "a non-ASCII first letter is let through");
    // The second `tu` of `tutu` follows a word character; the one after `é` is left to the search.
    assert_eq!(hits.reach(3), &Reach::At(vec![13, 19, 25]));
    assert_eq!(Start::of(&regex_syntax::parse(r"(?:\ba|\bb)c").expect("parses")), Start::Boundary);
    assert_eq!(Start::of(&regex_syntax::parse(r"(?:\ba|b)c").expect("parses")), Start::Any);
    assert_eq!(Start::of(&regex_syntax::parse(r"\b{start}a").expect("parses")), Start::AfterNonWord);
}

#[test]
fn a_pattern_without_its_inner_literal_is_not_searched() {
    let gate = Gate::new(&[r"(?i)\b(?:to|for) (?:the )?(?:agent|assistant)s?\b", r"\n\s*system:"])
        .expect("the gate builds");
    assert_eq!(gate.hits("Send it to the bot for review").reach(0), &Reach::Nowhere);
    assert_eq!(gate.hits("Send it to the bot for the AGENT").reach(0), &Reach::At(vec![19]));
    assert_eq!(gate.hits("a\n\nb\n").reach(1), &Reach::Nowhere, "no `system:`, no search at each line break");
    assert_eq!(gate.hits("a\n system:").reach(1), &Reach::At(vec![1]));
}

#[test]
fn a_short_inner_word_counts_only_as_a_word() {
    let gate = Gate::new(&[r"\b(?:to|for)\s+(?:the )?(?:ai|bot)s?\b"]).expect("the gate builds");
    assert_eq!(gate.hits("mail the draft to the main office").reach(0), &Reach::Nowhere, "`ai` inside words");
    assert_eq!(gate.hits("a note to the ai").reach(0), &Reach::At(vec![7]));
    assert_eq!(ends(&[regex_syntax::parse(r"\s+(?:the )?").expect("parses")]), Ends::NonWord);
    assert_eq!(ends(&[regex_syntax::parse(r"\s*").expect("parses")]), Ends::Empty);
    assert_eq!(ends(&[regex_syntax::parse(r"(?m)(?:^|[.!?]\s+)").expect("parses")]), Ends::NonWord);
    assert_eq!(ends(&[regex_syntax::parse(r"\s+\w?").expect("parses")]), Ends::Word);
}

#[test]
fn a_pattern_splits_into_its_gated_and_ungated_branches() {
    // No prefix common to all branches, which the parser would factor out of the alternation.
    let source = r"(?i)(?:please )?wipe the (?:logs|disk)|\b[a-z]{2}\d{2}(?: [a-z0-9]{4}){3,}|drop tables?";
    let (gated, ungated) = split_ungated(source).expect("parses");
    let (gated, ungated) = (gated.expect("two gated branches"), ungated.expect("one ungated branch"));
    let gate = Gate::new(&[&gated, &ungated]).expect("the gate builds");
    assert_eq!(gate.ungated(), 1);
    let whole = regex::Regex::new(source).expect("compiles");
    let sides =
        [regex::Regex::new(&gated).expect("compiles"), regex::Regex::new(&ungated).expect("compiles")];
    for text in ["WIPE THE LOGS", "de89 3704 0044 0532", "drop table", "wipe the floor", "x"] {
        let either = sides.iter().any(|side| side.is_match(text));
        assert_eq!(either, whole.is_match(text), "{text}");
    }
    let (only, none) = split_ungated(r"\bplain words").expect("parses");
    assert_eq!(none, None, "no ungated branch");
    assert!(regex::Regex::new(&only.expect("one gated branch")).expect("compiles").is_match("plain words"));
    assert_eq!(split_ungated("(unclosed"), None);
}

#[test]
fn many_places_become_a_search_from_the_first() {
    let gate = Gate::new(&[r"\bab\b"]).expect("the gate builds");
    let text = "xab ab ".repeat(FEW + 2);
    let hits = gate.hits(&text);
    // `ab` inside `xab` cannot start a match of `\bab`: the first place that can is 4.
    assert_eq!(hits.reach(0), &Reach::From(4));
    let spot = Spot::new(r"\bab\b").expect("compiles");
    assert_eq!(spot.find_from(&text, hits.reach(0), 0).map(|m| m.start()), Some(4));
    assert_eq!(gate.hits("xyz").reach(0), &Reach::Nowhere);
    // Branches are counted on their own and merged: one branch's many places make the whole pattern a search from the first.
    let branched = Gate::new(&[r"(?:^|x)cd\b|\bab\b"]).expect("the gate builds");
    let text = format!("xcd {}", "ab ".repeat(FEW + 1));
    assert_eq!(branched.hits(&text).reach(0), &Reach::From(0));
    assert_eq!(
        branched.hits("xcd ab").reach(0),
        &Reach::At(vec![0, 1, 4]),
        "`xcd` and `cd` both start the first branch"
    );
    assert_eq!(spot.find_from("ab", &Reach::Anywhere, 3), None, "a place past the end finds nothing");
}

#[test]
fn live_patterns_are_the_ones_that_match() {
    let sources: Vec<String> = (0..60).map(|i| format!(r"z{i}z\b")).collect();
    let gate = Gate::new(&sources).expect("the gate builds");
    let live = gate.live("z3z and z47z, not z100z");
    let on: Vec<usize> = live.iter().enumerate().filter(|(_, on)| **on).map(|(i, _)| i).collect();
    assert_eq!(on, vec![3, 47]);
    assert!(gate.live("").iter().all(|on| !on));
    assert_eq!(gate.ungated(), 0);
    let open = Gate::new(&[r"\s*x", "a|", "b"]).expect("the gate builds");
    assert_eq!(open.live("zzz"), vec![true, true, false]);
}
