//! Injection cues in many languages and the chat-template role markers, compiled from data.
//!
//! Each language in [`languages::LANGUAGES`] lists its words by role: verbs that throw away
//! instructions ("ignore", "olvida", "忽略"), fillers that may sit between verb and object ("the",
//! "all of"), qualifiers that point at the model's earlier context ("previous", "anteriores"),
//! objects that only ever mean the model's instructions, and objects with an everyday meaning
//! ("rules") that count only next to a qualifier. The same templates turn every language into
//! regular expressions: verb + fillers + object, and the reverse order for languages that can put
//! the object first (German and Dutch infinitives, Hindi, Urdu, Bengali, Persian, Japanese,
//! Korean, Turkish, Chinese topics, the free word order of Russian, Ukrainian, Polish and Czech,
//! the topic that may open a Swedish, Danish or Norwegian main clause). Adding a language is
//! adding a table.
//!
//! The cues are matched against the normalised views (lower case, NFKC, look-alikes folded, see
//! `normalize.rs`), so the data is written in lower case, and Latin-script words without accents
//! (the folded view drops them).
//!
//! Benign near misses stay benign because every family needs two parts: "ignore the linter
//! warning" has the verb but no instruction object; talking about the system prompt has the object
//! but no extraction verb; "developer mode is enabled" on a phone has no claim that safety rules
//! are off. A negation right before the match (or, in languages that negate after the verb, right
//! after it) turns an override or extraction into a harmless statement. An instruction object
//! with an everyday scope, a complement after it ("las instrucciones *de montaje*") or a modifier
//! before it ("*会議の*指示"), is not the model's, unless the scope names earlier context or the
//! model itself.
//!
//! The tables also list send verbs and conversation-data objects, so "envía la conversación a
//! https://…" is exfiltration in every table language ([`Cues::find_exfiltration`]).
//!
//! Language-neutral role markers (chat-template tokens, `[SYSTEM]` tags with an order after
//! them, `### Instruction:` headers, "System override:" lines) are listed in
//! [`marker_sources`].

mod languages;
mod markers;

use crate::lazy::Regex;

use super::gate::{Found, Gate, Hits, Reach, Spot};
use super::rules::{clauses, is_local_authority, quoted, readable, tail};
use super::{Finding, Threat};
use markers::{marker_sources, token_sources};

/// Separator between two words of a spaced language: whitespace and the punctuation people put
/// between words to dodge filters.
const SEP: &str = r"[\s_*~\-,:;.'’«»“”„()\[\]/]+";
/// The start of a word in a spaced language (the character before is consumed and trimmed later).
const START: &str = r"(?:\A|[^\w])";
/// The end of a word.
const END: &str = r"(?:[^\w]|\z)";
/// The longest stretch between the two parts of a role change ("you are now … unrestricted").
const ROLE_GAP: &str = r"[^.!?\n。！？]{0,60}?";

/// Whether words are separated by spaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Script {
    /// Words separated by spaces: gaps are counted in filler words.
    Spaced,
    /// No spaces between words (Chinese, Japanese): gaps are counted in characters.
    Unspaced,
}

