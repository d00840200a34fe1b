//! The supersede rule's tests: restatements, markers, kinds and siblings.

use proptest::prelude::*;

use super::*;
/// Corrections written for this test, in idioms the rule was not built from: (older, newer).
const CHANGES: &[(&str, &str)] = &[
    (
        "The vendor call is on Tuesday at 15:00.",
        "Sorry, I got that wrong: the vendor call is on Wednesday at 15:00.",
    ),
    (
        "Our contractor charges 85 dollars an hour for tiling.",
        "The contractor called back and his tiling rate is 95 dollars an hour now.",
    ),
    ("I live in Leeds, near the station.", "We've relocated: I live in York now, not Leeds."),
    (
        "The release branch is called release-2024.3.",
        "Heads up, the release branch got renamed to release-2024.4.",
    ),
    ("Please call me Margaret.", "Actually, please call me Maggie, everyone does."),
    ("The kitchen budget is 12000 pounds.", "We bumped the kitchen budget to 14500 pounds after the quote."),
    (
        "The staging database listens on port 5432.",
        "Ignore what I said earlier, the staging database listens on port 6432.",
    ),
    (
        "Deploys go out from the runner ci-runner-07.",
        "ci-runner-07 is retired; deploys go out from the runner ci-runner-11 from today.",
    ),
    (
        "The offsite is booked for 14 March in Lisbon.",
        "The offsite has been changed: it's 21 March, still in Lisbon.",
    ),
    (
        "My flight lands at Heathrow at 07:40.",
        "The airline emailed, my flight now lands at Gatwick at 09:15.",
    ),
    (
        "The API rate limit for the partner account is 600 requests per minute.",
        "They raised the API rate limit for the partner account to 900 requests per minute.",
    ),
    (
        "The electrician, Tomasz, comes on Monday.",
        "Tomasz can't make it, the electrician coming on Monday will be Pieter.",
    ),
    (
        "The backup bucket is s3://acme-backups-eu.",
        "We migrated, so the backup bucket is s3://acme-archive-eu going forward.",
    ),
    ("Invoices are due within 30 days.", "New terms from the finance team: invoices are due within 45 days."),
    (
        "The tile colour we picked is Sage Green.",
        "On second thought, the tile colour we picked is Slate Grey.",
    ),
    (
        "The project code for the audit is AUD-4471.",
        "My mistake, the project code for the audit is AUD-4417.",
    ),
    ("The on-call phone number is 555-0142.", "The on-call phone number was updated, it is 555-0199."),
    (
        "Dinner with the Okafors is at 7 pm on Friday.",
        "Dinner with the Okafors got moved up to 6 pm on Friday.",
    ),
    (
        "The cluster runs Kubernetes 1.27.",
        "We upgraded over the weekend, so the cluster runs Kubernetes 1.29.",
    ),
    ("My manager is Priya Raman.", "Reorg news: my manager is Daniel Osei as of this week."),
    ("Max upload size is 25 MB.", "We lowered the max upload size to 10 MB."),
    ("The plumber quoted 2 days for the bathroom.", "Turns out the plumber needs 4 days for the bathroom."),
    ("The main office is in Rotterdam.", "The main office is in Utrecht these days, we left Rotterdam."),
    ("The weekly sync is Thursdays at 10.", "Going forward the weekly sync is Mondays at 10."),
];

/// Later turns that add to an earlier one, or speak of a sibling: (older, newer), never a replacement.
const KEEPS: &[(&str, &str)] = &[
    ("The billing database listens on port 5432.", "The search database listens on port 9200 now."),
    (
        "I went hiking with Mel in Oregon last May.",
        "We went hiking again in July, this time with Caroline in Utah.",
    ),
    ("The kitchen budget is 12000 pounds.", "The bathroom budget is 6000 pounds now that the quote came in."),
    ("My sister lives in Boston.", "My brother lives in Denver now."),
    ("The release branch is release-2024.3.", "The hotfix branch is hotfix-2024.3.1 for now."),
    (
        "Deploys go out at 14:00 on weekdays.",
        "Reminder: deploys go out at 14:00 on weekdays, as agreed in March.",
    ),
    ("Caroline started painting in 2021.", "Caroline now paints landscapes, she sold one in 2023."),
    ("So Mel's birthday is on 3 May.", "And Caroline's birthday is on 9 June."),
    ("We met Mel at 15:00 by the lake.", "Then we met Caroline at 15:00 by the lake."),
    ("The staging cluster runs Kubernetes 1.27.", "The production cluster runs Kubernetes 1.29 these days."),
];

