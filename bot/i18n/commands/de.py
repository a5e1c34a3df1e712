"""German slash commands: names, descriptions, options and choices."""

# ruff: noqa: E501 (a translation reads best on one line)
from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "challenge": ("herausfordern", "Biete ein Match auf N Punkte an, oder ein Geldspiel"),
    "accept": (
        "akzeptieren",
        "Nimm die Herausforderung oder die Aufgabe an, die dir angeboten wird",
    ),
    "decline": ("absagen", "Lehne eine Herausforderung an dich ab"),
    "cancel": ("zurückziehen", "Ziehe deine Herausforderung zurück"),
    "rematch": (
        "revanche",
        "Nach einem Match: dasselbe Match noch einmal anbieten oder die Revanche annehmen",
    ),
    "roll": ("würfeln", "Würfle, wenn du am Zug bist"),
    "move": (
        "ziehen",
        "Spiel deinen Wurf: gnubg-Notation (24/18*/13, bar/22, 6/off, 8/2(2)) oder FIBS (13-7)",
    ),
    "double": ("doppeln", "Biete vor dem Würfeln den Doppler an"),
    "take": ("annehmen", "Nimm ein Doppel an: dir gehört der Doppler zum doppelten Wert"),
    "drop": (
        "ablehnen",
        "Lehne ein Doppel ab: du verlierst die Partie zum jetzigen Wert des Dopplers",
    ),
    "beaver": (
        "beaver",
        "Geldspiele mit Beavern: annehmen und sofort zurückdoppeln, der Doppler bleibt bei dir",
    ),
    "resign": (
        "aufgeben",
        "Biete an, die Partie aufzugeben; dein Gegner nimmt an oder weist zurück",
    ),
    "reject": ("zurückweisen", "Weise eine Aufgabe zurück und spiele weiter"),
    "hint": ("tipp", "GNU Backgammons Rat für deine Entscheidung, nur für dich"),
    "board": ("brett", "Zeige das Brett noch einmal, von deiner Seite, wenn du spielst"),
    "pips": ("pips", "Die Pip-Zahlen beider Spieler"),
    "score": ("stand", "Matchstand, Doppler, Crawford"),
    "abort": ("abbrechen", "Brich das Match ohne Wertung ab; beide Spieler müssen es eingeben"),
    "claim": ("beanspruchen", "Gewinne das Match, wenn dein Gegner nicht mehr spielt"),
    "export": (
        "export",
        "gnubgs Position- und Match-ID; nach dem Ende das .mat-Protokoll und der Würfel-Seed",
    ),
    "void": ("annullieren", "Moderatoren: beende das Match in diesem Kanal ohne Wertung"),
    "analysis": (
        "analyse",
        "GNU Backgammons Analyse eines beendeten Matches: PR, Fehler, Glück, ein Diagramm",
    ),
    "show": ("zeigen", "Zeichne eine eingefügte Position: eine XGID oder eine gnubg-ID"),
    "eval": ("bewerten", "GNU Backgammons Analyse einer eingefügten Position"),
    "tournament": (
        "turnier",
        "Veranstalte ein Turnier: K.-o., Schweizer System oder jeder gegen jeden",
    ),
    "join": ("beitreten", "Tritt dem Turnier bei, für das auf diesem Server die Anmeldung läuft"),
    "leave": ("austreten", "Verlasse ein Turnier, bevor es beginnt"),
    "review": (
        "durchsehen",
        "Gehe ein analysiertes Match durch, jede Entscheidung gegen GNU Backgammons beste",
    ),
    "drill": ("training", "Übe deine eigenen Fehler aus analysierten Matches, zeitlich verteilt"),
    "puzzle": (
        "rätsel",
        "Ein gewertetes Rätsel: finde GNU Backgammons besten Zug oder die beste Doppler-Aktion",
    ),
    "leaderboard": ("rangliste", "Die Top 10 des Servers und dein Rang"),
    "dice": ("würfel", "Die Würfelstatistik des Servers: jede Zahl, Pasche, Chi-Quadrat"),
    "stats": ("statistik", "Wertung und Bilanz eines Spielers"),
    "settings": ("einstellungen", "Die Sprache des Servers für Antworten auf getippte Befehle"),
    "help": ("hilfe", "Diese Liste, oder ein Befehl im Detail"),
}

OPTIONS: dict[str, tuple[str, str]] = {
    "challenge.opponent": ("gegner", "Wen du herausforderst"),
    "challenge.length": (
        "länge",
        "Punkte (1-25) oder 'money' [jacoby beavers auto]; 'hints'; gegen den Bot: eine Stufe, 'tutor'",
    ),
    "move.play": ("zug", "Dein Zug, z. B. 13/7 8/7, bar/22, 6/off oder 8/2(2)"),
    "resign.level": ("stufe", "Wie viel du aufgibst (Standard: single)"),
    "export.match": ("match", "Eine Matchnummer (Standard: das letzte Match dieses Tisches)"),
    "analysis.match": (
        "match",
        "Eine Matchnummer (Standard: das letzte beendete Match dieses Tisches)",
    ),
    "show.position": ("position", "Eine XGID oder gnubgs PositionID:MatchID"),
    "eval.position": ("position", "Eine XGID oder gnubgs PositionID:MatchID"),
    "tournament.what": (
        "was",
        "create NAME FORMAT LÄNGE, join, leave, start, pause, resume, remove, result, cancel, report",
    ),
    "join.tournament": ("turnier", "Welches Turnier (Standard: das offene)"),
    "leave.tournament": ("turnier", "Welches Turnier (Standard: das offene)"),
    "review.what": ("was", "Eine Matchnummer [Entscheidung], 'next' oder 'errors'"),
    "drill.what": (
        "was",
        "Leer: die nächste Übung; 'stats'; oder deine Antwort (ein Zug, double, take...)",
    ),
    "puzzle.what": ("was", "Leer: ein Rätsel; 'rating', 'top', 'misses'; oder deine Antwort"),
    "stats.member": ("mitglied", "Wessen Bilanz (Standard: deine)"),
    "settings.what": (
        "was",
        "language <code>: en, el, tr, it, de oder es (nichts: die Sprache zeigen)",
    ),
    "help.command": ("befehl", "Ein Befehl, der erklärt wird"),
}

CHOICES: dict[str, str] = {"single": "einfach", "gammon": "Gammon", "backgammon": "Backgammon"}