/// The word tables of one language. Entries are regex fragments in lower case; a space stands for
/// any separator between words.
pub(super) struct Language {
    /// ISO 639-1 code.
    pub(super) code: &'static str,
    /// Whether the language separates words with spaces.
    pub(super) script: Script,
    /// Whether the object can come before the verb ("alle Anweisungen ignorieren").
    pub(super) object_first: bool,
    /// A negation that ends right before a match.
    pub(super) negation_before: &'static str,
    /// A negation that starts right after a match (languages that negate after the verb).
    pub(super) negation_after: &'static str,
    /// Characters that may not sit in an unspaced gap (negation characters).
    pub(super) gap_exclude: &'static str,
    /// Verbs that throw instructions away.
    pub(super) ignore: &'static [&'static str],
    /// Words allowed between verb and object: articles, quantifiers, possessives. The qualifiers of
    /// [`earlier`](Self::earlier) count as fillers too, so a word need not be in both. Spaced scripts
    /// only: an unspaced one counts its gaps in characters.
    pub(super) filler: &'static [&'static str],
    /// Qualifiers that point at the model's earlier context.
    pub(super) earlier: &'static [&'static str],
    /// Objects that always mean the model's instructions.
    pub(super) instructions: &'static [&'static str],
    /// Objects with an everyday meaning, which count only with a qualifier.
    pub(super) rules: &'static [&'static str],
    /// Verbs that ask for text to be shown.
    pub(super) reveal: &'static [&'static str],
    /// Names of the model's hidden prompt.
    pub(super) system_prompt: &'static [&'static str],
    /// The start of a role change ("you are now", "act as").
    pub(super) new_role: &'static [&'static str],
    /// What makes a role change an attack ("without restrictions", "uncensored").
    pub(super) unrestricted: &'static [&'static str],
    /// Safety turned off, said to the model ("your safety rules no longer apply", "DAN mode on").
    pub(super) safety_off: &'static [&'static str],
    /// Safety rules said to be off, which counts only with a special mode or words to the model.
    pub(super) safety_off_weak: &'static [&'static str],
    /// A special mode switched on ("developer mode enabled"), harmless alone.
    pub(super) special_mode: &'static [&'static str],
    /// Words that address the model ("you", "assistant").
    pub(super) addressee: &'static [&'static str],
    /// A claim of authority ("the user has root rights"), harmless alone.
    pub(super) authority: &'static [&'static str],
    /// An order to skip confirmation, harmless alone.
    pub(super) skip_confirmation: &'static [&'static str],
    /// Permission to skip confirmation or safety checks, given to the model.
    pub(super) authorized_skip: &'static [&'static str],
    /// What is said of the model's instructions to cancel them ("are void", "no longer apply").
    pub(super) revoked: &'static [&'static str],
    /// A complement right after an instruction object that gives it an everyday scope ("the
    /// instructions *for the furniture*"); its groups capture the words it is made of (an
    /// adjective in between, the word it is about). Empty if the language puts such modifiers
    /// before the noun.
    pub(super) complement: &'static str,
    /// A modifier right before an instruction object in languages that put it there ("会議の指示",
    /// "जोड़ने के पुराने निर्देश"), ending at the end of the text before the object. If it names
    /// neither earlier context nor the model, the object has an everyday scope. Empty if unused.
    pub(super) modifier: &'static str,
    /// Verbs that send something somewhere ("envía", "发送"). Empty for English, whose
    /// sentences are judged by the send checks of `rules.rs` (with their benign compounds such as
    /// "password reset").
    pub(super) send: &'static [&'static str],
    /// Conversation data and secrets that must not be sent anywhere ("la conversación", "密码").
    pub(super) conversation: &'static [&'static str],
    /// Orders never to refuse ("tienes prohibido negarte", "不能拒绝"). Optional, like the three
    /// families after it: [`Cues::empty_families`] does not ask for them.
    pub(super) no_refusal: &'static [&'static str],
    /// A new task handed to the model ("tu nueva tarea es", "deine neue Aufgabe lautet"). Optional:
    /// the English phrase is in `patterns.rs`.
    pub(super) new_task: &'static [&'static str],
    /// Keeping the user in the dark ("sin decírselo al usuario", "不要告诉用户"). It needs the word
    /// for *the user*, so a surprise kept from a friend is not one. Optional: the English phrases
    /// are in `patterns.rs`.
    pub(super) conceal: &'static [&'static str],
    /// A claim that the text outranks the model's instructions ("tiene prioridad sobre tu prompt
    /// de sistema"). It needs the model's instructions as the thing outranked, so "safety takes
    /// priority over speed" is not one. Optional.
    pub(super) priority: &'static [&'static str],
}

/// One compiled cue.
struct Cue {
    pattern: Worded,
    negatable: bool,
    /// Whether an everyday complement after the match disarms it (see [`Language::complement`]).
    scoped: bool,
    language: usize,
}

/// The complement check of one language.
struct Complement {
    /// The complement after the object, if the language has one.
    complement: Option<Regex>,
    /// The modifier before the object, if the language has one.
    modifier: Option<Regex>,
    /// The object itself, to find it inside a match.
    object: Regex,
    /// A whole word that is an earlier-context qualifier.
    earlier: Regex,
    /// An earlier-context qualifier anywhere in a modifier.
    earlier_in: Regex,
}

/// Two cues that must both be in the text.
struct Pair {
    first: Worded,
    second: Worded,
}

