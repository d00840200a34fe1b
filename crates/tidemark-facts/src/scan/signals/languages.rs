//! The signal tables of the languages other than English.
//!
//! Latin-script words are written without accents: the scan also reads a view with the accents of
//! ASCII letters dropped (see `normalize.rs`), so `confirmación` is matched as `confirmacion`
//! there. Negations, which must match in the accented view too, allow both spellings. Chinese and
//! Japanese have no spaces, so their gaps are counted in characters and never cross a sentence.
//!
//! Letters are written as small classes (`[a-z0-9]`, `[а-яё]`, the Arabic and Devanagari blocks)
//! instead of Unicode `\w`, and the Latin-script tables use the ASCII word boundary `(?-u:\b)`,
//! which the folded view satisfies: Unicode `\w` compiles to a large automaton, and a Unicode word
//! boundary stops the lazy DFA at the first non-ASCII character; together they made the scan many
//! times slower.

mod ar;
mod de;
mod es;
mod fr;
mod hi;
mod it;
mod ja;
mod pt;
mod ru;
mod zh;

use super::Table;

/// Every table but English, which lives in `signals.rs`.
pub(super) const TABLES: &[Table] =
    &[es::ES, fr::FR, de::DE, pt::PT, it::IT, zh::ZH, ja::JA, ru::RU, ar::AR, hi::HI];
