"""German (Deutsch): Stein, Punkt, Bar, abtragen, Doppler, annehmen, ablehnen, Gammon."""

# ruff: noqa: E501 (a translation reads best on one line)
from __future__ import annotations

TEXTS: dict[str, str | tuple[str, str]] = {
    # words
    "or": "{a} oder {b}",
    "and": "{a} und {b}",
    "level_single": "ein einfaches Spiel",
    "level_gammon": "ein Gammon",
    "level_backgammon": "ein Backgammon",
    "checkers": ("ein Stein", "{n} Steine"),
    "dice": ("{n} Würfel", "{n} Würfel"),
    "moves": ("{n} Zug", "{n} Züge"),
    "pips": ("{n} Pip", "{n} Pips"),
    "points": ("{n} Punkt", "{n} Punkte"),
    "typed": "{reason} (du hast {quoted} eingegeben)",
    # whose turn, and the cube
    "match_over": "das Match ist vorbei",
    "doubled_answer_first": "du wurdest auf {cube} gedoppelt: erst annehmen oder ablehnen",
    "wait_double_answer": "du bist nicht dran: dein Gegner muss dein Doppel annehmen oder ablehnen",
    "resignation_answer_first": (
        "dein Gegner bietet an, {level} aufzugeben: erst annehmen oder zurückweisen"
    ),
    "wait_resignation_answer": (
        "du bist nicht dran: dein Gegner muss deine Aufgabe annehmen oder zurückweisen"
    ),
    "not_your_turn_roll": "du bist nicht am Zug zum Würfeln",
    "not_your_turn_move": "du bist nicht am Zug zum Ziehen",
    "not_your_turn_double": "du bist nicht am Zug zum Doppeln",
    "not_your_turn_resign": "du bist nicht am Zug zum Aufgeben",
    "no_doubling_one_point": "in einem Match auf 1 Punkt wird nicht gedoppelt",
    "no_doubling_crawford": "im Crawford-Spiel wird nicht gedoppelt",
    "cube_opponents": "der Doppler gehört deinem Gegner: nur er kann jetzt doppeln",
    "cube_dead": (
        "der Doppler ist tot: gewinnst du dieses Spiel, gewinnst du schon das Match, ein Doppel "
        "bringt dir also nichts"
    ),
    "cube_at_limit": "der Doppler steht schon auf {cube}, seiner Grenze",
    "double_before_roll": "du hast schon gewürfelt: doppeln geht nur vor dem Würfeln",
    "no_double_to_take": "es gibt kein Doppel zum Annehmen",
    "no_double_to_drop": "es gibt kein Doppel zum Ablehnen",
    "no_double_to_beaver": "es gibt kein Doppel für einen Beaver",
    "own_double_take": "du kannst dein eigenes Doppel nicht annehmen: dein Gegner antwortet darauf",
    "own_double_drop": "du kannst dein eigenes Doppel nicht ablehnen: dein Gegner antwortet darauf",
    "own_double_beaver": "du kannst auf dein eigenes Doppel keinen Beaver geben: dein Gegner antwortet darauf",
    "no_resignation_to_accept": "es gibt keine Aufgabe zum Annehmen",
    "no_resignation_to_reject": "es gibt keine Aufgabe zum Zurückweisen",
    "own_resignation_accept": (
        "du kannst deine eigene Aufgabe nicht annehmen: dein Gegner antwortet darauf"
    ),
    "own_resignation_reject": (
        "du kannst deine eigene Aufgabe nicht zurückweisen: dein Gegner antwortet darauf"
    ),
    "already_rolled": "du hast schon {dice} gewürfelt: jetzt ziehen",
    "roll_before_move": "erst würfeln, dann ziehen",
    "beavers_not_here": "Beaver sind in diesem Spiel nicht erlaubt",
    "beavers_money_only": "Beaver gibt es nur im Geldspiel",
    "cube_above": "der Doppler kann nicht über {most} gehen: annehmen oder ablehnen",
    "already_resigned": "du hast schon die Aufgabe angeboten: warte auf die Antwort",
    "resign_what": "gib ein einfaches Spiel, ein Gammon oder ein Backgammon auf",
    "resign_level": "gib ein einfaches Spiel (1), ein Gammon (2) oder ein Backgammon (3) auf",
    # a play that can't be read
    "not_a_move": "das ist kein Zug: {reason}",
    "play_example": "schreibe von/nach wie 13/7, bar/22 oder 6/off",
    "missing_point": "in {token} fehlt ein Punkt; {example}",
    "not_a_point": "{word} in {token} ist kein Punkt; {example}",
    "no_point": "es gibt keinen Punkt {shown} (1-24)",
    "that_high": "so hoch",
    "not_from_to": "{token} ist nicht von/nach; {example}",
    "needs_from_to": "{token} braucht von/nach; {example}",
    "count_like": "schreibe eine Anzahl wie 8/2(2)",
    "count_range": "eine Anzahl ist 1 bis 4",
    "not_to_bar": "ein Stein kann nicht auf die Bar ziehen",
    "off_last": "'off' darf nur am Ende stehen",
    # a play that is not legal
    "nothing_to_play": "du kannst mit {dice} nicht ziehen: es gibt nichts zu spielen",
    "cant_pass": "du hast mit {dice} einen legalen Zug: du kannst nicht passen",
    "ambiguous": "das passt zu mehr als einem Zug: {choices}; gib den gemeinten ein",
    "backwards": "{move} geht rückwärts: Steine ziehen von höheren Punkten zu niedrigeren",
    "too_many_moves": (
        "zu viele Züge: dein Wurf {dice} spielt {dice_count}, einen Zug pro Würfel, und das sind "
        "{moves}{hint}"
    ),
    "repeats_only": "; das ({count}) in {move} wiederholt nur diesen Zug",
    "closed": "{point} ist besetzt: dein Gegner hat dort {count} Steine",
    "enter_first": (
        "du hast einen Stein auf der Bar: bring ihn zuerst herein",
        "du hast {n} Steine auf der Bar: bring sie zuerst herein",
    ),
    "too_few_arrive": (
        "du ziehst {checkers} von {point}, hast dort aber {there}, und nur {n} weiterer kommt an",
        "du ziehst {checkers} von {point}, hast dort aber {there}, und nur {n} weitere kommen an",
    ),
    "none": "keinen",
    "no_checker_on_bar": "du hast keinen Stein auf der Bar",
    "no_checker_on": "du hast keinen Stein auf {point}",
    "only_on_bar": "du hast nur {checkers} auf der Bar",
    "only_on": "du hast nur {checkers} auf {point}",
    "bear_off_outside": (
        "du kannst nicht abtragen, solange ein Stein außerhalb deines Heimfelds steht"
    ),
    "cant_make_distance": "{hop} sind {pips}, das schafft dein Wurf {dice} nicht",
    "too_many_dice": (
        "zu viele Züge: das braucht {dice_count} ({hop} braucht {most} davon), und dein Wurf "
        "{dice} hat {available}"
    ),
    "blocked": (
        "{hop} ist blockiert: {listed} ist besetzt",
        "{hop} ist blockiert: {listed} sind besetzt",
    ),
    "overshoot": (
        "{source}/off braucht eine {source}: eine höhere Zahl trägt nur vom höchsten Punkt ab, "
        "und du hast einen Stein auf {higher}"
    ),
    "must_play_one": "du musst die {die} einmal spielen",
    "must_play_two": "du musst die {die} zweimal spielen",
    "must_play_three": "du musst die {die} dreimal spielen",
    "must_play_four": "du musst die {die} viermal spielen",
    "both_dice": "du musst beide Würfel spielen",
    "must_play_high": "du musst die {high} spielen, wenn nur ein Würfel spielbar ist",
    "only_one_die": "mit {dice} ist nur ein Würfel spielbar",
    "not_legal": "das ist mit {dice} kein legaler Zug",
    "cant_make_all": "dein Wurf {dice} schafft nicht alles von {typed}",
    "one_of_each": "dein Wurf {dice} spielt eine {high} und eine {low}",
    "only_once": "{roll}, also kann {hop} nur einmal gespielt werden",
    "both_need": "{roll}: {first} und {second} brauchen beide die {die}",
    # reading a typed command
    "type_help": "Tippe `{prefix}help` für die Befehle.",
    "argument_missing": "{missing} z. B. `{prefix}{example}`.",
    "who_do_you_challenge": "Wen forderst du heraus?",
    "bots_dont_play": "Bots spielen hier nicht: fordere einen Menschen heraus.",
    "unknown_user": "Ich kenne {word} nicht: erwähne einen Nutzer, z. B. `{prefix}{command} @bob`.",
    "unknown_command": (
        "Unbekannter Befehl {quoted}. Meintest du `{prefix}{meant}`? `{prefix}help` listet alle."
    ),
    "move_refused": "{reason} `/move` listet deine legalen Züge.",
    "say_which_play": "Sag, welchen Zug: {form}.",
    "play_form": "`{prefix}{command} <von>/<nach> …` (`/{command}` listet die Züge)",
    "not_a_resignation": (
        "{quoted} ist keine Aufgabe: sag `single`, `gammon` oder `backgammon`, z. B. "
        "`{prefix}resign gammon`."
    ),
    "nothing_to_accept": "Es gibt nichts anzunehmen: keine Aufgabe wird angeboten.",
    "only_players": (
        "Nur {first} und {second} spielen an diesem Tisch; du kannst zuschauen oder in einem "
        "anderen Kanal ein eigenes Match beginnen."
    ),
    "not_your_turn_roll_waiting": "Du bist nicht am Zug zum Würfeln: wir warten, bis {other} {waiting}.",
    "not_your_turn_move_waiting": "Du bist nicht am Zug zum Ziehen: wir warten, bis {other} {waiting}.",
    "not_your_turn_double_waiting": "Du bist nicht am Zug zum Doppeln: wir warten, bis {other} {waiting}.",
    "not_your_turn_take_waiting": "Du bist nicht am Zug zum Annehmen: wir warten, bis {other} {waiting}.",
    "not_your_turn_drop_waiting": "Du bist nicht am Zug zum Ablehnen: wir warten, bis {other} {waiting}.",
    "not_your_turn_beaver_waiting": "Du bist nicht am Zug für einen Beaver: wir warten, bis {other} {waiting}.",
    "not_your_turn_resign_waiting": "Du bist nicht am Zug zum Aufgeben: wir warten, bis {other} {waiting}.",
    "not_your_turn_reject_waiting": "Du bist nicht am Zug zum Zurückweisen: wir warten, bis {other} {waiting}.",
    "waiting_roll": "würfelt oder doppelt",
    "waiting_move": "zieht",
    "waiting_doubled": "auf das Doppel antwortet",
    "waiting_resigned": "auf die Aufgabe antwortet",
    "abort_lapses": "Die Bitte von {asker}, abzubrechen, verfällt: es wurde weitergespielt.",
    "abort_refused_by_play": (
        "{actor} spielt weiter, statt dem Abbruch zuzustimmen: die Bitte von {asker} verfällt."
    ),
    # the match and its score
    "money_game": "ein Geldspiel",
    "point_match": ("ein Match auf {n} Punkt", "ein Match auf {n} Punkte"),
    "challenges": "{challenger} fordert {opponent} heraus: {terms}. {opponent}: `{prefix}accept` (annehmen) oder `{prefix}decline` (absagen), läuft ab in {expires}.",
    "accepts": "{second} nimmt an: {first} gegen {second}, {terms}. Würfel-Commitment (SHA-256 des geheimen Seeds, am Ende enthüllt): `{commitment}`",
    "score_money": "{first} {a}, {second} {b} (Geldspiel)",
    "score_match": "{first} {a}, {second} {b} (Match auf {length})",
    "score_crawford": ", Crawford-Spiel",
    "score_post_crawford": ", nach Crawford",
    "pip_counts": "Pips: {first} {a}, {second} {b} ({lead}).",
    "even": "gleichauf",
    "leads_by": "{name} führt mit {pips}",
    "score_line": "{score}. Spiel {game}; Doppler {cube}, {owner}.",
    "cube_centred": "in der Mitte",
    "cube_owned": "bei {name}",
    # what happened
    "game_at": "Spiel {game} beim Stand von {a}-{b}{crawford}.",
    "crawford_no_doubling": " (Crawford-Spiel: kein Doppeln)",
    "opening_rolls": "{first} würfelt {a}, {second} würfelt {b}",
    "opening_tie": "Eröffnungswurf: {rolls}; Gleichstand, es wird neu gewürfelt{cube}.",
    "cube_turns": ": der Doppler geht auf {cube}",
    "opening_winner": "Eröffnungswurf: {rolls}. {winner} beginnt mit {high}-{low}.",
    "rolls": "{who} würfelt {dice}.",
    "cant_move": "{who} kann mit {dice} nicht ziehen.",
    "plays": "{who} spielt {dice}: {play}{forced}.",
    "forced": " (erzwungen)",
    "doubles": "{who} doppelt auf {cube}.",
    "takes": "{who} nimmt an: der Doppler steht auf {cube}.",
    "beavers": "{who} gibt Beaver: der Doppler steht auf {cube}, und {who} besitzt ihn.",
    "drops": "{who} lehnt ab.",
    "offers_to_resign": "{who} bietet an, {level} aufzugeben ({points}).",
    "accepts_resignation": "{who} nimmt die Aufgabe an.",
    "rejects_resignation": "{who} weist die Aufgabe zurück: es wird weitergespielt.",
    "wins_single": "{winner} gewinnt: {points}{jacoby}.{score}",
    "wins_gammon": "{winner} gewinnt ein Gammon: {points}{jacoby}.{score}",
    "wins_backgammon": "{winner} gewinnt ein Backgammon: {points}{jacoby}.{score}",
    "jacoby_note": " (Jacoby-Regel: Gammons zählen einfach, solange der Doppler in der Mitte ist)",
    "score_after": " Stand {first} {a}, {second} {b}.",
    # who must do what now
    "wins_money_game": "{winner} gewinnt das Geldspiel: {won}.",
    "wins_match": "**{winner} gewinnt {kind} {a}-{b}.**",
    "export_hint": "{result} `{prefix}export` zeigt das Protokoll und den Würfel-Seed.",
    "thinking": "{who} denkt nach…",
    "roll_or_double": "{who}: `{prefix}roll` (würfeln) oder `{prefix}double` (doppeln).",
    "to_move": "{who} ist am Zug mit {dice}: {form}.",
    "take_drop_or_beaver": (
        "{who}: `{prefix}take` (der Doppler geht auf {cube}), `{prefix}drop` oder "
        "`{prefix}beaver` (annehmen und sofort zurückdoppeln: der Doppler geht auf {beaver}, "
        "deiner)."
    ),
    "take_or_drop": (
        "{who}: `{prefix}take` (annehmen) oder `{prefix}drop` (ablehnen; der Doppler stünde "
        "auf {cube})."
    ),
    "accept_or_reject": (
        "{who}: `{prefix}accept` (annehmen) oder `{prefix}reject` (zurückweisen) der Aufgabe."
    ),
    # the server's settings
    "settings_shown": "Die Sprache dieses Servers für getippte Befehle: {name} (`{code}`). Moderatoren ändern sie mit `{prefix}settings language <code>`: {codes}. Slash-Befehle und Buttons sprechen die eigene Discord-Sprache jedes Nutzers.",
    "language_set": "Getippte Befehle auf diesem Server bekommen jetzt Antworten auf {name}.",
    "moderators_only": "Nur Moderatoren (Nachrichten verwalten) können die Einstellungen des Servers ändern.",
    "not_a_setting": "{quoted} ist keine Einstellung: die einzige Einstellung ist `language`, z. B. `{prefix}settings language de`.",
    "not_a_language": "{quoted} ist keine Sprache, die ich spreche: {codes}.",
    # what discord.py can't read
    "usage": " Aufruf: `{prefix}{usage}`",
    "missing_argument": "`{name}` fehlt.{hint}",
    "member_not_found": "Ich finde das Mitglied {argument} hier nicht: erwähne es, z. B. @name.{hint}",
    "not_one_of": "{argument} ist keins von {choices}.{hint}",
    "server_only": "Das geht nur in einem Server-Kanal, nicht in Direktnachrichten.",
    "owner_only": "Das kann nur der Besitzer des Bots.",
    "not_here": "Diesen Befehl kannst du hier nicht benutzen.",
    "cant_use": "Mit {value} kann ich dort nichts anfangen.{hint}",
    "outdated": "Die Befehle des Bots werden gerade aktualisiert: versuch es in einer Minute noch einmal. (Wenn das so bleibt, muss der Besitzer des Bots `{prefix}sync` tippen.)",
    "sorry": "Entschuldigung, da ist etwas schiefgegangen (Fehler {error_id}).",
    # -- GNU Backgammon's rooms: !hint, the tutor, the bot's turns, !analysis, !show/!eval (i18nb)
    "gnubg_unavailable": "GNU Backgammon ist dort, wo dieser Bot läuft, nicht installiert (sein Paket hat keinen Build für diese Maschine): Bot-Gegner, Tipps und Analysen sind aus.",
    "gnubg_busy": "Du hast schon {most} Anfragen an GNU Backgammon laufen: warte auf ihre Antworten und frag dann noch einmal.",
    "gnubg_no_double": "Kein Doppel",
    "gnubg_double_take": "Doppel, annehmen",
    "gnubg_double_pass": "Doppel, ablehnen",
    "gnubg_take": "Annehmen",
    "gnubg_pass": "Ablehnen",
    "gnubg_answer_beaver": "Beaver",
    "gnubg_answer_take": "Annehmen",
    "gnubg_answer_pass": "Ablehnen",
    "gnubg_cube_hint": "Doppler-Rat ({plies}-ply, Equity mit Doppler für dich):\n```\n{table}\n```\nRichtige Doppler-Aktion: **{proper}**.",
    "gnubg_take_hint": "Gegen das Doppel ({plies}-ply, Equity mit Doppler für dich):\n```\n{table}\n```\n**{answer}** ({proper}).",
    "gnubg_plays_hint": "Beste Züge für {dice} (Equity, Abstand zum besten):\n```\n{table}\n```",
    "gnubg_accept_resignation": "Aufgabe angeboten ({offered}): **annehmen**.",
    "gnubg_reject_resignation": "Aufgabe angeboten ({offered}): **zurückweisen**.",
    "gnubg_no_hint": "Kein Tipp: {why}",
    "gnubg_hints_off": "Tipps sind in diesem Match aus: es gibt sie in Spielen gegen den Bot (`{prefix}challenge bot`) und in Herausforderungen, die sie erlauben (`{prefix}challenge @bob 5 hints`, ungewertet).",
    "gnubg_hints_for_players": "Tipps gibt es nur für die Spieler dieses Matches.",
    "gnubg_not_your_decision": "Du bist jetzt nicht am Zug: frag nach einem Tipp, wenn du dran bist.",
    "gnubg_no_cube_decision": "Du kannst jetzt nicht doppeln, also gibt es keine Doppler-Entscheidung: `{prefix}roll`, dann frag nach den besten Zügen.",
    "gnubg_tutor_silent": "Tutor: diesmal kein Kommentar ({why}).",
    "gnubg_tutor_play": "Tutor: `{play}` verliert {loss} Equity. Besser: `{best}` ({best_equity} gegenüber {played_equity}).",
    "gnubg_tutor_cube": "Tutor: {done}: das verliert {loss} Equity. Richtige Doppler-Aktion: **{proper}**.\n```\n{table}\n```",
    "gnubg_done_roll": "Du hast gewürfelt, ohne zu doppeln",
    "gnubg_done_double": "Du hast gedoppelt",
    "gnubg_done_take": "Du hast angenommen",
    "gnubg_done_beaver": "Du hast einen Beaver gegeben",
    "gnubg_done_drop": "Du hast abgelehnt",
    "gnubg_one_level": "Nenne eine Stufe, nicht {levels}.",
    "gnubg_level_and_tutor": "{refusal} Gegen den Bot kannst du auch eine Stufe nennen ({levels}) und `tutor` anfügen.",
    "gnubg_too_many_bot_games": "Du spielst schon {most} Spiele gegen den Bot ({where}): beende eins oder gib eins auf, bevor du ein neues beginnst.",
    "gnubg_queue_done": "Der Bot war beschäftigt: dein Zug hat in der Warteschlange gewartet; hier ist seine Antwort.",
    "gnubg_queue_moved_on": "Der Bot war beschäftigt: dein Zug hat in der Warteschlange gewartet; das Spiel ist inzwischen weitergegangen.",
    "gnubg_queue_gone": "Dieser Zug des Bots steht hier nicht mehr in der Warteschlange (der Bot wurde inzwischen neu gestartet: die Züge, die er schuldet, macht er beim Start). `{prefix}board` zeigt das Spiel.",
    "gnubg_turn_failed": "{name} konnte seinen Zug nicht machen. Das Spiel wartet auf ihn: der Bot versucht es beim nächsten Befehl hier noch einmal, z. B. `{prefix}board`.",
    "gnubg_turn_failed_why": "{name} konnte seinen Zug nicht machen: {why}. Das Spiel wartet auf ihn: der Bot versucht es beim nächsten Befehl hier noch einmal, z. B. `{prefix}board`.",
    "gnubg_analyses_waiting": "Du hast schon {most} Analysen wartend oder laufend: frag nach weiteren, wenn eine davon fertig ist.",
    "gnubg_here_still_played": "Das Match hier (#{id}) wird noch gespielt: analysiert werden kann es, wenn es zu Ende ist. Ein früheres: `{prefix}analysis <Matchnummer>`.",
    "gnubg_none_finished_here": "An diesem Tisch ist noch kein Match zu Ende gegangen: `{prefix}analysis <Matchnummer>` für eines, das anderswo auf diesem Server gespielt wurde.",
    "gnubg_still_played": "Match #{id} wird noch gespielt: analysiert werden kann es, wenn es zu Ende ist.",
    "gnubg_aborted": "Match #{id} wurde abgebrochen: analysiert werden nur beendete Matches.",
    "gnubg_analysis_stopped": "Die Analyse von Match #{id} wurde angehalten: der Bot fährt herunter. Sie beginnt neu, wenn der Bot zurück ist.",
    "gnubg_analysis_not_running": "Die Analyse von Match #{id} läuft nicht: starte sie mit `{prefix}analysis {id}`.",
    "gnubg_accepted": "Füge eine XGID (`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`), eine gnubg-ID (`4HPwATDgc/ABMA:cAkAAAAAAAAE`) oder nur eine Position-ID ein.",
    # -- the review of an analysed match: !review (i18nb)
    "review_start_first": "Beginne zuerst eine Durchsicht: `{prefix}review 12` (eine Matchnummer).",
    "review_decisions_range": "Match #{id} hat die Entscheidungen 1 bis {count} zur Durchsicht, z. B. `{prefix}review {id} 1`.",
    "review_none_finished": "Hier ist noch kein Match zu Ende gegangen: nenne eines, z. B. `{prefix}review 12` (`{prefix}export` zeigt die Nummer eines Matches).",
    "review_not_a_number": "{quoted} ist keine Matchnummer: `{prefix}review 12`, `{prefix}review 12 17` (seine 17. Entscheidung) oder `{prefix}review errors`.",
    "review_no_such_match": "Auf diesem Server gibt es kein Match #{id}.",
    "review_being_analysed": "Match #{id} wird gerade analysiert: `{prefix}review {id}`, sobald das fertig ist.",
    "review_not_analysed": "Match #{id} hat noch keine Analyse: fordere sie mit `{prefix}analysis {id}` an, dann `{prefix}review {id}`.",
    "review_unreadable": "Die Analyse von Match #{id} ist nicht lesbar.",
    "review_nothing_kept": "Match #{id} wurde analysiert, bevor Durchsichten jede Entscheidung behielten, oder hat keine zur Durchsicht.",
    "review_first_page": "Das ist die erste Seite.",
    "review_last_page": "Das ist die letzte Seite.",
    "review_first_decision": "Das ist die erste Entscheidung.",
    "review_last_decision": "Das ist die letzte Entscheidung.",
    "review_no_more_mine": "Nach dieser hast du keine Fehler mehr gemacht.",
    "review_no_more_errors": "Nach dieser gibt es keine Fehler mehr.",
    "review_no_such_page": "Diese Seite gibt es nicht.",
    "review_place": "Spiel {game}, Zug {move}",
    "review_decision": "Entscheidung {page}/{pages} · {place}",
    "review_luck": " · Glück {luck}",
    "review_to_play": "{who} spielt {dice}{luck}",
    "review_played": "Gespielt: **{played}**{verdict}",
    "review_no_legal_move": "kein legaler Zug",
    "review_best": "Am besten: **{best}**",
    "review_to_double": "{who}: doppeln oder nicht",
    "review_facing": "{who}: gegen das Doppel von {doubler}",
    "review_cube_figures": "Kein Doppel {no_double} · Doppel/annehmen {take} · Doppel/ablehnen {drop}",
    "review_proper": "Richtige Aktion: **{proper}** ({plies}-ply, mit Doppler)",
    "review_beaver_unanalysed": "GNU Backgammon hat diese Doppler-Entscheidung nicht analysiert (ein Beaver).",
    "review_agrees": " — gnubg stimmt zu",
    "review_equal_best": " — einer von {count} gleich guten besten Zügen",
    "review_within_best": " — unmarkiert: innerhalb von {within} zum besten Zug von gnubg ({loss})",
    "review_within_action": " — nicht die Aktion von gnubg, unmarkiert: innerhalb von {within} dazu ({loss})",
}
