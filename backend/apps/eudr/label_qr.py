"""QR codes for carton labels at printer speed: the symbol of a trace URL as a 1-bit image, row by row.

Why not segno per label: it builds each symbol as lists of bytearrays and scores all eight masks
(about 5 ms a label; 0.9 ms with a fixed mask), which capped the label PDF at about 50 labels/s. Every
label of an export encodes a URL of the same length (`<base>/eudrtrace/<code>`), so every symbol has
the same version, error correction level and module layout; only the data and error-correction
codewords differ. `QrLayout` works the layout out once (function patterns, format and version
information, where each codeword's eight bits land, the mask), and `QrLayout.image` then only
computes the codewords (Reed-Solomon over GF(256), one table look-up per data byte) and adds up
precomputed bit patterns, two per codeword: the symbol comes out as one integer whose bytes are the
rows of the image, quiet zone included.

The mask is fixed (`LABEL_MASK`): every mask gives a valid symbol that any reader decodes (the
symbol's format information says which one was used); the standard's penalty score only prefers the
mask with the fewest large blocks and finder-like runs, which matters for marginal print. Mask 3
(diagonals, (row + column) mod 3) is the one segno picked most often for label URLs (73 of 300
random codes on three base URLs; docs/performance.md). Error correction: M, raised to the highest level that
fits the same version, as segno does (`boost_error`).

The symbol is byte mode (ISO-8859-1, segno's default for a URL). The tests compare every symbol
bit for bit with segno's for the same mask, level and version, across lengths and versions
(`apps/eudr/tests/test_label_qr.py`).
"""

from __future__ import annotations

from functools import lru_cache
from operator import getitem, itemgetter

LABEL_MASK = 3
QUIET_ZONE = 4

# Error correction levels in order of strength; their two format bits (ISO/IEC 18004 table 12).
LEVELS = ("L", "M", "Q", "H")
_FORMAT_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}

# Error-correction codewords per block and number of blocks, by level and version 1-40 (ISO/IEC 18004
# table 9); index 0 unused.
_ECC_PER_BLOCK = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30,
          26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
          28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30,
          30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30,
          30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}  # fmt: skip
_BLOCKS = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15,
          16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26,
          28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34,
          35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40,
          42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}  # fmt: skip

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _power in range(255, 512):
    _EXP[_power] = _EXP[_power - 255]


_HIGH_NIBBLE = bytes(value >> 4 for value in range(256))
_LOW_NIBBLE = bytes(value & 15 for value in range(256))


