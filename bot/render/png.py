"""PNG bytes of a palette image, written here rather than by Pillow for speed.

Pillow deflates with zlib, 1.6-1.9 ms for a 900x734 board at its fastest levels (1-3); ISA-L's
deflate (``isal``) at its level 1 takes 0.2 ms for the same pixels and a smaller file (38 KB
against 41 KB; ``bench/render.py``). Each row is stored unfiltered (filter byte 0), as Pillow does
for palette images.

A board's rows are deflated in runs (:func:`deflated`), each ending on a full flush, so that it
decodes without the rows before it: a board that differs from one before only in some runs
(a roll's board: its dice and status line) deflates those alone and writes the others as that
board's (:func:`png_of_runs`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from isal import isal_zlib
from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_LEVEL = 1
_SMALL = 1 << 17  # fewer bytes than this deflate quicker at ISA-L's level 0 (its static codes)
_ZLIB_HEADER = b"\x78\x01"  # deflate, a 32 KB window, no dictionary
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): the stream's end
_ADLER_BASE = 65521

Run = tuple[bytes, int, int]
"""Rows deflated apart (raw deflate ending on a full flush), their Adler-32 and length."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind)))
    )


def png_bytes(paletted: Image.Image) -> bytes:
    """``paletted`` (a "P" image with an RGB palette) as PNG bytes, 8 bits a pixel."""
    if paletted.mode != "P":
        raise ValueError(f"a palette image is needed, not mode {paletted.mode!r}")
    width, height = paletted.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(paletted, (1, 0))
    return png_of_rows(rows, bytes((paletted.getpalette() or [])[: 3 * 256]))


def png_of_rows(rows: Image.Image, palette: bytes) -> bytes:
    """PNG bytes of a "P" image one column wider than the picture: the first column zeros, each
    row's filter byte (0: none), the rest the picture's pixels on ``palette`` (RGB bytes). A board
    drawn on such an image is written without copying it into one."""
    width, height = rows.size
    header = struct.pack(">IIBBBBB", width - 1, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", isal_zlib.compress(pixels(rows), _LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def png_of_runs(size: tuple[int, int], palette: bytes, runs: Sequence[Run]) -> bytes:
    """PNG bytes of a picture of ``size`` whose rows (each a filter byte 0, then the pixels on
    ``palette``) are ``runs`` (:func:`deflated`), top to bottom: the runs copied once."""
    width, height = size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    adler = 1
    for _, checksum, length in runs:
        adler = _adler_combine(adler, checksum, length)
    stream = [_ZLIB_HEADER, *(run[0] for run in runs), _LAST_BLOCK, struct.pack(">I", adler)]
    crc = isal_zlib.crc32(b"IDAT")
    for piece in stream:
        crc = isal_zlib.crc32(piece, crc)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            struct.pack(">I", sum(len(piece) for piece in stream)),
            b"IDAT",
            *stream,
            struct.pack(">I", crc),
            _chunk(b"IEND", b""),
        )
    )


def deflated(data: bytes | memoryview) -> Run:
    """``data`` (whole rows) as a :data:`Run`: it decodes on its own, in any stream."""
    level = 0 if len(data) < _SMALL else _LEVEL  # a board's dice: 15 against 25 us, 1 KB more
    deflater = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
    body = deflater.compress(data) + deflater.flush(isal_zlib.Z_FULL_FLUSH)
    return body, isal_zlib.adler32(data), len(data)


def _adler_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two pieces of data from each one's and the second's ``length``
    (zlib's ``adler32_combine``)."""
    rest = length % _ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = (rest * (first & 0xFFFF) + (first >> 16) + (second >> 16) - rest) % _ADLER_BASE
    return low | high << 16


def pixels(rows: Image.Image) -> bytes:
    """``rows.tobytes()`` in one piece: Pillow's ``tobytes`` encodes 64 KB at a time and joins
    the pieces (0.1-0.6 ms for a board's 661 KB), one call that fits them all takes 0.02 ms."""
    encoder = Image._getencoder(rows.mode, "raw", rows.mode)
    try:
        encoder.setimage(rows.im, (0, 0, *rows.size))
        _, done, data = encoder.encode(rows.width * rows.height + 1)
    finally:
        encoder.cleanup()
    return data if done == 1 else rows.tobytes()


def encode_png(image: Image.Image, *, palette: Image.Image | None = None) -> bytes:
    """PNG bytes with a 256-colour palette (the board has few colours), deflated fast
    (here).

    With ``palette`` (a "P" image) every pixel takes the nearest colour of that palette, which is
    five times quicker than working out a new palette for each image.
    """
    if palette is None:
        paletted = image.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    else:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return png_bytes(paletted)
