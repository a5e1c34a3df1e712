"""Turkish slash commands: names, descriptions, options and choices."""

# ruff: noqa: E501, RUF001 (a translation reads best on one line, in its own letters)
from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "challenge": ("meydan-oku", "N sayılık bir maç ya da para oyunu teklif et"),
    "accept": ("kabul", "Sana yapılan meydan okumayı ya da teslim teklifini kabul et"),
    "decline": ("geri-çevir", "Sana yapılan bir meydan okumayı geri çevir"),
    "cancel": ("iptal", "Yaptığın meydan okumayı geri çek"),
    "rematch": ("rövanş", "Maçtan sonra: aynı maçı yeniden teklif et ya da rövanşı kabul et"),
    "roll": ("zar-at", "Sıra sendeyken zar at"),
    "move": (
        "hamle",
        "Zarını oyna: gnubg yazımı (24/18*/13, bar/22, 6/off, 8/2(2)) ya da FIBS (13-7)",
    ),
    "double": ("vido", "Zar atmadan önce vido yap: küpü teklif et"),
    "take": ("küpü-al", "Vidoyu al: küp iki katı değerle senin olur"),
    "drop": ("pes", "Vidoya pes et: oyunu mevcut küp değeriyle kaybedersin"),
    "beaver": (
        "beaver",
        "Beaver'lı para oyunları: alıp hemen yeniden vido yap, küp sende kalır",
    ),
    "resign": ("teslim", "Oyunu teslim etmeyi teklif et; rakibin kabul eder ya da reddeder"),
    "reject": ("reddet", "Teslim teklifini reddet ve oynamaya devam et"),
    "hint": ("ipucu", "GNU Backgammon'un kararın için önerisi, yalnızca sana"),
    "board": ("tahta", "Tahtayı yeniden göster, oynuyorsan kendi tarafından"),
    "pips": ("pip", "İki oyuncunun pip sayıları"),
    "score": ("skor", "Maç skoru, küp, Crawford"),
    "abort": ("durdur", "Maçı puansız iptal et; iki oyuncu da yazmalı"),
    "claim": ("hak-talep", "Rakibin oynamayı bıraktığında maçı kazan"),
    "export": ("dışa-aktar", "gnubg Position ve Match ID; bitince .mat kaydı ve zar tohumu"),
    "void": ("geçersiz-kıl", "Moderatörler: bu kanaldaki maçı puansız bitir"),
    "analysis": ("analiz", "Biten bir maçın GNU Backgammon analizi: PR, hatalar, şans, grafik"),
    "show": ("göster", "Yapıştırılan bir pozisyonu çiz: XGID ya da gnubg ID"),
    "eval": ("değerlendir", "Yapıştırılan bir pozisyonun GNU Backgammon analizi"),
    "tournament": ("turnuva", "Turnuva düzenle: eleme, İsviçre sistemi ya da herkes herkesle"),
    "join": ("katıl", "Bu sunucuda kaydı açık olan turnuvaya katıl"),
    "leave": ("ayrıl", "Bir turnuvadan başlamadan önce ayrıl"),
    "review": (
        "incele",
        "Analiz edilmiş bir maçı adım adım incele, her kararı GNU Backgammon'un en iyisiyle",
    ),
    "drill": ("alıştırma", "Analiz edilmiş maçlardaki kendi hatalarını zamana yayarak çalış"),
    "puzzle": (
        "bulmaca",
        "Puanlı bulmaca: GNU Backgammon'un en iyi hamlesini ya da küp kararını bul",
    ),
    "leaderboard": ("sıralama", "Sunucunun ilk 10'u ve senin sıran"),
    "dice": ("zarlar", "Sunucunun zar istatistikleri: her sayı, çiftler, ki-kare"),
    "stats": ("istatistik", "Bir oyuncunun puanı ve geçmişi"),
    "settings": ("ayarlar", "Sunucunun yazılan komutlara yanıt dili"),
    "help": ("yardım", "Bu liste, ya da bir komutun ayrıntısı"),
}

OPTIONS: dict[str, tuple[str, str]] = {
    "challenge.opponent": ("rakip", "Kime meydan okuyorsun"),
    "challenge.length": (
        "uzunluk",
        "Sayı (1-25) ya da 'money' [jacoby beavers auto]; 'hints'; bota karşı: düzey, 'tutor'",
    ),
    "move.play": ("hamle", "Hamlen, örneğin 13/7 8/7, bar/22, 6/off ya da 8/2(2)"),
    "resign.level": ("düzey", "Ne kadarını veriyorsun (varsayılan: single)"),
    "export.match": ("maç", "Maç numarası (varsayılan: bu masanın son maçı)"),
    "analysis.match": ("maç", "Maç numarası (varsayılan: bu masanın son biten maçı)"),
    "show.position": ("pozisyon", "Bir XGID ya da gnubg PositionID:MatchID"),
    "eval.position": ("pozisyon", "Bir XGID ya da gnubg PositionID:MatchID"),
    "tournament.what": (
        "ne",
        "create AD BİÇİM UZUNLUK, join, leave, start, pause, resume, remove, result, cancel, report",
    ),
    "join.tournament": ("turnuva", "Hangi turnuva (varsayılan: açık olan)"),
    "leave.tournament": ("turnuva", "Hangi turnuva (varsayılan: açık olan)"),
    "review.what": ("ne", "Maç numarası [karar], 'next' ya da 'errors'"),
    "drill.what": (
        "ne",
        "Boş: sıradaki alıştırma; 'stats'; ya da cevabın (hamle, double, take...)",
    ),
    "puzzle.what": ("ne", "Boş: bir bulmaca; 'rating', 'top', 'misses'; ya da cevabın"),
    "stats.member": ("üye", "Kimin geçmişi (varsayılan: seninki)"),
    "settings.what": ("ne", "language <kod>: en, el, tr, it, de ya da es (boş: dili göster)"),
    "help.command": ("komut", "Açıklanacak komut"),
}

CHOICES: dict[str, str] = {"single": "tek", "gammon": "mars", "backgammon": "backgammon"}