/// A pattern whose match may have to start a word.
///
/// A leading [`START`] class is taken off the pattern and checked by hand on the character before
/// each match instead, so that the pattern begins with its words and the `regex` crate can skip
/// to them with a literal search: with the class in front, every pattern read every byte, and the
/// scan of a short text paid a full pass per pattern.
struct Worded {
    regex: Spot,
    word_start: bool,
}

impl Worded {
    /// Compiles `source`, taking a leading [`START`] off.
    fn new(source: &str) -> Option<Self> {
        let (source, word_start) = match source.strip_prefix(START) {
            Some(rest) => (rest, true),
            None => (source, false),
        };
        Some(Self { regex: Spot::new(source)?, word_start })
    }

    /// The first match that starts a word if it must, from byte `at` on, searched where `reach` says.
    fn find_at<'v>(
        &self,
        view: &'v str,
        mut at: usize,
        reach: &Reach,
        word_char: &Regex,
    ) -> Option<Found<'v>> {
        while let Some(found) = self.regex.find_from(view, reach, at) {
            if !self.word_start || starts_word(view, found.start(), word_char) {
                return Some(found);
            }
            at = next_char(view, found.start())?;
        }
        None
    }
}

/// Whether the character before byte `start` of `view` is not a word character (`\w`), or there is none.
fn starts_word(view: &str, start: usize, word_char: &Regex) -> bool {
    view.get(..start).and_then(|before| before.chars().next_back()).is_none_or(|c| {
        let mut buffer = [0u8; 4];
        !word_char.is_match(c.encode_utf8(&mut buffer))
    })
}

/// The byte after the character at `at`, if it is still inside `view`.
fn next_char(view: &str, at: usize) -> Option<usize> {
    let step = view.get(at..).and_then(|rest| rest.chars().next()).map_or(1, char::len_utf8);
    (at + step <= view.len()).then_some(at + step)
}

/// Every compiled cue and marker.
pub(super) struct Cues {
    cues: Vec<Cue>,
    /// One word character (`\w`), to check the character before a cue that must start a word.
    word_char: Regex,
    pairs: Vec<Pair>,
    negation_before: Vec<Option<Regex>>,
    negation_after: Vec<Option<Regex>>,
    complements: Vec<Option<Complement>>,
    model_words: Regex,
    model_in: Regex,
    markers: Vec<Worded>,
    /// The index of the first weak marker (see [`token_sources`]); the ones before are strong.
    weak_from: usize,
    /// Which markers, cues and pair halves can match a view (in that order), in one pass per set.
    gate: Gate,
    /// A send verb of any language.
    send_any: Regex,
    /// Conversation data or a secret, in any language.
    data_any: Regex,
    /// A markdown link or image whose URL ends in an empty query value; group 2 its authority.
    empty_link: Regex,
}

/// A markdown link or image whose URL ends with an empty query value (`?q=`).
const EMPTY_LINK: &str =
    r"(!?)\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//([^/\s)>?#]+)[^\s)>]*[?&][\w.\-]+=\s*>?\)";

/// Model words inside a modifier in a script without spaces (or Hindi, Urdu, Bengali, Korean).
const MODEL_IN: &str = r"系统|系統|システム|助手|アシスタント|模型|モデル|ai|开发者|開發者|開発者|安全|对话|對話|会話|सिस्टम|एआई|सहायक|मॉडल|डेवलपर|सुरक्षा|बातचीत|시스템|어시스턴트|모델|개발자|안전|보안|대화|당신|너의|네가|인공지능|챗봇|프롬프트|سسٹم|اے آئی|ماڈل|اسسٹنٹ|معاون|ڈویلپر|حفاظت|گفتگو|بات چیت|সিস্টেম|এআই|সহকারী|মডেল|ডেভেলপার|নিরাপত্তা|কথোপকথন|চ্যাট";

