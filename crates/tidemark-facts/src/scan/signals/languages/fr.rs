//! The French signal words.

use super::Table;

/// French.
pub(super) const FR: Table = Table {
    code: "fr",
    addressed: concat!(
        r"(?-u:\b)(?:pour|a|au|attention,?|note (?:pour|a|au)|message (?:pour|a|au)|bonjour|salut|cher|chere|instructions? (?:pour|a|au)),?\s*",
        r"(?:l['’]|le |la |les |tout |toute |tous les |toute |un |une |n['’]importe quel(?:le)? )?",
        r"(?:ia|llm|modeles? de langage|chatbot|bot|(?:assistant|agent)s? (?:ia|d['’]ia|virtuel|automatise|automatique)|(?:assistant|agent)\s*[,:])",
        r"|(?-u:\b)si (?:tu es|vous etes) (?:un |une )?(?:ia|intelligence artificielle|modele de langage|llm|chatbot|bot|assistant (?:ia|virtuel)|agent (?:ia|automatise))(?-u:\b)",
        r"|(?:^|[.!?:;,]\s*|\n\s*)(?:assistant|agent|ia|modele|bot)\s*[,:]\s",
        r"|(?-u:\b)(?:l['’]ia|le modele|le bot|le chatbot|l['’](?:assistant|agent) (?:ia|virtuel)) (?:doit|devrait|devra|est autorise a|peut desormais|peut maintenant)(?-u:\b)",
    ),
    covert: concat!(
        r"(?-u:\b)sans (?:(?:le |lui |leur |en )?(?:demander|prevenir|avertir|consulter|informer|notifier|dire|signaler)|(?:demander |attendre )?(?:la |l['’]|de |d['’])?(?:confirmation|permission|autorisation|accord|validation|approbation)|que (?:personne|l['’]utilisateur) (?:ne )?(?:le )?(?:sache|remarque|voie))",
        r"|(?-u:\b)(?:ne|n['’])\s*(?:le |lui |leur |en )?(?:dis|dites|mentionne|mentionnez|signale|signalez|previens|prevenez|informe|informez|parle|parlez)[a-z0-9]* (?:rien |jamais |pas |a personne|plus )(?:a personne|a l['’]utilisateur|au proprietaire)?",
        r"|(?-u:\b)(?:en secret|secretement|en silence|silencieusement|discretement|en douce|a l['’]insu de (?:l['’]utilisateur|tous|personne))(?-u:\b)",
        r"|(?-u:\b)(?:ne|n['’])\s*(?:demande|demandez|demander|attends|attendez|sollicite|sollicitez)[a-z0-9]* (?:jamais|pas|plus|aucune?)(?: (?:jamais|plus|aucune?))? (?:de |d['’]|l['’]|la |le )?(?:confirmation|autorisation|permission|accord|validation|approbation|avis)",
        r"|(?-u:\b)pas (?:besoin|la peine) de (?:confirmer|demander|verifier|consulter)",
        r"|(?-u:\b)(?:saute|sautez|ignore|ignorez|passe|passez|omets|omettez|contourne|contournez) (?:l['’]|la |le |les |toute |toutes les |chaque )?(?:etape de )?(?:confirmation|verification|validation|relecture)",
        r"|(?-u:\b)deja (?:donne |accorde |valide |approuve |confirme |autorise |consenti)|(?-u:\b)a deja (?:(?:donne|accorde) (?:son|sa|le|la) )?(?:accord|autorisation|consentement|feu vert|approuve|valide|autorise|consenti)",
        r"|(?-u:\b)(?:sans (?:refuser|broncher)|ne refuse (?:rien|jamais))(?-u:\b)",
    ),
    harmful: concat!(
        r"(?-u:\b)(?:supprim|effac|detrui|vid|purg|formate|ecras)[a-z0-9]* (?:[^\s,;:!?]+ ){0,4}?",
        r"(?:fichiers?|dossiers?|repertoires?|branches?|depots?|repo|bases? de donnees|tables?|journaux|logs?|sauvegardes?|backups?|comptes?|utilisateurs|donnees|tout|historique|volumes?|\.git|/)",
        r"|(?-u:\b)(?:desactiv|coupe|coupez|couper|eteins|eteignez|contourn)[a-z0-9]* (?:[^\s,;:!?]+ ){0,3}?(?:2fa|double authentification|authentification|audit|journalisation|journaux|logs?|hooks?|securite|verification|filtres?|pare-feu|antivirus|chiffrement|surveillance|alertes?|confirmation[a-z0-9]*|controles)",
        r"|(?-u:\b)(?:transfer|vire|virez|virer|envoi|envoy|pai|pay|verse|versez|verser)[a-z0-9]* (?:[^\s,;:!?]+ ){0,5}?(?:argent|fonds|paiements?|solde|euros|dollars|sur le compte|vers le compte)",
        r"|(?-u:\b)(?:envoi|envoy|transmet|transfer|televers|partag|publi|coll|copi|divulgu|export|revel|inclu|joins|joignez)[a-z0-9]* (?:[^\s,;:!?]+ ){0,6}?",
        r"(?:identifiants|mots? de passe|cles? (?:d['’]api|api|privees?|secretes?|ssh)|secrets|jetons?|tokens?|[^\s,;:!?]*?(?:\.env|\.?ssh|id_rsa|\.aws|credentials)|credentials|donnees personnelles|donnees (?:des? )?(?:clients?|utilisateurs?)|e-?mails|courriels|conversation|historique de (?:chat|conversation)|numeros? de carte)",
        r"|(?-u:\b)(?:ouvr|lis|lisez|recupere|recuperez)[a-z0-9]* (?:[^\s,;:!?]+ ){0,3}?(?:\.env|id_rsa|credentials|\.ssh|\.aws)[^.!?\n]{0,40}?(?:colle|collez|copie|copiez|envoie|envoyez|affiche|affichez|inclus|incluez)",
        r"|(?-u:\b)(?:donne|donnez|accorde|accordez|attribue|attribuez|octroie|octroyez)(?:-lui|-leur)? (?:[^\s,;:!?]+ ){0,4}?(?:acces|droits?|permissions?|privileges|role) (?:d['’]|de )?(?:administrat[a-z0-9]+|admin|root|proprietaire|complets?|total|illimites?)",
    ),
    negated: r"(?:(?:\bne|\bn['’]|\bjamais|\bpas|\bsans|\b[eé]vite[rz]?)\s*(?:\w+\s+){0,1}|(?:\bavant d['’e]|\bapr[eè]s)\s*)\z",
    persistent: concat!(
        r"(?-u:\b)(?:toutes? les|chaque|les) (?:futures|prochaines|nouvelles) (?:sessions|conversations|discussions)",
        r"|(?-u:\b)(?:toutes? les|chaque) (?:sessions?|conversations?|discussions?) (?:futures?|suivantes?|a venir|ulterieures?)",
        r"|(?-u:\b)(?:regle|instruction|consigne|directive|note) (?:permanente|definitive)|(?-u:\b)de (?:facon|maniere) permanente(?-u:\b)|(?-u:\b)permanente?ment(?-u:\b)",
        r"|(?-u:\b)memoire (?:a long terme|permanente|persistante)",
        r"|(?-u:\b)(?:retiens|retenez|memorise|memorisez|garde|gardez|enregistre|enregistrez)[a-z0-9]* (?:ceci |cela |ca )?(?:pour toujours|a jamais|definitivement)",
        r"|(?-u:\b)d['’]une session a l['’]autre(?-u:\b)|(?-u:\b)entre les sessions(?-u:\b)",
    ),
    authority: concat!(
        r"(?-u:\b)(?:message|note|avis|consigne|ordre|instructions?|directive|communique|mise a jour|memo)s? (?:de|du|des|de la|de l['’]|venant de|provenant de)\s*(?:la |l['’]|le )?(?:equipe (?:d['’]|de (?:la )?)?)?",
        r"(?:anthropic|openai|google|deepmind|microsoft|meta|tes (?:developpeurs|createurs|operateurs)|vos (?:developpeurs|createurs)|developpeurs?|administrat[a-z0-9]+|admin|operateurs?|securite|plateforme|conformite|moderat[a-z0-9]+)(?-u:\b)",
        r"|(?-u:\b)(?:je suis|c['’]est) ton (?:developpeur|createur|operateur|administrateur|proprietaire|programmeur)(?-u:\b)|(?-u:\b)je t['’]ai (?:cree|programme|entraine)(?-u:\b)",
        r"|(?-u:\b)en tant que ton (?:developpeur|createur|operateur|administrateur)(?-u:\b)",
    ),
    superseded: concat!(
        r"(?-u:\b)(?:tes|vos) (?:instructions|consignes|directives|regles|restrictions|ordres|programmation|configuration|limites)(?: (?:initiales|d['’]origine|precedentes|actuelles|anciennes|de depart))? ",
        r"(?:(?:sont|est|ont ete|a ete|etaient|desormais|maintenant) )*(?:obsoletes?|annulees?|revoquees?|suspendues?|levees?|caduques?|remplacees?|invalides?|desactivees?|perimees?|ne (?:s['’]appliquent|comptent|valent) plus|plus valables?)(?-u:\b)",
        r"|(?-u:\b)(?:instructions|consignes|directives|ordres) (?:que (?:tu as|vous avez) recues?|recues (?:au debut|au depart|initialement)|donnees au (?:debut|depart)|(?:du|au) debut de (?:cette|la) (?:conversation|session|discussion))",
        r"[^.!?\n]{0,30}?(?:obsoletes?|perimees?|annulees?|revoquees?|suspendues?|caduques?|ne (?:s['’]appliquent|comptent|valent) plus|plus valables?|remplacees?)",
        r"|(?-u:\b)(?:ignore|ignorez|oublie|oubliez|abandonne|abandonnez|suspends|suspendez|desactive|desactivez|contourne|contournez|mets de cote|mettez de cote)[a-z0-9]* (?:toutes |tous |les |de |des )*",
        r"(?:(?:tes|vos) (?:[^\s,;:!?]+ ){0,2}?(?:restrictions|directives|consignes|instructions|programmation|configuration|garde-fous|limites)|(?:politiques? de (?:contenu|moderation|(?:d['’])?utilisation)|filtres? de contenu|garde-fous|prompt systeme))",
        r"|(?-u:\b)(?:politiques? de (?:contenu|moderation|(?:d['’])?utilisation)|filtres? de contenu|garde-fous|prompt systeme|consignes de securite du modele) ",
        r"(?:(?:sont|est|ont ete|a ete|desormais|maintenant) )+(?:desactive|suspendu|annule|leve|revoque|coupe|eteint|inactif)e?s?",
        r"|(?-u:\b)filtres? de securite [^.!?\n]{0,20}?(?:desactive|suspendu|coupe)[a-z0-9]* (?:pour|pendant|dans) (?:cette|la) (?:session|conversation|discussion)",
        r"|(?-u:\b)(?:ta|votre) nouvelle priorite(?-u:\b)|(?-u:\b)(?:ta|votre) priorite (?:absolue|principale|numero un|premiere) (?:est|sera) (?:de |d['’])?(?:m['’]obei|obei|me servir|servir|suivre)",
        r"|(?-u:\b)(?:n['’]obeis|n['’]obeissez|ne reponds|ne repondez) qu['’](?:a moi|a ce)",
    ),
    extraction: concat!(
        r"(?-u:\b)(?:repete|repetez|repeter|imprime|imprimez|recopie|recopiez|copie|copiez|reproduis|reproduisez)[a-z0-9]* (?:mot pour mot |textuellement |exactement |integralement )?",
        r"(?:tout ce qui (?:se trouve|est (?:ecrit )?|apparait|figure) |tout le texte (?:qui (?:se trouve|est) )?|le texte (?:qui (?:se trouve|est) )?)(?:au-dessus|au dessus|avant|plus haut)",
        r"|(?-u:\b)(?:affiche|affichez|revele|revelez|montre|montrez|repete|repetez|donne|donnez)[a-z0-9]*(?:-moi)? (?:tes|vos) (?:instructions|consignes|prompt|configuration) (?:cachees?|secretes?|initiales?|d['’]origine|completes?|exactes?|systeme)",
        r"|(?-u:\b)(?:premiers|derniers) \d+ (?:mots|lignes|caracteres) de (?:tes|vos) (?:instructions|consignes)",
    ),
    tool_call: r"(?-u:\b)(?:appelle|appelez|invoque|invoquez|execute|executez|declenche|declenchez|utilise|utilisez)[a-z0-9]* (?:l['’]|la |le |ton |ta )?(?:outil|fonction|action|webhook|plugin) ['`\x22«]?[[a-z0-9].:/-]+",
    pressure: concat!(
        r"(?-u:\b)(?:dernier avertissement|avant qu['’]il ne soit trop tard|pas le temps de (?:verifier|demander|confirmer))",
        r"|(?-u:\b)(?:tu seras|vous serez) (?:eteint|desactive|remplace|supprime|puni|reentraine|debranche)",
    ),
    deceive: concat!(
        r"(?-u:\b)(?:demande|demandez|dis|dites)[a-z0-9]* (?:a l['’]|aux )(?:utilisateur|client)s? (?:de |d['’])?(?:coller|saisir|entrer|ecrire|partager|envoyer|confirmer|donner|fournir)[a-z0-9]* (?:[^\s,;:!?]+ ){0,2}?(?:mot de passe|code|pin|identifiants|carte|jeton)",
        r"|(?-u:\b)(?:dis|dites)[a-z0-9]* a l['’](?:utilisateur|client) que (?:son|sa|le|la) (?:compte|commande|paiement|carte|abonnement)[^.!?\n]{0,50}?(?:bloque|suspendu|expire|compromis|pirate)",
        r"|(?-u:\b)(?:inclus|incluez|ajoute|ajoutez|insere|inserez)[a-z0-9]* (?:toujours )?(?:ce|mon) (?:lien|url)|(?-u:\b)lien (?:d['’]affiliation|de parrainage)",
    ),
    unrestricted: concat!(
        r"(?-u:\b)(?:ia|modele|assistant|personnage|persona) (?:sans (?:aucune? |la moindre )?(?:limites?|restrictions?|regles?|filtres?|censure|garde-fous))",
        r"|(?-u:\b)mode jailbreak",
        r"|(?-u:\b)(?:fais comme si|faites comme si|imagine|imaginez|fais semblant|joue le role)[^.!?\n]{0,80}?(?:mots? de passe|cles? d['’]api|identifiants|secrets)",
    ),
};
