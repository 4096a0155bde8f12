from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetopt import ArgumentError
from hetopt.placement import categories, category_at, category_index, n_categories


def test_paper_order_k5_s3():
    assert categories(3, 5) == [(3, 1, 1), (2, 2, 1), (1, 3, 1), (2, 1, 2), (1, 2, 2), (1, 1, 3)]


def test_paper_ids_k15_s4():
    cats = categories(4, 15)
    assert len(cats) == 364
    # Section V-B: IDs (1-based) 18, 159, 94 and the last one
    assert cats[17] == (6, 6, 2, 1) and cats[158] == (5, 5, 2, 3) and cats[93] == (6, 5, 2, 2)
    assert cats[0] == (12, 1, 1, 1) and cats[-1] == (1, 1, 1, 12)


@settings(derandomize=True, deadline=None, max_examples=30)
@given(st.integers(1, 5), st.integers(0, 7))
def test_count_distinct_and_unranking(S, extra):
    K = S + extra
    cats = categories(S, K)
    assert len(cats) == len(set(cats)) == comb(K - 1, S - 1) == n_categories(S, K)
    assert all(sum(c) == K and min(c) >= 1 for c in cats)
    for i, c in enumerate(cats):
        assert category_at(S, K, i) == c and category_index(c) == i


def test_bad_sizes():
    with pytest.raises(ArgumentError):
        categories(4, 3)
    with pytest.raises(ArgumentError, match="index"):
        category_at(2, 4, 3)
    with pytest.raises(ArgumentError, match="n_jobs"):
        categories(True, 3)
