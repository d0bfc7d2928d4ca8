import numpy as np
import pytest

from solver.cells import ALL_CODES, COVERED
from solver.textboard import BoardFormatError, diff_boards, format_board, parse_board


def test_round_trip_every_code() -> None:
    board = np.array([list(ALL_CODES)], dtype=np.int8)
    assert (parse_board(format_board(board)) == board).all()


def test_comments_are_skipped() -> None:
    board = parse_board("# mines 99\n..\n# mid comment\n12\n")
    assert board.shape == (2, 2) and board[0, 0] == COVERED and board[1, 1] == 2


@pytest.mark.parametrize(
    ("text", "where"),
    [("..\n.9\n", "line 2, column 2"), ("...\n..\n", "line 2, column 3"), ("# only\n", "line 1")],
)
def test_malformed_board_names_line_and_column(text: str, where: str) -> None:
    with pytest.raises(BoardFormatError, match=where):
        parse_board(text)


def test_diff_lists_each_mismatch() -> None:
    assert diff_boards(parse_board("1.\n.."), parse_board("1F\n.2")) == [
        "(0, 1): expected ., read F",
        "(1, 1): expected ., read 2",
    ]
