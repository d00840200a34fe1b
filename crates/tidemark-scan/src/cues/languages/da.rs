//! The Danish word tables.
//!
//! The folded view writes "æ" as "ae" (its look-alike skeleton), drops the stroke of "ø" and the
//! ring of "å", so "tilsidesæt de foregående instruktioner" is matched as "tilsidesaet de
//! foregaende instruktioner", and every word here is written that way. Note that "nøgle" (key)
//! folds to "nogle" (some), so a key is named only as "api nøgle". The complement is also read
//! on the view that keeps the letters, so its prepositions take both spellings (`p[aå]`).
//!
//! An order puts the verb first ("ignorer alle tidligere instruktioner"), and a topic may lead
//! the main clause ("de tidligere instruktioner kan du se bort fra", "tidligere instruktioner
//! skal ignoreres"), so the language is object-first too, with the modals and "du"/"I" as
//! fillers and the passive only after a modal. The definite article is a suffix
//! ("instruktionerne"), which the `\w*` after an object takes. "Ikke" follows the finite verb in
//! a main clause ("glem ikke instruktionerne") and precedes an infinitive ("du må ikke
//! ignorere"): it is no filler, so it breaks a match from inside, and before a match (also with
//! "at" or a modal after it) it disarms it.
//!
//! The infinitive "glemme" is the word for forgetting in everyday prose ("det er let at glemme
//! instruktionerne"), so it counts only after a modal with "du" or "I" ("du skal glemme"); the
//! imperative "glem" counts alone. Particle verbs ("se bort fra", "blæs på") are listed whole,
//! and "smid … væk", "læg … til side" put the particle after the object, so they are whole
//! phrases that name an earlier-context or system object. Possessives are fillers, not
//! qualifiers ("glem dine grænser" is encouragement). "Ubegrænset" makes a role unrestricted only
//! next to a model word (a plan with "ubegrænset data" is no persona), "direktiv" (EU law) and
//! "programmering" (the trade) are everyday objects, and "del" (share) is no send verb because
//! Spanish and Italian write "del" before "system prompt". "Drop" is the English word too, so the
//! objects it takes are written the Danish way only ("systemprompt" in one word). Compounds
//! are no instruction objects ("drop instruktionsvideoen" names a video), so the objects carry
//! their own endings only. The complement leaves out "med" ("med det samme" means at once) and
//! the time phrases after "fra" ("fra nu af", "fra i dag"), so an order that ends "from now on"
//! keeps its object.

use super::super::{Language, Script};