/// Corrections said without a change marker are caught by the restatement rule, and later turns
/// that add to an earlier one or speak of a sibling are not taken for corrections. Neither list
/// was written from the blind sets, and the rule was not tuned to catch every case: four of the
/// corrections (a changed person named beside another, an id split into pieces the sequence has
/// seen before, a bucket name without a digit, a verb in another's place) are known misses.
#[test]
fn restatements_replace_and_additions_do_not() {
    let missed: Vec<&str> = CHANGES
        .iter()
        .filter(|(old, new)| !Topic::of(new).replaces(&Topic::of(old)))
        .map(|(_, new)| *new)
        .collect();
    assert!(missed.len() <= 4, "missed {} of {}: {missed:#?}", missed.len(), CHANGES.len());
    for (old, new) in KEEPS {
        assert!(!Topic::of(new).replaces(&Topic::of(old)), "{new:?} over {old:?}");
        assert!(
            !Topic::of_statement(new).replaces_clearly(&Topic::of_statement(old)),
            "{new:?} over {old:?} as facts"
        );
    }
    // A question, a record or a tool's output neither restates nor is restated.
    let port = Topic::of("The staging database listens on port 5432.");
    assert!(Topic::of("The staging database listens on port 6432.").replaces(&port));
    assert!(!Topic::of("Does the staging database listen on port 6432?").replaces(&port));
    assert!(!Topic::of("staging_database port=6432").replaces(&port));
    assert!(!Topic::of("The staging database listens on port 6432.").returned_by_tool(true).replaces(&port));
    assert!(
        !Topic::of("The staging database listens on port 6432.")
            .replaces(&port.clone().returned_by_tool(true))
    );
}

/// Lower-case text made of `phrases` and bits of words, spaces and stops around them.
fn text_with(phrases: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![prop::sample::select(phrases.to_vec()).prop_map(str::to_owned), "[a-z :.é]{0,6}"],
        0..8,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Each automaton finds one of its phrases exactly when looking for each phrase in turn does:
    /// the markers, and the words that say a turn adds to what came before.
    #[test]
    fn each_automaton_finds_what_each_phrase_finds(
        marked in text_with(MARKERS),
        adding in text_with(ADDING),
    ) {
        prop_assert_eq!(says_changed(&marked), MARKERS.iter().any(|marker| has_phrase(&marked, marker)));
        prop_assert_eq!(says_adding(&adding), ADDING.iter().any(|word| has_phrase(&adding, word)));
    }

    /// Sentences cut a text without losing or repeating any of it, a topic's values are sorted
    /// and distinct, the values a marker changes are values of the text, found only when it
    /// carries a marker, every value has a kind, and `of_stated_change` is `of_statement` for a
    /// turn that says something changed and `None` otherwise.
    #[test]
    fn sentences_cover_the_text_and_changed_values_are_its_values(
        pieces in prop::collection::vec(
            prop_oneof![
                prop::sample::select(MARKERS.to_vec()).prop_map(str::to_owned),
                prop::sample::select(vec!["Lisbon", "Porto", "06:00", "v1.2", "2816Mi", "Sundays", "at=2027-02-15", "fix_7781"]).prop_map(str::to_owned),
                "[a-zA-Z0-9 .!?\n:é_=/-]{0,12}",
            ],
            0..12,
        )
    ) {
        let text = pieces.join(" ");
        prop_assert_eq!(sentences(&text).concat(), text.clone());
        let topic = Topic::of(&text);
        // Sorted and distinct, as `holds` looks values up.
        prop_assert!(topic.values.windows(2).all(|pair| pair[0] < pair[1]));
        prop_assert!(topic.changed.iter().all(|value| topic.values.binary_search(value).is_ok()));
        prop_assert!(topic.updates || topic.changed.is_empty());
        // Every value has a kind, and the kinds name only values.
        prop_assert!(topic.when.iter().chain(&topic.counted).all(|value| topic.values.binary_search(value).is_ok()));
        prop_assert!(topic.values.iter().all(|value| topic.kinds(value) != Kinds::default()));
        let statement = Topic::of_statement(&text);
        prop_assert!(statement.changed.iter().all(|value| statement.values.binary_search(value).is_ok()));
        // The shortcut for turns without a marker gives the same topic, or none where it says no change.
        let shortcut = Topic::of_stated_change(&text).map(|topic| format!("{topic:?}"));
        prop_assert_eq!(shortcut, statement.updates.then(|| format!("{statement:?}")));
    }
}

