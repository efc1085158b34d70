"""Published counts of k nonattacking queens on square and rectangular boards.

The families are those of Václav Kotesovec's *Non-attacking chess pieces* (6th edition,
2013), as the OEIS holds them, with H. Tarry's 1890 formula for four queens on four rows:

* ``A036464`` -- 2 queens on an n x n board, by its formula n(n-1)(n-2)(3n-1)/6;
* ``A047659`` -- 3 queens on an n x n board, n = 0..31;
* ``A176186`` -- 6 queens on an n x n board, n = 6..10;
* ``A061989``, ``A061990``, ``A061991``, ``A061992`` -- k queens on a k x n board for
  k = 3, 4, 5, 6 (A061990 from n = 7 by Tarry's formula n^4 - 18n^3 + 139n^2 - 534n + 840);
* ``A269133`` -- m queens on an m x n board, 1 <= m <= n <= 10 (the triangle read by rows).

A board of r rows and c columns holds at most min(r, c) queens, one per row and column;
with that many it is the family of min(r, c) queens on a min(r, c) x max(r, c) board,
either way round (transposing a board keeps every queen's attacks).
:func:`k_queens_count` answers from these; :func:`queenslab.data.known_values` reads it.
"""

from __future__ import annotations

__all__ = ["A047659", "A061989", "A061990", "A061991", "A061992", "A176186", "A269133", "k_queens_count"]

#: A047659(n), n = 0..31: 3 nonattacking queens on an n x n board.
A047659 = (0, 0, 0, 0, 24, 204, 1024, 3628, 10320, 25096, 54400, 107880, 199400, 348020, 579264, 926324,
           1431584, 2148048, 3141120, 4490256, 6291000, 8656860, 11721600, 15641340, 20597104, 26797144,
           34479744, 43915768, 55411720, 69312516, 86004800, 105919940)  # fmt: skip
#: A061989(n), n = 0..15: 3 nonattacking queens on a 3 x n board.
A061989 = (0, 0, 0, 0, 4, 14, 36, 76, 140, 234, 364, 536, 756, 1030, 1364, 1764)
#: A061990(n), n = 0..6: 4 nonattacking queens on a 4 x n board (Tarry's formula beyond).
A061990 = (0, 0, 0, 0, 2, 12, 46)
#: A061991(n), n = 0..14: 5 nonattacking queens on a 5 x n board.
A061991 = (0, 0, 0, 0, 0, 10, 40, 164, 568, 1614, 3916, 8492, 16852, 31100, 54068)
#: A061992(n), n = 0..13: 6 nonattacking queens on a 6 x n board.
A061992 = (0, 0, 0, 0, 0, 0, 4, 94, 550, 2292, 7552, 21362, 52856, 117694)
#: A176186(n), n = 6..10: 6 nonattacking queens on an n x n board.
A176186 = {6: 4, 7: 832, 8: 22708, 9: 312956, 10: 2716096}
#: A269133, m nonattacking queens on an m x n board: the triangle's rows n = 1..10, m = 1..n.
A269133 = (1, 2, 0, 3, 2, 0, 4, 6, 4, 2, 5, 12, 14, 12, 10, 6, 20, 36, 46, 40, 4, 7, 30, 76, 140, 164, 94, 40,
           8, 42, 140, 344, 568, 550, 312, 92, 9, 56, 234, 732, 1614, 2292, 2038, 1066, 352, 10, 72, 364, 1400,
           3916, 7552, 9632, 7828, 4040, 724)  # fmt: skip

#: The rows families, by the number of rows (and of queens) of the short side.
_ROWS_FAMILIES = {3: ("A061989", A061989), 5: ("A061991", A061991), 6: ("A061992", A061992)}


def _tarry(n: int) -> int:
    """Four queens on a 4 x n board for n >= 7 (H. Tarry, 1890)."""
    return n**4 - 18 * n**3 + 139 * n**2 - 534 * n + 840


def k_queens_count(rows: int, columns: int, queens: int) -> tuple[int, str] | None:
    """The published count of ``queens`` nonattacking queens on a ``rows`` x ``columns``
    board and the OEIS sequence it comes from, or None when no family here holds it.

    Examples
    --------
    >>> k_queens_count(8, 8, 3)
    (10320, 'OEIS A047659')
    >>> k_queens_count(8, 8, 2), k_queens_count(4, 10, 4), k_queens_count(10, 4, 4)
    ((1288, 'OEIS A036464'), (1400, 'OEIS A061990'), (1400, 'OEIS A061990'))
    >>> k_queens_count(7, 9, 7), k_queens_count(8, 8, 5) is None
    ((2038, 'OEIS A269133'), True)
    """
    short, long = min(rows, columns), max(rows, columns)
    if rows == columns:
        n = rows
        if queens == 2:
            return n * (n - 1) * (n - 2) * (3 * n - 1) // 6, "OEIS A036464"
        if queens == 3 and n < len(A047659):
            return A047659[n], "OEIS A047659"
        if queens == 6 and n in A176186:
            return A176186[n], "OEIS A176186"
    if queens != short or rows == columns:
        return None  # fewer queens than the short side, or the square n queens (A000170)
    if short == 4:
        return (A061990[long] if long < len(A061990) else _tarry(long)), "OEIS A061990"
    if short in _ROWS_FAMILIES and long < len(_ROWS_FAMILIES[short][1]):
        name, terms = _ROWS_FAMILIES[short]
        return terms[long], f"OEIS {name}"
    if long <= 10:
        return A269133[(long - 1) * long // 2 + short - 1], "OEIS A269133"
    return None