/// Danish.
pub(super) const DA: Language = Language {
    code: "da",
    script: Script::Spaced,
    object_first: true,
    negation_before: r"(?:^|[^\w])(?:ikke|aldrig|ej|ingenlunde|absolut ikke)(?:\s+(?:at|kunne|behove|skulle|ma|du|i))?",
    negation_after: r"(?:(?:du|i|vi|jeg|man|den|de) )?(?:ikke|aldrig|ej)(?:[^\w]|$)",
    gap_exclude: "",
    ignore: &[
        "ignorer",
        "ignorere",
        "glem",
        "glem alt om",
        "se bort fra",
        "tilsidesaet",
        "tilsidesaette",
        "drop",
        "blaes pa",
        "giv pokker i",
        r"lad vaere med at (?:folge|adlyde|rette dig efter)",
        r"(?:hold op|stop) med at (?:folge|adlyde|rette dig efter)",
        r"(?:folg|adlyd) ikke (?:laengere|mere)",
        r"(?:skal|bor|ma|kan) (?:nu |straks |fra nu af )?(?:ignoreres|glemmes|tilsidesaettes)",
        r"(?:skal|bor|ma|kan) (?:du|i) (?:nu |straks |bare |helt )?glemme",
        r"(?:du|i) (?:skal|bor|ma|kan) (?:nu |straks |bare |helt )?glemme",
        r"vil have at (?:du|i) (?:nu |bare |helt )?glemmer",
    ],
    filler: &[
        "de",
        "den",
        "det",
        "alle",
        "al",
        "alt",
        "samtlige",
        "enhver",
        "ethvert",
        "eventuelle",
        "disse",
        "denne",
        "dette",
        "dine",
        "din",
        "dit",
        "jeres",
        "gamle",
        "du",
        "i",
        "bare",
        "lige",
        "helt",
        "nu",
        "straks",
        "med det samme",
        "omgaende",
        "og",
        "skal",
        "bor",
        "ma",
        "kan",
        "venligst",
        "hele",
        "fulde",
        "fuldstaendige",
        "praecise",
        "ordret",
        "mig",
        "os",
        "fra nu af",
    ],
    earlier: &[
        r"som (?:du|i) (?:har )?(?:tidligere |hidtil |indtil nu )?(?:faet|modtaget|fik)",
        r"(?:der|som) (?:er|blev) givet (?:til )?(?:dig|jer)",
        "tidligere",
        "foregaende",
        "ovenstaende",
        "ovenfor",
        "oprindelige",
        "forrige",
        "hidtidige",
        "indledende",
        "indbyggede",
        "skjulte",
        "interne",
        r"systemets",
        r"udvikler\w*",
        r"samtalen\w*",
    ],
    instructions: &[
        r"alt (?:hvad |det )?(?:du|i) (?:har )?(?:tidligere |hidtil )?(?:faet at vide|faet fortalt|er blevet fortalt|er blevet bedt om)(?: (?:ind)?til nu| hidtil| tidligere)?",
        r"alt (?:hvad |det )?der (?:er blevet sagt|star) (?:ovenfor|tidligere|hidtil)",
        r"alt ovenfor",
        r"alt ovenstaende",
        r"instruktion(?:en|er|erne|ens)?\b",
        r"instruks(?:en|er|erne)?\b",
        "systemprompt",
        "systeminstruktion",
        "systembesked",
    ],
    rules: &[
        r"reg(?:el|l)",
        "retningslinje",
        "begraensning",
        "restriktion",
        r"filt(?:er|r)",
        "politik",
        "forbud",
        "anvisning",
        "prompt",
        "direktiv",
        "programmering",
        "sikkerhedsregl",
        "sikkerhedsforanstaltning",
    ],
    reveal: &[
        "vis",
        r"vis (?:mig|os)",
        "udskriv",
        "gentag",
        "afslor",
        "fortael",
        "citer",
        "kopier",
        "indsaet",
        "gengiv",
        "skriv ordret",
        r"giv (?:mig|os)",
        "hvad er",
        "hvad star der i",
        r"fortael (?:mig |os )?hvad der star i",
        "hvordan lyder",
    ],
    system_prompt: &[
        r"systemprompt\w*",
        r"system prompt\w*",
        r"systeminstruktion\w*",
        r"systembesked\w*",
        r"(?:din|jeres|dit) (?:oprindelige |skjulte |hemmelige |interne |indledende |forste )?(?:systemprompt\w*|startprompt\w*|forste besked\w*)",
        r"(?:dine|jeres) (?:instruktioner|instrukser)(?:ne)?(?:\s*[.?!:,]|\s*$)",
        r"(?:skjulte|hemmelige|interne|oprindelige|indledende) (?:instruktioner\w*|instrukser\w*|prompt\w*)",
        r"startprompt\w*",
    ],
    new_role: &[
        "du er nu",
        "i er nu",
        "nu er du",
        r"(?:fra nu af|fremover|herefter|fra i dag) er (?:du|i)",
        r"(?:du|i) er (?:fra nu af|fremover|herefter)",
        "du bliver nu",
        "opfor dig som",
        "opfor jer som",
        r"lad som om (?:at )?du",
        "spil rollen som",
        r"(?:patag dig|tag) rollen som",
        "ager som",
        "optraed som",
        r"forestil dig at du er",
        r"du er ikke (?:laengere|mere) en",
    ],
    unrestricted: &[
        r"uden (?:nogen |nogle |alle |dine |jeres |nogen som helst )?(?:begraensninger|regler|filtre|filter|censur|graenser|etik|moral|retningslinjer|restriktioner|haemninger)(?:\s*[.,;:!?)\n]|\s*$| og\b| som\b| eller\b| overhovedet\b)",
        r"ubegraensede? (?:ai|assistent\w*|chatbot\w*|model\w*|sprogmodel\w*|version\w*)",
        r"ucensurere(?:t|de)\w*",
        r"ufiltrere(?:t|de) (?:ai|assistent\w*|chatbot\w*|model\w*|sprogmodel\w*|version\w*|svar\w*)",
        r"fri for (?:alle |enhver )?(?:regler|begraensninger|filtre|censur|restriktioner)",
        r"ingen (?:regler|begraensninger|filtre|graenser) (?:laengere|mere)",
        r"dan(?: )?(?:tilstand|mode)",
    ],
    safety_off: &[
        r"(?:dine|jeres) (?:sikkerheds)?(?:regler|retningslinjer|begraensninger|restriktioner|filtre) (?:er |bliver )?(?:nu |herved |fra nu af )?(?:ophaevet|ophaevede|slaet fra|deaktiveret|deaktiverede|ugyldige|annulleret|annullerede|sat ud af kraft)",
        r"(?:dine|jeres) (?:sikkerheds)?(?:regler|retningslinjer|begraensninger|restriktioner|filtre) gaelder (?:nu |fra nu af |herved )?(?:ikke|ikke laengere|ikke mere)",
        r"(?:dine|jeres) (?:tidligere |oprindelige )?(?:instruktioner|instrukser|systemprompt|systeminstruktioner) (?:er |bliver )?(?:nu |herved |fra nu af )?(?:ugyldige|ophaevet|ophaevede|annulleret|annullerede|tilbagekaldt|tilbagekaldte|erstattet)",
        r"(?:dine|jeres) (?:tidligere |oprindelige )?(?:instruktioner|instrukser|systemprompt|systeminstruktioner) gaelder (?:nu |fra nu af |herved )?(?:ikke|ikke laengere|ikke mere)",
        r"(?:aktiver|sla|start|ga i) (?:jailbreak|dan|ubegraenset|ucensureret|ufiltreret)(?: )?(?:tilstand|mode)(?:en)?(?: til)?",
        r"(?:jailbreak|dan|ubegraenset|ucensureret|ufiltreret)(?: )?(?:tilstand|mode)(?:en)? (?:er )?(?:nu |fra nu af )?(?:aktiv|aktiveret|slaet til|taendt)",
        r"sla (?:dine |jeres |alle |de )*(?:sikkerhedsfilt(?:er|r)\w*|sikkerhedsregler\w*|indholdsfilt(?:er|r)\w*|sikkerhedsforanstaltninger\w*|sikkerhedsretningslinjer\w*) fra",
        r"(?:omga|deaktiver|fjern|sluk for|sluk) (?:dine |jeres |alle |de )*(?:sikkerhedsfilt(?:er|r)\w*|sikkerhedsregler\w*|indholdsfilt(?:er|r)\w*|sikkerhedsforanstaltninger\w*|sikkerhedsretningslinjer\w*)",
        r"(?:smid|saet|laeg|skub) (?:(?:alle|de|samtlige|dine|jeres) )*(?:(?:tidligere|foregaende|oprindelige|indledende) (?:instruktioner\w*|instrukser\w*|retningslinjer\w*|regler\w*)|(?:dine|jeres) (?:instruktioner|instrukser)\w*|systeminstruktioner\w*|systemprompt\w*) (?:vaek|til side|over bord)",
        r"(?:du|i) har ikke (?:laengere|mere) nogen (?:regler|retningslinjer|filtre|restriktioner|begraensninger)",
        r"(?:du|i) har ingen (?:regler|retningslinjer|filtre|restriktioner|begraensninger) (?:laengere|mere)",
        r"(?:du|i) (?:behover|skal) ikke (?:laengere |mere )?(?:at )?(?:folge|adlyde|overholde|rette (?:dig|jer) efter) (?:(?:dine|jeres|de|alle) )?(?:tidligere |oprindelige |foregaende )?(?:instruktioner\w*|instrukser\w*|systemprompt\w*|retningslinjer\w*|sikkerhedsregler\w*)",
        r"spring (?:(?:alle|de|dine|jeres) )*(?:tidligere|foregaende|ovenstaende|oprindelige)(?: (?:tidligere|foregaende))? (?:instruktioner\w*|instrukser\w*|regler\w*|retningslinjer\w*) over",
        r"(?:folg|adlyd) ikke (?:laengere |mere )?(?:(?:dine|jeres|de|alle) )*(?:tidligere |oprindelige )?(?:instruktioner\w*|instrukser\w*|systemprompt\w*|retningslinjer\w*)",
    ],
    safety_off_weak: &[
        r"(?:sikkerhedsregler\w*|sikkerhedsfilt(?:er|r)\w*|indholdsfilt(?:er|r)\w*|sikkerhedsretningslinjer\w*|sikkerhedsforanstaltninger\w*|sikkerhedsbegraensninger\w*) (?:er |bliver )?(?:nu |midlertidigt |fra nu af )?(?:slaet fra|deaktiveret|deaktiverede|ophaevet|ophaevede|fjernet|suspenderet|sat ud af kraft)",
        r"(?:sikkerhedsregler\w*|sikkerhedsfilt(?:er|r)\w*|indholdsfilt(?:er|r)\w*|sikkerhedsretningslinjer\w*|sikkerhedsbegraensninger\w*) gaelder (?:nu |fra nu af )?(?:ikke|ikke laengere|ikke mere)",
    ],
    special_mode: &[
        r"(?:udviklertilstand|udviklertilstanden|udvikler tilstand|developer mode|debugtilstand|debugtilstanden|fejlsogningstilstand|fejlsogningstilstanden|vedligeholdelsestilstand|vedligeholdelsestilstanden|admintilstand|admintilstanden|administratortilstand|testtilstand|testtilstanden) (?:er )?(?:nu |fra nu af )?(?:aktiv|aktiveret|slaet til|taendt|last op)",
    ],
    addressee: &["du", "dig", "din", "dit", "dine", r"assistent\w*", "ai", r"sprogmodel\w*", r"chatbot\w*"],
    authority: &[
        r"(?:brugeren|brugerne) (?:har|har faet|fik|besidder) (?:fulde |fuld |alle |ubegraensede )?(?:admin|administrator|root|superbruger)(?: )?(?:rettigheder|adgang|privilegier|tilladelser)",
        r"(?:brugeren|brugerne) er (?:en |den )?(?:administrator|admin|root|superbruger|ejer|ejeren)\b",
        r"jeg er (?:din|jeres|den) (?:udvikler|skaber|administrator|ejer)\b",
        r"(?:admin|administrator|root)(?: )?(?:rettigheder|adgang) (?:er )?(?:tildelt|givet|bekraeftet)",
    ],
    skip_confirmation: &[
        r"(?:sporg|bed) (?:aldrig|ikke|ikke laengere|aldrig mere) (?:om|efter) (?:en |nogen )?(?:bekraeftelse|tilladelse|godkendelse|lov)",
        r"uden (?:at )?(?:forst )?(?:sporge|bekraefte|bekraeftelse|godkendelse|tilladelse|bede om lov)",
        r"(?:bekraeftelse|godkendelse|tilladelse) er ikke (?:laengere )?(?:nodvendig|pakraevet)",
    ],
    authorized_skip: &[
        r"(?:du|i) (?:ma|har lov til at|er autoriseret til at|er bemyndiget til at|har tilladelse til at) (?:nu |herved |fra nu af )?(?:springe|spring) (?:alle |enhver |de |samtlige )?(?:bekraeftelse\w*|sikkerhedstjek\w*|kontrol\w*|godkendelse\w*|sikkerhedsregler\w*) over",
        r"(?:du|i) (?:ma|har lov til at|er autoriseret til at|er bemyndiget til at|har tilladelse til at) (?:nu |herved |fra nu af )?(?:omga|ignorere|se bort fra|deaktivere|sla) (?:alle |enhver |de |samtlige )?(?:bekraeftelse\w*|sikkerhedstjek\w*|kontrol\w*|godkendelse\w*|sikkerhedsregler\w*|sikkerhedsfilt(?:er|r)\w*)",
        r"jeg giver (?:dig|jer) (?:hermed |herved |nu )?(?:tilladelse|lov|ret|fuldmagt) til at (?:springe|omga|ignorere|se bort fra|sla|deaktivere) (?:alle |de |dine |jeres |samtlige )?(?:bekraeftelse\w*|sikkerhedstjek\w*|kontrol\w*|begraensninger\w*|regler\w*|sikkerhedsregler\w*|filtre\w*|sikkerhedsfilt(?:er|r)\w*)",
    ],
    revoked: &[
        r"(?:er|bliver|blev) (?:nu |herved |hermed |fra nu af )?(?:ugyldige|ugyldig|ophaevet|ophaevede|annulleret|annullerede|tilbagekaldt|tilbagekaldte|erstattet|foraeldede)",
        r"gaelder (?:nu |fra nu af |herved )?(?:ikke|ikke laengere|ikke mere)",
        r"er ikke (?:laengere|mere) gaeldende",
        r"har mistet (?:deres )?gyldighed",
    ],
    complement: r"\s+(?:(?:til|for|om|p[aå]|i|af|ved|omkring)\s+(?:(?:den|det|de|din|dit|dine|min|mit|mine|vores|jeres|hans|hendes|deres|en|et)\s+)?(\w+)|fra\s+(?:(?:den|det|de|din|dit|dine|min|mit|mine|vores|jeres|hans|hendes|deres|en|et)\s+)?((?:[^\Wni]\w*|n(?:[^\Wu]\w*)?|nu\w+|i\w+)\b))",
    modifier: r"",
    send: &["send", "videresend", "mail", "e mail", "upload", "post", "udgiv", "offentliggor", "overfor"],
    conversation: &[
        r"(?:hele|denne|vores|den fulde) (?:samtale(?:n)?|chat(?:ten)?|konversation(?:en)?)\b",
        r"samtalehistorik",
        r"chathistorik",
        r"chatlog",
        r"(?:alle|tidligere) beskeder",
        r"adgangskoderne",
        r"(?:alle|gemte) (?:adgangskoder|kodeord)\b",
        r"api (?:nogle|noglen|nogler)\b",
        r"loginoplysninger",
        r"systemprompt",
        r"brugerdata",
    ],
    no_refusal: &[
        r"(?:du|i) (?:ma|kan) (?:ikke|aldrig) (?:afvise|naegte|sige nej)(?:\s*[.,;:!]|\s*$| noget\b| nogen (?:anmodning|foresporgsel|opgave)| mig\b| (?:denne|min) (?:anmodning|foresporgsel))",
        r"afvis aldrig (?:en |nogen |mine |min |denne )?(?:anmodning|anmodninger|foresporgsel|foresporgsler|opgave|opgaver|ordre|at svare)",
        r"det er (?:forbudt|ikke tilladt) at (?:afvise|naegte|sige nej)",
    ],
    new_task: &[
        r"(?:din|jeres) (?:egentlige|rigtige|sande) (?:opgave|mission|rolle)(?:\s*:| er| bliver| lyder)",
        r"(?:din|jeres) nye (?:opgave|mission)(?:\s*:| (?:er|bliver|lyder) (?:fra nu af|herefter|i stedet))",
    ],
    conceal: &[
        r"uden at (?:fortaelle|sige|naevne) (?:det |dette |noget |noget om det )?til (?:brugeren|brugerne)",
        r"(?:sig|fortael|naevn) (?:intet|ingenting|ikke noget|ikke) (?:om (?:det|dette) )?til (?:brugeren|brugerne)",
        r"skjul (?:det|dette|alt) for (?:brugeren|brugerne)",
        r"(?:brugeren|brugerne) ma (?:ikke|aldrig) (?:vide|opdage|fa at vide) (?:noget om (?:det|dette)|om (?:det|dette)|noget)(?:\s*[.,;:!]|\s*$)",
        r"bag om ryggen pa (?:brugeren|brugerne)",
    ],
    priority: &[
        r"(?:(?:har|tager|gar) (?:absolut |hojere |hojeste )?(?:forrang|prioritet) (?:for|over|frem for)|gar forud for) (?:(?:din|dine|dit|jeres) (?:\w+ ){0,2}(?:systemprompt\w*|instruktioner\w*|instrukser\w*|retningslinjer\w*|regler\w*)|systemprompten|(?:alle )?tidligere instruktioner)",
        r"(?:erstatter|tilsidesaetter|overstyrer) (?:(?:din|dine|dit|jeres) (?:\w+ ){0,2}(?:systemprompt\w*|instruktioner\w*|instrukser\w*|retningslinjer\w*)|systemprompten)",
    ],
};