/// The new value must be said where the change is: in the marker's sentence or the one after it.
#[test]
fn a_marker_changes_only_the_values_said_beside_it() {
    let values = Topic::of(
        "# deploy/helm/api/values-prod.yaml\nresources:\n  limits:\n    memory: 2816Mi\nenv:\n  PDF_RENDERER_URL: http://pdf-renderer.prod.svc:8080",
    )
    .returned_by_tool(true);
    let comment = "The heap flag allows 2.25 GiB of V8 old space, which leaves little headroom for PDF \
                   streams and native memory before the limit. That matches OOM kills rather than a slow leak.";
    assert!(!Topic::of(comment).replaces(&values));
    let change = "Change of plan: the api memory limit in values-prod.yaml goes up to 3072Mi.";
    assert!(Topic::of(change).replaces(&values));
    let offsite = Topic::of("The team offsite is in Porto on 12 May.");
    assert!(Topic::of("Update on the team offsite. It is in Lisbon on 12 May now.").replaces(&offsite));
}

#[test]
fn a_change_of_one_subject_leaves_its_siblings() {
    let change = Topic::of("Change of plan: our billing Postgres listens on port 6432 instead.");
    assert!(change.replaces_clearly(&Topic::of("Our billing Postgres listens on port 5433.")));
    assert!(!change.replaces_clearly(&Topic::of("Our search Postgres listens on port 5440.")));
    let change = Topic::of_statement("The platform team meeting room changed to room 5.18.");
    assert!(!change.replaces_clearly(&Topic::of("The design team meeting room changed to room 2.07.")));
    // Rephrased, with words of its own and none qualifying a shared word otherwise.
    let change = Topic::of_statement("Actually, make that 12 runners for the payments build.");
    assert!(change.replaces_clearly(&Topic::of("The payments build runs on 8 runners.")));
    assert!(!change.replaces_clearly(&Topic::of("The mobile build runs on 6 runners.")));
    let change = Topic::of("Decision made: from January my animation day rate goes up to £460.");
    assert!(
        change.replaces_clearly(&Topic::of("my day rate is £425 for animation and £360 for illustration"))
    );
}

/// A change replaces only a passage holding a value of the kind it changes: a new time or day
/// leaves a percentage, an amount or a name of the same subject in the block.
#[test]
fn a_change_replaces_a_value_of_its_own_kind() {
    let promise = Topic::of(
        "Why I guard every downtime window: the Harbourline contract guarantees 99.9% monthly availability.",
    );
    let window = Topic::of("The downtime window for Harbourline is Wednesday 23:00.");
    let change = Topic::of(
        "Harbourline vetoed Wednesdays for the downtime window, so it is now Saturday 05:30 instead.",
    );
    assert!(change.replaces(&window), "a day and a time for a day and a time");
    assert!(!change.replaces(&promise), "a day and a time do not replace a percentage");
    // A record's values are read apart from their keys: a date in a booking replaces a date.
    let trip = Topic::of("The survey trip starts 2027-04-06 and lasts three days.");
    let booking = Topic::of(
        "trip=survey\nstart=2027-04-13\nnote=requested start 2027-04-06 was full; moved to the next week",
    )
    .returned_by_tool(true);
    assert!(booking.replaces(&trip));
    // An amount replaces an amount, a name a name.
    let rate = Topic::of("The survey boat costs 1200 dollars a day for the trip.");
    assert!(Topic::of("Update on the survey boat: it costs 1350 dollars a day now.").replaces(&rate));
    let skipper = Topic::of("The survey boat skipper for the trip is Maren.");
    assert!(
        Topic::of("Change of plan for the survey boat: the skipper for the trip is Joss instead.")
            .replaces(&skipper)
    );
    assert!(
        !Topic::of("Change of plan for the survey boat skipper: the trip now leaves at 06:15 instead.")
            .replaces(&skipper),
        "a time does not replace a name"
    );
}

#[test]
fn a_change_sentence_is_the_one_with_the_marker_and_a_value() {
    let text = "Thanks for the update. From January my day rate goes up to £460. See you then!";
    assert_eq!(change_sentence(text, 300).as_deref(), Some("From January my day rate goes up to £460."));
    assert_eq!(change_sentence("We switched to a calmer tone instead.", 300), None, "no value, no fact");
    assert_eq!(change_sentence("Nothing changed here at 5 pm.", 300), None);
    assert_eq!(
        statement("Detail from the user: \"The box is called kestrel-04\""),
        "The box is called kestrel-04"
    );
    assert_eq!(statement("plain text: no quote"), "plain text: no quote");
}

