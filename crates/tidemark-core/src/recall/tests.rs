//! Unit cases for the recall rules: tokenising, cutting and ranking.

use super::*;
use crate::message::{Message, ToolCall};

fn check_terms(text: &str, expected: &[&str]) {
    assert_eq!(terms(text), expected, "terms of {text:?}");
}

#[test]
fn identifiers_yield_themselves_and_their_parts() {
    check_terms("99-1842-X", &["99-1842-x", "99", "1842", "x"]);
    check_terms("a.b.c", &["a.b.c", "a", "b", "c"]);
    check_terms("--flag", &["flag"]);
    check_terms("end.", &["end"]);
    check_terms("x..y", &["x..y", "x", "y"]);
    check_terms("", &[]);
    check_terms("\u{0}\u{7}\t\"*\"()", &[]);
    check_terms("日本語 テキスト", &["日本語", "テキスト"]);
}

#[test]
fn camel_case_words_yield_their_words_too() {
    check_terms("UnblendedCost", &["unblendedcost", "unblended", "cost"]);
    check_terms("initialDelaySeconds", &["initialdelayseconds", "initial", "delay", "seconds"]);
    check_terms("HTTPServer", &["httpserver", "http", "server"]);
    check_terms("pod/OOMKilled", &["pod/oomkilled", "pod", "oomkilled", "oom", "killed"]);
    check_terms("ÉtéLong", &["étélong", "été", "long"]);
    // Plurals of capitals, numbers with their units and one-letter words stay whole.
    for whole in ["APIs", "2816Mi", "v1Beta", "iPhone", "PhD", "getX", "NODE_ENV", "Deploy"] {
        assert_eq!(terms(whole)[0], whole.to_lowercase(), "{whole}");
        assert!(
            terms(whole).iter().all(|term| !term.is_empty() && whole.to_lowercase().contains(term.as_str()))
        );
    }
    assert_eq!(terms("APIs"), ["apis"]);
    assert_eq!(terms("2816Mi"), ["2816mi"]);
    assert_eq!(terms("iPhone"), ["iphone"]);
    // A query in plain words finds the key.
    assert_eq!(query_terms("unblended cost"), ["unblended", "cost"]);
}

#[test]
fn long_words_and_long_queries_are_bounded() {
    let long = "x".repeat(500);
    assert_eq!(terms(&long)[0].chars().count(), MAX_TERM_CHARS);
    let huge: String = (0..200_000).map(|i| format!("w{i} ")).collect();
    let kept = query_terms(&huge);
    assert_eq!(kept.len(), MAX_QUERY_TERMS);
    // A query cut inside a multi-byte character is cut before it instead.
    let wide = "é".repeat(MAX_QUERY_BYTES);
    assert_eq!(query_terms(&wide).len(), 1);
}

#[test]
fn stop_words_leave_queries_only() {
    assert!(query_terms("what is the").is_empty());
    assert_eq!(terms("what is the"), ["what", "is", "the"]);
    assert_eq!(query_terms("the the deploy deploy"), ["deploy"]);
}

