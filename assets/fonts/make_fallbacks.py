"""Rebuild the fallback fonts in this folder (a maintainer's tool; the bot never runs it).

Sources (all free software): Debian's ``fonts-noto-core``, ``fonts-noto-cjk`` and
``fonts-unifont`` packages (``apt-get download NAME && dpkg-deb -x NAME_*.deb DIR``) and the npm
package ``@expo-google-fonts/noto-emoji`` (``npm pack``; the monochrome Noto Emoji, OFL). Needs
fontTools (``pip install fonttools``)::

    python assets/fonts/make_fallbacks.py --noto-core DIR --noto-cjk DIR --unifont DIR \
        --noto-emoji DIR

The CJK font is cut to the Han characters of GB 2312, JIS X 0208 and Big5 level 1, the 2,350
Hangul syllables of KS X 1001, kana, CJK punctuation and full-width forms (about 13,000 glyphs,
2.6 MB instead of 20 MB). Unifont, the last resort, keeps the Basic Multilingual Plane minus
what the fonts before it draw, CJK ideographs, Hangul syllables and private use; its upper half
(the Supplementary Multilingual Plane) keeps what no font before it draws but compatibility
forms, and Noto Sans Cuneiform, Egyptian and
Anatolian Hieroglyphs and Bamum draw the scripts Unifont leaves out.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTO_SCRIPTS = ("Arabic", "Devanagari", "Bengali", "Tamil", "Thai")
UPPER_NOTO_SCRIPTS = ("Cuneiform", "EgyptianHieroglyphs", "AnatolianHieroglyphs", "Bamum")
WEIGHTS = ("Regular", "Bold")
"""Both weights of the Noto fonts: a name in regular text is not drawn bold (bold marks a
winner or a highlight). Noto Emoji and Unifont have one weight each."""


def _decoded(codec: str, rows: range, cols: list[int]) -> set[int]:
    found: set[int] = set()
    for row in rows:
        for col in cols:
            try:
                text = bytes([row, col]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def cjk_code_points() -> set[int]:
    high = list(range(0xA1, 0xFF))
    han = (_decoded("gb2312", range(0xB0, 0xF8), high)
           | _decoded("euc_jp", range(0xB0, 0xF5), high)
           | _decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *high]))
    han = {code for code in han if 0x4E00 <= code <= 0x9FFF}
    hangul = {code for code in _decoded("euc_kr", range(0xB0, 0xC9), high)
              if 0xAC00 <= code <= 0xD7A3}
    rest = {*range(0x3000, 0x3100), *range(0x3130, 0x3190), *range(0xFF00, 0xFFF0)}
    return han | hangul | rest


def plain(codes: set[int]) -> set[int]:
    """``codes`` without compatibility forms (mathematical letters and the like: the renderer
    draws them as the plain letters they stand for)."""
    return {code for code in codes if unicodedata.normalize("NFKC", chr(code)) == chr(code)}


def subset(source: Path, target: Path, codes: set[int], *, number: int = 0) -> None:
    """``source`` cut to ``codes``, without hinting or OpenType layout (neither CJK nor
    Unifont needs shaping to be readable, and CJK's layout tables are half its size)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(f"U+{code:04X}" for code in sorted(codes)))
    subprocess.run(["pyftsubset", str(source), f"--font-number={number}",
                    f"--unicodes-file={listing.name}", f"--output-file={target}",
                    "--no-hinting", "--layout-features=", "--drop-tables+=GSUB,GPOS,VORG,vhea,vmtx"],
                   check=True)
    Path(listing.name).unlink()


def main() -> None:
    from fontTools.ttLib import TTFont

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("noto-core", "noto-cjk", "unifont", "noto-emoji"):
        parser.add_argument(f"--{name}", type=Path, required=True)
    args = parser.parse_args()

    def find(root: Path, name: str) -> Path:
        return next(root.rglob(name))

    covered: set[int] = set(TTFont(HERE / "DejaVuSans-Bold.ttf").getBestCmap())
    for script in NOTO_SCRIPTS:
        for weight in WEIGHTS:
            source = find(args.noto_core, f"NotoSans{script}-{weight}.ttf")
            shutil.copyfile(source, HERE / source.name)
            covered |= set(TTFont(source).getBestCmap())
    cjk = cjk_code_points()
    for weight in WEIGHTS:
        subset(find(args.noto_cjk, f"NotoSansCJK-{weight}.ttc"),
               HERE / f"NotoSansCJKjp-{weight}-subset.otf", cjk, number=0)
    emoji = find(args.noto_emoji, "NotoEmoji_700Bold.ttf")
    shutil.copyfile(emoji, HERE / "NotoEmoji-Bold.ttf")
    covered |= cjk | set(TTFont(emoji).getBestCmap())
    unifont = find(args.unifont, "unifont.otf")
    skipped = {*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000), *range(0xAC00, 0xD7A4),
               *range(0xE000, 0xF900)}
    rest = set(TTFont(unifont).getBestCmap()) - covered - skipped
    subset(unifont, HERE / "unifont-subset.otf", rest)
    # The Supplementary Multilingual Plane: Unifont's upper half, then the only Noto Sans
    # fonts of fonts-noto-core that draw what none before them does (one weight each).
    upper = find(args.unifont, "unifont_upper.otf")
    subset(upper, HERE / "unifont-upper.otf", plain(set(TTFont(upper).getBestCmap()) - covered))
    for script in UPPER_NOTO_SCRIPTS:
        source = find(args.noto_core, f"NotoSans{script}-Regular.ttf")
        shutil.copyfile(source, HERE / source.name)


if __name__ == "__main__":
    main()