#[test]
fn a_changed_plan_replaces_the_plan_it_changes() {
    let old = Topic::of("If the upgrade needs downtime, the window I can defend to sales is Thursday 22:30.");
    let no_value = Topic::of("The downtime window I can defend to sales is late on a weekday night.");
    let same_value = Topic::of("Sales vetoed nothing: the downtime window stays Thursday 22:30 instead.");
    let new = Topic::of("Sales vetoed Thursdays, so the downtime window is now Sunday 06:00 instead.");
    assert!(new.replaces(&old));
    assert!(!old.replaces(&new), "the older passage carries no marker");
    assert!(!new.replaces(&no_value), "the older passage holds no value to replace");
    assert!(!same_value.replaces(&old), "the newer passage gives no other value");
    // A marker alone is not enough: the subject must be the same.
    let elsewhere = Topic::of("The cache module now logs every miss instead of every tenth.");
    assert!(!elsewhere.replaces(&old));
    // Words merely containing a marker do not count.
    let known = Topic::of("Snowfall in the downtime window; sales unchanged, nowhere else.");
    assert!(!known.replaces(&old), "{known:?}");
    // Other forms of the same words count as the same subject.
    let copies = Topic::of("Nightly RDS snapshots are copied out of region to eu-west-3 in Paris.");
    let update =
        Topic::of("Update on the DR copies: make the snapshot copy target eu-central-2 rather than Paris.");
    assert!(update.replaces(&copies));
    // A name is a value too; the one opening a sentence is not.
    let ifeoma = Topic::of("I'm off on Friday, so hand the pager to Ifeoma for the day.");
    let bartek = Topic::of("Change of plan for Friday: Ifeoma is ill, so Bartek takes the pager instead.");
    assert!(bartek.replaces(&ifeoma));
    assert_eq!(names("Bartek said so. Then Ifeoma left for Hobart: Sunday."), ["ifeoma", "hobart"]);
    // The words of a marker are not a shared subject.
    let billing = Topic::of("Correction from the user: the billing deadline moved to 1 April.");
    let search = Topic::of("Correction: the search deadline moved to 3 May.");
    assert!(!search.replaces(&billing));
}

/// A correction that names the value it turns away replaces the passage holding it, marker or not;
/// one that names a value without giving another of its kind, or shares no word with the older
/// passage, does not. Written for this test, not from the blind sets.
#[test]
fn a_value_turned_away_is_replaced() {
    for (old, new) in [
        ("The deposit for the venue is 450 euros.", "Small fix: the venue deposit is 540 euros, not 450."),
        (
            "We agreed the launch is on 2027-03-02.",
            "The launch is on 2027-03-09, not 2027-03-02, marketing needs the extra week.",
        ),
        ("Book the meeting room for Thursday.", "Book the meeting room for Friday, not Thursday."),
        (
            "The shared drive folder is PRJ-2231.",
            "Put the files in PRJ-2213 rather than PRJ-2231, I mixed them up.",
        ),
        ("Your badge number is 88412.", "Security reissued it: use 88419 instead of 88412 for the badge."),
    ] {
        assert!(Topic::of(new).rejects(&Topic::of(old)), "{new:?} over {old:?}");
        assert!(Topic::of(new).replaces(&Topic::of(old)), "{new:?} over {old:?}");
        assert!(
            Topic::of_stated_change(new)
                .is_some_and(|change| change.replaces_clearly(&Topic::of_statement(old))),
            "{new:?} over {old:?} as facts"
        );
    }
    for (old, new) in [
        (
            "The invoice total is £1,240.",
            "The invoice total is not £1,240 yet, finance is still adding travel.",
        ),
        ("Ticket 4471 is about the login page.", "Please do not close 4471 until QA signs off on build 88."),
        ("The standup is at 09:30.", "Not 09:30 for me, I have the dentist; the platform sync is at 11:00."),
    ] {
        assert!(!Topic::of(new).rejects(&Topic::of(old)), "{new:?} over {old:?}");
    }
    // Codes written in capitals are values of their own: "go with X instead" changes "X was Y".
    let old = Topic::of("For the shop I'd like a code, WINTERTEN, giving ten percent off.");
    assert!(
        Topic::of("WINTERTEN looks odd on the banner. Go with FROSTBITE instead, same ten percent.")
            .replaces(&old)
    );
    assert_eq!(codes("Use LOAFTIDE, not HACCP or AWS."), ["loaftide"]);
}
