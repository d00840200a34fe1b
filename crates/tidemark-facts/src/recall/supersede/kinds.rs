//! The kinds a value is said as, so that a change replaces a value of its own kind: a time for a time, a name for a name.

use tidemark_core::recall::terms;

use super::stem;

/// The kinds of value a term is said as: a time or a date, an amount or a code, a name.
///
/// A change gives a new value of the kind it replaces: a time for a time, a
/// name for a name. The kinds are broad on purpose ("12 May" is an amount and
/// a month; "7 pm" an amount), so that only values that cannot be the same
/// thing, such as a percentage and a weekday, keep a change from replacing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Kinds {
    pub(super) when: bool,
    pub(super) counted: bool,
    pub(super) named: bool,
}

impl Kinds {
    /// Whether the two share a kind.
    pub(super) fn meets(self, other: Kinds) -> bool {
        (self.when && other.when) || (self.counted && other.counted) || (self.named && other.named)
    }
}

impl std::ops::BitOr for Kinds {
    type Output = Kinds;

    fn bitor(self, other: Kinds) -> Kinds {
        Kinds {
            when: self.when | other.when,
            counted: self.counted | other.counted,
            named: self.named | other.named,
        }
    }
}

/// Days and months by name, lower case: a value that says when, not who.
const CALENDAR_NAMES: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The `values` (sorted) of `text` said as a time or date, and those with a digit said otherwise, each sorted and distinct.
///
/// A word of `text` (letters, digits and the `-`, `_`, `/`, `.` and `:`
/// between them) says when if it is a clock time (`06:00`, `22:30:15`), a
/// date of digits (`2027-03-18`, `18/03/2027`) or a day or month named (in
/// the plural too); its values are then times, and the digits of every other
/// word are amounts.
pub(super) fn value_kinds(text: &str, values: &[String]) -> (Vec<String>, Vec<String>) {
    let mut when = Vec::new();
    let mut counted = Vec::new();
    if values.is_empty() {
        return (when, counted);
    }
    // A word of a record (`date=2027-02-15`, `"at": "06:00"`) is read apart from its key.
    for word in text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '/' | '.' | ':'))) {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        if bare.is_empty() {
            continue;
        }
        let has_digit = bare.chars().any(|c| c.is_ascii_digit());
        // The longest name, in the plural, is ten letters.
        let named_day = !has_digit && (3..=10).contains(&bare.len()) && {
            let lower = bare.to_lowercase();
            CALENDAR_NAMES.iter().any(|name| lower == *name || lower.strip_suffix('s') == Some(name))
        };
        if !named_day && !has_digit {
            continue;
        }
        let timely = named_day || says_time(bare);
        for term in terms(bare).into_iter().map(stem) {
            if values.binary_search(&term).is_ok() {
                if timely { when.push(term) } else { counted.push(term) }
            }
        }
    }
    for kind in [&mut when, &mut counted] {
        kind.sort_unstable();
        kind.dedup();
    }
    (when, counted)
}

/// Whether `word` (without the punctuation around it) is a clock time or a date written in digits.
fn says_time(word: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit());
    let parts = |joiner: char| word.split(joiner).collect::<Vec<_>>();
    let clock = parts(':');
    if clock.len() >= 2
        && clock.iter().take(3).all(|part| digits(part.trim_end_matches(|c: char| c.is_ascii_alphabetic())))
    {
        return true;
    }
    ['-', '/', '.'].into_iter().any(|joiner| {
        let date = parts(joiner);
        date.len() == 3
            && date.iter().all(|part| digits(part))
            && date.iter().any(|part| part.len() == 4)
            && date.iter().filter(|part| part.len() <= 2).count() == 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_dates_are_told_from_amounts_and_versions() {
        for time in ["06:00", "10:15am", "22:30:15", "2027-02-15", "15/02/2027", "18.03.2027"] {
            assert!(says_time(time), "{time}");
        }
        for other in ["4.19.1", "http://host:8080", "99.95", "06", "release-2024.3", "a:b", "12-345-6789"] {
            assert!(!says_time(other), "{other}");
        }
        let values = ["06", "2027-02-15", "30", "99", "99.95", "monday", "sunday"].map(String::from);
        let (when, counted) =
            value_kinds("Sundays at 06:30, date=2027-02-15, and 99.95% on Monday-ish; may we?", &values);
        assert_eq!(when, ["06", "2027-02-15", "30", "sunday"]);
        assert_eq!(counted, ["99", "99.95"]);
    }
}
