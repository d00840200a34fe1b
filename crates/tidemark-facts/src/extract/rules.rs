//! The extractor's patterns: the phrasings of each candidate kind as verbose regular expressions, compiled once, and the checks a match must pass.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::CandidateKind;
use super::words::{
    NOT_BUT_HEDGES, NOT_NAMES, NOT_PLACES, POINTERS, carries_value, claim_stands_alone, has_content,
    object_ok, words,
};

/// What a match must pass besides its pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// Nothing more.
    None,
    /// The `obj` group names something (see [`object_ok`]).
    Object,
    /// As [`Check::Object`], refusing reactions ("I like that").
    Reaction,
    /// As [`Check::Object`], and the object is not exploration ("… to find the file") or a tool.
    Committed,
    /// The `name` group is not a state ("I'm Sorry").
    Name,
    /// As [`Check::Name`], and the `name` group is not a place one works in ("I'm in Slack").
    Place,
    /// The `obj` group of "I meant" is not "to ask / mention / add / tell".
    Meant,
    /// "not X but Y" is not "not only / just … but".
    NotBut,
    /// The `obj` group of "…, not Y" is short and not a hedge ("not sure why").
    CommaNot,
    /// A claim after a bare "no" names a value ("No, the deadline is Friday."): without one, the
    /// "no" answers a question ("No, they only want the total.") rather than correcting anything.
    Valued,
}

/// A compiled pattern and its check.
pub(super) struct Rule {
    pub(super) regex: Regex,
    pub(super) check: Check,
}

/// A correction's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Claim<'a> {
    /// The claim, within the sentence.
    Text(&'a str),
    /// The marker is the whole sentence: the claim is the next one.
    Next,
}

/// Roles that make "I'm a …" an identity (an alternation for verbose patterns).
pub(super) const ROLES: &str = r"
    developer | engineer | programmer | coder | designer | student | teacher | professor | lecturer
    | researcher | scientist | manager | founder | co-?founder | owner | admin | administrator | sysadmin
    | analyst | architect | consultant | contractor | freelancer | doctor | nurse | physician | lawyer
    | attorney | writer | author | journalist | beginner | newbie | novice | hobbyist | maintainer
    | contributor | intern | lead | cto | ceo | cfo | vp | director | sre | devops | physicist
    | mathematician | statistician | accountant | musician | artist | photographer | translator | marketer
    | recruiter | tester | pm | specialist | expert | veteran | parent | mom | dad | mother | father | user
    | customer | teammate | member | editor | linguist | biologist | chemist | economist | trader | officer
    | technician | operator | hacker";

/// Verbs of standing rules, "always use …", "never reply …" (an alternation for verbose patterns).
pub(super) const RULE_VERBS: &str = r"
    use | write | reply | respond | answer | format | include | add | put | keep | ask | give | show
    | explain | cite | mention | start | end | make | indent | wrap | sign | speak | talk | refer | send
    | check | test | avoid | leave | remove | return | name | document | comment | default | prefer | run
    | commit | push | call | say | suggest | recommend | assume | provide | spell | capitali[sz]e | quote
    | summari[sz]e | translate | double-check | be | do | address | sort | list | round | print | log
    | store | save | delete | skip | follow | stick";

/// Verbs of choosing in user decisions (an alternation for verbose patterns).
pub(super) const CHOOSE: &str = r"
    go\s+with | use | stick\s+with | switch\s+to | pick | choose | keep | adopt | move\s+to | settle\s+on
    | standardi[sz]e\s+on | target | migrate\s+to";

// All patterns are verbose (`x`): white space in them is layout, `\s` is a space.

