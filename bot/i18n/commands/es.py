"""Spanish slash commands: names, descriptions, options and choices."""

# ruff: noqa: E501 (a translation reads best on one line)
from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "challenge": ("desafiar", "Propón un match a N puntos, o un juego por dinero"),
    "accept": ("aceptar", "Acepta el desafío, o la rendición, que te ofrecen"),
    "decline": ("declinar", "Rechaza un desafío que te han hecho"),
    "cancel": ("cancelar", "Retira el desafío que propusiste"),
    "rematch": ("revancha", "Tras un match: propón el mismo match otra vez, o acepta la revancha"),
    "roll": ("tirar", "Tira los dados cuando sea tu turno"),
    "move": (
        "mover",
        "Juega tu tirada: notación gnubg (24/18*/13, bar/22, 6/off, 8/2(2)) o FIBS (13-7)",
    ),
    "double": ("doblar", "Ofrece el cubo antes de tirar"),
    "take": ("tomar", "Toma un doblaje: el cubo es tuyo al doble de valor"),
    "drop": ("pasar", "Pasa un doblaje: pierdes el juego al valor actual del cubo"),
    "beaver": (
        "beaver",
        "Juegos por dinero con beavers: toma y redobla a la vez, quedándote el cubo",
    ),
    "resign": ("rendirse", "Ofrece rendirte en el juego; tu rival acepta o rechaza"),
    "reject": ("denegar", "Rechaza una rendición y sigue jugando"),
    "hint": ("pista", "El consejo de GNU Backgammon para tu decisión, solo para ti"),
    "board": ("tablero", "Muestra el tablero otra vez, desde tu lado si juegas"),
    "pips": ("pips", "El conteo de pips de ambos jugadores"),
    "score": ("marcador", "Marcador del match, cubo, Crawford"),
    "abort": ("abortar", "Anula el match sin puntuar; ambos jugadores deben escribirlo"),
    "claim": ("reclamar", "Gana el match cuando tu rival ha dejado de jugar"),
    "export": (
        "exportar",
        "Position y Match ID de gnubg; al terminar, el registro .mat y la semilla de los dados",
    ),
    "void": ("anular", "Moderadores: termina el match de este canal, sin puntuar"),
    "analysis": (
        "análisis",
        "El análisis de GNU Backgammon de un match terminado: PR, errores, suerte, un gráfico",
    ),
    "show": ("mostrar", "Dibuja una posición pegada: un XGID o un ID de gnubg"),
    "eval": ("evaluar", "El análisis de GNU Backgammon de una posición pegada"),
    "tournament": ("torneo", "Organiza un torneo: eliminatoria, suizo o todos contra todos"),
    "join": ("unirse", "Únete al torneo con inscripción abierta en este servidor"),
    "leave": ("salir", "Deja un torneo antes de que empiece"),
    "review": (
        "revisar",
        "Recorre un match analizado, cada decisión contra la mejor de GNU Backgammon",
    ),
    "drill": (
        "práctica",
        "Practica tus propios errores de matches analizados, espaciados en el tiempo",
    ),
    "puzzle": (
        "problema",
        "Un problema puntuado: encuentra la mejor jugada o acción de cubo de GNU Backgammon",
    ),
    "leaderboard": ("clasificación", "Los 10 primeros del servidor y tu puesto"),
    "dice": ("dados", "Las estadísticas de dados del servidor: cada número, dobles, chi cuadrado"),
    "stats": ("estadísticas", "La puntuación y el historial de un jugador"),
    "settings": ("ajustes", "El idioma del servidor para las respuestas a comandos escritos"),
    "help": ("ayuda", "Esta lista, o un comando en detalle"),
}

OPTIONS: dict[str, tuple[str, str]] = {
    "challenge.opponent": ("rival", "A quién desafías"),
    "challenge.length": (
        "longitud",
        "Puntos (1-25) o 'money' [jacoby beavers auto]; 'hints'; contra el bot: un nivel, 'tutor'",
    ),
    "move.play": ("jugada", "Tu jugada, p. ej. 13/7 8/7, bar/22, 6/off o 8/2(2)"),
    "resign.level": ("nivel", "Cuánto concedes (por defecto: single)"),
    "export.match": ("match", "Un número de match (por defecto: el último de esta mesa)"),
    "analysis.match": (
        "match",
        "Un número de match (por defecto: el último terminado de esta mesa)",
    ),
    "show.position": ("posición", "Un XGID, o PositionID:MatchID de gnubg"),
    "eval.position": ("posición", "Un XGID, o PositionID:MatchID de gnubg"),
    "tournament.what": (
        "qué",
        "create NOMBRE FORMATO LONGITUD, join, leave, start, pause, resume, remove, result, cancel, report",
    ),
    "join.tournament": ("torneo", "Qué torneo (por defecto: el abierto)"),
    "leave.tournament": ("torneo", "Qué torneo (por defecto: el abierto)"),
    "review.what": ("qué", "Un número de match [decisión], 'next' o 'errors'"),
    "drill.what": (
        "qué",
        "Vacío: la siguiente práctica; 'stats'; o tu respuesta (una jugada, double, take...)",
    ),
    "puzzle.what": ("qué", "Vacío: un problema; 'rating', 'top', 'misses'; o tu respuesta"),
    "stats.member": ("miembro", "De quién el historial (por defecto: el tuyo)"),
    "settings.what": (
        "qué",
        "language <código>: en, el, tr, it, de o es (nada: muestra el idioma)",
    ),
    "help.command": ("comando", "Un comando a explicar"),
}

CHOICES: dict[str, str] = {"single": "simple", "gammon": "gammon", "backgammon": "backgammon"}
