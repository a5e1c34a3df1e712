"""Italian slash commands: names, descriptions, options and choices."""

# ruff: noqa: E501 (a translation reads best on one line)
from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "challenge": ("sfida", "Proponi un match a N punti, o una partita a soldi"),
    "accept": ("accetta", "Accetta la sfida, o l'abbandono, che ti viene offerto"),
    "decline": ("declina", "Rifiuta una sfida che ti è stata fatta"),
    "cancel": ("annulla", "Ritira la sfida che hai proposto"),
    "rematch": ("rivincita", "Dopo un match: riproponi lo stesso match, o accetta la rivincita"),
    "roll": ("tira", "Tira i dadi quando tocca a te"),
    "move": (
        "muovi",
        "Gioca il tuo tiro: notazione gnubg (24/18*/13, bar/22, 6/off, 8/2(2)) o FIBS (13-7)",
    ),
    "double": ("raddoppia", "Offri il cubo prima di tirare"),
    "take": ("prendi", "Accetta un raddoppio: il cubo è tuo al doppio del valore"),
    "drop": ("rifiuta", "Rifiuta un raddoppio: perdi la partita al valore attuale del cubo"),
    "beaver": ("beaver", "Partite a soldi con beaver: accetta e raddoppia subito, tenendo il cubo"),
    "resign": ("abbandona", "Offri di abbandonare la partita; l'avversario accetta o respinge"),
    "reject": ("respingi", "Respingi un abbandono e continua a giocare"),
    "hint": ("suggerimento", "Il consiglio di GNU Backgammon per la tua decisione, solo per te"),
    "board": ("tavola", "Mostra di nuovo la tavola, dal tuo lato se giochi"),
    "pips": ("pip", "Il conteggio dei pip di entrambi i giocatori"),
    "score": ("punteggio", "Punteggio del match, cubo, Crawford"),
    "abort": ("interrompi", "Annulla il match, non valutato; devono scriverlo entrambi"),
    "claim": ("reclama", "Vinci il match quando il tuo avversario ha smesso di giocare"),
    "export": (
        "esporta",
        "Position e Match ID di gnubg; alla fine la registrazione .mat e il seme dei dadi",
    ),
    "void": ("invalida", "Moderatori: chiudi il match di questo canale, non valutato"),
    "analysis": (
        "analisi",
        "L'analisi di GNU Backgammon di un match finito: PR, errori, fortuna, un grafico",
    ),
    "show": ("mostra", "Disegna una posizione incollata: un XGID o un ID di gnubg"),
    "eval": ("valuta", "L'analisi di GNU Backgammon di una posizione incollata"),
    "tournament": (
        "torneo",
        "Organizza un torneo: eliminazione diretta, svizzero o girone all'italiana",
    ),
    "join": ("iscriviti", "Iscriviti al torneo aperto su questo server"),
    "leave": ("ritirati", "Lascia un torneo prima che inizi"),
    "review": (
        "rivedi",
        "Ripercorri un match analizzato, ogni decisione contro la migliore di GNU Backgammon",
    ),
    "drill": (
        "esercizio",
        "Esercitati sui tuoi errori dei match analizzati, distribuiti nel tempo",
    ),
    "puzzle": (
        "problema",
        "Un problema valutato: trova la mossa o l'azione di cubo migliore di GNU Backgammon",
    ),
    "leaderboard": ("classifica", "I primi 10 del server e la tua posizione"),
    "dice": ("dadi", "Le statistiche dei dadi del server: ogni numero, doppi, chi quadrato"),
    "stats": ("statistiche", "Il rating e i risultati di un giocatore"),
    "settings": ("impostazioni", "La lingua del server per le risposte ai comandi scritti"),
    "help": ("aiuto", "Questo elenco, o un comando nel dettaglio"),
}

OPTIONS: dict[str, tuple[str, str]] = {
    "challenge.opponent": ("avversario", "Chi sfidi"),
    "challenge.length": (
        "lunghezza",
        "Punti (1-25) o 'money' [jacoby beavers auto]; 'hints'; contro il bot: un livello, 'tutor'",
    ),
    "move.play": ("mossa", "La tua mossa, ad es. 13/7 8/7, bar/22, 6/off o 8/2(2)"),
    "resign.level": ("livello", "Quanto concedi (predefinito: single)"),
    "export.match": ("match", "Un numero di match (predefinito: l'ultimo di questo tavolo)"),
    "analysis.match": (
        "match",
        "Un numero di match (predefinito: l'ultimo finito di questo tavolo)",
    ),
    "show.position": ("posizione", "Un XGID, o PositionID:MatchID di gnubg"),
    "eval.position": ("posizione", "Un XGID, o PositionID:MatchID di gnubg"),
    "tournament.what": (
        "cosa",
        "create NOME FORMATO LUNGHEZZA, join, leave, start, pause, resume, remove, result, cancel, report",
    ),
    "join.tournament": ("torneo", "Quale torneo (predefinito: quello aperto)"),
    "leave.tournament": ("torneo", "Quale torneo (predefinito: quello aperto)"),
    "review.what": ("cosa", "Un numero di match [decisione], 'next' o 'errors'"),
    "drill.what": (
        "cosa",
        "Vuoto: il prossimo esercizio; 'stats'; o la tua risposta (una mossa, double, take...)",
    ),
    "puzzle.what": ("cosa", "Vuoto: un problema; 'rating', 'top', 'misses'; o la tua risposta"),
    "stats.member": ("membro", "Di chi i risultati (predefinito: i tuoi)"),
    "settings.what": (
        "cosa",
        "language <codice>: en, el, tr, it, de o es (niente: mostra la lingua)",
    ),
    "help.command": ("comando", "Un comando da spiegare"),
}

CHOICES: dict[str, str] = {"single": "semplice", "gammon": "gammon", "backgammon": "backgammon"}