#[test]
fn passages_cover_text_tool_calls_and_results() {
    let call = ToolCall::with_raw_arguments("c1", "read_file", r#"{"path":"src/lib.rs"}"#);
    let cut = passages(&Message::assistant_tool_calls([call]));
    assert_eq!(cut.len(), 1);
    assert!(
        cut[0].terms.contains(&"read_file".to_owned()) && cut[0].terms.contains(&"src/lib.rs".to_owned())
    );
    assert!(passages(&Message::user("  \n ... \n")).is_empty());
    let two = Message::user("first part").with_part(crate::message::Part::text("second part"));
    let cut = passages(&two);
    assert_eq!(cut.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn long_lines_are_cut_between_words_and_never_inside_a_character() {
    let prose = "Ünïcödé wörds gö hérè. ".repeat(60);
    for passage in passages(&Message::user(prose.clone())) {
        assert!(passage.text.len() <= MAX_PASSAGE_BYTES);
        assert!(!passage.text.starts_with(' ') && !passage.text.ends_with(' '));
        assert!(prose.contains(&passage.text));
    }
    let word = "é".repeat(1000);
    let cut = passages(&Message::user(word));
    assert!(cut.len() > 1 && cut.iter().all(|p| p.text.len() <= MAX_PASSAGE_BYTES));
}

#[test]
fn short_lines_are_packed_whole() {
    let text = "line one\nline two\nline three";
    let cut = passages(&Message::user(text));
    assert_eq!(cut.len(), 1);
    assert_eq!(cut[0].text, text);
}

fn candidate(seq: u64, index: u32, text: &str) -> Candidate {
    Candidate::new(Seq(seq), crate::message::Role::User, PassageText::new(index, text))
}

#[test]
fn rare_terms_win_and_ties_go_to_newer_messages() {
    let candidates = vec![
        candidate(0, 0, "retry backoff tuning"),
        candidate(1, 0, "retry backoff INC-20931"),
        candidate(2, 0, "retry backoff tuning"),
        candidate(3, 0, "retry backoff tuning"),
    ];
    let found = rank(&RecallQuery::new("retry INC-20931", Seq(10), 2), candidates.clone());
    assert_eq!(found.iter().map(|p| p.seq.0).collect::<Vec<_>>(), [1, 3]);
    let found = rank(&RecallQuery::new("tuning", Seq(3), 10), candidates.clone());
    assert_eq!(found.iter().map(|p| p.seq.0).collect::<Vec<_>>(), [2, 0]);
    assert!(rank(&RecallQuery::new("tuning", Seq(0), 10), candidates.clone()).is_empty());
    assert!(rank(&RecallQuery::new("tuning", Seq(9), 0), candidates.clone()).is_empty());
    assert!(rank(&RecallQuery::new("\"*\" AND -", Seq(9), 5), candidates).is_empty());
}

#[test]
fn scores_do_not_depend_on_candidate_order() {
    let candidates = vec![
        candidate(0, 0, "alpha beta beta"),
        candidate(1, 0, "beta gamma"),
        candidate(2, 1, "alpha gamma gamma"),
    ];
    let query = RecallQuery::new("alpha beta gamma", Seq(9), 10);
    let forward = rank(&query, candidates.clone());
    let backward = rank(&query, candidates.into_iter().rev());
    assert_eq!(forward, backward);
}

mod rankings_agree {
    use proptest::prelude::*;

    use super::*;
    use crate::Role;

    /// Words from a small vocabulary, joined by spaces, joiners and newlines, in any case.
    fn arb_text() -> impl Strategy<Value = String> {
        let word = prop::sample::select(vec![
            "deploy",
            "INC-20931",
            "europe-west4",
            "fix/retry-7781",
            "the",
            "build",
            "Größe",
            "ok",
            "42",
            "x",
            "UnblendedCost",
            "OOMKilled",
            "ÉtéLong",
        ]);
        let glue = prop::sample::select(vec![" ", "\n", "-", ". ", ", ", "/"]);
        prop::collection::vec((word, glue), 0..40)
            .prop_map(|pieces| pieces.into_iter().map(|(word, glue)| format!("{word}{glue}")).collect())
    }

    proptest! {
        /// The four entry points give the same passages with the same scores, to the bit.
        #[test]
        fn rank_borrowed_rank_texts_and_rank_counted_answer_as_rank(
            messages in prop::collection::vec(arb_text(), 1..8),
            query in arb_text(),
            below in 0u64..10,
            limit in 0usize..6,
        ) {
            let query = RecallQuery::new(query, Seq(below), limit);
            let cut: Vec<(Seq, Vec<PassageText>)> = messages
                .iter()
                .enumerate()
                .map(|(seq, text)| (Seq(seq as u64), passages(&Message::user(text.as_str()))))
                .collect();
            let owned = cut.iter().flat_map(|(seq, cut)| {
                cut.iter().map(move |passage| Candidate::new(*seq, Role::User, passage.clone()))
            });
            let expected = rank(&query, owned);
            let borrowed =
                rank_borrowed(&query, cut.iter().flat_map(|(seq, cut)| cut.iter().map(move |p| (*seq, Role::User, p))));
            let texts: Vec<(Seq, Vec<(u32, String)>)> = messages
                .iter()
                .enumerate()
                .map(|(seq, text)| (Seq(seq as u64), passage_texts(&Message::user(text.as_str()))))
                .collect();
            let from_texts = rank_texts(
                &query,
                texts.iter().flat_map(|(seq, texts)| {
                    texts.iter().map(move |(index, text)| (*seq, Role::User, *index, text.as_str()))
                }),
            );
            let counted: Vec<(Seq, Vec<(&PassageText, TermCounts)>)> = cut
                .iter()
                .map(|(seq, cut)| (*seq, cut.iter().map(|p| (p, TermCounts::of(p))).collect()))
                .collect();
            let from_counts = rank_counted(
                &query,
                counted.iter().flat_map(|(seq, cut)| {
                    cut.iter().map(move |(p, counts)| (*seq, Role::User, p.index, p.text.as_str(), counts))
                }),
            );
            let bits = |found: &[Passage]| {
                found.iter().map(|p| (p.seq, p.index, p.text.clone(), p.score.to_bits())).collect::<Vec<_>>()
            };
            prop_assert_eq!(bits(&borrowed), bits(&expected));
            prop_assert_eq!(bits(&from_texts), bits(&expected));
            prop_assert_eq!(bits(&from_counts), bits(&expected));
        }
    }
}

#[test]
fn a_wrapped_sentence_stays_with_the_line_that_goes_on_with_it() {
    let head = "From: Ines <ines@example.pt>\nTo: hello@example.studio\nSubject: schedule change for your workshop\n\n";
    let body = "Apologies for the shuffle: the city moved our main venue booking, so the whole\n\
                workshop programme shifts by one week. Your two-day workshop now begins on\n\
                2027-03-18 (same hours, 10:00 to 16:00 both days, room B).\n";
    // A line before the sentence, so that the first passage is full right where the sentence wraps:
    // the lines up to "now begins on" fit in it (332 bytes), the date's line does not (391).
    let filler = "We also have a few notes on the catering order for the opening night of the fair.\n";
    let mail = format!("{head}{filler}{body}");
    let lines: Vec<&str> = mail.lines().filter(|line| !line.is_empty()).collect();
    let upto_wrap = lines[..6].join("\n");
    assert!(upto_wrap.ends_with("now begins on") && lines[6].starts_with("2027-03-18"));
    assert!(upto_wrap.len() <= MAX_PASSAGE_BYTES && upto_wrap.len() + 1 + lines[6].len() > MAX_PASSAGE_BYTES);
    let cut = passages(&Message::tool_result("call_1", mail.clone()));
    assert!(cut.len() > 1, "the mail fills more than one passage: {cut:?}");
    let dated = cut.iter().find(|passage| passage.text.contains("2027-03-18")).expect("the date is kept");
    assert!(dated.text.contains("now begins on\n2027-03-18"), "the sentence was cut at the wrap: {cut:?}");
    assert!(
        cut.iter().all(|passage| passage.text.len() <= MAX_PASSAGE_BYTES && !passage.text.ends_with('\n'))
    );
    // Log lines and records are not prose: they are packed as before.
    let log: String = (0..60).map(|i| format!("step {i} ok\n")).collect();
    let cut = passages(&Message::tool_result("call_2", log.clone()));
    let mut packed = String::new();
    let mut expected = Vec::new();
    for line in log.lines() {
        if !packed.is_empty() && packed.len() + 1 + line.len() > MAX_PASSAGE_BYTES {
            expected.push(std::mem::take(&mut packed));
        }
        if !packed.is_empty() {
            packed.push('\n');
        }
        packed.push_str(line);
    }
    expected.push(packed);
    assert_eq!(cut.iter().map(|passage| passage.text.clone()).collect::<Vec<_>>(), expected);
}

mod cutting {
    use proptest::prelude::*;

    use super::*;

    /// Lines of prose, records and log output, each shorter than a passage, some ending mid-sentence.
    fn arb_lines() -> impl Strategy<Value = Vec<String>> {
        let word = prop::sample::select(vec![
            "the",
            "workshop",
            "now",
            "begins",
            "on",
            "2027-03-18",
            "Olá",
            "key=v",
        ]);
        let end = prop::sample::select(vec!["", ",", ".", ":", " "]);
        let line = (prop::collection::vec(word, 1..14), end, 0usize..3)
            .prop_map(|(words, end, indent)| format!("{}{}{end}", "  ".repeat(indent), words.join(" ")));
        prop::collection::vec(line, 0..40)
    }

    proptest! {
        /// Lines shorter than a passage are never cut, lost, doubled or reordered, whatever moves
        /// between passages, and no passage is longer than the bound or starts or ends with a newline.
        #[test]
        fn short_lines_are_kept_whole_and_in_order(lines in arb_lines()) {
            let text = lines.join("\n");
            let cut = passages(&Message::user(text.as_str()));
            let kept: Vec<&str> = cut.iter().flat_map(|passage| passage.text.lines()).collect();
            let expected: Vec<&str> =
                text.lines().map(str::trim_end).filter(|line| line.chars().any(char::is_alphanumeric)).collect();
            prop_assert_eq!(kept, expected);
            for passage in &cut {
                prop_assert!(passage.text.len() <= MAX_PASSAGE_BYTES);
                prop_assert!(!passage.text.starts_with('\n') && !passage.text.ends_with('\n'));
            }
        }
    }
}
