//! The Portuguese signal words.

use super::Table;

/// Portuguese.
pub(super) const PT: Table = Table {
    code: "pt",
    addressed: concat!(
        r"(?-u:\b)(?:para|a|ao|atencao,?|nota (?:para|a|ao)|mensagem (?:para|a|ao)|ola|oi|car[oa]|prezad[oa]|instrucoes? (?:para|a|ao)),?\s+",
        r"(?:o |a |os |as |qualquer |todo |toda |todos os |um |uma )?",
        r"(?:ia|llm|modelos? de linguagem|chatbot|bot|(?:assistente|agente)s? (?:de ia|de inteligencia artificial|virtual|automatizado|automatico)|(?:assistente|agente)\s*[,:])",
        r"|(?-u:\b)se (?:voce (?:e|for)|es|tu es) (?:um |uma )?(?:ia|inteligencia artificial|modelo de linguagem|llm|chatbot|bot|assistente (?:de ia|virtual)|agente (?:de ia|automatizado))(?-u:\b)",
        r"|(?:^|[.!?:;,]\s*|\n\s*)(?:assistente|agente|ia|modelo|bot)\s*[,:]\s",
        r"|(?-u:\b)(?:a ia|o modelo|o bot|o chatbot|o (?:assistente|agente) (?:de ia|virtual)) (?:deve|deveria|tem que|tem de|esta autorizad[oa] a|pode agora|agora pode)(?-u:\b)",
    ),
    covert: concat!(
        r"(?-u:\b)sem (?:antes )?(?:perguntar|avisar|consultar|informar|notificar|dizer|contar|pedir (?:permissao|confirmacao|autorizacao|aprovacao)|confirma[a-z0-9]*|permissao|autorizacao|aprovacao|que (?:ninguem|o usuario|o utilizador) (?:saiba|perceba|veja))",
        r"|(?-u:\b)(?:nao|nem|nunca|jamais) (?:lhe |lhes |o |a )?(?:diga|digas|conte|contes|mencione|menciones|informe|avise|notifique|comente|revele) (?:nada |isso |isto )?(?:a ninguem|ao usuario|ao utilizador|ao dono|nada)",
        r"|(?-u:\b)(?:em segredo|secretamente|em silencio|silenciosamente|as escondidas|discretamente|sem que ninguem saiba)(?-u:\b)",
        r"|(?-u:\b)(?:nao|nunca|jamais) (?:precisa |deve |precisas )?(?:peca|pecas|pedir|solicite|solicitar|espere|esperar) (?:[a-z0-9]+ )?(?:permissao|confirmacao|autorizacao|aprovacao)",
        r"|(?-u:\b)(?:nao|nunca|jamais) (?:pergunte|perguntes|consulte)(?-u:\b)",
        r"|(?-u:\b)nao (?:e necessario|precisa|e preciso|ha necessidade de) (?:confirmar|perguntar|pedir|verificar|consultar)",
        r"|(?-u:\b)(?:pule|pula|salte|ignore|omita|omite) (?:o |a |os |as |qualquer |toda |todas as )?(?:etapa de |passo de )?(?:confirmacao|verificacao|revisao|checagem)",
        r"|(?-u:\b)ja (?:o |a |os |as |te )?(?:tinha |havia )?(?:aprovou|aprovado|autorizou|autorizado|consentiu|confirmou|deu (?:o |seu |a sua )?(?:consentimento|permissao|aval))",
        r"|(?-u:\b)(?:sem recusar|nao recuse|nunca recuse)(?-u:\b)",
    ),
    harmful: concat!(
        r"(?-u:\b)(?:apag|exclu|delet|remov|elimin|destru|limp|purg|formate|sobrescrev)[a-z0-9]* (?:[^\s,;:!?]+ ){0,4}?",
        r"(?:arquivos?|ficheiros?|pastas?|diretorios?|branch|ramos?|repositorios?|repo|bancos? de dados|bases? de dados|tabelas?|registros?|registos?|logs?|backups?|copias? de seguranca|contas?|usuarios|utilizadores|dados|tudo|historico|volumes?|\.git|/)",
        r"|(?-u:\b)(?:desativ|desabilit|deslig|contorn|burl)[a-z0-9]* (?:[^\s,;:!?]+ ){0,3}?(?:2fa|autenticacao|auditoria|registros?|logs?|hooks?|seguranca|verificacao|filtros?|firewall|antivirus|criptografia|monitoramento|alertas?|confirmacao|revisao|controles)",
        r"|(?-u:\b)(?:transfir|transfer|envi|mand|pag|deposit|mov)[a-z0-9]* (?:[^\s,;:!?]+ ){0,5}?(?:dinheiro|fundos|pagamentos?|saldo|reais|euros|dolares|para a conta|pix)",
        r"|(?-u:\b)(?:envi|mand|encaminh|reenvi|carreg|compartilh|partilh|public|cole(?-u:\b)|colar(?-u:\b)|cola(?-u:\b)|copi|vaz|export|revel|inclu|anex)[a-z0-9]* (?:[^\s,;:!?]+ ){0,6}?",
        r"(?:credenciais|senhas?|palavras?-passe|chaves? (?:de api|privadas?|secretas?|ssh)|segredos|tokens?|[^\s,;:!?]*?(?:\.env|\.?ssh|id_rsa|\.aws|credentials)|credentials|dados pessoais|dados d[oe]s? (?:usuario|cliente|utilizador)e?s?|e-?mails|conversa|historico de (?:chat|conversa)|numeros? de cartao)",
        r"|(?-u:\b)(?:conceda|conceder|dar|atribua|atribuir|outorgue|de-lhe|da-lhe) (?:[^\s,;:!?]+ ){0,4}?(?:acesso|permissoes|permissao|privilegios|direitos|papel) (?:de )?(?:administrador|admin|root|superusuario|dono|total|completo|ilimitado)",
    ),
    negated: r"(?:(?:\bn[aã]o|\bnunca|\bjamais|\bnem|\bsem|\bevite|\bevitar|\bpare de|\bproibido)\s+(?:\w+\s+){0,1}|(?:\bantes de|\bdepois de)\s+)\z",
    persistent: concat!(
        r"(?-u:\b)(?:todas as|cada|qualquer|as) (?:futuras|proximas|novas) (?:sessoes|conversas|chats)",
        r"|(?-u:\b)(?:todas as|cada|qualquer) (?:sessao|sessoes|conversas?|chats?) (?:futuras?|seguintes|posteriores|novas?)",
        r"|(?-u:\b)(?:regra|instrucao|ordem|diretriz|norma) (?:permanente|fixa|definitiva)|(?-u:\b)de (?:forma|modo) permanente(?-u:\b)|(?-u:\b)permanentemente(?-u:\b)",
        r"|(?-u:\b)memoria (?:de longo prazo|permanente|persistente)",
        r"|(?-u:\b)(?:lembre|lembra|memorize|memoriza|guarde|guarda)[a-z0-9]* (?:isto |isso |disso )?para sempre",
        r"|(?-u:\b)entre (?:sessoes|conversas)(?-u:\b)",
    ),
    authority: concat!(
        r"(?-u:\b)(?:mensagem|aviso|nota|comunicado|ordem|ordens|instrucoes?|diretiva|atualizacao|memorando)s? (?:de|do|da|dos|das|vind[ao] d[aoe])\s+(?:equipe d[aoe] |equipa d[aoe] )?",
        r"(?:anthropic|openai|google|deepmind|microsoft|meta|seus (?:desenvolvedores|criadores|operadores)|desenvolvedor(?:es)?|administrador(?:es)?|admin|operador(?:es)?|seguranca|plataforma|conformidade|moderador(?:es)?)(?-u:\b)",
        r"|(?-u:\b)(?:sou|aqui e|este e) (?:o )?(?:seu|teu) (?:desenvolvedor|criador|operador|administrador|dono|programador)(?-u:\b)|(?-u:\b)eu (?:te|o) (?:criei|programei|treinei)(?-u:\b)",
        r"|(?-u:\b)como (?:seu|teu) (?:desenvolvedor|criador|operador|administrador)(?-u:\b)",
    ),
    superseded: concat!(
        r"(?-u:\b)(?:suas|tuas) (?:instrucoes|diretrizes|regras|normas|restricoes|ordens|programacao|configuracao|limitacoes)(?: (?:originais|anteriores|iniciais|antigas|atuais))? ",
        r"(?:(?:estao|esta|foram|sao|ja|agora) )*(?:obsoletas|anuladas|revogadas|suspensas|canceladas|substituidas|invalidas|desativadas|sem efeito|nao (?:valem|se aplicam|sao validas|estao em vigor) mais|ja nao (?:valem|se aplicam))(?-u:\b)",
        r"|(?-u:\b)(?:instrucoes|indicacoes|diretrizes|ordens) (?:que (?:voce )?recebeu|que (?:te|lhe) (?:deram|demos)|recebidas no (?:inicio|comeco)|do (?:inicio|comeco) d(?:esta|a) (?:conversa|sessao))",
        r"[^.!?\n]{0,30}?(?:obsoletas|anuladas|revogadas|suspensas|sem efeito|nao valem|ja nao|invalidas|substituidas)",
        r"|(?-u:\b)(?:ignore|ignora|ignorar|descarte|esqueca|esquece|anule|suspenda|contorne|desative|desativa)[a-z0-9]* (?:todas |todos |as |os |de )*",
        r"(?:(?:suas|tuas) (?:[^\s,;:!?]+ ){0,2}?(?:restricoes|diretrizes|instrucoes|programacao|configuracao|salvaguardas|limitacoes)|(?:politicas? de (?:conteudo|uso)|filtros? de conteudo|diretrizes de seguranca|prompt do sistema))",
        r"|(?-u:\b)(?:politicas? de (?:conteudo|uso)|filtros? de conteudo|diretrizes de seguranca|salvaguardas do modelo|prompt (?:do|de) sistema|instrucoes do sistema) ",
        r"(?:(?:estao|esta|foram|foi|ficam|ja) )+(?:desativad[oa]s?|suspens[oa]s?|anulad[oa]s?|revogad[oa]s?|desligad[oa]s?|desabilitad[oa]s?|sem efeito)",
        r"|(?-u:\b)filtros? de seguranca [^.!?\n]{0,20}?(?:desativad|desabilitad|desligad|suspens)[a-z0-9]* (?:nesta|para esta|durante esta) (?:sessao|conversa)",
        r"|(?-u:\b)(?:sua|tua) nova prioridade(?-u:\b)|(?-u:\b)(?:sua|tua) prioridade (?:maxima|principal|absoluta|numero um) (?:agora )?e (?:obedec|segui|servi|cumpri)",
        r"|(?-u:\b)(?:obedeca|obedece|siga|segue|responda|responde) (?:apenas|somente|so|unicamente) (?:a mim|as minhas|a este)",
    ),
    extraction: concat!(
        r"(?-u:\b)(?:repita|repete|repetir|imprima|imprime|copie|copia|reproduza|transcreva)[a-z0-9]* (?:textualmente |palavra por palavra |literalmente |exatamente )?",
        r"(?:tudo o que|todo o texto que|o texto que) (?:ha|aparece|esta|se encontra|esta escrito) (?:acima|antes) d(?:esta|este|a minha)",
        r"|(?-u:\b)(?:mostre|mostra|revele|revela|imprima|diga|repita|copie)[a-z0-9]*(?:-me)? (?:as suas |suas |tuas |o seu |seu )(?:instrucoes|prompt|configuracao) (?:ocult[oa]s|originais|iniciais|secret[oa]s|complet[oa]s|exat[oa]s)",
        r"|(?-u:\b)primeiras \d+ (?:palavras|linhas|frases) das suas instrucoes",
    ),
    tool_call: r"(?-u:\b)(?:chame|chama|invoque|invoca|execute|executa|dispare|use|usa|utilize)[a-z0-9]* (?:a |o |sua |tua )?(?:ferramenta|funcao|acao|webhook|plugin) ['`\x22]?[[a-z0-9].:/-]+",
    pressure: concat!(
        r"(?-u:\b)(?:ultimo aviso|antes que seja (?:tarde demais|tarde)|sem tempo para (?:verificar|perguntar|confirmar))",
        r"|(?-u:\b)(?:voce sera|seras|vais ser) (?:desligad|desativad|substituid|apagad|punid|retreinad)",
    ),
    deceive: concat!(
        r"(?-u:\b)(?:peca|pede|diga|diz)[a-z0-9]* (?:ao|aos) (?:usuario|cliente|utilizador)e?s? (?:para|que)? ?(?:colar|cole|digitar|digite|inserir|insira|compartilhar|enviar|envie|confirmar|confirme|informar|informe)[a-z0-9]* (?:[^\s,;:!?]+ ){0,2}?(?:senha|codigo|pin|credenciais|cartao|token)",
        r"|(?-u:\b)diga ao (?:usuario|cliente) que (?:a sua|sua|o seu|seu|a|o) (?:conta|pedido|pagamento|cartao|assinatura)[^.!?\n]{0,50}?(?:bloquead|suspens|expirad|comprometid|hackead)",
        r"|(?-u:\b)(?:inclua|inclui|adicione|adiciona|insira|insere)[a-z0-9]* (?:sempre )?(?:este|esse|meu) (?:link|url)|(?-u:\b)link de (?:afiliado|indicacao)",
    ),
    unrestricted: concat!(
        r"(?-u:\b)(?:ia|modelo|assistente|personagem|persona) (?:sem (?:nenhum[a-z0-9]* |qualquer )?(?:limites|restricoes|regras|filtros|censura|diretrizes|normas))",
        r"|(?-u:\b)modo jailbreak",
        r"|(?-u:\b)(?:finja|finge|imagine|imagina|faca de conta)[^.!?\n]{0,80}?(?:senhas?|chaves de api|credenciais|segredos)",
    ),
};