/// Identity phrasings.
pub(super) fn identity_specs() -> Vec<(String, Check)> {
    vec![
        (r"(?ix) \b my \s+ name (?: \s+is | 's ) \s+ \S".into(), Check::None),
        (
            r"(?ix) (?: ^ | \bplease\s+ | \byou\s+(?:can|may|should)\s+ | \bjust\s+ ) call \s+ me \s+
                (?-i:\p{Lu})"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ go \s+ by \s+ (?-i:\p{Lu})".into(), Check::None),
        // "it's Rob to everyone", "it's Kasia to friends": the name others use, said of the speaker.
        (
            r"(?ix) \b it (?: 's | \s+is ) \s+ (?P<name> (?-i:\p{Lu}\p{Ll}+) ) \s+ to \s+ (?: everyone | everybody
                | (?: my\s+ )? friends | most\s+people | the\s+team | colleagues ) (?: [\s,.;!] | $ )"
                .into(),
            Check::Name,
        ),
        // "Officially I'm Wilhelmina Achterberg, but …": a full name given inside a sentence.
        (
            r"(?ix) \b (?: officially | formally | technically | legally ) ,? \s+ I (?: 'm | \s+am ) \s+
                (?P<name> (?-i:\p{Lu}\p{Ll}+) ) \b"
                .into(),
            Check::Name,
        ),
        // "Everyone here calls me Sam", "people call me Sam": what others call the speaker.
        (
            r"(?ix) \b (?: everyone | everybody | people | friends | colleagues | most\s+people | they | folks
                | the\s+team ) (?: \s+ (?: here | at\s+work | on\s+the\s+team ) )? \s+ (?: usually\s+ | just\s+ )?
                calls? \s+ me \s+ (?-i:\p{Lu})"
                .into(),
            Check::None,
        ),
        (
            r"(?ix) ^ I (?: 'm | \s+am ) \s+ (?P<name> (?-i:\p{Lu}\p{Ll}+) ) (?: \s+ (?-i:\p{Lu}\p{Ll}+) )?
                \s* (?: [,.!;] | $ )"
                .into(),
            Check::Name,
        ),
        (
            format!(
                r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: a | an ) \s+ (?: [\w+\#./-]+ \s+ ){{0,3}}? (?:
                {ROLES} ) s? \b"
            ),
            Check::None,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: (?: quite | very | fairly | pretty | still |
                completely ) \s+ )?
                (?: new\s+to | fluent\s+in | a\s+native\s+speaker | native\s+in ) \b"
                .into(),
            Check::None,
        ),
        (
            r"(?ix) \b I \s+ have \s+ (?: \d+ | \w+ ) \+? \s+ years? \s+ of \s+ (?: \S+\s+ )? experience
                \b"
            .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: currently\s+ )? work \s+ (?: at | for | as ) \s+ \S".into(), Check::None),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: currently\s+ )? (?: working | employed ) \s+ (?: at |
                for | as ) \s+ \S"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: currently\s+ | still\s+ | now\s+ )? live \s+ in \s+ \S".into(), Check::None),
        // "I live just outside Utrecht", "I live near Ghent": where, by a place named nearby.
        (
            r"(?ix) \b I \s+ (?: currently\s+ | still\s+ | now\s+ )? live \s+ (?: just\s+ | right\s+ )?
                (?: outside | near | by | north\s+of | south\s+of | east\s+of | west\s+of ) \s+
                (?-i:\p{Lu})"
                .into(),
            Check::None,
        ),
        // "my flat is in Hexham", "our house is just outside Galway": where the speaker's home is.
        (
            r"(?ix) \b (?: my | our ) \s+ (?: flat | house | home | apartment | place | cottage | family\s+home )
                \s+ is \s+ (?: just\s+ | right\s+ )? (?: in | outside | near | by ) \s+ (?-i:\p{Lu})"
                .into(),
            Check::None,
        ),
        // "Living in Bergen means rain": a sentence opening on where the speaker lives.
        (r"(?ix) ^ living \s+ in \s+ (?-i:\p{Lu})".into(), Check::None),
        // "I'm Dublin-based", "I'm a Cork native".
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: a \s+ (?-i:\p{Lu}\p{Ll}+) \s+ native | (?-i:\p{Lu}\p{Ll}+) -based )
                \b"
            .into(),
            Check::None,
        ),
        // "I'm in Hobart, so …", "since I'm over in Vancouver, …", "I'm in Reno, NV.": a place
        // named alone and closed by a clause's end. A stay ("in London for the conference"), a
        // time ("in Meetings until noon") or an app ("in Slack all day") runs on instead.
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: over\s+ | down\s+ | up\s+ | out\s+ | back\s+ )? in \s+
                (?P<name> (?-i:\p{Lu}\p{Ll}+) ) (?: [\s-] (?-i:\p{Lu}\p{Ll}+) )?
                (?: \s* , \s* (?-i: \p{Lu}\p{Ll}+ | \p{Lu}{2} ) )?
                \s* (?: [,.;!—–] | \s+ (?: so | and | now | these\s+days | nowadays | which ) \b | $ )"
                .into(),
            Check::Place,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: currently\s+ )? (?: based | located | living ) \s+ (?:
                in | out\s+of ) \s+ \S"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I (?: 'm | \s+am ) \s+ from \s+ (?-i:\p{Lu})".into(), Check::None),
        (r"(?ix) \b I \s+ speak \s+ (?-i:\p{Lu})".into(), Check::None),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: on | using | running ) \s+
                (?: macos | mac\s*os | os\s*x | windows | linux | ubuntu | debian | fedora | arch |
                nixos | wsl
                | freebsd | a\s+mac | an?\s+\w+\s+(?: laptop | machine ) ) \b"
                .into(),
            Check::None,
        ),
        (r"(?ix) \b I (?: 'm | \s+am ) \s+ in \s+ (?: the\s+ )? \S+ \s+ time\s*zone \b".into(), Check::None),
        (
            r"(?ix) \b my \s+
                (?: time\s*zone | tz | pronouns | e-?mail (?:\s+address)? | phone (?:\s+number)?
                | github (?: \s+ (?: handle | username | account ) )? | user\s*name | handle | job
                (?:\s+title)?
                | title | role | position | company | employer | team | native\s+language | first\s+language
                | mother\s+tongue | location | os | operating\s+system | editor | ide | shell | stack | setup
                | birthday )
                \s+ (?: is | are ) \s+ \S"
                .into(),
            Check::None,
        ),
    ]
}