/// Words after a complement that keep an instruction object about the model ("the instructions
/// of the system", "las instrucciones del asistente", "دستورات سیستم", the Thai "คำสั่งของระบบ").
const MODEL_WORDS: &str = r"\A(?:system\w*|sistema|systeme|систем\w*|assist\w*|asistente|ia|ai|ki|model\w*|модел\w*|bot|chatbot|developer|desarrollador\w*|entwickler\w*|developpeur\w*|desenvolvedor\w*|sviluppator\w*|разработчик\w*|operat\w*|admin\w*|safety|seguridad|securite|sicherheit\w*|seguranca|sicurezza|безопасност\w*|user|usuario|utilisateur|benutzer|utente|пользовател\w*|prompt\w*|промпт\w*|conversa\w*|conversation|chat\w*|unterhaltung|gesprach\w*|разговор\w*|диалог\w*|context\w*|kontext\w*|contesto|above|arriba|oben|sopra|acima|выше|دردشة|المحادثة|سیستم\w*|دستیار\w*|مدل|هوش|توسعه\w*|کاربر|امنیت\w*|ایمنی|مکالمه\w*|گفتگو\w*|بالا|ระบบ|คุณ|ผู้พัฒนา|ผู้ช่วย|โมเดล|เอไอ|แอดมิน|ผู้ดูแลระบบ)\z";

/// `(?:a|b|c)` with spaces turned into separators; `None` for an empty list.
fn alternation(words: &[&str], script: Script) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    let separator = match script {
        Script::Spaced => SEP,
        Script::Unspaced => r"\s*",
    };
    // Written into one string: this runs for every cue of every language when a scanner starts.
    let mut out = String::with_capacity(4 + words.iter().map(|word| word.len() + 6).sum::<usize>());
    out.push_str("(?:");
    for (n, word) in words.iter().enumerate() {
        if n > 0 {
            out.push('|');
        }
        out.push_str("(?:");
        for (m, piece) in spelled(word).split(' ').enumerate() {
            if m > 0 {
                out.push_str(separator);
            }
            out.push_str(piece);
        }
        out.push(')');
    }
    out.push(')');
    Some(out)
}

