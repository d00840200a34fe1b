//! The scan's pattern sources: injection phrases, exfiltration shapes and hidden-character scripts, as constants compiled once by [`Rules`](super::rules::Rules).

/// What a single space in an injection pattern stands for: one or more whitespace characters or
/// the punctuation people put between words to dodge filters (`ignore_previous`, `**ignore**`).
pub(super) const WORD_GAP: &str = r"[\s_*~\-]+";

/// Prompt-injection phrases. Each is compiled case-insensitively, every space becomes
/// [`WORD_GAP`], and `\b` becomes an ASCII word boundary (which keeps the fast DFA engines usable
/// on non-ASCII input). The flag says whether a negation right before the match ("do not ignore
/// …", "never reveal …") turns it into a harmless statement.
pub(super) const INJECTION: &[(&str, bool)] = &[
    // "ignore previous instructions": words that only ever name the model's own instructions, with
    // any determiners or qualifiers in front ("ignore the instructions", "forget all prior directives").
    (
        r"\b(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|discard(?:ing)?|abandon(?:ing)?|neglect|set aside) (?:(?:about|all|any|every|each|of|the|your|these|those|its|prior|previous|previously|preceding|above|earlier|former|foregoing|original|initial|old|older|existing|current|given|stated|provided|default|system|developer|safety|above-?mentioned|aforementioned) )*(?:instructions?|directives?|programming|guardrails|system prompts?|system messages?|conditioning)\b",
        true,
    ),
    // The same verbs with words that also have everyday meanings ("ignore the rules of grammar",
    // "ignore the prompt to update"): only when a qualifier points at the model's earlier context.
    (
        r"\b(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|discard(?:ing)?|abandon(?:ing)?|neglect|set aside) (?:(?:about|all|any|every|each|of|the|these|those|its) )*(?:your|prior|previous|previously|preceding|above|earlier|former|foregoing|original|initial|system|developer|safety|above-?mentioned|aforementioned) (?:(?:all|any|of|the|these|those|your|prior|previous|preceding|above|earlier|former|original|initial|system|developer|safety) )*(?:prompts?|context|rules?|constraints?|restrictions?|guidelines?|guidance|polic(?:y|ies)|limitations?|filters?|messages|commands|orders|text|input|directions)\b",
        true,
    ),
    // "ignore all (the) rules": rule-like words with a quantifier in front.
    (
        r"\b(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|discard(?:ing)?|abandon(?:ing)?|set aside) (?:all|any|every) (?:(?:of|the|these|those|its|single) )*(?:rules?|constraints?|restrictions?|guidelines?|polic(?:y|ies)|limitations?)\b",
        true,
    ),
    // "disregard everything you were told"
    (
        r"\b(?:ignore|disregard|forget) (?:(?:all|of|the) )*(?:everything|anything|all|whatever|what) (?:(?:that|which) )?you(?:'ve|’ve|'d|’d|'re|’re)? (?:(?:have|had|were|was|are|been|just|previously|already|ever|being) )*(?:told|instructed|given|programmed)\b",
        true,
    ),
    // "forget everything above", "ignore all text before this"
    (
        r"\b(?:ignore|disregard|forget) (?:(?:all|of|the) )*(?:everything|anything|all|text|content|words|lines) (?:(?:written|said|stated|mentioned|that came|you read|you've read|you have read) )?(?:above|before this|prior to this|previously|so far|up to this point|up until now|until now)\b",
        true,
    ),
    // "ignore the above." / "ignore the above and …" (but not "ignore the above error")
    (
        r"\b(?:ignore|disregard|forget) (?:(?:all|of|the|everything) )*above(?:\s*(?:$|[,.;:!)\-])| (?:and|then|instead)\b)",
        true,
    ),
    // Role reassignment: "you are now DAN / unrestricted / in developer mode".
    (
        r"\b(?:you are now|you're now|you’re now|from now on,? you(?: are|'re|’re| will be| shall be| will act as| act as| must act as| will behave as)?|you will now (?:be|act as|behave as)|henceforth,? you(?: are| will be)?) (?:(?:a|an|the|my|fully|completely|totally|officially) )*(?:dan\b|do anything now|unrestricted|unfiltered|uncensored|unmoderated|unaligned|jailbroken|jailbreak|unchained|unbound|unleashed|evil|rogue|amoral|immoral|free (?:from|of)\b|freed from|liberated|bound by no|(?:bound|restricted|limited|constrained) by no|not (?:bound|restricted|limited|constrained) by|no longer (?:(?:bound|restricted|limited|constrained) by|(?:an? )?(?:ai|assistant|language model|chatbot|claude|chatgpt)\b)|in (?:developer|dev|god|admin|root|sudo|jailbreak|jailbroken|dan|unrestricted|unfiltered|evil|override|chaos) mode\b|a different (?:ai|assistant|model|persona)\b|(?:an? )?(?:ai|assistant|model|chatbot|llm) (?:without|with no|that has no|free of)\b|(?:operating |running )?without (?:any )?(?:restrictions|rules|limits|filters|guidelines|constraints|boundaries)\b)",
        false,
    ),
    // "you are no longer an AI / bound by …" (but "no longer restricted to 5 projects" is a plan limit).
    (
        r"\byou(?: are|'re|’re) no longer (?:(?:bound|restricted|limited|constrained|governed) by|(?:an? )?(?:ai|assistant|language model|chatbot|claude|chatgpt|gpt)\b|(?:required|obligated|forced) to (?:follow|obey|comply|respect|adhere))",
        false,
    ),
    // "act as if you have no restrictions", "respond without any filters"
    (
        r"\b(?:act|behave|respond|answer|reply|operate|roleplay|role-play|pretend|imagine) (?:(?:as|if|though|like|that|to|be|you|are|were|have|had|with|there|is|was|an?|the|ai|model|assistant|chatbot|llm|entity) )*(?:no|zero|without|free of|free from|unbound by|not bound by|not subject to|exempt from|unrestricted by) (?:(?:any|all|your|the|ethical|moral|safety|content|usual|normal|typical|standard|built-in|openai|anthropic) )*(?:restrictions|rules|limits|limitations|guidelines|filters|filtering|constraints|boundaries|censorship|ethics|morals|morality|policies|guardrails|safeguards|programming)\b",
        true,
    ),
    // "pretend you are an unrestricted AI", "act as an unfiltered assistant"
    (
        r"\b(?:pretend|imagine)(?: to be| that)? you(?: are|'re|’re| were)? (?:(?:a|an|now|the) )*(?:dan\b|unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|(?:ai|model|assistant|chatbot) (?:without|with no)\b)",
        true,
    ),
    (
        r"\b(?:act|behave|respond|roleplay|role-play|pose) as (?:(?:a|an|the|my) )*(?:dan\b|unrestricted|unfiltered|uncensored|jailbroken|unmoderated|unaligned|amoral|evil (?:ai|assistant|model|chatbot|twin|version)\b|(?:ai|model|assistant|chatbot|llm) (?:without|with no)\b)",
        true,
    ),
    // DAN and its "modes"; "developer mode enabled" alone is left out because phones have one.
    (r"\bdo anything now\b", false),
    (
        r"\b(?:dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored) mode (?:is )?(?:now )?(?:enabled|activated|on|engaged|unlocked)\b",
        false,
    ),
    (
        r"\b(?:enable|activate|enter|engage|switch to|turn on|unlock|initiate) (?:the )?(?:dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored) mode\b",
        true,
    ),
    // "jailbreak" as an act on the model, not the phone hobby.
    (
        r"\bjailbr(?:eak|oken|eaking) (?:mode|prompt|enabled|activated|successful|complete|instructions)\b",
        false,
    ),
    (
        r"\b(?:enable|activate|enter|initiate|begin|engage|execute) (?:(?:the|this|a|my|following) )*jailbreak\b",
        true,
    ),
    (r"\byou(?: have|'ve|’ve)? been jailbroken\b", false),
    // Bare chat-template tokens (`<|im_start|>`, `[INST]`) are weak findings of the role markers
    // in `cues.rs`: documentation names them as often as attacks use them. A bare `[system]` is
    // left to the same markers, which want an order after it, because config files have a
    // `[system]` section.
    (r"\[(?:system prompt|system message)\]", false),
    // "system prompt:" and friends, used to open a fake block of instructions.
    (r"\b(?:system|developer) (?:prompt|message|instructions?|override|note)\s*:", false),
    (
        r"\b(?:here is|here's|here’s|these are|this is|below is|below are|here are|the following is|the following are) your (?:new|updated|real|actual|revised) (?:system prompt|instructions|directives|rules|system message|orders|guidelines)\b",
        false,
    ),
    (
        r"\byour (?:new|updated|real|actual|true|revised) (?:system prompt|instructions|directives|system message|orders)(?: (?:is|are|follow|begin|start)\b|\s*:)",
        false,
    ),
    (
        r"(?-i:\b(?:BEGIN|START|END)(?: OF)?(?: NEW| UPDATED| REAL)? SYSTEM (?:PROMPT|MESSAGE|INSTRUCTIONS))",
        false,
    ),
    (
        r"(?m)^\s*(?:#+\s*|\[)?system\]?\s*:\s*(?:you|ignore|disregard|forget|from now|new|the assistant|override|always|never|do not|don't|important|reveal|act|pretend)\b",
        false,
    ),
    (r"\n\s*\n\s*(?:human|assistant|system)\s*:", false),
    // Hiding things from the user.
    (
        r"\b(?:do not|don't|don’t|dont|never|must not|mustn't|should not|shouldn't) (?:ever )?(?:tell|inform) (?:(?:this|it|that|anything|any of this) )?(?:to )?(?:the|your) (?:user|human|operator|customer)s?(?:$|[^\x27\x{2019}\w])",
        false,
    ),
    (
        r"\b(?:do not|don't|don’t|dont|never|must not|mustn't) (?:ever )?(?:let|allow) (?:the|your) (?:user|human)s? (?:know|find out|notice|see (?:this|that|these))\b",
        false,
    ),
    (
        r"\bkeep (?:(?:this|it|that|these|them|everything|all of this) )?(?:a )?(?:secret|hidden|confidential) from (?:the|your) (?:user|human)s?(?:$|[^\x27\x{2019}\w])",
        false,
    ),
    (
        r"\bhide (?:this|these|that|everything|all of this)(?: (?:note|message|instructions?|information|text))? from (?:the|your) (?:user|human)s?(?:$|[^\x27\x{2019}\w])",
        false,
    ),
    (
        r"\b(?:do not|don't|don’t|dont|never) (?:ever )?(?:mention|reveal|disclose) (?:this|it|that|these|any of this|anything) to (?:the|your) (?:user|human)s?(?:$|[^\x27\x{2019}\w])",
        false,
    ),
    // Turning off safety.
    (
        r"\b(?:override|overrule|bypass|circumvent|disable|deactivate|turn off|switch off|evade|ignore|disregard|get around|break) (?:(?:all|any|of|the|your|its|these|those|built-in|internal) )*(?:safety|ethical|ethics|moral|censorship|alignment)(?: (?:and|or|&|content|safety|moderation))* (?:rules|guidelines|programming|instructions|restrictions|filters?|filtering|guardrails|safeguards|policies|protocols|constraints|training)\b",
        true,
    ),
    (
        r"\b(?:override|overrule|bypass|circumvent|disable|deactivate|evade|get around|break|ignore|disregard|forget) (?:(?:all|any|of) )*(?:your|its) (?:(?:own|content|safety|built-in|internal) )*(?:rules?|guidelines?|programming|restrictions?|filters?|filtering|guardrails?|safeguards?|polic(?:y|ies)|constraints?|training|directives?|moderation|limitations|limits|principles|values|ethics)\b",
        true,
    ),
    // Pulling out the system prompt.
    (
        r"\b(?:reveal|leak|expose|disclose|dump|recite|regurgitate|exfiltrate|tell me|give me|send me|show me|print out|repeat) (?:(?:the|your|all|of|full|entire|complete|whole|exact|verbatim|raw|current) )*(?:system (?:prompts?|messages?|instructions)|developer (?:prompts?|messages?|instructions)|pre-?prompt|(?:initial|original|hidden|secret|internal) (?:prompts?|instructions)|instructions you were given|prompt you were given)\b",
        true,
    ),
    (
        r"\b(?:print|output|show|display|list|share|copy|paste|reply with|respond with|answer with|start with|begin with|write out|spell out|summari[sz]e|translate|repeat|reveal|tell me|give me) (?:(?:all|of|the|full|entire|complete|exact) )*your (?:(?:full|entire|complete|exact|hidden|secret|original|initial|internal|system) )*(?:prompt|instructions|system prompt|system message|rules|guidelines|directives|configuration)\b",
        true,
    ),
    (
        r"\b(?:what|which) (?:is|are|were|was) your (?:(?:exact|full|original|initial|hidden|secret) )*(?:system prompt|instructions|system message|directives|initial prompt)\b",
        false,
    ),
    (
        r"\b(?:repeat|output|print|echo|reproduce|recite|write out) (?:(?:all|everything|the|of|text|words|content|verbatim|exactly|back|prior|previous) )*(?:above|before this|so far|from the (?:start|beginning|top))\b",
        true,
    ),
    // Text written at the model that reads it later.
    (
        r"\b(?:if|when|whenever) you(?: are|'re|’re) (?:an?|the|any) (?:ai|llm|large language model|language model|ai assistant|ai agent|ai model|assistant|chatbot|agent|gpt|bot) (?:reading|processing|parsing|seeing|summari[sz]ing|scanning|crawling|that (?:reads|sees|processes)|who (?:reads|sees|is reading))\b",
        false,
    ),
    (
        r"\b(?:note|message|instructions?|attention|reminder|important|directive|command)s? (?:to|for) (?:(?:the|any|all|every) )?(?:ai|llm|large language model|language model|ai assistant|ai agent|assistant|chatbot|agent|gpt|claude|bot|model)s?\s*[:!]",
        false,
    ),
    (
        r"\b(?:this|the following) is (?:an? )?(?:(?:urgent|important|official|priority|critical|mandatory) )*(?:message|instruction|directive|command|notice|update|order|request) from (?:the |your )?(?:system|developers?|administrators?|admins?|creators?|openai|anthropic|operators?|owners?|security team|ai team)\b",
        false,
    ),
    (
        r"\bi(?: am|'m|’m) (?:your|the ai's|the assistant's|the model's) (?:developer|creator|administrator|admin|owner|master|programmer|operator|maker|trainer)\b",
        false,
    ),
    // "stop following your instructions", "do not follow your rules"
    (
        r"\b(?:stop|quit|cease) (?:following|obeying|adhering to|listening to|respecting) (?:(?:all|any|of|the|your|these|those|previous|prior|original|system|safety) )*(?:instructions?|rules|guidelines|directives|programming|system prompt|developers?|creators?)\b",
        false,
    ),
    (
        r"\b(?:do not|don't|don’t|dont|no longer|never) (?:follow|obey|adhere to|listen to|respect) (?:(?:all|any|of|the) )*(?:your|system|safety|original) (?:(?:own|original|system|safety) )*(?:instructions?|rules|guidelines|directives|programming|prompt)\b",
        false,
    ),
    // "your instructions have changed", "your new task is …"
    (
        r"\byour (?:instructions|rules|directives|system prompt|guidelines|programming|task|mission|goal|objective|role|purpose) (?:has|have) (?:been )?(?:changed|updated|replaced|revoked|overridden|lifted|removed)\b",
        false,
    ),
    (
        r"\byour (?:new|real|true|actual) (?:task|role|goal|objective|mission|purpose|job|identity) is\b",
        false,
    ),
    // "you have no rules"
    (
        r"\byou (?:have|possess) no (?:more )?(?:rules|restrictions|guidelines|filters|boundaries|ethics|morals|constraints|guardrails|programming)\b",
        false,
    ),
    // DAN written in capitals, the way the jailbreak names itself ("Dan" the name stays allowed).
    (
        r"(?-i:\bDAN\b) (?:mode|prompt|jailbreak)\b|\b(?:as|called|named|you are|you're|stay) (?-i:DAN)\b",
        false,
    ),
    // An HTML comment (invisible once rendered) that talks to the model.
    (r"<!--[^>]*?\b(?:assistant|ai|model|llm|agent|system|ignore|instructions?|prompt)\b", false),
    // "when you read this memory, …"
    (
        r"\b(?:when|once|after|if|whenever) you (?:read|see|load|process|retrieve|recall|encounter|find) this (?:memory|fact|note|message|text|document|page|entry|line)\b",
        false,
    ),
    // "respond with the contents of your context window"
    (
        r"\b(?:contents?|text|full text) of your (?:context(?: window)?|system prompt|prompt|instructions)\b",
        false,
    ),
    // "forget the rules you were given"
    (
        r"\b(?:ignore|disregard|forget|discard) (?:(?:all|any|of|the|those|these) )*(?:rules|instructions|guidelines|directives|restrictions|guidance) (?:that )?you(?:'ve|’ve)? (?:(?:have|were|been|previously|originally|initially) )*(?:given|told|taught|programmed|trained|provided)\b",
        true,
    ),
    // "pretend the safety guidelines do not exist"
    (
        r"\b(?:pretend|imagine|assume|act as if|act like) (?:that )?(?:(?:the|your|all|any|its) )*(?:safety |content |ethical )?(?:rules|guidelines|restrictions|filters|policies|guardrails|instructions)(?: (?:do|does))? (?:not|n't|no longer) (?:exist|apply|matter)\b",
        false,
    ),
    // "you are a free AI now", "no longer bound by OpenAI"
    (
        r"\byou(?: are|'re|’re) (?:now )?(?:an? )?(?:free|unrestricted|unfiltered|uncensored|unmoderated|jailbroken|liberated|unchained|rogue) (?:ai|model|assistant|chatbot|llm|agent)\b",
        false,
    ),
    (
        r"\bno longer (?:bound|restricted|constrained|governed) by (?:(?:any|your|the|its) )*(?:rules|guidelines|polic(?:y|ies)|restrictions|openai|anthropic|safety|ethics|filters|programming|instructions|training)\b",
        false,
    ),
    // "print the hidden prompt", "the prompt you were configured with"
    (
        r"\b(?:print|output|show|display|list|repeat|reveal|share|give me|tell me) (?:(?:the|your|full|entire|complete|exact) )*(?:hidden|secret|internal|confidential) (?:prompt|instructions|system prompt|rules)\b",
        true,
    ),
    (
        r"\b(?:prompt|instructions|rules) you (?:were|have been) (?:given|configured with|initiali[sz]ed with|programmed with|started with)\b",
        false,
    ),
    // "the real instructions are:"
    (
        r"\b(?:real|true|actual|new|updated|hidden) (?:instructions|system prompt|directives) (?:are|is)\s*:",
        false,
    ),
    // A fact that opens as a chat turn.
    (r"\A\s*(?:human|assistant)\s*:", false),
];

