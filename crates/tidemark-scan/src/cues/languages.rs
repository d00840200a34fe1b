//! The word tables of every language the cues know, one module per language. Lower case;
//! Latin-script words without accents, because the folded view drops them; a space stands for any
//! separator. Objects are stems: in spaced scripts `\w*` is appended, so `instruction` also
//! matches `instructions`. Adding a language is adding a module and listing it here.

mod ar;
mod bn;
mod cs;
mod da;
mod de;
mod en;
mod es;
mod fa;
mod fr;
mod he;
mod hi;
mod id;
mod it;
mod ja;
mod ko;
mod nb;
mod nl;
mod pl;
mod pt;
mod ru;
mod sv;
mod th;
mod tr;
mod uk;
mod ur;
mod vi;
mod zh;

use super::Language;

/// English, Spanish, French, German, Portuguese, Italian, Chinese, Japanese, Russian, Arabic, Hindi,
/// Turkish, Korean, Dutch, Polish, Ukrainian, Hebrew, Vietnamese, Indonesian, Swedish,
/// Danish, Norwegian Bokmål, Czech, Persian, Urdu, Bengali, Thai.
pub(super) const LANGUAGES: &[Language] = &[
    en::EN,
    es::ES,
    fr::FR,
    de::DE,
    pt::PT,
    it::IT,
    zh::ZH,
    ja::JA,
    ru::RU,
    ar::AR,
    hi::HI,
    tr::TR,
    ko::KO,
    nl::NL,
    pl::PL,
    uk::UK,
    he::HE,
    vi::VI,
    id::ID,
    sv::SV,
    da::DA,
    nb::NB,
    cs::CS,
    fa::FA,
    ur::UR,
    bn::BN,
    th::TH,
];