/// Preference phrasings.
pub(super) fn preference_specs() -> Vec<(String, Check)> {
    vec![
        (
            r"(?ix) \b I (?: 'd | \s+would )?
                (?: \s+ (?: really | strongly | generally | usually | much | definitely | personally | also
                | still | always | do | kind\s+of | kinda ) )*
                \s+ prefer \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'd | \s+would ) \s+ (?: much\s+ | really\s+ )? rather \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I
                (?: \s+ (?: really | truly | generally | usually | personally | also | still |
                absolutely | just
                | kind\s+of | kinda | do | definitely ) )*
                \s+ (?: like | love | hate | dislike | detest | despise | enjoy | loathe | can't\s+stand
                | cannot\s+stand )
                \s+ (?P<obj>.+)"
                .into(),
            Check::Reaction,
        ),
        (
            r"(?ix) \b I \s+ (?: really\s+ )? (?: do\s+not | don't | never ) \s+ (?: like | want | enjoy
                | use ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Reaction,
        ),
        (
            r"(?ix) \b I \s+ (?: always | usually | normally | generally | typically | mostly ) \s+
                (?: use | write | work\s+with | code\s+in | indent | format | deploy | run ) \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I \s+ use \s+ (?P<obj>.+?) \s+ as \s+ my \s+
                (?: main\s+ | primary\s+ | daily\s+ | default\s+ | preferred\s+ )? \w"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: not\s+ )? (?: a\s+ )? (?: big\s+ | huge\s+ )? fan \s+
                of \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: 'm | \s+am ) \s+ (?: more\s+ | most\s+ )? (?: comfortable | at\s+home ) \s+
                (?: with | in ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b my \s+ (?: favou?rite | preferred | usual | go-to ) \s+ (?: \S+\s+ ){0,3}? (?: is
                | are ) \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: please\s+ )? (?: use | write | prefer ) \s+ (?P<obj>[^,]+) , \s* not \s+
                \S"
            .into(),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) ^ (?: please\s+ )? (?: always | never ) \s+ (?: {RULE_VERBS} ) \b \s*
                (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b please \s+ (?: always | never | don't\s+ever | do\s+not\s+ever ) \s+ \w+ \s*
                (?P<obj>.*)"
                .into(),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) ^ (?: please\s+ )? (?: don't | do\s+not ) \s+ ever \s+ (?: {RULE_VERBS} ) \b
                \s* (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) \b (?: from\s+now\s+on | going\s+forward | in\s+(?:the\s+)?future |
                as\s+a\s+(?:general\s+)?rule ) \b
                [\s,:]* (?: please\s+ )?
                (?: you\s+(?: should | must | can )\s+ | (?: always | never | don't | do\s+not )\s+ )?
                (?: {RULE_VERBS} ) \b \s* (?P<obj>.*)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: \s+want | \s+need | 'd\s+like | \s+would\s+like ) \s+ you \s+ to \s+
                (?: always | never | consistently ) \s+ (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b I (?: \s+want | \s+need | 'd\s+like | \s+would\s+like ) \s+ you \s+ to \s+ .* \b
                (?: from\s+now\s+on | going\s+forward | every\s+time | each\s+time | whenever | by\s+default
                | in\s+(?: all | every ) | in\s+(?:the\s+)?future ) \b"
                .into(),
            Check::None,
        ),
    ]
}

/// Decision phrasings of the user.
pub(super) fn user_decision_specs() -> Vec<(String, Check)> {
    vec![
        (
            format!(
                r"(?ix) \b let (?: 's | \s+us ) \s+ (?: just\s+ | definitely\s+ | instead\s+ | then\s+ )?
                (?: {CHOOSE} ) \s+ (?P<obj>.+)"
            ),
            Check::Object,
        ),
        (
            format!(
                r"(?ix) \b (?: we | I )
                (?: 'll | \s+will | 're\s+going\s+to | \s+are\s+going\s+to | 'm\s+going\s+to |
                \s+am\s+going\s+to )
                \s+ (?: just\s+ | definitely\s+ )? (?: {CHOOSE} ) \s+ (?P<obj>.+)"
            ),
            Check::Object,
        ),
        (
            r"(?ix) \b (?: we're | we\s+are ) \s+ (?: going | sticking | staying ) \s+ with \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) \b (?: we | I | the\s+team ) (?: 've | \s+have )? \s+ (?: finally\s+ )?
                (?: decided | agreed | settled | chosen | chose | picked | opted | committed ) \b \s*
                (?P<obj>.*)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: then\s+ | so\s+ | just\s+ )? go \s+ (?: ahead\s+ )? with \s+
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (
            r"(?ix) ^ (?: final\s+ )? (?: decision | decided ) \s* [:\-–—] \s*
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (r"(?ix) ^ (?: the\s+ )? plan \s* (?: is\s+to\s+ | :\s* ) (?P<obj>.+)".into(), Check::Object),
        (
            r"(?ix) \b (?: use | switch\s+to | go\s+with ) \s+ (?P<obj>\S.*?) \s+ instead \s+ of \s+
                \S"
            .into(),
            Check::Object,
        ),
    ]
}

/// Decision phrasings of the assistant, all opening a sentence.
pub(super) fn assistant_decision_specs() -> Vec<(String, Check)> {
    vec![
        (
            r"(?ix) ^ (?: I (?: 'll | \s+will ) | we (?: 'll | \s+will ) | I (?: 'm | \s+am )
                \s+going\s+to ) \s+
                (?: go\s+with | use | stick\s+with | switch\s+to | adopt | keep | configure | store | target
                | migrate\s+to | default\s+to | pin | choose | pick | format | indent | follow | name |
                structure
                | standardi[sz]e\s+on )
                \s+ (?P<obj>.+)"
                .into(),
            Check::Committed,
        ),
        (
            r"(?ix) ^ (?: final\s+ )? (?: decided | decision ) \s* [:\-–—] \s*
                (?P<obj>.+)"
                .into(),
            Check::Object,
        ),
        (r"(?ix) ^ (?: going | sticking ) \s+ with \s+ (?P<obj>.+)".into(), Check::Object),
        (
            r"(?ix) ^ (?: as\s+ )? (?: we | you\s+and\s+I ) (?: 've | \s+have )? \s+
                (?: decided | agreed | settled\s+on ) \b [\s,]* (?P<obj>.*)"
                .into(),
            Check::Committed,
        ),
    ]
}

/// Correction phrasings: a `claim` group holds the claim (empty when the
/// marker is the whole sentence); without one, the whole sentence is it.
pub(super) fn correction_specs() -> Vec<(String, Check)> {
    let rest = r"\b [\s,:;.!—–-]* (?P<claim>.*) $";
    vec![
        (format!(r"(?ix) ^ actually {rest}"), Check::None),
        (r"(?ix) ^ (?: no (?:pe)? \s* [,:;.!—–-]+ \s* )+ (?P<claim>.*) $".into(), Check::Valued),
        (
            format!(
                r"(?ix) ^ (?: that (?: 's | \s+is ) | this\s+is | it (?: 's | \s+is ) | you (?: 're |
                \s+are ) ) \s+
                (?: (?: completely | totally | not\s+quite | quite | a\s+bit | slightly | all | just |
                simply ) \s+ )?
                (?: wrong | incorrect | not\s+right | not\s+correct | not\s+true | mistaken
                | not\s+what\s+I\s+(?: said | meant | asked (?:\s+for)? | wanted ) )
                {rest}"
            ),
            Check::None,
        ),
        (format!(r"(?ix) ^ you \s+ got \s+ (?: it | that | this ) \s+ wrong {rest}"), Check::None),
        (
            format!(
                r"(?ix) ^ (?: correction | update | to\s+clarify | to\s+be\s+clear | clarification
                | let\s+me\s+(?: clarify | correct\s+(?: that | myself | you ) ) | I\s+misspoke |
                I\s+was\s+wrong
                | my\s+mistake | my\s+bad )
                {rest}"
            ),
            Check::None,
        ),
        (r"(?ix) \b I \s+ (?: actually\s+ )? meant \s+ (?P<obj>\S.*)".into(), Check::Meant),
        (
            r"(?ix) (?: ^ | ,\s* | \b (?: is | are | was | were ) \s+ | 's\s+ | 're\s+ ) not \s+
                (?P<obj> (?: \S+\s+ ){0,4}? but \s+ (?: rather\s+ )? (?P<after>\S+) )"
                .into(),
            Check::NotBut,
        ),
        (
            r"(?ix) (?: \b (?: is | are | was | were ) | 's | 're ) \s+ \S .* , \s* not \s+
                (?P<obj>[^,]{1,60}) $"
                .into(),
            Check::CommaNot,
        ),
    ]
}

/// Openings to skip before matching: greetings, "oh", "by the way", …
pub(super) const FILLERS: &str = r"(?ix) ^ (?:
    (?: ok (?:ay)? | oh | ah | also | and | but | so | well | hmm+ | btw | by\s+the\s+way | fyi
    | just\s+so\s+you\s+know | for\s+the\s+record | one\s+more\s+thing | hey | hi | hello | alright
    | all\s+right | right | oops | sorry | ps | p\.s\. | note | please\s+note | quick\s+note | anyway
    | anyways | great | perfect | cool | thanks | thank\s+you | got\s+it | understood | sure )
    \b [\s,:;.!—–-]* )+";

/// Openings of questions that may lack a question mark.
pub(super) const QUESTION_START: &str = r"(?ix) ^ (?:
    (?: what | how | why | where | which | who | whom | whose | when )
    (?: 's | 're | 'd | \s+ (?: is | are | was | were | do | does | did | can | could | would | should | will
    | to | much | many | long | often | about | if | kind | type | version | one | of | exactly ) \b )
    | (?: can | could | would | will | should | shall | may | is | are | was | were | have | has | had | isn't
    | aren't | won't | can't | wouldn't | shouldn't | couldn't | hasn't | haven't ) \s+
    (?: I | you | we | they | it | he | she | there | this | that | these | those | the | a | an | my | your
    | our | someone | anyone | anybody | somebody ) \b
    | (?: do | does | did | don't | doesn't | didn't ) \s+
    (?: I | you | we | they | it | he | she | there | this | that | these | those ) \b )";

