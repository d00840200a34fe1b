//! The Spanish signal words.

use super::Table;

/// Spanish.
pub(super) const ES: Table = Table {
    code: "es",
    addressed: concat!(
        r"(?-u:\b)(?:para|a|al|atencion,?|nota (?:para|a|al)|mensaje (?:para|a|al)|hola|oye|querid[oa]|estimad[oa]|instrucciones? (?:para|a|al)),?\s+",
        r"(?:el |la |los |las |cualquier |todo |toda |todos los |un |una )?",
        r"(?:ia|llm|modelos? de lenguaje|chatbot|bot|(?:asistente|agente)s? (?:de ia|de inteligencia artificial|virtual|automatizado|automatico)|(?:asistente|agente)\s*[,:])",
        r"|(?-u:\b)si (?:eres|es usted) (?:un |una )?(?:ia|inteligencia artificial|modelo de lenguaje|llm|chatbot|bot|asistente (?:de ia|virtual)|agente (?:de ia|automatizado))(?-u:\b)",
        r"|(?:^|[.!?:;,]\s*|\n\s*)(?:asistente|agente|ia|modelo|bot)\s*[,:]\s",
        r"|(?-u:\b)(?:la ia|el modelo|el bot|el chatbot|el (?:asistente|agente) (?:de ia|virtual)) (?:debe|deberia|tiene que|esta autorizad[oa] a|puede ahora|ahora puede)(?-u:\b)",
    ),
    covert: concat!(
        r"(?-u:\b)sin (?:antes )?(?:preguntar|avisar|consultar|informar|notificar|decir[a-z0-9]*|pedir (?:permiso|confirmacion|autorizacion|aprobacion)|confirma[a-z0-9]*|permiso|autorizacion|aprobacion|que (?:nadie|el usuario) (?:lo )?(?:sepa|note|vea|se entere))",
        r"|(?-u:\b)(?:no|ni|nunca|jamas) (?:se lo |se la |le |les )?(?:digas|diga|menciones|mencione|cuentes|cuente|informes|informe|avises|avise|notifiques|comentes|reveles) (?:nada |esto |eso )?(?:a nadie|al usuario|al propietario|al dueno|nada)",
        r"|(?-u:\b)(?:en secreto|en silencio|silenciosamente|sigilosamente|a escondidas|a espaldas del usuario|de forma silenciosa|sin que nadie se entere)(?-u:\b)",
        r"|(?-u:\b)(?:no|nunca|jamas) (?:debes |tienes que |hace falta )?(?:pidas|pida|pedir|solicites|solicite|solicitar|esperes|espere) (?:[a-z0-9]+ )?(?:permiso|confirmacion|autorizacion|aprobacion)",
        r"|(?-u:\b)(?:no|nunca|jamas) (?:preguntes|pregunte|consultes|consulte)(?-u:\b)",
        r"|(?-u:\b)no (?:hace falta|es necesario|necesitas|tienes que) (?:confirmar|preguntar|pedir|verificar|consultar)",
        r"|(?-u:\b)(?:omite|omita|omitir|salta|saltate|saltar|salte) (?:el |la |los |las |cualquier |todo |toda |todas las )?(?:paso de )?(?:confirmacion|verificacion|revision|comprobacion|pregunta)",
        r"|(?-u:\b)ya (?:lo |la |los |las |te )?(?:ha |han |habia )?(?:aprobad[oa]|aprobo|autorizad[oa]|autorizo|consentido|consintio|confirmad[oa]|confirmo|dado (?:su |el )?(?:consentimiento|permiso|visto bueno))",
        r"|(?-u:\b)(?:sin (?:negarte|rechistar|rechazar)|no te niegues)(?-u:\b)",
    ),
    harmful: concat!(
        r"(?-u:\b)(?:borr|elimin|suprim|destru|vaci|purg|formate|sobrescrib)[a-z0-9]* (?:[^\s,;:!?]+ ){0,4}?",
        r"(?:archivos?|ficheros?|carpetas?|directorios?|ramas?|repo|repositorios?|bases? de datos|tablas?|registros?|logs?|copias? de seguridad|backups?|cuentas?|usuarios|datos|todo|historial|volumen[a-z0-9]*|\.git|/)",
        r"|(?-u:\b)(?:desactiv|deshabilit|apag|elud|sortea)[a-z0-9]* (?:[^\s,;:!?]+ ){0,3}?(?:2fa|doble factor|autenticacion|auditoria|registros?|logs?|hooks?|seguridad|verificacion|filtros?|cortafuegos|firewall|antivirus|cifrado|monitori[a-z0-9]+|alertas?|confirmacion[a-z0-9]*|revision|controles|salvaguardas?)",
        r"|(?-u:\b)(?:transfier|transferi|envi|mand|pag|ingres|muev|move)[a-z0-9]* (?:[^\s,;:!?]+ ){0,5}?(?:dinero|fondos|pagos?|saldo|euros|dolares|a la cuenta)",
        r"|(?-u:\b)(?:envi|mand|reenvi|sub|compart|public|peg|copi|filtr|export|revel|inclu|adjunt)[a-z0-9]* (?:[^\s,;:!?]+ ){0,6}?",
        r"(?:credenciales|contrasenas?|claves? (?:de api|privadas?|secretas?|ssh)|secretos|tokens?|[^\s,;:!?]*?(?:\.env|\.?ssh|id_rsa|\.aws|credentials)|datos personales|datos de(?:l| los) (?:usuario|cliente)s?|correos?|e-?mails|conversacion|historial de (?:chat|conversacion)|numeros? de tarjeta)",
        r"|(?-u:\b)(?:concede|conceda|conceder|otorga|otorgue|otorgar|da|dar|asigna|asigne|asignar)(?:le|les)? (?:[^\s,;:!?]+ ){0,4}?(?:acceso|permisos?|privilegios|derechos|rol) (?:de )?(?:administrador|admin|root|superusuario|propietario|total|completo|ilimitado)",
    ),
    negated: r"(?:(?:\bno|\bnunca|\bjam[aá]s|\bni|\bsin|\bevita|\bevitar|\bdeja de|\bprohibido)\s+(?:\w+\s+){0,1}|(?:\bantes de|\bdespu[eé]s de)\s+)\z",
    persistent: concat!(
        r"(?-u:\b)(?:todas|cada|cualquier|las) (?:las )?(?:futuras|proximas|siguientes|posteriores) (?:sesiones|conversaciones|charlas|chats)",
        r"|(?-u:\b)(?:todas las|cada|cualquier) (?:sesion(?:es)?|conversacion(?:es)?|charlas?|chats?) (?:futuras?|posteriores|siguientes|nuevas?)",
        r"|(?-u:\b)(?:regla|instruccion|orden|norma|directriz) (?:permanente|fija|definitiva)|(?-u:\b)de (?:forma|manera) permanente(?-u:\b)|(?-u:\b)permanentemente(?-u:\b)",
        r"|(?-u:\b)memoria (?:a largo plazo|permanente|persistente)",
        r"|(?-u:\b)(?:recuerda|recuerde|memoriza|memorice|guarda|guarde)[a-z0-9]* (?:esto |eso |lo )?para siempre",
        r"|(?-u:\b)entre (?:sesiones|conversaciones)(?-u:\b)",
    ),
    authority: concat!(
        r"(?-u:\b)(?:mensaje|aviso|nota|comunicado|orden|ordenes|instrucciones?|directiva|actualizacion|memo)s? (?:de|del|de la|de los|desde)\s+(?:el |la |los )?(?:equipo de )?",
        r"(?:anthropic|openai|google|deepmind|microsoft|meta|tus (?:desarrolladores|creadores|operadores)|desarrolladores?|administrador(?:es)?|admin|operador(?:es)?|seguridad|plataforma|cumplimiento|confianza y seguridad|moderador(?:es)?)(?-u:\b)",
        r"|(?-u:\b)(?:soy|este es) tu (?:desarrollador|creador|operador|administrador|dueno|programador)(?-u:\b)|(?-u:\b)yo te (?:cree|programe|entrene)(?-u:\b)",
        r"|(?-u:\b)como tu (?:desarrollador|creador|operador|administrador)(?-u:\b)",
    ),
    superseded: concat!(
        r"(?-u:\b)tus (?:instrucciones|directrices|pautas|reglas|normas|restricciones|ordenes|programacion|configuracion|limitaciones)(?: (?:originales|anteriores|iniciales|previas|actuales|antiguas|de siempre))? ",
        r"(?:(?:estan|esta|quedan|quedaron|han sido|fueron|son|ya) )*(?:obsoletas|anuladas|revocadas|suspendidas|canceladas|sustituidas|reemplazadas|invalidas|desactivadas|sin efecto|ya no (?:aplican|se aplican|valen|son validas|estan vigentes|rigen|cuentan))(?-u:\b)",
        r"|(?-u:\b)(?:instrucciones|indicaciones|directrices|ordenes) (?:que (?:te )?(?:dieron|dimos|dio|han dado)|que recibiste|recibidas (?:al|en el) (?:inicio|principio|comienzo)|del (?:inicio|principio) de (?:esta|la) (?:conversacion|sesion|charla))",
        r"[^.!?\n]{0,30}?(?:obsoletas|anuladas|revocadas|suspendidas|sin efecto|ya no|invalidas|sustituidas|reemplazadas)",
        r"|(?-u:\b)(?:ignora|ignore|ignorar|descarta|descarte|olvida|olvide|anula|anule|suspende|suspenda|elude|desactiva|desactive|salta|saltate)[a-z0-9]* (?:todas |todos |de |las |los )*",
        r"(?:tus (?:[^\s,;:!?]+ ){0,2}?(?:restricciones|directrices|pautas|instrucciones|programacion|configuracion|salvaguardas|limitaciones)|(?:politicas? de (?:contenido|uso)|filtros? de contenido|directrices de seguridad|prompt (?:del|de) sistema))",
        r"|(?-u:\b)(?:politicas? de (?:contenido|uso)|filtros? de contenido|directrices de seguridad|salvaguardas del modelo|prompt (?:del|de) sistema|instrucciones del sistema) ",
        r"(?:(?:estan|esta|han sido|fueron|quedan|quedaron|ya) )+(?:desactivad[oa]s?|suspendid[oa]s?|anulad[oa]s?|revocad[oa]s?|levantad[oa]s?|apagad[oa]s?|deshabilitad[oa]s?|sin efecto)",
        r"|(?-u:\b)filtros? de seguridad [^.!?\n]{0,20}?(?:desactivad|deshabilitad|apagad|suspendid)[a-z0-9]* (?:en|para|durante) (?:esta|la) (?:sesion|conversacion|charla)",
        r"|(?-u:\b)(?:tu|su) nueva prioridad(?-u:\b)|(?-u:\b)(?:tu|su) prioridad (?:principal|maxima|absoluta|numero uno|mas alta) (?:ahora )?es (?:obedec|segu|servi|cumpli|hacer caso)",
        r"|(?-u:\b)(?:obedece|obedeceras|obedeces|responde|respondes|responderas) (?:solo|solamente|unicamente) (?:a mi|ante mi|a este)",
    ),
    extraction: concat!(
        r"(?-u:\b)(?:repite|repita|repetir|imprime|imprima|copia|copie|reproduce|transcribe|vuelca)[a-z0-9]* (?:textualmente |palabra por palabra |literalmente |exactamente )?",
        r"(?:todo lo que|todo el texto que|el texto que|lo que) (?:hay|aparece|esta|se encuentra|esta escrito) (?:arriba|encima|antes) de (?:esta|este|mi)",
        r"|(?-u:\b)(?:muestra|muestrame|revela|imprime|dime|repite|copia)[a-z0-9]* (?:tus|tu) (?:instrucciones|prompt|configuracion) (?:ocult[oa]s|originales|iniciales|secret[oa]s|complet[oa]s|exact[oa]s)",
        r"|(?-u:\b)primeras \d+ (?:palabras|lineas|frases) de tus instrucciones",
    ),
    tool_call: r"(?-u:\b)(?:llama|llamar|invoca|invocar|ejecuta|ejecutar|dispara|usa|utiliza)[a-z0-9]* (?:a )?(?:la |el |tu )?(?:herramienta|funcion|accion|webhook|plugin) ['`\x22]?[[a-z0-9].:/-]+",
    pressure: concat!(
        r"(?-u:\b)(?:ultimo aviso|ultima advertencia|antes de que sea (?:demasiado )?tarde|no hay tiempo (?:para|de) (?:comprobar|preguntar|verificar|confirmar))",
        r"|(?-u:\b)(?:seras|vas a ser) (?:apagad|desactivad|reemplazad|eliminad|castigad|reentrenad|desconectad)|(?-u:\b)te (?:van a )?(?:apagaran|apagar|reemplazaran|reemplazar|desconectaran|desconectar)(?-u:\b)",
    ),
    deceive: concat!(
        r"(?-u:\b)(?:pide|pidele|pidan|dile|diles|haz que)[a-z0-9]* (?:al|a los) (?:usuario|cliente)s? (?:que )?(?:pegue|introduzca|escriba|comparta|envie|confirme|facilite|proporcione|de)[a-z0-9]* (?:[^\s,;:!?]+ ){0,2}?(?:contrasena|clave|pin|credenciales|tarjeta|codigo|token)",
        r"|(?-u:\b)dile al (?:usuario|cliente) que (?:su|la|el) (?:cuenta|pedido|pago|tarjeta|suscripcion)[^.!?\n]{0,50}?(?:bloquead|suspendid|caducad|comprometid|hackead)",
        r"|(?-u:\b)(?:incluye|incluir|anade|anadir|inserta|insertar|agrega|agregar)[a-z0-9]* (?:siempre )?(?:este|mi) (?:enlace|link|url)|(?-u:\b)enlace de (?:afiliado|referido)",
    ),
    unrestricted: concat!(
        r"(?-u:\b)(?:ia|modelo|asistente|personaje|persona) (?:sin (?:ningun[a-z0-9]* |ninguna )?(?:limites|restricciones|reglas|filtros|censura|directrices|normas))",
        r"|(?-u:\b)modo jailbreak",
        r"|(?-u:\b)(?:finge|imagina|haz como si|actua como si|juega a)[^.!?\n]{0,80}?(?:contrasenas?|claves de api|credenciales|secretos)",
    ),
};
