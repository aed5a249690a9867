import datetime

from django.utils import translation

from apps.common.dates import day_text


def test_english_day_matches_the_web_app():
    assert day_text(datetime.date(2026, 11, 26), "en") == "26 Nov 2026"
    assert day_text(datetime.date(2027, 1, 5), "en") == "5 Jan 2027"


def test_chinese_day_matches_the_web_app():
    assert day_text(datetime.date(2026, 11, 26), "zh") == "2026年11月26日"
    assert day_text(datetime.date(2027, 1, 5), "zh-hans") == "2027年1月5日"


def test_active_language_is_the_default():
    day = datetime.date(2026, 3, 9)
    with translation.override("zh-hans"):
        assert day_text(day) == "2026年3月9日"
    with translation.override("en"):
        assert day_text(day) == "9 Mar 2026"


def test_datetime_is_its_calendar_day_and_none_is_empty():
    assert day_text(datetime.datetime(2026, 12, 30, 23, 59), "en") == "30 Dec 2026"
    assert day_text(None, "en") == ""
