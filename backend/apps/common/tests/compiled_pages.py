"""Helpers for the tests that compare a list read through its compiled statements
(`apps.common.api.compiled_list`) with the ORM's way of the same request: `views` is the list's view module,
whose `compiled_page` the view calls."""

from __future__ import annotations


def orm_way(monkeypatch, views) -> None:
    """Every list request of the view module goes the ORM's way."""
    monkeypatch.setattr(views, "compiled_page", lambda view, limit: None)


def served(monkeypatch, views) -> list[bool]:
    """Records whether each list request was served by the compiled statements."""
    answers: list[bool] = []
    original = views.compiled_page

    def spy(view, limit):
        rows = original(view, limit)
        answers.append(rows is not None)
        return rows

    monkeypatch.setattr(views, "compiled_page", spy)
    return answers


def pages(client, url: str, params: dict, most: int) -> list:
    """Every page of the list up to `most` (and the one past its end) as status and body."""
    answers = []
    for page in range(1, most + 1):
        response = client.get(url, {**params, "page": page})
        answers.append((response.status_code, response.json()))
        if response.status_code != 200:
            break
    return answers
