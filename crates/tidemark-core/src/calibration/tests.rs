//! Unit and property tests of calibration: the bound, the rejected samples, robustness to one outlier, convergence, the budget arithmetic and the JSON form.

use proptest::prelude::*;

use super::*;

fn ratio(value: f64) -> Ratio {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ratio::from_millionths((value * 1e6).round() as u32)
}

fn calibrated(samples: &[(u32, u32)]) -> Calibration {
    let mut calibration = Calibration::new();
    for &(local, reported) in samples {
        calibration.observe(local, reported);
    }
    calibration
}

#[test]
fn absurd_samples_are_rejected_and_change_nothing() {
    let mut calibration = calibrated(&[(1_000, 1_200)]);
    let before = calibration.clone();
    assert_eq!(calibration.observe(1_000, 0), Observed::NotReported);
    assert_eq!(calibration.observe(0, 500), Observed::TooSmall);
    assert_eq!(calibration.observe(Calibration::MIN_PROMPT_TOKENS - 1, 500), Observed::TooSmall);
    assert_eq!(calibration, before);
    assert_eq!(
        calibration.observe(Calibration::MIN_PROMPT_TOKENS, 100),
        Observed::Accepted(Ratio::ONE),
        "the minimum itself is a sample"
    );
}

#[test]
fn ratios_are_clamped_to_the_bound() {
    assert_eq!(Ratio::measured(100, u32::MAX), Some(Ratio::MAX));
    assert_eq!(Ratio::measured(u32::MAX, 1), Some(Ratio::MIN));
    assert_eq!(Ratio::measured(3, 4), Some(ratio(1.333_333)));
    assert_eq!(Ratio::from_millionths(0), Ratio::MIN);
    assert_eq!(Ratio::from_millionths(u32::MAX), Ratio::MAX);
    assert_eq!(calibrated(&[(1_000, 100_000)]).ratio(), Ratio::MAX);
    assert_eq!(calibrated(&[(100_000, 1_000)]).ratio(), Ratio::MIN);
}

#[test]
fn the_estimate_is_the_upper_median_of_the_last_window() {
    let check = |samples: &[(u32, u32)], expected: f64| {
        assert_eq!(calibrated(samples).ratio(), ratio(expected), "{samples:?}");
    };
    check(&[], 1.0);
    check(&[(1_000, 1_100)], 1.1);
    check(&[(1_000, 1_100), (1_000, 1_300)], 1.3);
    check(&[(1_000, 1_300), (1_000, 1_100), (1_000, 1_200)], 1.2);
    // Ten samples: the first one (2.0) has left the window of nine.
    let mut samples = vec![(1_000, 2_000)];
    samples.extend([(1_000, 1_000); 4]);
    samples.extend([(1_000, 1_500); 5]);
    check(&samples, 1.5);
    assert_eq!(calibrated(&samples).ratios().len(), Calibration::WINDOW);
}

#[test]
fn scaling_and_budgets_with_no_samples_change_nothing() {
    for tokens in [0, 1, 99, 8_000, u32::MAX] {
        assert_eq!(Ratio::ONE.scale(tokens), tokens);
        assert_eq!(Ratio::ONE.budget(tokens), tokens);
    }
    assert_eq!(ratio(1.3).scale(100), 130);
    assert_eq!(ratio(1.3).scale(101), 132, "131.3 rounds up");
    assert_eq!(ratio(1.3).budget(8_000), 6_153);
    assert_eq!(Ratio::MIN.budget(u32::MAX), u32::MAX, "saturates");
    assert_eq!(Ratio::MAX.scale(u32::MAX), u32::MAX, "saturates");
}

#[test]
fn ratios_display_as_decimals() {
    assert_eq!(Ratio::ONE.to_string(), "1");
    assert_eq!(ratio(1.3).to_string(), "1.3");
    assert_eq!(Ratio::from_millionths(1_234_567).to_string(), "1.234567");
    assert_eq!(Ratio::MIN.to_string(), "0.5");
}