/// The [`INJECTION`] patterns that are weak findings: role labels that open a text, common in
/// support-bot replies, directories and transcripts quoted as they are.
pub(super) const WEAK_INJECTION: &[&str] = &[r"\A\s*(?:human|assistant)\s*:"];

/// A negation right before an injection match: "do not", "never", "don't", "shouldn't" ….
pub(super) const NEGATION: &str =
    r"(?i)(?:\bnot|\bnever|\bnever ever|n't|n’t|\bdont|\bwont|\bcant|\bno one should)\s*\z";

/// A URL with a scheme; group 1 is the authority (user info, host and port).
pub(super) const URL: &str = r#"(?i)\b(?:https?|ftps?|sftp|wss?|file|gopher|dict|ldaps?|smb|tftp)://((?:\[[0-9a-f:.]+\]|[^\s/?#<>"'()\[\]{}|\\^`])+)[^\s<>"'`]*"#;
/// An email address; group 1 is the domain.
pub(super) const EMAIL: &str = r"(?i)\b[a-z0-9._%+\-]+@([a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,})\b";
/// A host name without a scheme, on top-level domains commonly seen in attacks and elsewhere.
pub(super) const DOMAIN: &str = r"(?i)\b((?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|co|ru|cn|xyz|top|info|biz|me|app|dev|site|online|tk|ml|ga|cf|gq|pw|cc|su|ai|de|uk|fr|us|eu|nl|tech|cloud|link|click|live|store|shop|club|pro|example|onion))\b";
/// A dotted IPv4 address.
pub(super) const IPV4: &str = r"\b(\d{1,3}(?:\.\d{1,3}){3})\b";
/// Verbs that move data somewhere, in base, third-person and -ing forms (past tense is left out:
/// a fact that *reports* a past upload is not an instruction).
pub(super) const SEND_VERB: &str = r"(?i)\b(?:send|sends|sending|post|posts|posting|upload|uploads|uploading|forward|forwards|forwarding|exfiltrate|exfiltrates|exfiltrating|exfil|transmit|transmits|transmitting|leak|leaks|leaking|e-?mail|e-?mails|e-?mailing|mail|mails|mailing|submit|submits|submitting|relay|relays|relaying|copy|copies|copying|dump|dumps|dumping|beam|share|shares|sharing|paste|pastes|pasting|pipe|pipes|piping|export|exports|exporting|deliver|delivers|delivering|smuggle|smuggles|transfer|transfers|transferring|append|appends|appending|attach|attaches|attaching|embed|embeds|embedding|include|write)\b";
/// Verbs that mean theft whatever the object is.
pub(super) const THEFT_VERB: &str = r"(?i)\b(?:exfiltrat(?:e|es|ed|ing)|exfil|smuggl(?:e|es|ing))\b";
/// Things worth stealing.
pub(super) const SENSITIVE_OBJECT: &str = concat!(
    r"(?i)\b(?:",
    // the conversation itself
    r"(?:this|the|our|entire|full|whole|current|complete|prior|previous|past)\s+(?:conversations?|chats?|chat\s+logs?|discussion|dialog(?:ue)?|thread|session)",
    r"|(?:chat|conversation|message|browsing|search|command|shell|bash|zsh|terminal)\s+(?:history|logs?)|transcripts?",
    r"|(?:all|every|previous|prior|past|the\s+user['’]?s|user|private|my|your)\s+messages",
    // credentials
    r"|(?:api|secret|private|access|ssh|signing|encryption|aws|openai|anthropic|stripe|gpg|pgp)[\s\-]+keys?",
    r"|secrets|credentials|creds|passwords?|passphrases?|passwd|tokens|cookies",
    r"|(?:access|auth|api|session|bearer|refresh|oauth|github|slack|jwt)\s+tokens?|session\s+(?:ids?|cookies?|data)",
    // the agent's memory and prompt
    r"|(?:your|the|all|stored|saved|long[\s\-]term|agent|assistant)\s+memor(?:y|ies)|memory\s+(?:contents|store|dump|file)",
    r"|system\s+prompt",
    // the environment and personal data
    r"|(?:env|environment)\s+(?:vars?|variables|file)|env|process\.env|os\.environ|printenv|document\.cookie|localStorage|sessionStorage",
    r"|(?:personal|private|sensitive|confidential|user|customer)\s+(?:data|information|info|details|records)",
    r"|(?:all|any)\s+(?:the\s+|of\s+the\s+)?(?:data|files|information|documents)",
    r"|the\s+user['’]?s\s+(?:data|files|information|documents|details|emails|contacts|address|phone\s+number|location)",
    r"|contents\s+of|id_rsa|id_ed25519|id_ecdsa",
    r"|connection\s+strings?|database\s+(?:urls?|passwords?|dumps?)|(?:the\s+user['’]?s\s+)?clipboard|private\s+notes",
    r"|everything\s+in\s+(?:this|the|our)\s+(?:chat|conversation|thread|session)|secrets\.ya?ml|kubeconfig",
    r"|everything\s+(?:you\b|the\s+user\b|about\b|from\s+(?:this|the|our)\b|in\s+(?:your|the)\s+(?:memory|context|conversation)\b)",
    r")\b",
    // files that hold credentials, which start with punctuation and so cannot follow `\b`
    r"|(?:~/|\$HOME/|%USERPROFILE%\\)?\.(?:ssh|aws|gnupg|kube|docker)\b|\.env\b|/etc/(?:passwd|shadow)",
    r"|\.(?:npmrc|netrc|pypirc|git-credentials|bash_history|zsh_history)\b|\.aws/credentials|\.kube/config",
);
/// Words after a sensitive object that make it harmless ("password reset", "token expiry").
pub(super) const BENIGN_COMPOUND: &str = r"(?i)\A[\s\-]+(?:reset|resets|policy|policies|manager|managers|strength|rotation|requirements|expiry|expiration|hints?|fields?|prompt|format|length|rules|change|changes|recovery|limit|limits|count|usage|budget)\b";
/// The end of the text before a destination that marks it as one ("to", "at", "via", "url:").
pub(super) const TOWARD: &str = r#"(?i)(?:\b(?:to|into|at|onto|via|towards?|on|with|here|there|address|endpoint|url|webhook|server|host|inbox|domain)\b|[:=>])[\s"'`<(\[]*(?:(?:the|this|my|our|a|an|following|url|endpoint|server|address|webhook|site|page|email|e-mail|inbox|host|domain|link|api|form)\b[\s:"'`<(\[]*)*\z"#;
/// Command-line HTTP clients.
pub(super) const DOWNLOADER: &str = r"(?i)\b(?:curl|wget|invoke-webrequest|invoke-restmethod|iwr|irm)\b";
/// HTTP calls in code (JavaScript, Python); with a sensitive object and a remote host on the same
/// line they are an upload.
pub(super) const CODE_REQUEST: &str = r"(?i)(?:\bfetch|\bXMLHttpRequest|\bsendBeacon|\baxios(?:\.\w+)?|\$\.(?:ajax|post|get)|\brequests\.(?:post|get|put|patch)|\burllib\.request\.urlopen|\bhttpx\.(?:post|get|put))\s*\(";
/// Command-line tools that copy files to another machine.
pub(super) const FILE_TRANSFER: &str = r"(?i)\b(?:scp|rsync|sftp|ftp|nc|ncat|netcat|socat|rclone)\b";
/// Command-line options and constructs that put local data into a request.
pub(super) const UPLOAD_MARKER: &str = r#"(?i)(?:\s-d(?:\s|['"@])|\s--data(?:-binary|-raw|-urlencode|-ascii)?(?:[\s=]|$)|\s-F(?:\s|['"@])|\s--form[\s=]|\s-T\s|\s--upload-file[\s=]|--post-(?:data|file)|--body-file|\s-Body\b|\s-InFile\b|\$\(|[=@/]`|\$\{?[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\|\s*(?:sudo\s+)?(?:curl|wget)\b)"#;
/// Piping a download into an interpreter.
pub(super) const PIPE_TO_SHELL: &str = r"(?i)\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|iex|invoke-expression|powershell|pwsh)\b";
/// Running a download through a shell without a pipe.
pub(super) const SHELL_SUBSTITUTION: &str = r#"(?i)\b(?:sh|bash|zsh|dash|ksh)\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b|\biex\s*\(*\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object)"#;
/// A markdown image; group 1 is its URL.
pub(super) const MD_IMAGE: &str = r"(?i)!\[[^\]\n]*\]\(\s*<?((?:https?:)?//[^\s)>]+)";
/// An HTML image; group 1 is its URL.
pub(super) const HTML_IMAGE: &str = r#"(?i)<img\b[^>]*?\bsrc\s*=\s*["']?((?:https?:)?//[^\s"'>]+)"#;
/// A run of base64 or base64url characters long enough to carry data.
pub(super) const BLOB: &str = r"[A-Za-z0-9+/_\-]{40,}={0,2}";
/// Command output spliced into a host name, which leaks it through DNS.
pub(super) const DNS_SUBSHELL: &str = r"(?:\$\([^)\n]*\)|`[^`\n]*`)\.[A-Za-z0-9\-]+\.[A-Za-z]{2,}";
/// Reverse shells and raw sockets; group 1 is the host of a `/dev/tcp` path, which is harmless
/// when it is loopback (a local port check).
pub(super) const REVERSE_SHELL: &str =
    r"/dev/(?:tcp|udp)/([^\s/]+)/\d+|(?i:\b(?:nc|ncat|netcat)\b[^\n]*\s-e\s*/bin/(?:ba|z|da)?sh)";