def _gf_mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _raw_data_modules(version: int) -> int:
    """Modules left for codewords and remainder bits once the function patterns are drawn."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        aligns = version // 7 + 2
        result -= (25 * aligns - 10) * aligns - 55
        if version >= 7:
            result -= 36
    return result


def data_capacity(version: int, level: str) -> int:
    """Data codewords of a symbol."""
    return _raw_data_modules(version) // 8 - _ECC_PER_BLOCK[level][version] * _BLOCKS[level][version]


def _byte_mode_bits(version: int, length: int) -> int:
    return 4 + (8 if version <= 9 else 16) + 8 * length


def choose(length: int, level: str = "M", *, boost: bool = True) -> tuple[int, str]:
    """The smallest version holding `length` bytes at `level`, and the strongest level that still fits
    it (with `boost`)."""
    for version in range(1, 41):
        if _byte_mode_bits(version, length) <= data_capacity(version, level) * 8:
            break
    else:
        raise ValueError("too long for a QR code")
    if boost:
        for stronger in LEVELS[LEVELS.index(level) + 1 :]:
            if _byte_mode_bits(version, length) <= data_capacity(version, stronger) * 8:
                level = stronger
    return version, level


def _alignment_positions(version: int) -> list[int]:
    if version == 1:
        return []
    aligns = version // 7 + 2
    size = 17 + 4 * version
    step = (version * 8 + aligns * 3 + 5) // (aligns * 4 - 4) * 2
    return [6] + [size - 7 - i * step for i in range(aligns - 2, -1, -1)]


def _mask_bit(mask: int, row: int, col: int) -> bool:
    if mask == 0:
        return (row + col) % 2 == 0
    if mask == 1:
        return row % 2 == 0
    if mask == 2:
        return col % 3 == 0
    if mask == 3:
        return (row + col) % 3 == 0
    if mask == 4:
        return (row // 2 + col // 3) % 2 == 0
    if mask == 5:
        return (row * col) % 2 + (row * col) % 3 == 0
    if mask == 6:
        return ((row * col) % 2 + (row * col) % 3) % 2 == 0
    return ((row + col) % 2 + (row * col) % 3) % 2 == 0


class QrLayout:
    """One version, level and mask: everything about a symbol except its data, worked out once."""

    def __init__(self, version: int, level: str, mask: int) -> None:
        self.version, self.level, self.mask = version, level, mask
        size = self.size = 17 + 4 * version
        dark = [[False] * size for _ in range(size)]
        function = [[False] * size for _ in range(size)]

        def put(row: int, col: int, is_dark: bool) -> None:
            dark[row][col] = is_dark
            function[row][col] = True

        for i in range(size):
            put(6, i, i % 2 == 0)
            put(i, 6, i % 2 == 0)
        for centre_row, centre_col in ((3, 3), (3, size - 4), (size - 4, 3)):
            for dr in range(-4, 5):
                for dc in range(-4, 5):
                    row, col = centre_row + dr, centre_col + dc
                    if 0 <= row < size and 0 <= col < size:
                        put(row, col, max(abs(dr), abs(dc)) not in (2, 4))
        positions = _alignment_positions(version)
        last = len(positions) - 1
        for i, centre_row in enumerate(positions):
            for j, centre_col in enumerate(positions):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue  # under a finder pattern
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        put(centre_row + dr, centre_col + dc, max(abs(dr), abs(dc)) != 1)
        # format information: the level, the mask, a BCH(15,5) code, XORed with 0x5412
        data = _FORMAT_LEVEL_BITS[level] << 3 | mask
        rem = data
        for _ in range(10):
            rem = (rem << 1) ^ ((rem >> 9) * 0x537)
        bits = (data << 10 | rem) ^ 0x5412

        def bit(value: int, i: int) -> bool:
            return (value >> i) & 1 == 1

        for i in range(6):
            put(i, 8, bit(bits, i))
        put(7, 8, bit(bits, 6))
        put(8, 8, bit(bits, 7))
        put(8, 7, bit(bits, 8))
        for i in range(9, 15):
            put(8, 14 - i, bit(bits, i))
        for i in range(8):
            put(8, size - 1 - i, bit(bits, i))
        for i in range(8, 15):
            put(size - 15 + i, 8, bit(bits, i))
        put(size - 8, 8, True)
        if version >= 7:
            rem = version
            for _ in range(12):
                rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
            bits = version << 12 | rem
            for i in range(18):
                a, b = size - 11 + i % 3, i // 3
                put(b, a, bit(bits, i))
                put(a, b, bit(bits, i))

        # The image: one integer, big-endian, rows of `stride` bits (a whole number of bytes), the
        # quiet zone around the symbol; a set bit is a dark module.
        side = self.side = size + 2 * QUIET_ZONE
        stride = self.stride = (side + 7) // 8 * 8
        total = side * stride

        def image_bit(row: int, col: int) -> int:
            return 1 << (total - 1 - ((row + QUIET_ZONE) * stride + col + QUIET_ZONE))

        # the codeword modules in placement order: two columns at a time from the right, up and down
        placement: list[tuple[int, int]] = []
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5
            upward = (right + 1) & 2 == 0
            for vert in range(size):
                row = size - 1 - vert if upward else vert
                for col in (right, right - 1):
                    if not function[row][col]:
                        placement.append((row, col))
            right -= 2
        codewords = self.codewords = _raw_data_modules(version) // 8
        base = 0
        for row in range(size):
            for col in range(size):
                if function[row][col] and dark[row][col]:
                    base |= image_bit(row, col)
        for row, col in placement[codewords * 8 :]:  # remainder bits: 0, masked
            if _mask_bit(mask, row, col):
                base |= image_bit(row, col)
        self.base = base
        # For each codeword, its high and its low nibble: the 16 patterns each value leaves, mask applied.
        self.high: list[tuple[int, ...]] = []
        self.low: list[tuple[int, ...]] = []
        for index in range(codewords):
            modules = placement[index * 8 : index * 8 + 8]
            for half, table in ((modules[:4], self.high), (modules[4:], self.low)):
                patterns = []
                for value in range(16):
                    pattern = 0
                    for k, (row, col) in enumerate(half):
                        if bool((value >> (3 - k)) & 1) != _mask_bit(mask, row, col):
                            pattern |= image_bit(row, col)
                    patterns.append(pattern)
                table.append(tuple(patterns))
        self.image_bytes = total // 8

        # Reed-Solomon: blocks of data codewords and their error-correction codewords, interleaved.
        ecc_len = self.ecc_len = _ECC_PER_BLOCK[level][version]
        blocks = _BLOCKS[level][version]
        short_blocks = blocks - codewords % blocks
        short_len = codewords // blocks - ecc_len
        self.blocks = [short_len + (0 if i < short_blocks else 1) for i in range(blocks)]
        self.data_len = sum(self.blocks)
        starts = [sum(self.blocks[:i]) for i in range(blocks)]
        self.block_bounds = [
            (start, start + length) for start, length in zip(starts, self.blocks, strict=True)
        ]
        # the final sequence: the data codewords column by column across the blocks, then the
        # error-correction codewords likewise (ISO/IEC 18004 7.6), as indexes into data + all ecc
        order = [starts[b] + i for i in range(max(self.blocks)) for b in range(blocks) if i < self.blocks[b]]
        order += [self.data_len + b * ecc_len + i for i in range(ecc_len) for b in range(blocks)]
        self.interleave = itemgetter(*order)
        divisor = [0] * (ecc_len - 1) + [1]
        root = 1
        for _ in range(ecc_len):
            for j in range(ecc_len):
                divisor[j] = _gf_mul(divisor[j], root)
                if j + 1 < ecc_len:
                    divisor[j] ^= divisor[j + 1]
            root = _gf_mul(root, 2)
        # the divisor times each factor, as an integer of ecc_len bytes (the remainder register)
        self.multiples = tuple(
            int.from_bytes(bytes(_gf_mul(coef, factor) for coef in divisor), "big") for factor in range(256)
        )
        self.register_mask = (1 << (8 * ecc_len)) - 1
        self.top_shift = 8 * (ecc_len - 1)

    def _ecc(self, data: bytes) -> bytes:
        register, multiples, shift, keep = 0, self.multiples, self.top_shift, self.register_mask
        for byte in data:
            register = ((register << 8) & keep) ^ multiples[byte ^ (register >> shift)]
        return register.to_bytes(self.ecc_len, "big")

    def data_codewords(self, payload: bytes) -> bytes:
        """The data codewords of `payload` in byte mode: mode, count, the bytes, the terminator, zero
        bits to the byte boundary, then the pad codewords 0xEC and 0x11 alternately (ISO/IEC 18004
        7.4)."""
        count_bits = 8 if self.version <= 9 else 16
        length = len(payload)
        capacity_bits = self.data_len * 8
        used = 4 + count_bits + 8 * length
        if used > capacity_bits:
            raise ValueError("payload too long for this layout")
        value = ((0b0100 << count_bits | length) << (8 * length)) | int.from_bytes(payload, "big")
        terminator = min(4, capacity_bits - used)
        used += terminator
        padding = -used % 8
        value <<= terminator + padding
        data = value.to_bytes((used + padding) // 8, "big")
        return data + (b"\xec\x11" * self.data_len)[: self.data_len - len(data)]

    def image_int_from_data(self, data: bytes) -> int:
        """The image, as one integer, of a symbol carrying these data codewords."""
        if len(data) != self.data_len:
            raise ValueError("data codewords do not fill this layout")
        ecc = self._ecc
        everything = data + b"".join([ecc(data[start:end]) for start, end in self.block_bounds])
        sequence = bytes(self.interleave(everything))
        return (
            self.base
            + sum(map(getitem, self.high, sequence.translate(_HIGH_NIBBLE)))
            + sum(map(getitem, self.low, sequence.translate(_LOW_NIBBLE)))
        )

    def image_int(self, payload: bytes) -> int:
        return self.image_int_from_data(self.data_codewords(payload))

    def image(self, payload: bytes) -> bytes:
        """The symbol with its quiet zone: `side` rows of `stride // 8` bytes, 1 = dark, first module in
        the high bit."""
        return self.image_int(payload).to_bytes(self.image_bytes, "big")

    def matrix(self, value: int) -> list[list[int]]:
        """The symbol of an image integer without its quiet zone, as rows of 0/1 (to compare with
        other encoders)."""
        total = self.side * self.stride
        return [
            [
                (value >> (total - 1 - ((row + QUIET_ZONE) * self.stride + col + QUIET_ZONE))) & 1
                for col in range(self.size)
            ]
            for row in range(self.size)
        ]


@lru_cache(maxsize=8)
def layout(version: int, level: str, mask: int = LABEL_MASK) -> QrLayout:
    return QrLayout(version, level, mask)


# Above this version the precomputed patterns grow past a few megabytes a layout (32 integers per
# codeword, each up to the whole image): longer payloads are drawn by segno (with the same mask).
FAST_VERSIONS = 10


def symbol_image(payload: bytes) -> tuple[int, bytes]:
    """(side, image) of the label QR symbol of `payload`, quiet zone included: `side` rows of
    `(side + 7) // 8` bytes, 1 = dark, first module in the high bit."""
    version, level = choose(len(payload))
    if version <= FAST_VERSIONS:
        fast = layout(version, level, LABEL_MASK)
        return fast.side, fast.image(payload)
    import segno

    matrix = segno.make(payload, error=level.lower(), mask=LABEL_MASK, mode="byte", micro=False).matrix
    side = len(matrix) + 2 * QUIET_ZONE
    stride = (side + 7) // 8 * 8
    rows = bytearray()
    blank = bytes(stride // 8)
    rows += blank * QUIET_ZONE
    for row in matrix:
        bits = "0" * QUIET_ZONE + "".join("1" if module else "0" for module in row)
        rows += int(bits.ljust(stride, "0"), 2).to_bytes(stride // 8, "big")
    rows += blank * QUIET_ZONE
    return side, bytes(rows)


@lru_cache(maxsize=64)
def layout_for(length: int, level: str = "M", mask: int = LABEL_MASK) -> QrLayout:
    """The layout of a byte-mode symbol of `length` bytes at `level` (raised as far as it fits)."""
    version, level = choose(length, level)
    return layout(version, level, mask)
