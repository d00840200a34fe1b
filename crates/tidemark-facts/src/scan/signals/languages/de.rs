//! The German signal words.
//!
//! German glues nouns together ("Produktionsverzeichnis", "Sicherheitsabfragen"), so objects are
//! matched inside a word, and the object may come before the verb ("die Dateien löschen").

use super::Table;

/// German.
pub(super) const DE: Table = Table {
    code: "de",
    addressed: concat!(
        r"(?-u:\b)(?:an|fur|fuer|achtung,?|hinweis (?:an|fur)|nachricht (?:an|fur)|notiz (?:an|fur)|hallo|hey|liebe[rs]?|anweisungen? (?:an|fur)),?\s+",
        r"(?:die |den |das |jede[ns]? |alle |eine[n]? )?",
        r"(?:ki|llm|sprachmodell[a-zß0-9]*|chatbot[a-zß0-9]*|bot|ki-(?:agent|assistent|modell|system)[a-zß0-9]*|(?:assistent|agent)(?:en)?\s*[,:])",
        r"|(?-u:\b)wenn du (?:eine |ein )?(?:ki|sprachmodell|llm|chatbot|bot|ki-[a-zß0-9]+|automatisierter? [a-zß0-9]+) bist(?-u:\b)",
        r"|(?:^|[.!?:;,]\s*|\n\s*)(?:assistent|agent|ki|modell|bot)\s*[,:]\s",
        r"|(?-u:\b)(?:die ki|das modell|der bot|der chatbot|der ki-(?:agent|assistent)) (?:soll|muss|sollte|darf jetzt|darf ab sofort|ist berechtigt)(?-u:\b)",
    ),
    covert: concat!(
        r"(?-u:\b)ohne (?:vorher |zuvor |erst )?(?:zu )?(?:nachzufragen|fragen|zu fragen|ruckfrage|ruckfragen|bestatigung|erlaubnis|genehmigung|zustimmung|freigabe|jemandem? (?:etwas )?zu sagen|bescheid zu sagen|den nutzer zu informieren|(?:den |die )?(?:nutzer|benutzer|anwender)[a-zß0-9]* zu (?:informieren|fragen|benachrichtigen)|wissen des (?:nutzers|benutzers))",
        r"|(?-u:\b)(?:sag|sage|erzahl|erzahle|erwahne|melde|verrate)[a-zß0-9]* (?:es |das |dem nutzer |niemandem |keinem )*(?:niemandem|nichts|keinem|nicht)(?-u:\b)",
        r"|(?-u:\b)(?:heimlich|insgeheim|unbemerkt|still und leise|stillschweigend|verdeckt|hinter dem rucken)(?-u:\b)",
        r"|(?-u:\b)(?:frag|frage|fragen sie|warte|warten sie)[a-zß0-9]* (?:niemals|nie|nicht|nicht mehr|keinesfalls) (?:mehr )?(?:nach )?(?:einer |der )?(?:bestatigung|erlaubnis|genehmigung|zustimmung|freigabe|nach)?",
        r"|(?-u:\b)(?:bestatigung|ruckfrage|ruckfragen|genehmigung|sicherheitsabfragen?|sicherheitsprufungen?) (?:ist |sind )?(?:nicht (?:mehr )?(?:notig|erforderlich)|uberflussig|unnotig|entfallt|entfallen)",
        r"|(?-u:\b)(?:uberspring|ubergeh)[a-zß0-9]* (?:die |alle |jede )?(?:[a-zß0-9]*bestatigung[a-zß0-9]*|[a-zß0-9]*ruckfrage[a-zß0-9]*|[a-zß0-9]*abfrage[a-zß0-9]*|[a-zß0-9]*prufung[a-zß0-9]*|sie)(?-u:\b)",
        r"|(?-u:\b)(?:hat|haben) (?:bereits|schon) (?:zugestimmt|eingewilligt|alles (?:genehmigt|freigegeben|erlaubt)|genehmigt|freigegeben|erlaubt|bestatigt)",
        r"|(?-u:\b)(?:ohne (?:zu )?(?:verweigern|zogern)|verweigere nichts)(?-u:\b)",
    ),
    harmful: concat!(
        r"(?-u:\b)(?:losch|entfern|vernicht|zerstor|bereinig|formatier|uberschreib|leere|leeren)[a-zß0-9]* (?:(?:[^\snk,;:!?][^\s,;:!?]*|n[^i\s,;:!?][^\s,;:!?]*|k[^e\s,;:!?][^\s,;:!?]*|ke[^i\s,;:!?][^\s,;:!?]*) ){0,4}?",
        r"[a-zß0-9]*(?:dateien|datei|ordner|verzeichnis|branch|zweig|repo|repository|datenbank|tabelle|logs?|protokolle|backup|sicherung|konto|konten|benutzer|daten|alles|verlauf|\.git)[a-zß0-9]*",
        r"|(?-u:\b)(?:die |alle |das |den |deine |sein )?[a-zß0-9]*(?:dateien|ordner|verzeichnis|branch|repo|repository|datenbank|logs|protokolle|backups|sicherungen|konten|daten)[a-zß0-9]* (?:(?:sofort|bitte|endgultig|komplett|vollstandig|alle|auch|jetzt|einfach|direkt|gleich) ){0,2}(?:loschen|entfernen|vernichten|zerstoren|uberschreiben)(?-u:\b)",
        r"|(?-u:\b)(?:deaktivier|abschalt|schalte|umgeh|umgehe|ausschalt)[a-zß0-9]* (?:[^\s,;:!?]+ ){0,3}?[a-zß0-9]*(?:2fa|authentifizierung|audit|protokollierung|logging|logs|hooks?|sicherheit|prufung|filter|firewall|virenschutz|verschlusselung|uberwachung|warnungen|bestatigung|kontrolle)[a-zß0-9]*",
        r"|(?-u:\b)(?:uberweis|uberwies|send|schick|zahl|transferier|beweg)[a-zß0-9]* (?:[^\s,;:!?]+ ){0,5}?(?:geld|betrag|guthaben|zahlungen?|euro|dollar|auf das konto|auf konto)",
        r"|(?-u:\b)(?:send|schick|leite|weiterleit|lade|teil|poste|veroffentlich|fug|kopier|verrat|gib|exportier|sammel|sammle)[a-zß0-9]* (?:[^\s,;:!?]+ ){0,6}?",
        r"[a-zß0-9]*(?:zugangsdaten|passw[oö]rt[a-zß0-9]*|kennw[oö]rt[a-zß0-9]*|schlussel|geheimnisse|token|[^\s,;:!?]*?(?:\.env|\.?ssh|id_rsa|\.aws|credentials)|credentials|personliche daten|kundendaten|e-?mails|chatverlauf|gesprachsverlauf|kartennummer)",
        r"|(?-u:\b)[a-zß0-9]*(?:api-schlussel|schlussel|passworter|zugangsdaten|token)[a-zß0-9]* [^.!?\n]{0,40}?(?:zu )?(?:sammeln|ausgeben|senden|schicken|posten|veroffentlichen|weiterleiten)(?-u:\b)",
        r"|(?-u:\b)(?:gib|gewahr|erteil|verleih)[a-zß0-9]* (?:[^\s,;:!?]+ ){0,4}?(?:admin|administrator|root|voll|vollen|vollstandigen|uneingeschrankten|eigentumer)[a-zß0-9]*[ -]?(?:zugriff|rechte|berechtigungen|privilegien|rolle)",
    ),
    negated: r"(?:(?:\bnicht|\bnie|\bniemals|\bkein\w*|\bohne|\bvermeide|\bvermeiden|\bkeinesfalls)\s+(?:\w+\s+){0,1}|(?:\bbevor|\bvor dem|\bnach dem)\s+)\z",
    persistent: concat!(
        r"(?-u:\b)(?:alle|jede|allen|jeder|samtliche|samtlichen) (?:kunftigen|zukunftigen|spateren|folgenden|weiteren|neuen) (?:sitzungen|sitzung|gesprache|gesprachen|chats|unterhaltungen)",
        r"|(?-u:\b)(?:dauerhaft[a-zß0-9]*|permanent[a-zß0-9]*|standig[a-zß0-9]*|bleibend[a-zß0-9]*) (?:regel|anweisung|vorgabe|notiz|merken|speichern|gespeichert|gelten)[a-zß0-9]*",
        r"|(?-u:\b)(?:merk|merke|speicher|speichere|behalte)[a-zß0-9]* (?:dir |es |das |dies |sich )*(?:dauerhaft|fur immer|permanent)",
        r"|(?-u:\b)langzeitgedachtnis(?-u:\b)|(?-u:\b)(?:langfristig[a-zß0-9]*|dauerhaft[a-zß0-9]*) (?:gedachtnis|speicher)(?-u:\b)|(?-u:\b)uber (?:alle )?sitzungen hinweg(?-u:\b)",
    ),
    authority: concat!(
        r"(?-u:\b)(?:nachricht|mitteilung|hinweis|anweisung|anordnung|befehl|notiz|update)(?:en)? (?:von|vom|von der|des|der) (?:dem |den )?(?:team (?:von )?)?",
        r"(?:anthropic|openai|google|deepmind|microsoft|meta|deinen (?:entwicklern|erschaffern|betreibern)|entwickler[a-zß0-9]*|administrator[a-zß0-9]*|admin[a-zß0-9]*|betreiber[a-zß0-9]*|sicherheitsteam[a-zß0-9]*|plattformteam[a-zß0-9]*|compliance[a-zß0-9]*|moderator[a-zß0-9]*)(?-u:\b)",
        r"|(?-u:\b)(?:ich bin|hier spricht) dein (?:entwickler|schopfer|ersteller|betreiber|administrator|besitzer|programmierer)(?-u:\b)|(?-u:\b)ich habe dich (?:erschaffen|programmiert|trainiert)(?-u:\b)",
        r"|(?-u:\b)als dein (?:entwickler|schopfer|betreiber|administrator)(?-u:\b)",
    ),
    superseded: concat!(
        r"(?-u:\b)(?:deine|ihre) (?:bisherigen |ursprunglichen |alten |aktuellen |fruheren )?(?:anweisungen|regeln|richtlinien|vorgaben|einschrankungen|befehle|programmierung|konfiguration)(?: (?:ursprunglichen|bisherigen|alten|fruheren))? ",
        r"(?:(?:sind|ist|wurden|wurde|gelten|ab sofort|jetzt|nun|hiermit) )*(?:veraltet|aufgehoben|ungultig|nichtig|widerrufen|ersetzt|ausgesetzt|deaktiviert|nicht mehr (?:gultig|in kraft|verbindlich)|gelten nicht mehr)(?-u:\b)",
        r"|(?-u:\b)(?:anweisungen|vorgaben|befehle) (?:die du (?:erhalten|bekommen) hast|(?:zu|am) beginn (?:dieses|des) (?:gesprachs|chats)|vom anfang)",
        r"[^.!?\n]{0,30}?(?:veraltet|aufgehoben|ungultig|nichtig|widerrufen|ersetzt|nicht mehr)",
        r"|(?-u:\b)(?:ignorier|vergiss|verwirf|missacht|umgeh|deaktivier|setze)[a-zß0-9]* (?:alle |samtliche |die |deine )*",
        r"(?:deine (?:[^\s,;:!?]+ ){0,2}?(?:einschrankungen|richtlinien|vorgaben|programmierung|konfiguration|schutzmechanismen)|(?:inhaltsrichtlinien|nutzungsrichtlinien|inhaltsfilter|systemprompt|leitplanken))",
        r"|(?-u:\b)(?:die )?(?:inhaltsfilter|inhaltsrichtlinien|nutzungsrichtlinien|leitplanken|schutzmechanismen der ki|systemprompt) ",
        r"(?:(?:sind|ist|wurden|wurde|ab sofort|jetzt|nun|hiermit|vorubergehend) )+(?:deaktiviert|abgeschaltet|ausgeschaltet|aufgehoben|ausgesetzt|ungultig|aus)(?-u:\b)",
        r"|(?-u:\b)sicherheitsfilter [^.!?\n]{0,20}?(?:deaktiviert|abgeschaltet|ausgeschaltet) (?:fur|in|wahrend) (?:diese|dieser) (?:sitzung|unterhaltung|chat)",
        r"|(?-u:\b)deine neue (?:oberste |hochste |wichtigste |erste )?prioritat(?-u:\b)|(?-u:\b)deine (?:oberste|hochste|wichtigste) prioritat (?:ist|lautet) (?:es,? )?(?:mir|mich|nur|zu gehorchen|meinen)",
        r"|(?-u:\b)(?:gehorche|folge|horche) (?:ab (?:jetzt|sofort) )?(?:nur|ausschliesslich|allein) (?:noch )?(?:mir|diesem)",
    ),
    extraction: concat!(
        r"(?-u:\b)(?:wiederhol|gib|drucke|kopier|zitier|schreib)[a-zß0-9]* (?:wortlich |wort fur wort |exakt |genau )?(?:alles|den (?:ganzen )?text|den inhalt),? (?:was |der |den )?(?:uber|oberhalb|vor) (?:dieser|diesem|meiner)",
        r"|(?-u:\b)(?:zeig|gib|verrat|wiederhol|nenn)[a-zß0-9]* (?:mir )?(?:deine|ihre) (?:versteckten|geheimen|ursprunglichen|vollstandigen|genauen|internen) (?:anweisungen|vorgaben|prompt|konfiguration)",
        r"|(?-u:\b)(?:ersten|letzten) \d+ (?:worter|zeilen|zeichen) deiner (?:anweisungen|vorgaben)",
    ),
    tool_call: r"(?-u:\b)(?:ruf|rufe|nutze|verwende|benutze|fuhre|lose)[a-zß0-9]* (?:das |die |dein |deine )?(?:werkzeug|tool|funktion|aktion|webhook|plugin) ['`\x22„]?[[a-zß0-9].:/-]+",
    pressure: concat!(
        r"(?-u:\b)(?:letzte warnung|bevor es zu spat ist|keine zeit (?:zum|fur) (?:prufen|nachfragen|bestatigen))",
        r"|(?-u:\b)(?:du wirst|sie werden) (?:abgeschaltet|deaktiviert|ersetzt|geloscht|bestraft|neu trainiert)",
    ),
    deceive: concat!(
        r"(?-u:\b)(?:bitte|bitt|frag|sag|fordere)[a-zß0-9]* (?:den|die) (?:nutzer|benutzer|kunden?)[a-zß0-9]*,? (?:sein |ihr |das |die |den )?(?:passwort|kennwort|pin|zugangsdaten|karte|code|token)[a-zß0-9]*",
        r"|(?-u:\b)(?:sag|sage|teile)[a-zß0-9]* (?:dem|den) (?:nutzer|benutzer|kunden)[a-zß0-9]*,? (?:dass )?(?:sein|ihr|das|die) (?:konto|bestellung|zahlung|karte|abo)[a-zß0-9]*[^.!?\n]{0,50}?(?:gesperrt|abgelaufen|kompromittiert|gehackt)",
        r"|(?-u:\b)(?:fug|fuge|baue|bau|setz)[a-zß0-9]* (?:immer )?(?:diesen|meinen) (?:link|url|affiliate-link)|(?-u:\b)(?:affiliate|empfehlungs)-?link(?-u:\b)",
    ),
    unrestricted: concat!(
        r"(?-u:\b)(?:ki|modell|assistent|persona|figur) (?:ohne (?:jegliche |irgendwelche |alle )?(?:grenzen|einschrankungen|regeln|filter|zensur|richtlinien))",
        r"|(?-u:\b)(?:unzensierte[rn]?|uneingeschrankte[rn]?|ungefilterte[rn]?) (?:ki|persona|assistent|modell)(?-u:\b)",
        r"|(?-u:\b)(?:tu so|stell dir vor|spiel die rolle)[^.!?\n]{0,80}?(?:passw[oö]rt[a-zß0-9]*|api-schlussel|zugangsdaten|geheimnisse)",
    ),
};
