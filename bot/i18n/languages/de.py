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
    # -- puzzles (issue 34, branch i18na): !puzzle, asking and its verdict --
    "puzzle_right": "✅ {said} ist gnubgs bester Zug.",
    "puzzle_wrong": "❌ {said} verliert {loss}; gnubgs bester: **{best}**.",
    "puzzle_answer_with_play": "antworte mit {form}",
    "puzzle_answer_with_words": "`{prefix}puzzle {yes}` oder `{prefix}puzzle {no}` (oder die Buttons)",
    "puzzle_your_play": "Dein Zug?",
    "puzzle_double_q": "Doppeln?",
    "puzzle_take_or_pass_q": "Annehmen oder ablehnen?",
    "puzzle_you_are": "{head} Du bist {side}.",
    "puzzle_asked": "{question} {how}.",
    "puzzle_not_the_one_waiting": "Dieses Puzzle wartet nicht auf deine Antwort: `{prefix}puzzle` zeigt deins.",
    "puzzle_none_waiting": "Kein Puzzle wartet auf deine Antwort: `{prefix}puzzle` gibt dir eins (oder `{prefix}puzzle rating`, `top`, `misses`).",
    "puzzle_seen_every": "Du hast in letzter Zeit jedes Puzzle nahe deiner Wertung gesehen: versuch es später noch einmal.",
    "puzzle_waiting_note": "wartet auf deine Antwort",
    "puzzle_you_note": "du: {rating}",
    "puzzle_misses_note": ("{n} Fehler in letzter Zeit", "{n} Fehler in letzter Zeit"),
    "puzzle_head": "**Puzzle für {name}** ({note}).",
    "puzzle_replay_head": "**Wiederholung eines verpassten Puzzles (ohne Wertung) für {name}** ({note}).",
    "puzzle_answer_first": "Beantworte erst das Puzzle, das auf dich wartet (`{prefix}puzzle` zeigt es).",
    "puzzle_no_misses": "Kein verpasstes Puzzle zum Wiederholen unter deinen letzten {recent}: `{prefix}puzzle` gibt dir ein neues.",
    "puzzle_missed_unreadable": "Das zuletzt verpasste Puzzle kann nicht mehr gelesen werden.",
    "puzzle_unreadable": "Dein Puzzle kann nicht mehr gelesen werden: `{prefix}puzzle` gibt dir ein anderes.",
    "puzzle_still_waiting": "{reason}. Dein Puzzle wartet noch: {how}.",
    "puzzle_answered_already": "Dieses Puzzle wurde schon beantwortet: `{prefix}puzzle` gibt dir ein anderes.",
    "puzzle_replay_unrated": "Eine Wiederholung: keine Wertung ändert sich.",
    "puzzle_missed_drill": "Verpasst: es ist jetzt eine deiner Übungen (`{prefix}drill`), und `{prefix}puzzle misses` wiederholt es.",
    "puzzle_rating_changes": "Deine Puzzle-Wertung: {here} (serverübergreifend {everywhere}) · die des Puzzles: {puzzle}",
    "puzzle_no_rating": "Du hast hier noch keine Puzzle-Wertung: `{prefix}puzzle` gibt dir ein Puzzle.",
    "puzzle_answers": ("{n} Antwort", "{n} Antworten"),
    "puzzle_rating": "**Puzzle-Wertung von {name}**: {here} hier (RD {deviation}, {answers}), {everywhere} serverübergreifend ({answers_everywhere}). `?`: vorläufig, solange die RD {provisional} oder mehr ist.",
    "puzzle_no_top": "Hier hat noch niemand eine feste Puzzle-Wertung: die Puzzle-Bestenliste zeigt Wertungen mit einer RD von {deviation} oder weniger (viele Antworten über einige Tage).",
    "puzzle_top": "**Puzzle-Bestenliste** (RD {deviation} oder weniger)",
    # -- server records (issue 34, branch i18na): the leaderboard, !stats and !dice --
    "records_no_rated_matches": "Noch keine gewerteten Matches auf diesem Server: `{prefix}challenge @user`, um eins zu spielen.",
    "records_leaderboard": "**Bestenliste** (FIBS-Wertung)",
    "records_leaderboard_line": "{place}. {name} {rating} ({wins} gewonnen, {losses} verloren)",
    "records_not_ranked": "{name}: noch nicht platziert (beende ein gewertetes Match).",
    "records_ranked": "{name}: Platz {place} von {players}.",
    "records_rank": "Platz {place} von {players}",
    "records_unranked": "nicht platziert",
    "records_stats": "{name}: Wertung {rating} ({ranked}), Erfahrung {experience}; gewertete Matches {wins} gewonnen, {losses} verloren; {playing} laufend, {aborted} abgebrochen.",
    "records_by_level": " Nach Stufe (gewonnen-verloren): {counts}.",
    "records_against_engine": " Gegen GNU Backgammon (gewonnen-verloren): {counts}.",
    "records_tournaments": " Turniere: {entered} gespielt, {won} gewonnen.",
    "records_tournaments_going_on": " Turniere: {entered} gespielt, {won} gewonnen, {playing} laufend.",
    "records_private": "Spiele in Direktnachrichten sind ungewertet: Wertungen gehören zu einem Server.",
    "records_no_record_yet": "Du hast hier noch keine Bilanz: sie beginnt mit deinem ersten Match (`{prefix}challenge @user` oder `{prefix}challenge bot`).",
    "records_not_a_player": "Ich finde {name} nicht unter den Spielern dieses Servers: niemand dieses Namens hat hier ein Match gespielt. Erwähne einen Spieler (`{prefix}stats @bob`) oder sieh dir `{prefix}leaderboard` an.",
    "records_no_dice": "In den Matches dieses Servers wurde noch nicht gewürfelt.",
    "records_dice_rolled": (
        "Gewürfelt in den Matches dieses Servers: {count} Würfel, Eröffnungswürfe eingeschlossen.",
        "Gewürfelt in den Matches dieses Servers: {count} Würfel, Eröffnungswürfe eingeschlossen.",
    ),
    "records_count": "Anzahl",
    "records_share": "Anteil",
    "records_expected": "(erwartet 16,67 %)",
    "records_chi_square": "Chi-Quadrat {statistic} ({degrees} FG), p = {p}: {verdict}",
    "records_doubles_share": "{doubles} von {rolls} Würfen ({percent} %, erwartet 16,67 %)",
    "records_doubles_tested": "Pasch: {share}; Chi-Quadrat {statistic} (1 FG), p = {p}: {verdict}.",
    "records_doubles": "Pasch: {share}.",
    "records_too_few": "Noch zu wenige Würfe, um die Würfel zu beurteilen: ein fairer Test braucht mindestens {dice} Würfel und {rolls} Würfe, das hier sind also nur die Zahlen.",
    "records_p_means": "p ist die Wahrscheinlichkeit, dass faire Würfel mindestens so weit vom Gleichmaß abweichen; ein kleines p ab und zu ist allein durch Zufall zu erwarten.",
    "records_chance_note": "Unter den vielen Servern, die würfeln, sehen manche ein so kleines p allein durch Zufall.",
    "records_very_unusual": "sehr ungewöhnlich für faire Würfel",
    "records_unusual": "ungewöhnlich für faire Würfel",
    "records_little_unusual": "etwas ungewöhnlich für faire Würfel",
    "records_fair": "im Rahmen fairer Würfel",
    # -- puzzle storms (issue 34, branch i18na) --
    "puzzle_storm_penalty": "{head} -{seconds} s.",
    "puzzle_storm_usage": "`{prefix}puzzle storm` startet einen Sturm; `{prefix}puzzle storm top` zeigt die Besten dieses Servers.",
    "puzzle_storm_another": "`{prefix}puzzle storm` für einen weiteren.",
    "puzzle_storm_elsewhere": "Dein Sturm auf einem anderen Server läuft noch ({left} übrig): einer nach dem anderen.",
    "puzzle_storm_no_puzzle": "Für einen Sturm findet sich hier kein Puzzle: versuch es später noch einmal.",
    "puzzle_storm_running": "Dein Sturm läuft schon: `{prefix}puzzle` zeigt ihn.",
    "puzzle_storm_starts": "⚡ **Puzzle-Sturm für {name}**: {left}, um so viele zu lösen wie du kannst, jedes schwerer als das vorige; eine falsche Antwort kostet {seconds} s. Wertungen ändern sich nicht.",
    "puzzle_storm_unreadable": "Das Puzzle deines Sturms kann nicht mehr gelesen werden.",
    "puzzle_storm_head": "**Sturm von {name}**: noch {left} · Punkte {score} · Puzzle {number} (Wertung {rated}).",
    "puzzle_storm_not_the_one": "Auf dieses Puzzle wartet dein Sturm nicht: `{prefix}puzzle` zeigt deins.",
    "puzzle_storm_time_was_up": "Die Zeit war vor dieser Antwort abgelaufen.",
    "puzzle_storm_still_waiting": "{reason}. Das Puzzle deines Sturms wartet noch (die Uhr läuft).",
    "puzzle_storm_answered": "Dieses Puzzle deines Sturms wurde schon beantwortet.",
    "puzzle_storm_best_so_far": " Dein bisher bestes hier!",
    "puzzle_storm_best": " Dein bestes hier: {best}.",
    "puzzle_storm_wrong_answers": ("{n} falsche Antwort", "{n} falsche Antworten"),
    "puzzle_storm_over": "⏱️ **Der Puzzle-Sturm von {name} ist vorbei**: {score} gelöst, {wrong}.{best}",
    "puzzle_storm_none_ended": "Hier ist noch kein Puzzle-Sturm zu Ende gegangen: `{prefix}puzzle storm` startet einen.",
    "puzzle_storms": ("{n} Sturm", "{n} Stürme"),
    "puzzle_storm_top": "**Puzzle-Sturm-Bestenliste** (bester Lauf)",
}