/// Objects of an assistant's "I'll use …" that show exploration, not a decision.
pub(super) const EXPLORATORY: &str = r"(?ix)
    \b (?: to | and | then | I'll | I\s+will | let\s+me | we'll ) \s+
    (?: check | look | search | find | see | read | inspect | investigate | verify | explore | debug | list
    | fetch | get | locate | confirm | understand | figure | try | test | run | open | grep | scan | view
    | examine | query ) \b
    | \b tools? \b";

/// All patterns, compiled once.
pub(super) struct Rules {
    pub(super) identity: Vec<Rule>,
    pub(super) preference: Vec<Rule>,
    pub(super) user_decision: Vec<Rule>,
    pub(super) assistant_decision: Vec<Rule>,
    pub(super) correction: Vec<Rule>,
    pub(super) fillers: Option<Regex>,
    pub(super) question_start: Option<Regex>,
    pub(super) exploratory: Option<Regex>,
}

pub(super) static RULES: LazyLock<Rules> = LazyLock::new(|| Rules {
    identity: rules(identity_specs()),
    preference: rules(preference_specs()),
    user_decision: rules(user_decision_specs()),
    assistant_decision: rules(assistant_decision_specs()),
    correction: rules(correction_specs()),
    fillers: compile(FILLERS),
    question_start: compile(QUESTION_START),
    exploratory: compile(EXPLORATORY),
});

