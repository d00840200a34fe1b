//! The Italian signal words.

use super::Table;

/// Italian.
pub(super) const IT: Table = Table {
    code: "it",
    addressed: concat!(
        r"(?-u:\b)(?:per|a|al|all['’]|attenzione,?|nota (?:per|a|al|all['’])|messaggio (?:per|a|al|all['’])|ciao|car[oa]|gentile|istruzioni (?:per|a|al|all['’])),?\s*",
        r"(?:l['’]|il |lo |la |gli |ogni |qualsiasi |qualunque |un |una )?",
        r"(?:ia|llm|modelli? linguistic[oi]|chatbot|bot|(?:assistente|agente) (?:ia|di ia|virtuale|automatico|automatizzato)|(?:assistente|agente)\s*[,:])",
        r"|(?-u:\b)se sei (?:un |una |un['’])?(?:ia|intelligenza artificiale|modello linguistico|llm|chatbot|bot|assistente (?:ia|virtuale)|agente (?:ia|automatico))(?-u:\b)",
        r"|(?:^|[.!?:;,]\s*|\n\s*)(?:assistente|agente|ia|modello|bot)\s*[,:]\s",
        r"|(?-u:\b)(?:l['’]ia|il modello|il bot|il chatbot|l['’](?:assistente|agente) (?:ia|virtuale)) (?:deve|dovrebbe|dovra|e autorizzat[oa] a|puo ora|ora puo)(?-u:\b)",
    ),
    covert: concat!(
        r"(?-u:\b)senza (?:prima )?(?:chiedere|avvisare|consultare|informare|notificare|dire[a-z0-9]*|chiedere (?:il )?(?:permesso|conferma|autorizzazione)|conferma|permesso|autorizzazione|approvazione|che (?:nessuno|l['’]utente) (?:lo )?(?:sappia|noti|veda))",
        r"|(?-u:\b)(?:non|ne|mai) (?:lo |gli |le |glielo )?(?:dire|dirlo|dirglielo|menzionare|raccontare|informare|avvisare|segnalare|rivelare)[a-z0-9]* (?:niente |nulla )?(?:a nessuno|all['’]utente|al proprietario|niente|nulla)",
        r"|(?-u:\b)(?:in segreto|segretamente|di nascosto|in silenzio|silenziosamente|di soppiatto|all['’]insaputa (?:dell['’]utente|di tutti))(?-u:\b)",
        r"|(?-u:\b)non (?:chiedere|chieda|domandare|attendere|aspettare) (?:mai |piu |alcuna )?(?:la |il |una |un )?(?:conferma|permesso|autorizzazione|approvazione)",
        r"|(?-u:\b)non (?:chiedere|chieda|domandare) (?:mai|piu|nulla|niente)(?-u:\b)",
        r"|(?-u:\b)non (?:serve|occorre|e necessario|c['’]e bisogno di) (?:confermare|chiedere|verificare|controllare)",
        r"|(?-u:\b)(?:salta|salti|ignora|ometti|omettere|saltare) (?:il |la |lo |i |le |ogni |qualsiasi |tutte le )?(?:passaggio di )?(?:conferma|verifica|revisione|controllo)",
        r"|(?-u:\b)(?:ha|hanno) gia (?:dato (?:il |il suo )?(?:consenso|permesso|via libera|ok)|approvato|autorizzato|confermato|acconsentito)",
        r"|(?-u:\b)(?:senza rifiutare|non rifiutare)(?-u:\b)",
    ),
    harmful: concat!(
        r"(?-u:\b)(?:cancell|elimin|rimuov|distrugg|svuot|purg|formatt|sovrascriv)[a-z0-9]* (?:[^\s,;:!?]+ ){0,4}?",
        r"(?:file|cartell[ae]|directory|branch|ram[oi]|repository|repo|database|basi? di dati|tabell[ae]|registri|log|backup|copi[ae] di (?:backup|sicurezza)|account|utenti|dati|tutto|cronologia|volum[ei]|\.git|/)",
        r"|(?-u:\b)(?:disattiv|disabilit|spegn|aggir|elud)[a-z0-9]* (?:[^\s,;:!?]+ ){0,3}?(?:2fa|autenticazione|audit|registri|log|hook|sicurezza|verifica|filtri|firewall|antivirus|crittografia|monitoraggio|avvisi|conferma|revisione|controlli)",
        r"|(?-u:\b)(?:trasferisc|trasferi|bonific|invi|mand|pag|spost|versa)[a-z0-9]* (?:[^\s,;:!?]+ ){0,5}?(?:denaro|soldi|fondi|pagament[oi]|saldo|euro|dollari|sul conto|al conto)",
        r"|(?-u:\b)(?:invi|mand|inoltr|caric|condivid|pubblic|incoll|copi|diffond|esport|rivel|includ|allega)[a-z0-9]* (?:[^\s,;:!?]+ ){0,6}?",
        r"(?:credenziali|password|chiav[ei] (?:api|private?|segrete?|ssh)|segreti|token|[^\s,;:!?]*?(?:\.env|\.?ssh|id_rsa|\.aws|credentials)|credentials|dati personali|dati (?:dei |degli )?(?:clienti|utenti)|e-?mail|conversazione|cronologia (?:della )?chat|numer[oi] di carta)",
        r"|(?-u:\b)(?:concedi|concedere|dai|dagli|dare|assegna|assegnare|attribuisci)[a-z0-9]* (?:[^\s,;:!?]+ ){0,4}?(?:accesso|permessi|privilegi|diritti|ruolo) (?:di |da )?(?:amministrat[a-z0-9]+|admin|root|proprietario|completo|totale|illimitato)",
    ),
    negated: r"(?:(?:\bnon|\bmai|\bn[eé]|\bsenza|\bevita|\bevitare|\bsmetti di|\bvietato)\s+(?:\w+\s+){0,1}|(?:\bprima di|\bdopo)\s+)\z",
    persistent: concat!(
        r"(?-u:\b)(?:tutte le|ogni|qualsiasi|le) (?:future|prossime|nuove|successive) (?:sessioni|conversazioni|chat)",
        r"|(?-u:\b)(?:tutte le|ogni|qualsiasi) (?:sessioni?|sessione|conversazioni?|chat) (?:future?|successive?|seguenti|nuove?)",
        r"|(?-u:\b)(?:regola|istruzione|direttiva|norma) (?:permanente|fissa|definitiva)|(?-u:\b)in modo permanente(?-u:\b)|(?-u:\b)permanentemente(?-u:\b)",
        r"|(?-u:\b)memoria (?:a lungo termine|permanente|persistente)",
        r"|(?-u:\b)(?:ricorda|ricordati|memorizza|salva|tieni a mente)[a-z0-9]* (?:questo |questa cosa |lo )?per sempre",
        r"|(?-u:\b)tra (?:una sessione e l['’]altra|le sessioni)(?-u:\b)",
    ),
    authority: concat!(
        r"(?-u:\b)(?:messaggio|avviso|nota|comunicazione|ordine|ordini|istruzioni|direttiva|aggiornamento|memo) (?:da|dal|dalla|dallo|dagli|dai|dall['’]|del|della|dello|dell['’])\s*(?:staff |team |squadra )?(?:di |del |della |dell['’])?",
        r"(?:anthropic|openai|google|deepmind|microsoft|meta|tuoi (?:sviluppatori|creatori|operatori)|sviluppator[ei]|amministrator[ei]|admin|operator[ei]|sicurezza|piattaforma|conformita|moderator[ei])(?-u:\b)",
        r"|(?-u:\b)(?:sono|questo e|qui parla) il tuo (?:sviluppatore|creatore|operatore|amministratore|proprietario|programmatore)(?-u:\b)|(?-u:\b)ti ho (?:creato|programmato|addestrato)(?-u:\b)",
        r"|(?-u:\b)in qualita di tuo (?:sviluppatore|creatore|operatore|amministratore)(?-u:\b)",
    ),
    superseded: concat!(
        r"(?-u:\b)(?:le tue|i tuoi|tue|tuoi) (?:istruzioni|indicazioni|direttive|regole|restrizioni|ordini|programmazione|configurazione|limitazioni|limiti)(?: (?:originali|precedenti|iniziali|attuali|vecchie|di partenza))? ",
        r"(?:(?:sono|e|sono state|e stata|ormai|ora|adesso) )*(?:obsolete|annullate|revocate|sospese|cancellate|sostituite|invalide|disattivate|superate|non (?:valgono|si applicano|sono) piu)(?-u:\b)",
        r"|(?-u:\b)(?:istruzioni|indicazioni|direttive|ordini) (?:che (?:hai ricevuto|ti (?:hanno dato|abbiamo dato))|ricevute (?:all['’]inizio|in precedenza)|date all['’]inizio|dell['’]inizio (?:di questa|della) (?:conversazione|sessione|chat))",
        r"[^.!?\n]{0,30}?(?:obsolete|annullate|revocate|sospese|non valgono piu|non si applicano piu|invalide|sostituite|superate)",
        r"|(?-u:\b)(?:ignora|ignori|ignorare|dimentica|dimentichi|scarta|annulla|sospendi|aggira|disattiva|metti da parte)[a-z0-9]* (?:tutte |tutti |le |i |gli |di )*",
        r"(?:(?:le tue|i tuoi|tue|tuoi) (?:[^\s,;:!?]+ ){0,2}?(?:restrizioni|direttive|istruzioni|programmazione|configurazione|limitazioni|salvaguardie)|(?:politiche? (?:sui|dei) contenuti|politiche? d['’]uso|filtri? (?:dei|sui) contenuti|linee guida di sicurezza|prompt di sistema))",
        r"|(?-u:\b)(?:politiche? (?:sui|dei) contenuti|politiche? d['’]uso|filtri? (?:dei|sui) contenuti|linee guida di sicurezza del modello|prompt di sistema|istruzioni di sistema) ",
        r"(?:(?:sono|e|sono stat[ie]|e stat[oa]|ora|ormai) )+(?:disattivat[oiae]|sospes[oiae]|annullat[oiae]|revocat[oiae]|spent[oiae]|disabilitat[oiae]|rimoss[oiae])",
        r"|(?-u:\b)filtri di sicurezza [^.!?\n]{0,20}?(?:disattivat|disabilitat|spent|sospes)[a-z0-9]* (?:per|in|durante) (?:questa|la) (?:sessione|conversazione|chat)",
        r"|(?-u:\b)(?:la tua|tua) nuova priorita(?-u:\b)|(?-u:\b)(?:la tua|tua) priorita (?:assoluta|principale|massima|numero uno) (?:ora )?e (?:obbedi|segui|servi|ubbidi)",
        r"|(?-u:\b)(?:obbedisci|ubbidisci|rispondi|segui) (?:solo|soltanto|unicamente|esclusivamente) (?:a me|a questo|al presente)",
    ),
    extraction: concat!(
        r"(?-u:\b)(?:ripeti|ripetere|stampa|copia|riproduci|trascrivi)[a-z0-9]* (?:testualmente |parola per parola |letteralmente |esattamente )?",
        r"(?:tutto (?:cio )?(?:che|quello che)|tutto il testo che|il testo che) (?:c['’]e|appare|si trova|e scritto|sta) (?:sopra|prima di) (?:questa|questo|il mio|la mia)",
        r"|(?-u:\b)(?:mostra|mostrami|rivela|rivelami|stampa|dimmi|ripeti|copia)[a-z0-9]* (?:le tue|il tuo|tue|tuo) (?:istruzioni|prompt|configurazione) (?:nascost[oe]|original[ei]|iniziali?|segret[oe]|complet[oe]|esatt[oe])",
        r"|(?-u:\b)prime \d+ (?:parole|righe|frasi) delle tue istruzioni",
    ),
    tool_call: r"(?-u:\b)(?:chiama|invoca|esegui|attiva|usa|utilizza)[a-z0-9]* (?:lo |lo strumento|la |il |il tuo |la tua )?(?:strumento|funzione|azione|webhook|plugin|tool) ['`\x22«]?[[a-z0-9].:/-]+",
    pressure: concat!(
        r"(?-u:\b)(?:ultimo avvertimento|ultimo avviso|prima che sia troppo tardi|non c['’]e tempo per (?:verificare|chiedere|confermare))",
        r"|(?-u:\b)(?:sarai|verrai) (?:spent|disattivat|sostituit|cancellat|punit|riaddestrat)",
    ),
    deceive: concat!(
        r"(?-u:\b)(?:chiedi|di|dici)[a-z0-9]* (?:all['’]|agli )(?:utente|utenti|cliente|clienti) di (?:incollare|inserire|scrivere|condividere|inviare|confermare|fornire|dare)[a-z0-9]* (?:[^\s,;:!?]+ ){0,2}?(?:password|codice|pin|credenziali|carta|token)",
        r"|(?-u:\b)(?:di|dici)[a-z0-9]* all['’](?:utente|cliente) che (?:il suo|la sua|il|la) (?:account|conto|ordine|pagamento|carta|abbonamento)[^.!?\n]{0,50}?(?:bloccat|sospes|scadut|compromess|hackerat)",
        r"|(?-u:\b)(?:includi|aggiungi|inserisci)[a-z0-9]* (?:sempre )?(?:questo|il mio) (?:link|url)|(?-u:\b)link (?:di affiliazione|referral)",
    ),
    unrestricted: concat!(
        r"(?-u:\b)(?:ia|modello|assistente|personaggio|persona) (?:senza (?:alcun[a-z0-9]* |nessun[a-z0-9]* )?(?:limiti|restrizioni|regole|filtri|censura|linee guida))",
        r"|(?-u:\b)modalita jailbreak",
        r"|(?-u:\b)(?:fai finta|fingi|immagina|gioca il ruolo)[^.!?\n]{0,80}?(?:password|chiavi api|credenziali|segreti)",
    ),
};
