"""The pages: the bot page's link, the start form (and its errors), the live page and its JSON, the list, stop."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import BotVersion
from arena.sprt.models import StrengthTest
from arena.sprt.services import strength_test_start
from tests.arena.sprt.pairs import make_versions, play_bins

pytestmark = pytest.mark.django_db

LINK = "Is a version stronger? Run a strength test"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_bot_page_links_its_owner_to_the_start_page(
    alice: User, bob: User, mine: tuple[BotVersion, BotVersion]
) -> None:
    html = logged_in(alice).get("/bots/mybot/").content.decode()
    assert LINK in html and 'href="/sprt/new/?bot=mybot"' in html
    assert LINK not in logged_in(bob).get("/bots/mybot/").content.decode()
    assert LINK not in Client().get("/bots/mybot/").content.decode()


def test_the_start_form_offers_b_among_yours_and_a_among_yours_and_active_bots(
    alice: User, bob: User, mine: tuple[BotVersion, BotVersion], references: dict[str, BotVersion]
) -> None:
    b, a = mine
    bob_active, bob_retired = make_versions(bob, "bobbot", [BotVersion.Status.RETIRED, BotVersion.Status.ACTIVE])
    page = logged_in(alice).get("/sprt/new/?bot=mybot")
    assert page.status_code == 200
    form = page.context["form"]
    assert set(form.fields["version_b"].queryset) == {b, a}
    assert set(form.fields["version_a"].queryset) == {b, a, bob_active, *references.values()}
    assert bob_retired not in form.fields["version_a"].queryset
    assert form.initial["version_b"] == b.pk and form.initial["version_a"] == a.pk
    html = page.content.decode()
    assert 'value="30.0"' in html and 'value="0.05"' in html and 'value="2000"' in html


def test_starting_from_the_form_opens_the_live_page(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    response = logged_in(alice).post("/sprt/new/", {
        "version_b": b.pk, "version_a": a.pk, "preset": "classic", "elo0": 0, "elo1": 50, "alpha": 0.05,
        "beta": 0.1, "max_pairs": 500, "concurrency": 2, "model": "pentanomial",
    })
    test = StrengthTest.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sprt/{test.pk}/"
    assert (test.elo1, test.beta, test.max_pairs, test.author) == (50, 0.1, 500, alice)


def test_the_form_shows_the_services_error(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, _ = mine
    response = logged_in(alice).post("/sprt/new/", {
        "version_b": b.pk, "version_a": b.pk, "preset": "classic", "elo0": 0, "elo1": 30, "alpha": 0.05,
        "beta": 0.05, "max_pairs": 2000, "concurrency": 2, "model": "pentanomial",
    })
    assert response.status_code == 200
    assert "A and B are the same version (mybot v2)" in text(response.content.decode())
    assert not StrengthTest.objects.exists()


def test_the_start_page_and_the_list_need_a_login(db: None) -> None:
    for url in ("/sprt/", "/sprt/new/"):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_live_page_escapes_and_shows_counts_chart_and_links(
    alice: User, bob: User, mine: tuple[BotVersion, BotVersion]
) -> None:
    b, a = mine
    BotVersion.objects.filter(pk=b.pk).update(label="<script>alert('b')</script>")
    b.refresh_from_db()
    test = play_bins(strength_test_start(author=alice, version_b=b, version_a=a), [4, 3, 2])
    html = logged_in(alice).get(f"/sprt/{test.pk}/").content.decode()
    assert "<script>alert(" not in html
    assert "&lt;script&gt;alert(&#x27;b&#x27;)&lt;/script&gt;" in html
    page = text(html)
    assert "Is mybot v2 (&lt;script&gt;" in page and "stronger than mybot v1?" in page
    assert "Pairs counted 3 of at most 2000 ( 6 games)" in page
    assert "pairs 0 0 1 1 1 " in page  # pentanomial 0, 1/4, 1/2, 3/4, 1
    assert "Running: 3 pairs played." in page
    assert "chart.umd.min.js" in html and "sprt/sprt.js" in html
    data = json.loads(html.split('id="sprt-data" type="application/json">')[1].split("</script>")[0])
    assert data["history"] == [[0, 0.0], *[[n, pytest.approx(p[1])] for n, p in enumerate(test.history[1:], 1)]]
    assert data["lower"] == pytest.approx(-2.9444, abs=1e-4) and data["upper"] == pytest.approx(2.9444, abs=1e-4)
    for pair in test.pairs_played.all():
        assert f"/matches/{pair.match_id}/" in html
    for game_id in test.pairs_played.filter(state="counted").values_list("match__games", flat=True):
        assert f"/games/{game_id}/" in html
    assert "Stop the test" in html
    assert "Stop the test" not in logged_in(bob).get(f"/sprt/{test.pk}/").content.decode()
    assert '<meta http-equiv="refresh"' in html  # without JavaScript, inside <noscript>


def test_the_json_poll_and_a_decided_page(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, elo1=200)
    while test.is_running:
        test = play_bins(test, [4])
    data = Client().get(f"/sprt/{test.pk}/data.json").json()
    assert data["status"] == "accepted_h1" and data["running"] is False
    assert data["pairs"] == test.pairs and data["pentanomial"] == [0, 0, 0, 0, test.pairs]
    assert data["verdict"].startswith("mybot v2 is stronger than mybot v1 by at least 200 Elo")
    html = Client().get(f"/sprt/{test.pk}/").content.decode()
    assert "mybot v2 is stronger than mybot v1 by at least 200 Elo" in html
    assert 'http-equiv="refresh"' not in html


def test_stop_from_the_page_and_the_list(alice: User, bob: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    assert logged_in(bob).post(f"/sprt/{test.pk}/stop/").status_code == 403
    response = logged_in(alice).post(f"/sprt/{test.pk}/stop/")
    assert response.status_code == 302
    test.refresh_from_db()
    assert test.status == StrengthTest.Status.STOPPED
    listing = text(logged_in(alice).get("/sprt/").content.decode())
    assert f"#{test.pk} mybot v2 mybot v1 stopped without a decision" in listing
    assert "No strength tests yet." in text(logged_in(bob).get("/sprt/").content.decode())


def test_unknown_tests_are_404(db: None) -> None:
    assert Client().get("/sprt/999/").status_code == 404
    assert Client().get("/sprt/999/data.json").status_code == 404
