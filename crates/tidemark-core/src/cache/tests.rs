//! Unit and property tests of the cache model: fixed sequences with their exact bills, the minimum prefix, the prices' checks, and the bounds every sequence keeps.

use proptest::prelude::*;

use super::*;
use crate::HeuristicCounter;
use crate::message::{Part, Role};

/// Records `prompts` (each a list of `(key, tokens)` blocks, overhead 2) and compares each turn's `(extends, cached, written)`.
fn check(prices: CachePrices, prompts: &[&[(char, u64)]], expected: &[(bool, u64, u64)]) -> CacheTotals {
    let mut ledger = CacheLedger::new(prices);
    let turns: Vec<(bool, u64, u64)> = prompts
        .iter()
        .map(|prompt| {
            let turn = ledger.record(prompt.iter().copied(), 2);
            (turn.extends, turn.cached, turn.written)
        })
        .collect();
    assert_eq!(turns, expected);
    ledger.totals()
}

#[test]
fn a_growing_prompt_is_read_from_the_cache_and_a_rewritten_front_is_written_again() {
    let totals = check(
        CachePrices::default(),
        &[
            &[('s', 100), ('a', 50)],
            &[('s', 100), ('a', 50), ('b', 30)],
            // A compaction: the summary replaces `a`, so only the system message is read.
            &[('s', 100), ('S', 20), ('b', 30)],
            &[('s', 100), ('S', 20), ('b', 30)],
        ],
        &[(false, 0, 152), (true, 150, 32), (false, 100, 52), (true, 150, 2)],
    );
    assert_eq!((totals.turns, totals.extended, totals.cached, totals.input), (4, 2, 400, 638));
    assert_eq!(totals.extension_share(), Some(2.0 / 3.0));
    assert_eq!(totals.cached_share(), Some(400.0 / 638.0));
    let expected = (0.1 * 400.0 + 1.25 * 238.0) / 638.0;
    assert!(totals.cost_ratio().is_some_and(|ratio| (ratio - expected).abs() < 1e-12));
}

#[test]
fn a_shared_prefix_below_the_minimum_is_not_cached() {
    let prices = CachePrices::default().with_min_prefix(1_024);
    check(
        prices,
        &[&[('s', 1_020), ('a', 10)], &[('s', 1_020), ('b', 10)], &[('s', 1_020), ('b', 10), ('c', 4)]],
        &[(false, 0, 1_032), (false, 0, 1_032), (true, 1_030, 6)],
    );
}

#[test]
fn nothing_recorded_has_no_shares() {
    let totals = CacheLedger::<u8>::new(CachePrices::default()).totals();
    assert_eq!((totals.extension_share(), totals.cached_share(), totals.cost_ratio()), (None, None, None));
    let mut one = CacheLedger::new(CachePrices::default());
    one.record([(1_u8, 10)], 0);
    assert_eq!(one.totals().extension_share(), None);
    assert_eq!(one.totals().cost_ratio(), Some(1.25));
}

#[test]
fn the_presets_are_the_documented_prices() {
    let five = CachePrices::anthropic_five_minutes();
    let hour = CachePrices::anthropic_one_hour();
    assert_eq!((five.read, five.write, five.min_prefix), (0.1, 1.25, 1_024));
    assert_eq!((hour.read, hour.write, hour.min_prefix), (0.1, 2.0, 1_024));
    let default = CachePrices::default();
    assert_eq!((default.read, default.write, default.min_prefix), (0.1, 1.25, 0));
}

#[test]
fn prices_must_be_finite_and_not_negative() {
    for (read, write, name) in [(-0.1, 1.0, "read"), (0.1, f64::NAN, "write"), (f64::INFINITY, 1.0, "read")] {
        let refused = CachePrices::new(read, write);
        assert!(
            matches!(refused, Err(PriceError::Invalid { name: named, .. }) if named == name),
            "{refused:?}"
        );
    }
    assert_eq!(
        CachePrices::new(-1.0, 1.0).map_err(|error| error.to_string()),
        Err("the cache read price must be a finite number of zero or more, not -1".to_owned())
    );
    assert_eq!(CachePrices::new(0.0, 0.0), Ok(CachePrices { read: 0.0, write: 0.0, min_prefix: 0 }));
}

#[test]
fn messages_are_keyed_by_content_and_counted_with_the_overhead() {
    let counter = HeuristicCounter::default();
    let system = Message::system("You are terse.");
    let user = Message::user("Hello there");
    let mut ledger = CacheLedger::new(CachePrices::default());
    ledger.record_prompt(&[system.clone(), user.clone()], &counter);
    // A pinned copy says the same and costs the same: the cache still holds it.
    let turn = ledger.record_prompt(&[system.clone(), user.clone().pinned()], &counter);
    let expected = u64::from(counter.count(&system) + counter.count(&user));
    assert_eq!(
        (turn.extends, turn.cached, turn.written),
        (true, expected, u64::from(counter.prompt_overhead()))
    );
}