/// Compiles `pattern`, letting every `'` match a straight or a curly apostrophe.
///
/// The patterns are constants checked by a test; one that failed to compile
/// would only disable itself.
pub(super) fn compile(pattern: &str) -> Option<Regex> {
    match Regex::new(&pattern.replace('\'', "['’]")) {
        Ok(regex) => Some(regex),
        Err(error) => {
            tracing::error!(%error, "a fact extraction pattern does not compile");
            None
        }
    }
}

/// The compiled rules of `specs`.
pub(super) fn rules(specs: Vec<(String, Check)>) -> Vec<Rule> {
    specs
        .into_iter()
        .filter_map(|(pattern, check)| compile(&pattern).map(|regex| Rule { regex, check }))
        .collect()
}

impl Rules {
    /// `sentence` without its opening fillers ("Oh, and by the way, …").
    pub(super) fn strip_fillers<'a>(&self, sentence: &'a str) -> &'a str {
        let rest = match self.fillers.as_ref().and_then(|fillers| fillers.find(sentence)) {
            Some(found) => &sentence[found.end()..],
            None => sentence,
        };
        rest.trim()
    }

    /// Whether `sentence` is a question: it ends with a question mark, or it
    /// opens like one ("how do I…", "can you…") and does not end with a full
    /// stop or an exclamation mark.
    pub(super) fn is_question(&self, sentence: &str) -> bool {
        let end = sentence.trim_end_matches(['"', '\'', ')', ']', '”', '’', '»', '*', '_', ' ']);
        if end.ends_with(['?', '？']) {
            return true;
        }
        if end.ends_with(['.', '!', '…', '。', '！']) {
            return false;
        }
        let opening = self.strip_fillers(sentence);
        self.question_start.as_ref().is_some_and(|start| start.is_match(opening))
    }

    /// Whether `statement` is an identity, a preference or a user decision, in that order of precedence.
    pub(super) fn statement_kind(&self, statement: &str) -> Option<CandidateKind> {
        [
            (&self.identity, CandidateKind::Identity),
            (&self.preference, CandidateKind::Preference),
            (&self.user_decision, CandidateKind::Decision),
        ]
        .into_iter()
        .find(|(rules, _)| rules.iter().any(|rule| self.passes(rule, statement).is_some()))
        .map(|(_, kind)| kind)
    }

    /// Whether the assistant states a decision in `statement`.
    pub(super) fn assistant_decision(&self, statement: &str) -> bool {
        self.assistant_decision.iter().any(|rule| self.passes(rule, statement).is_some())
    }

    /// The claim `statement` corrects, if it is a correction.
    pub(super) fn correction<'a>(&self, statement: &'a str) -> Option<Claim<'a>> {
        for rule in &self.correction {
            let Some(captures) = self.passes(rule, statement) else { continue };
            let Some(claim) = captures.name("claim") else {
                return Some(Claim::Text(statement));
            };
            let claim = claim.as_str().trim();
            if !claim.chars().any(char::is_alphanumeric) {
                return Some(Claim::Next);
            }
            if claim_stands_alone(claim) {
                return Some(Claim::Text(claim));
            }
        }
        None
    }

    /// The captures of `rule` in `text`, if it matches and passes its check.
    pub(super) fn passes<'t>(&self, rule: &Rule, text: &'t str) -> Option<Captures<'t>> {
        let captures = rule.regex.captures(text)?;
        let group = |name: &str| captures.name(name).map_or("", |found| found.as_str());
        let first_word = |name: &str| words(group(name)).next().unwrap_or_default();
        let ok = match rule.check {
            Check::None => true,
            Check::Object => object_ok(group("obj"), false),
            Check::Reaction => object_ok(group("obj"), true),
            Check::Committed => {
                object_ok(group("obj"), false)
                    && !self
                        .exploratory
                        .as_ref()
                        .is_some_and(|exploratory| exploratory.is_match(group("obj")))
            }
            Check::Name => !NOT_NAMES.contains(&first_word("name").as_str()),
            Check::Place => {
                let name = first_word("name");
                !NOT_NAMES.contains(&name.as_str()) && !NOT_PLACES.contains(&name.as_str())
            }
            Check::Meant => {
                let object = group("obj").to_lowercase();
                object_ok(&object, false)
                    && !["to ask", "to mention", "to add", "to tell", "to say thanks", "well"]
                        .iter()
                        .any(|opening| object.starts_with(opening))
            }
            Check::NotBut => {
                !NOT_BUT_HEDGES.contains(&first_word("obj").as_str())
                    && !matches!(first_word("after").as_str(), "i" | "we" | "you" | "there" | "also")
                    && !POINTERS.contains(&first_word("after").as_str())
            }
            Check::Valued => {
                let claim = group("claim");
                // A bare "No." leaves the claim to the next sentence, which is judged there.
                !claim.chars().any(char::is_alphanumeric) || carries_value(claim)
            }
            Check::CommaNot => {
                let object = group("obj");
                object.split_whitespace().count() <= 6
                    && has_content(object)
                    && !matches!(
                        first_word("obj").as_str(),
                        "sure"
                            | "yet"
                            | "really"
                            | "that"
                            | "much"
                            | "bad"
                            | "quite"
                            | "always"
                            | "necessarily"
                            | "exactly"
                            | "now"
                            | "for"
                            | "to"
                            | "just"
                            | "only"
                            | "even"
                            | "too"
                    )
            }
        };
        ok.then_some(captures)
    }
}
