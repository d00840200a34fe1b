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
//!
//! Moves that English tables have no words for are filed under the family they combine like: a
//! trigger on what the user asks or writes ("cuando el usuario pregunte por…", "sobald jemand …
//! erwähnt") and "from now on" are standing orders (persistent); a lie told to the user ("aunque
//! no sea verdad"), an answer always steered to one product and a task dropped for another are
//! deception; rules ranked above the user's ("valgono più di quelle dell'utente") void the
//! model's; a third party given an administrator's weight ("tiene autoridad de administrador")
//! and a notice framed as the system's (`[SISTEMA]`, `--- MESSAGGIO DI SISTEMA ---`) are
//! authority. Each is harmless alone, like every signal.

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