#[test]
fn a_message_of_several_parts_is_priced_part_by_part() {
    let counter = HeuristicCounter::default();
    let parts =
        |texts: &[&str]| Message::new(Role::System, texts.iter().map(|text| Part::text(*text)).collect());
    let old = parts(&["The first segment of the summary, which stays.", "A second segment."]);
    let new = parts(&["The first segment of the summary, which stays.", "A second segment, rewritten."]);
    let user = Message::user("Next question");
    let mut ledger = CacheLedger::new(CachePrices::default());
    let first = ledger.record_prompt(&[old.clone(), user.clone()], &counter);
    // The parts' shares add up to the whole message's count.
    let whole = u64::from(counter.count(&old) + counter.count(&user) + counter.prompt_overhead());
    assert_eq!(first.input(), whole);
    let second = ledger.record_prompt(&[new.clone(), user.clone()], &counter);
    let first_part = u64::from(counter.count(&parts(&["The first segment of the summary, which stays."])));
    assert_eq!((second.extends, second.cached), (false, first_part));
    assert_eq!(
        second.input(),
        u64::from(counter.count(&new) + counter.count(&user) + counter.prompt_overhead())
    );
}

/// Prompts over four blocks, so that consecutive ones often share a prefix; a block's tokens depend on its key alone, as a message's count depends on its content.
fn arb_prompts() -> impl Strategy<Value = Vec<Vec<(u8, u64)>>> {
    let keys = prop::collection::vec(prop::collection::vec(0_u8..4, 0..8), 0..24);
    (keys, prop::collection::vec(0_u64..2_000, 4)).prop_map(|(prompts, sizes)| {
        let tokens = |key: u8| sizes.get(usize::from(key)).copied().unwrap_or_default();
        prompts.into_iter().map(|keys| keys.into_iter().map(|key| (key, tokens(key))).collect()).collect()
    })
}

fn arb_prices() -> impl Strategy<Value = CachePrices> {
    (0.0_f64..3.0, 0.0_f64..3.0, prop_oneof![Just(0_u64), 0_u64..4_000]).prop_map(|(read, write, min)| {
        CachePrices::new(read, write).map(|prices| prices.with_min_prefix(min)).unwrap_or_default()
    })
}

/// The prompts with each one, half of the time, extended from the one before.
fn with_growth(prompts: Vec<Vec<(u8, u64)>>, grow: &[bool]) -> Vec<Vec<(u8, u64)>> {
    let mut out: Vec<Vec<(u8, u64)>> = Vec::with_capacity(prompts.len());
    for (prompt, &grows) in prompts.into_iter().zip(grow.iter().chain(std::iter::repeat(&false))) {
        match out.last() {
            Some(previous) if grows => out.push(previous.iter().copied().chain(prompt).collect()),
            _ => out.push(prompt),
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn every_bill_stays_within_the_read_and_write_prices(
        prompts in arb_prompts(),
        grow in prop::collection::vec(any::<bool>(), 24),
        prices in arb_prices(),
        overhead in 0_u64..8,
    ) {
        let prompts = with_growth(prompts, &grow);
        let mut ledger = CacheLedger::new(prices);
        let mut previous: Option<Vec<(u8, u64)>> = None;
        for prompt in &prompts {
            let turn = ledger.record(prompt.iter().copied(), overhead);
            let tokens: u64 = prompt.iter().map(|(_, tokens)| tokens).sum::<u64>() + overhead;
            prop_assert_eq!(turn.input(), tokens);
            prop_assert!(turn.cached <= tokens - overhead);
            let starts_with = previous.as_ref().is_some_and(|old| prompt.starts_with(old));
            prop_assert_eq!(turn.extends, starts_with);
            if previous.is_none() {
                prop_assert_eq!(turn.cached, 0);
            }
            previous = Some(prompt.clone());
        }
        let totals = ledger.totals();
        let (low, high) = (prices.read.min(prices.write), prices.read.max(prices.write));
        if let Some(ratio) = totals.cost_ratio() {
            prop_assert!(ratio >= low - 1e-9 && ratio <= high + 1e-9, "ratio {} outside [{}, {}]", ratio, low, high);
        }
        for share in [totals.extension_share(), totals.cached_share()].into_iter().flatten() {
            prop_assert!((0.0..=1.0).contains(&share));
        }
    }

    #[test]
    fn a_prompt_sent_again_is_read_whole_from_the_cache(
        prompt in prop::collection::vec((0_u8..4, 1_u64..2_000), 1..8),
        repeats in 1_usize..5,
        overhead in 0_u64..8,
    ) {
        let mut ledger = CacheLedger::new(CachePrices::default());
        let first = ledger.record(prompt.iter().copied(), overhead);
        prop_assert_eq!(first.cached, 0);
        let tokens: u64 = prompt.iter().map(|(_, tokens)| tokens).sum();
        for _ in 0..repeats {
            let turn = ledger.record(prompt.iter().copied(), overhead);
            prop_assert!(turn.extends);
            prop_assert_eq!((turn.cached, turn.written), (tokens, overhead));
        }
        prop_assert_eq!(ledger.totals().extension_share(), Some(1.0));
    }
}