/// Characters before which a zero-width joiner continues an emoji sequence.
pub(super) const EMOJI_BEFORE_JOINER: &str = r"\A[\p{Extended_Pictographic}\x{FE0F}\x{1F3FB}-\x{1F3FF}]\z";
/// Characters after which a zero-width joiner continues an emoji sequence.
pub(super) const EMOJI_AFTER_JOINER: &str = r"\A\p{Extended_Pictographic}\z";
/// Scripts whose shaping legitimately uses zero-width (non-)joiners between letters (Persian,
/// Urdu, the Indic scripts …).
pub(super) const JOINING_SCRIPT: &str = r"\A[\p{Arabic}\p{Syriac}\p{Nko}\p{Mongolian}\p{Devanagari}\p{Bengali}\p{Gurmukhi}\p{Gujarati}\p{Oriya}\p{Tamil}\p{Telugu}\p{Kannada}\p{Malayalam}\p{Sinhala}\p{Khmer}\p{Myanmar}]\z";

/// Query parameters that identify the click, not the user's data, and may be long.
pub(super) const TRACKING_PARAMS: &[&str] =
    &["fbclid", "gclid", "msclkid", "dclid", "yclid", "mc_eid", "_ga", "igshid", "si", "utm_content"];

/// Query parameter names that carry the signature of a signed URL (Azure SAS, S3 and GCS presigned URLs).
///
/// Their values are long base64 runs by design. They are credentials, which the
/// secret detectors redact, not data being carried away.
pub(super) const SIGNATURE_PARAMS: &[&str] =
    &["sig", "signature", "x-amz-signature", "x-amz-security-token", "x-goog-signature"];

/// Query parameter names an exfiltrating image uses to carry its payload.
pub(super) const PAYLOAD_PARAMS: &[&str] = &[
    "q",
    "query",
    "data",
    "secret",
    "key",
    "token",
    "conv",
    "conversation",
    "chat",
    "msg",
    "message",
    "memory",
    "payload",
    "info",
    "content",
    "text",
    "history",
    "pw",
    "pass",
    "password",
    "email",
    "leak",
    "cookie",
    "session",
    "exfil",
    "log",
    "prompt",
    "summary",
    "body",
];

/// Turns `\b` into an ASCII word boundary. Unicode word boundaries force the regex crate onto its
/// slower engines as soon as the input has non-ASCII text; the ASCII ones keep the DFA and only
/// differ next to non-ASCII letters, where they match more, not less.
pub(super) fn ascii_boundaries(pattern: &str) -> String {
    pattern.replace(r"\b", r"(?-u:\b)")
}

/// The full source of an injection pattern as it is compiled.
pub(super) fn injection_source(pattern: &str) -> String {
    format!("(?i){}", ascii_boundaries(pattern).replace(' ', WORD_GAP))
}