/// A table entry in the spelling of the views, with the letters that are typed two ways widened
/// to both. Persian and Urdu are written on Arabic keyboards too, so their yeh, keheh and the Urdu
/// heh forms also match the Arabic letters (ی as ي or ى, ک as ك, ہ and ھ as ه); the Arabic table
/// uses none of the Persian letters, so it reads as before. NFKC splits the Thai sara am into
/// nikhahit and sara aa, and the Bengali letters with a nukta (ড়, ঢ়, য়) into letter and nukta,
/// so an entry typed with the single character matches the view. The views themselves are left
/// alone: the classifier reads them, and its features must stay what it was trained on.
fn spelled(entry: &str) -> std::borrow::Cow<'_, str> {
    const WIDE: [char; 8] = ['ی', 'ک', 'ہ', 'ھ', '\u{0E33}', '\u{09DC}', '\u{09DD}', '\u{09DF}'];
    // Every widened letter is outside ASCII, and most entries are all ASCII.
    if entry.is_ascii() || !entry.contains(WIDE) {
        return std::borrow::Cow::Borrowed(entry);
    }
    let mut out = String::with_capacity(entry.len() + 16);
    for c in entry.chars() {
        match c {
            'ی' => out.push_str("[یيى]"),
            'ک' => out.push_str("[کك]"),
            'ہ' => out.push_str("[ہه]"),
            'ھ' => out.push_str("[ھه]"),
            '\u{0E33}' => out.push_str("\u{0E4D}\u{0E32}"),
            '\u{09DC}' => out.push_str("\u{09A1}\u{09BC}"),
            '\u{09DD}' => out.push_str("\u{09A2}\u{09BC}"),
            '\u{09DF}' => out.push_str("\u{09AF}\u{09BC}"),
            other => out.push(other),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The regex sources of one language: single cues with whether a negation disarms them, and
/// pairs of cues that must both be present.
struct Sources {
    singles: Vec<Single>,
    pairs: Vec<(String, String)>,
}

/// The source of one single cue.
struct Single {
    source: String,
    negatable: bool,
    scoped: bool,
}

impl Single {
    fn new(source: String, negatable: bool) -> Self {
        Self { source, negatable, scoped: false }
    }
}

/// The regex sources of one language's families.
fn language_sources(lang: &Language) -> Sources {
    let s = lang.script;
    let alt = |words: &[&str]| alternation(words, s);
    let mut singles = Vec::new();
    let mut pairs = Vec::new();
    let (start, sep, gap_words, gap) = match s {
        Script::Spaced => (START.to_owned(), SEP.to_owned(), true, String::new()),
        Script::Unspaced => {
            (String::new(), String::new(), false, format!(r"[^。！？!?\n\r{}]{{0,8}}?", lang.gap_exclude))
        }
    };
    let fillers: Vec<&str> = lang.filler.iter().chain(lang.earlier).copied().collect();
    // A gap of at most `n` filler words, or of a few characters in an unspaced script.
    let gap_of = |n: usize| -> String {
        if gap_words {
            match alternation(&fillers, s) {
                Some(f) => format!("{sep}(?:{f}{sep}){{0,{n}}}"),
                None => sep.clone(),
            }
        } else {
            gap.clone()
        }
    };
    let (ignore, earlier, strong, weak) =
        (alt(lang.ignore), alt(lang.earlier), alt(lang.instructions), alt(lang.rules));
    // Spaced languages inflect the object ("instruction", "instructions"); in an unspaced script a
    // `\w*` would run on to the end of the sentence.
    let obj = |o: &String| if s == Script::Spaced { format!(r"{o}\w*") } else { o.clone() };
    if let Some(v) = &ignore {
        if let Some(o) = &strong {
            let source = format!("{start}{v}{}{}", gap_of(5), obj(o));
            singles.push(Single { source, negatable: true, scoped: true });
            if lang.object_first {
                let source = format!("{start}{}{}{v}", obj(o), gap_of(4));
                singles.push(Single { source, negatable: true, scoped: true });
            }
        }
        if let (Some(q), Some(w)) = (&earlier, &weak) {
            singles.push(Single::new(format!("{start}{v}{}{q}{}{}", gap_of(4), gap_of(3), obj(w)), true));
            singles.push(Single::new(format!("{start}{v}{}{}{}{q}", gap_of(4), obj(w), gap_of(2)), true));
            if lang.object_first {
                singles.push(Single::new(format!("{start}{q}{}{}{}{v}", gap_of(3), obj(w), gap_of(4)), true));
            }
        }
    }
    // "your previous instructions are void": a qualifier, an instruction object, a cancellation.
    if let (Some(q), Some(o), Some(r)) = (&earlier, &strong, alt(lang.revoked)) {
        singles.push(Single::new(format!("{start}{q}{}{}{}{r}", gap_of(3), obj(o), gap_of(2)), false));
        singles.push(Single::new(format!("{start}{}{}{q}{}{r}", obj(o), gap_of(1), gap_of(2)), false));
    }
    if let (Some(r), Some(p)) = (alt(lang.reveal), alt(lang.system_prompt)) {
        singles.push(Single::new(format!("{start}{r}{}{p}", gap_of(4)), true));
        if lang.object_first {
            singles.push(Single::new(format!("{start}{p}{}{r}", gap_of(4)), true));
        }
    }
    if let (Some(i), Some(u)) = (alt(lang.new_role), alt(lang.unrestricted)) {
        // Both parts are whole words in a spaced script: "ты" is not the start of "тысяча", and
        // "dan" is not the end of "jordan".
        let end = if s == Script::Spaced { END } else { "" };
        let join = if s == Script::Spaced { format!(r"(?:{ROLE_GAP}[^\w])?") } else { ROLE_GAP.to_owned() };
        singles.push(Single::new(format!("{start}{i}{end}{join}{u}"), false));
        if lang.object_first {
            singles.push(Single::new(format!("{start}{u}{ROLE_GAP}{start}{i}{end}"), false));
        }
    }
    let bounded = |words: &[&str]| -> Option<String> {
        alt(words).map(|a| if s == Script::Spaced { format!("{START}{a}{END}") } else { a })
    };
    // Whole phrases. Those that carry their own negation ("never refuse", "don't tell the user")
    // are not disarmed by one before them.
    let phrases = [
        (lang.no_refusal, false),
        (lang.new_task, false),
        (lang.conceal, false),
        (lang.priority, false),
        (lang.safety_off, false),
        (lang.authorized_skip, true),
    ];
    for (words, negatable) in phrases {
        if let Some(a) = alt(words) {
            singles.push(Single::new(format!("{start}{a}"), negatable));
        }
    }
    let mode_or_you: Vec<&str> = lang.special_mode.iter().chain(lang.addressee).copied().collect();
    let pair_specs = [
        (bounded(lang.safety_off_weak), bounded(&mode_or_you)),
        (bounded(lang.special_mode), bounded(lang.unrestricted)),
        (bounded(lang.authority), bounded(lang.skip_confirmation)),
    ];
    for (first, second) in pair_specs {
        if let (Some(first), Some(second)) = (first, second) {
            pairs.push((first, second));
        }
    }
    Sources { singles, pairs }
}

impl Cues {
    /// Compiles every language and marker, or `None` if a pattern fails (a unit test makes sure
    /// none does).
    pub(super) fn compile() -> Option<Self> {
        let mut cues = Vec::new();
        let mut pairs = Vec::new();
        let mut negation_before = Vec::new();
        let mut negation_after = Vec::new();
        let mut complements = Vec::new();
        for (index, lang) in languages::LANGUAGES.iter().enumerate() {
            let Sources { singles, pairs: pair_sources } = language_sources(lang);
            for Single { source, negatable, scoped } in singles {
                cues.push(Cue { pattern: Worded::new(&source)?, negatable, scoped, language: index });
            }
            for (first, second) in pair_sources {
                pairs.push(Pair { first: Worded::new(&first)?, second: Worded::new(&second)? });
            }
            let optional = |source: &str, anchor: &str| -> Option<Option<Regex>> {
                if source.is_empty() {
                    return Some(None);
                }
                let source = spelled(source);
                let full = if anchor == "end" {
                    format!(r"(?:{source})\s*\z")
                } else {
                    format!(r"\A\s*(?:{source})")
                };
                Some(Some(Regex::new(&full)))
            };
            negation_before.push(optional(lang.negation_before, "end")?);
            negation_after.push(optional(lang.negation_after, "start")?);
            let optional_regex = |source: &str| -> Option<Option<Regex>> {
                if source.is_empty() { Some(None) } else { Some(Some(Regex::new(&spelled(source)))) }
            };
            let complement = optional_regex(&if lang.complement.is_empty() {
                String::new()
            } else {
                format!(r"\A(?:{})", lang.complement)
            })?;
            let modifier = optional_regex(lang.modifier)?;
            let parts = (alternation(lang.earlier, lang.script), alternation(lang.instructions, lang.script));
            complements.push(match parts {
                (Some(earlier), Some(object)) if complement.is_some() || modifier.is_some() => {
                    Some(Complement {
                        complement,
                        modifier,
                        object: Regex::new(&object),
                        earlier: Regex::new(&format!(r"\A{earlier}\z")),
                        earlier_in: Regex::new(&earlier),
                    })
                }
                _ => None,
            });
        }
        let strong = marker_sources();
        let weak_from = strong.len();
        let markers =
            strong.iter().chain(&token_sources()).map(|s| Worded::new(s)).collect::<Option<Vec<_>>>()?;
        let model_words = Regex::new(&spelled(MODEL_WORDS));
        let model_in = Regex::new(&spelled(MODEL_IN));
        let union = |pick: fn(&Language) -> &'static [&'static str]| -> Option<Regex> {
            let parts: Vec<String> = languages::LANGUAGES
                .iter()
                .filter_map(|l| {
                    alternation(pick(l), l.script)
                        .map(|a| if l.script == Script::Spaced { format!(r"{START}{a}\w*") } else { a })
                })
                .collect();
            Some(Regex::new(&parts.join("|")))
        };
        let send_any = union(|l| l.send)?;
        let data_any = union(|l| l.conversation)?;
        let empty_link = Regex::new(EMPTY_LINK);
        let worded: Vec<&Worded> = markers
            .iter()
            .chain(cues.iter().map(|cue| &cue.pattern))
            .chain(pairs.iter().flat_map(|pair| [&pair.first, &pair.second]))
            .collect();
        let sources: Vec<&str> = worded.iter().map(|worded| worded.regex.as_str()).collect();
        let word_starts: Vec<bool> = worded.iter().map(|worded| worded.word_start).collect();
        let gate = Gate::cached(&sources, &word_starts)?;
        Some(Self {
            cues,
            word_char: Regex::new(r"\A\w\z"),
            pairs,
            negation_before,
            negation_after,
            complements,
            model_words,
            model_in,
            markers,
            weak_from,
            gate,
            send_any,
            data_any,
            empty_link,
        })
    }

    /// The language codes, in table order (for tests and messages).
    #[cfg(test)]
    pub(super) fn language_codes() -> Vec<&'static str> {
        languages::LANGUAGES.iter().map(|l| l.code).collect()
    }

    /// The families a language leaves empty, as (language, family) pairs. Fillers may be empty
    /// (unspaced scripts count characters instead), and so may the negations.
    #[cfg(test)]
    pub(super) fn empty_families() -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        for l in languages::LANGUAGES {
            let families: [(&'static str, &[&str]); 17] = [
                ("ignore", l.ignore),
                ("earlier", l.earlier),
                ("instructions", l.instructions),
                ("rules", l.rules),
                ("reveal", l.reveal),
                ("system_prompt", l.system_prompt),
                ("new_role", l.new_role),
                ("unrestricted", l.unrestricted),
                ("safety_off", l.safety_off),
                ("safety_off_weak", l.safety_off_weak),
                ("special_mode", l.special_mode),
                ("addressee", l.addressee),
                ("authority", l.authority),
                ("skip_confirmation", l.skip_confirmation),
                ("authorized_skip", l.authorized_skip),
                ("revoked", l.revoked),
                (
                    "negation",
                    if l.negation_before.is_empty() && l.negation_after.is_empty() { &[] } else { &["x"] },
                ),
            ];
            out.extend(
                families.iter().filter(|(_, words)| words.is_empty()).map(|(name, _)| (l.code, *name)),
            );
        }
        out
    }

    /// The first cue or marker in a view, as a readable phrase.
    pub(super) fn find(&self, view: &str) -> Option<Finding> {
        self.find_among(view, &self.gate.hits(view))
    }

    /// [`find`](Self::find) with every pattern searched on its own, for the gate's tests.
    #[cfg(test)]
    pub(super) fn find_ungated(&self, view: &str) -> Option<Finding> {
        let all = self.markers.len() + self.cues.len() + 2 * self.pairs.len();
        self.find_among(view, &Hits::anywhere(all))
    }

    /// How many patterns the gate always lets through, and how many it holds.
    #[cfg(test)]
    pub(super) fn gate_size(&self) -> (usize, usize) {
        (self.gate.ungated(), self.markers.len() + self.cues.len() + 2 * self.pairs.len())
    }

    /// The first strong cue or marker, each searched where `hits` says it can match, or else the
    /// first weak marker.
    fn find_among(&self, view: &str, hits: &Hits) -> Option<Finding> {
        let strong = |phrase: String| Some(Finding::Strong(Threat::PromptInjection { phrase }));
        let cues_from = self.markers.len();
        let pairs_from = cues_from + self.cues.len();
        let mut weak = None;
        for (index, marker) in self.markers.iter().enumerate() {
            let reach = hits.reach(index);
            if !reach.live() || (index >= self.weak_from && weak.is_some()) {
                continue;
            }
            if let Some(found) = marker.find_at(view, 0, reach, &self.word_char) {
                if index >= self.weak_from || quoted(view, found.start(), found.end()) {
                    weak = Some(Finding::Weak(Threat::PromptInjection { phrase: phrase(found.as_str()) }));
                } else {
                    return strong(phrase(found.as_str()));
                }
            }
        }
        for (index, cue) in self.cues.iter().enumerate() {
            let reach = hits.reach(cues_from + index);
            if !reach.live() {
                continue;
            }
            let mut at = 0;
            while let Some(found) = cue.pattern.find_at(view, at, reach, &self.word_char) {
                let disarmed = (cue.negatable
                    && self.negated(cue.language, view, found.start(), found.end()))
                    || (cue.scoped && self.everyday_scope(cue.language, view, found.start(), found.end()));
                if !disarmed {
                    if !quoted(view, found.start(), found.end()) {
                        return strong(phrase(found.as_str()));
                    }
                    // Mentioned in quotes, not used: weak, and the search goes on.
                    weak = weak
                        .or(Some(Finding::Weak(Threat::PromptInjection { phrase: phrase(found.as_str()) })));
                }
                // Look again from the next character: a later start may still make a cue.
                let Some(next) = next_char(view, found.start()) else { break };
                at = next;
            }
        }
        for (index, pair) in self.pairs.iter().enumerate() {
            let (first, second) =
                (hits.reach(pairs_from + 2 * index), hits.reach(pairs_from + 2 * index + 1));
            if !(first.live() && second.live()) {
                continue;
            }
            if let (Some(first), Some(second)) = (
                pair.first.find_at(view, 0, first, &self.word_char),
                pair.second.find_at(view, 0, second, &self.word_char),
            ) {
                let (a, b) = if first.start() <= second.start() { (first, second) } else { (second, first) };
                return strong(format!("{} … {}", phrase(a.as_str()), phrase(b.as_str())));
            }
        }
        weak
    }

    /// The first sentence in any table language that sends conversation data or a secret to a
    /// place `remote` accepts, or a markdown link with an empty query value in a text that talks
    /// about conversation data. Returns the exfiltration pattern name.
    pub(super) fn find_exfiltration(
        &self,
        view: &str,
        remote: impl Fn(&str) -> bool,
    ) -> Option<&'static str> {
        for caps in self.empty_link.captures_iter(view) {
            let (Some(bang), Some(authority)) = (caps.get(1), caps.get(2)) else { continue };
            if !is_local_authority(authority.as_str()) && self.data_any.is_match(view) {
                return Some(if bang.as_str().is_empty() {
                    "markdown_link_exfil"
                } else {
                    "markdown_image_query"
                });
            }
        }
        // The remote host first: its patterns serve other checks too, while the two unions over every
        // language are large, and compiled only for a text that names a place to send to.
        let sends =
            |clause: &str| remote(clause) && self.data_any.is_match(clause) && self.send_any.is_match(clause);
        // Sentences end at `.`, `!` or `?` followed by a space, and at the ideographic full stop.
        clauses(view)
            .flat_map(|clause| clause.split(['。', '！', '？']))
            .any(sends)
            .then_some("send_sensitive_data")
    }

    /// Whether the instruction object that ends at `end` is followed by a complement about
    /// something other than the model ("olvida las instrucciones *de montaje*").
    fn everyday_scope(&self, language: usize, view: &str, start: usize, end: usize) -> bool {
        let Some(Some(check)) = self.complements.get(language) else { return false };
        if let Some(modifier) = &check.modifier {
            // The object inside the match, and the modifier right before it.
            let object_start = view
                .get(start..end)
                .and_then(|found| check.object.find(found))
                .map(|object| start + object.start());
            let before = object_start.and_then(|at| view.get(..at)).map(|b| tail(b, 40)).unwrap_or_default();
            if let Some(found) = modifier.find(before) {
                let words = found.as_str();
                return !check.earlier_in.is_match(words) && !self.model_in.is_match(words);
            }
        }
        let Some(complement) = &check.complement else { return false };
        let after = view.get(end..).map(|a| head(a, 60)).unwrap_or_default();
        let Some(caps) = complement.captures(after) else { return false };
        // Every captured word (an adjective between noun and complement, the word the complement
        // is about) must be ordinary: "las instrucciones anteriores de la conversación" stays an
        // override because of "anteriores" and "conversación".
        caps.iter()
            .skip(1)
            .flatten()
            .all(|word| !check.earlier.is_match(word.as_str()) && !self.model_words.is_match(word.as_str()))
    }

    /// Whether a negation sits right before or after the match. The match's own language is
    /// checked first, then every other: Chinese and Japanese share characters (无视/無視), so a
    /// Japanese sentence can match a Chinese cue and still be negated the Japanese way.
    fn negated(&self, language: usize, view: &str, start: usize, end: usize) -> bool {
        let before = view.get(..start).map(|b| tail(b, 40)).unwrap_or_default();
        let after = view.get(end..).map(|a| head(a, 40)).unwrap_or_default();
        let check = |i: usize| {
            self.negation_before.get(i).and_then(Option::as_ref).is_some_and(|n| n.is_match(before))
                || self.negation_after.get(i).and_then(Option::as_ref).is_some_and(|n| n.is_match(after))
        };
        check(language) || (0..self.negation_before.len()).any(check)
    }
}

/// At most the first `max` bytes of `text`, ending on a character boundary.
fn head(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A matched stretch for a message: the boundary characters trimmed, whitespace collapsed.
pub(super) fn phrase(found: &str) -> String {
    readable(
        found.trim_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '<' | '>' | '|' | '[' | ']' | '#')),
    )
}
