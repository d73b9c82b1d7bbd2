"""How reports write numbers and verdicts."""

from __future__ import annotations

import math

import pandas as pd

from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_p,
    fmt_percent,
    fmt_points,
    verdict,
)


def test_number_formats():
    assert fmt_percent(0.2734) == "27.3%"
    assert fmt_points(0.031) == "+3.1 pp"
    assert fmt_points(-0.5) == "-50.0 pp"
    assert fmt_percent(float("nan")) == "n/a"
    assert fmt_interval(0.1, 0.2) == "[10.0%, 20.0%]"
    assert fmt_interval(-0.01, 0.02, points=True) == "[-1.0, +2.0] pp"


def test_a_difference_that_rounds_to_zero_has_no_sign():
    assert fmt_points(-0.00001) == "0.0 pp"
    assert fmt_points(0.00001) == "0.0 pp"
    assert fmt_points(-0.0004, digits=2) == "-0.04 pp"
    assert fmt_interval(-0.235, -0.0000001, points=True) == "[-23.5, 0.0] pp"
    # a bound near 0 keeps the digits that tell it apart from 0
    assert fmt_interval(0.0003, 0.22, points=True) == "[+0.03, +22.0] pp"
    assert fmt_interval(-0.235, -0.00002, points=True) == "[-23.5, -0.002] pp"


def test_intervals_of_a_column():
    low, high = pd.Series([0.1, -0.02]), pd.Series([0.2, 0.01])
    assert fmt_intervals(low, high) == ["[10.0%, 20.0%]", "[-2.0%, 1.0%]"]
    assert fmt_intervals(low, high, points=True) == ["[+10.0, +20.0] pp", "[-2.0, +1.0] pp"]


def test_verdict_words():
    assert verdict(True) == "significant"
    assert verdict(False) == "not significant"
    assert verdict(math.nan) == ""  # nothing tested (a baseline against itself)
    assert pd.Series([True, False]).map(verdict).tolist() == ["significant", "not significant"]


def test_no_difference_prints_as_minus_zero():
    assert fmt_points(-0.00004) == "0.0 pp"
    assert fmt_points(0.0) == "0.0 pp"
    # a bound off zero keeps enough decimals to show which side of 0 it lies
    assert fmt_interval(-0.235, -0.00004, points=True) == "[-23.5, -0.004] pp"


def test_p_values_never_print_as_zero():
    assert fmt_p(0.0) == "< 0.0001"
    assert fmt_p(3.4e-5) == "< 0.0001"
    assert fmt_p(0.0034) == "0.0034"
    assert fmt_p(0.25) == "0.25"
    assert fmt_p(float("nan")) == "n/a"