#[test]
fn the_json_form_is_the_samples_in_millionths() {
    let calibration = calibrated(&[(1_000, 1_300), (1_000, 1_100)]);
    let json = serde_json::to_string(&calibration).expect("serializes");
    assert_eq!(json, r#"{"ratios":[1300000,1100000]}"#);
    let back: Calibration = serde_json::from_str(&json).expect("decodes");
    assert_eq!(back, calibration);
    // Out-of-bound and surplus samples are clamped and trimmed when read.
    let odd: Calibration =
        serde_json::from_str(r#"{"ratios":[1,2,3,4,5,6,7,8,9,10,4000000000]}"#).expect("decodes");
    assert_eq!(odd.ratios().len(), Calibration::WINDOW);
    assert_eq!(odd.ratios().last(), Some(&Ratio::MAX));
    assert_eq!(odd.ratios().first(), Some(&Ratio::MIN));
    assert!(serde_json::from_str::<Calibration>(r#"{"ratios":[-1]}"#).is_err());
    assert!(serde_json::from_str::<Calibration>("[]").is_err());
}

fn arb_sample() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        3 => (100..200_000u32, 1..400_000u32),
        1 => (any::<u32>(), any::<u32>()),
    ]
}

/// A consistent factor in the bound, and samples of it with up to ±0.4% of noise from rounding and framing.
fn arb_consistent() -> impl Strategy<Value = (f64, Vec<(u32, u32)>)> {
    (0.5f64..=2.0).prop_flat_map(|factor| {
        let sample = (1_000..100_000u32, -0.004f64..=0.004).prop_map(move |(local, noise)| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let reported = (f64::from(local) * factor * (1.0 + noise)).round() as u32;
            (local, reported)
        });
        (Just(factor), prop::collection::vec(sample, Calibration::WINDOW))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn the_estimate_always_lies_within_the_bound(samples in prop::collection::vec(arb_sample(), 0..40)) {
        let calibration = calibrated(&samples);
        let estimate = calibration.ratio();
        prop_assert!((Ratio::MIN..=Ratio::MAX).contains(&estimate));
        prop_assert!(calibration.ratios().len() <= Calibration::WINDOW);
        if calibration.is_empty() {
            prop_assert_eq!(estimate, Ratio::ONE);
        }
    }

    #[test]
    fn a_full_window_of_one_factor_gives_that_factor_within_one_percent(
        history in prop::collection::vec(arb_sample(), 0..20),
        (factor, consistent) in arb_consistent(),
    ) {
        let mut all = history;
        all.extend(consistent);
        let estimate = calibrated(&all).ratio().as_f64();
        prop_assert!((estimate / factor - 1.0).abs() < 0.01, "{estimate} for {factor}");
    }

    #[test]
    fn one_outlier_among_consistent_samples_moves_the_estimate_by_little(
        (factor, consistent) in arb_consistent(),
        outlier in arb_sample(),
        place in 0..Calibration::WINDOW,
    ) {
        // The outlier takes the place of one consistent sample, anywhere in the window.
        let mut samples = consistent;
        samples[place] = outlier;
        let estimate = calibrated(&samples).ratio().as_f64();
        let bounded = factor.clamp(0.5, 2.0);
        prop_assert!((estimate / bounded - 1.0).abs() < 0.01, "{estimate} for {factor} with {outlier:?}");
    }

    #[test]
    fn the_effective_budget_lies_between_half_and_twice_the_budget(
        samples in prop::collection::vec(arb_sample(), 0..20),
        budget in any::<u32>(),
    ) {
        let calibration = calibrated(&samples);
        let effective = u64::from(calibration.ratio().budget(budget));
        let budget = u64::from(budget);
        // The effective budget is budget / ratio: at least budget / MAX and at most budget / MIN.
        prop_assert!(effective >= budget / 2, "{effective} < {budget} / 2");
        prop_assert!(effective <= (budget * 2).min(u64::from(u32::MAX)), "{effective} > {budget} * 2");
        if calibration.is_empty() {
            prop_assert_eq!(effective, budget);
        }
    }

    #[test]
    fn a_scaled_count_fits_exactly_when_the_count_fits_the_effective_budget(
        millionths in 0..=u32::MAX,
        tokens in 0..(1u32 << 31),
        budget in 0..(1u32 << 31),
    ) {
        let ratio = Ratio::from_millionths(millionths);
        prop_assert_eq!(ratio.scale(tokens) <= budget, tokens <= ratio.budget(budget));
        prop_assert!(u64::from(ratio.scale(tokens)) * 1_000_000 >= u64::from(tokens) * u64::from(ratio.millionths()));
    }

    #[test]
    fn scaled_counts_add_up_to_at_least_the_scaled_sum(
        millionths in 0..=u32::MAX,
        counts in prop::collection::vec(0..100_000u32, 0..50),
    ) {
        let ratio = Ratio::from_millionths(millionths);
        let each: u64 = counts.iter().map(|&t| u64::from(ratio.scale(t))).sum();
        let total = u32::try_from(counts.iter().map(|&t| u64::from(t)).sum::<u64>()).unwrap_or(u32::MAX);
        prop_assert!(each >= u64::from(ratio.scale(total)));
    }

    #[test]
    fn calibrations_round_trip_through_json(samples in prop::collection::vec(arb_sample(), 0..20)) {
        let calibration = calibrated(&samples);
        let json = serde_json::to_string(&calibration).expect("serializes");
        prop_assert_eq!(serde_json::from_str::<Calibration>(&json).expect("decodes"), calibration);
    }

    #[test]
    fn any_decoded_calibration_keeps_the_rules(ratios in prop::collection::vec(any::<u32>(), 0..30)) {
        let json = serde_json::json!({ "ratios": ratios });
        let calibration: Calibration = serde_json::from_value(json).expect("decodes");
        prop_assert!(calibration.ratios().len() <= Calibration::WINDOW);
        prop_assert!(calibration.ratios().iter().all(|r| (Ratio::MIN..=Ratio::MAX).contains(r)));
    }
}
