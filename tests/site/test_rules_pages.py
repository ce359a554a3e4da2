"""The rules pages: one per variant and per preset of the engine's registry, their numbers read from the engine's
options objects, every phase of a hand anchored, examples the engine itself judges, and links to them from the
league, event, history and league-form pages."""

import re
from dataclasses import fields
from html import unescape

import pytest
from django.test import Client

from games import rules_pages
from games.engine.spike.evaluation import HAND_NAMES
from games.engine.variant import get_variant, variant_names
from games.words import phase_title
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ALL_PRESETS = [(variant, preset) for variant in variant_names() for preset in get_variant(variant).presets]


def _get(path: str) -> str:
    response = Client().get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def _numbers(page: str) -> dict[str, list[str]]:
    """Option name -> the texts of its row's value cells."""
    rows = re.findall(r'<tr data-option="(\w+)"><th scope="row">[^<]*</th>(.*?)</tr>', page)
    return {name: [unescape(cell) for cell in re.findall(r"<td>(.*?)</td>", cells)] for name, cells in rows}


def test_the_registry_has_the_presets_the_issue_names():
    assert len(get_variant("coruscant_shift").presets) == 4
    assert {"corellian_spike", "classic"} <= set(variant_names())


def test_the_index_lists_every_variant_and_preset():
    page = _get("/rules/")
    for variant, preset in ALL_PRESETS:
        assert f'href="/rules/{variant}/"' in page and f'href="/rules/{variant}/{preset}/"' in page


@pytest.mark.parametrize(("variant", "preset"), ALL_PRESETS)
def test_each_preset_page_shows_the_engines_numbers(variant, preset):
    page = _get(f"/rules/{variant}/{preset}/")
    options = get_variant(variant).build_options(preset)
    shown = _numbers(page)
    assert set(shown) == {f.name for f in fields(options)}
    for field in fields(options):
        value = getattr(options, field.name)
        (text,) = shown[field.name]
        if isinstance(value, int) and not isinstance(value, bool):
            assert text == f"{value:,}", (field.name, text)
        elif isinstance(value, tuple):
            assert [int(n.lstrip("+").replace(",", "")) for n in text.split(" / ")] == list(value), field.name
        else:
            assert text == rules_pages.option_text(field.name, value) and text, field.name


def test_a_preset_page_reads_its_own_numbers_not_another_presets():
    better = _numbers(_get("/rules/coruscant_shift/better/"))
    halcyon = _numbers(_get("/rules/coruscant_shift/halcyon/"))
    assert better["starting_stack"] == ["450"] and better["big_blind"] == ["10"] and better["small_blind"] == ["5"]
    assert halcyon["starting_stack"] == ["10"] and halcyon["betting"] == ["fixed: pay to stay or fold, no raises"]
    universe = _numbers(_get("/rules/classic/universe/"))
    assert universe["call_round"] == ["5"] and universe["declare_totals"] == ["no"]


@pytest.mark.parametrize("variant", list(variant_names()))
def test_each_variant_page_compares_its_presets_and_anchors_every_phase(variant):
    page = _get(f"/rules/{variant}/")
    presets = list(get_variant(variant).presets)
    shown = _numbers(page)
    for index, preset in enumerate(presets):
        options = get_variant(variant).build_options(preset)
        assert shown["starting_stack"][index] == f"{options.starting_stack:,}"
        assert f'href="/rules/{variant}/{preset}/"' in page
    for phase in (*get_variant(variant).phases, "deal", "complete"):
        assert f'id="phase-{phase}"' in page, phase


def test_every_option_has_a_plain_label_and_choices_have_words():
    from games.engine.options import option_specs

    for spec in option_specs():
        assert spec["name"] in rules_pages.OPTION_LABELS, spec["name"]
        for choice in spec["choices"]:
            assert (spec["name"], choice) in rules_pages.CHOICE_WORDS, (spec["name"], choice)


def test_unknown_variants_and_presets_are_not_found():
    client = Client()
    assert client.get("/rules/poker/").status_code == 404
    assert client.get("/rules/classic/better/").status_code == 404


def test_cards_are_drawn_as_at_the_table():
    page = _get("/rules/coruscant_shift/")
    assert page.count('class="card suit-') >= 62
    assert '<span class="card suit-sylop" title="Sylop" data-code="0">' in page
    classic = _get("/rules/classic/")
    assert 'data-code="+15t"' in classic and 'title="The Idiot"' in classic


def test_the_examples_are_judged_by_the_engine():
    showdown = rules_pages.showdown_example()
    assert showdown["winners"] == ["Ben"]
    pots = rules_pages.side_pot_example()
    assert [(p["amount"], p["eligible"]) for p in pots["pots"]] == [(70, ["Ana", "Ben", "Cyd"]), (60, ["Ben", "Cyd"])]
    assert pots["returned"] == {"name": "Cyd", "amount": 30}
    assert pots["total"] + pots["returned"]["amount"] == sum(row["put_in"] for row in pots["rows"])
    hierarchy = rules_pages.spike_hierarchy()
    assert [row["name"] for row in hierarchy] == list(HAND_NAMES)
    for row in hierarchy:  # each example really is the hand its row describes
        assert row["example_is"] == row["title"] and row["words"], row["name"]
    classic = rules_pages.classic_examples()
    assert classic[0]["title"] == "Idiot's Array" and classic[-1]["bombed"]


def test_the_side_pot_example_is_on_the_page():
    page = _get("/rules/corellian_spike/galaxy_series/")
    assert re.findall(r"data-pot>(\d+)<", page) == ["70", "60"]


def test_league_event_and_game_pages_link_their_rules(client):
    from tests.site.conftest import build_site_world

    site = build_site_world()
    league = site.base.league
    page = Client().get(f"/leagues/{league.slug}/").content.decode()
    variant = site.base.season.variant or league.variant
    preset = site.base.season.preset or league.preset
    assert f'href="/rules/{variant}/{preset}/" data-rules-link' in page
    event = Client().get(f"/events/{site.base.event.pk}/").content.decode()
    assert f'href="/rules/{variant}/{preset}/" data-rules-link' in event
    game = site.replay_game
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert f'href="/rules/{game.variant}/{game.preset}/" data-rules-link>How to play</a>' in page
    assert page.count("Credits per hand") == 1 and 'class="visually-hidden">Credits per hand' in page


def test_the_league_form_points_at_the_rules_pages_not_a_repository_path():
    from tests.factories import UserFactory

    user = UserFactory(is_staff=True)
    client = Client()
    client.force_login(user)
    page = client.get("/manage/leagues/new/").content.decode()
    assert 'href="/rules/"' in page and "docs/rules.md" not in page


def test_the_hand_history_links_the_rules_of_the_step_it_shows():
    from tests.site.conftest import build_site_world

    game = build_site_world().replay_game
    seen = set()
    for step in range(1, 8):
        page = Client().get(f"/games/{game.pk}/?hand=1&step={step}").content.decode()
        (link,) = re.findall(r'<a class="badge" href="([^"]+)"[^>]*data-rules-phase>([^<]+)</a>', page)
        href, shown = link
        assert href.startswith(f"/rules/{game.variant}/#phase-"), href
        seen.add((shown, href.rsplit("#phase-", 1)[1]))
    assert len(seen) >= 2, seen
    for shown, anchor in seen:  # the step's phase, in words, linking to the engine's name for it
        assert shown == phase_title(game.variant, anchor) or (shown, anchor) == ("Hand over", "complete"), (
            shown,
            anchor,
        )


def test_a_rules_link_never_breaks_a_page_on_names_the_engine_does_not_know():
    from django.template import Context, Template

    template = Template("{% load rules_links %}{% rules_url variant phase preset %}")
    render = lambda **names: template.render(Context(names))  # noqa: E731
    assert render(variant="classic", phase="play", preset="universe") == "/rules/classic/universe/#phase-play"
    assert render(variant="classic", phase="nonsense", preset="better") == "/rules/classic/"
    assert render(variant="", phase=None, preset="") == "/rules/"
    assert render(variant="poker", phase="select", preset="better") == "/rules/"


def test_the_bots_are_explained_and_the_play_now_form_links_there():
    index = _get("/rules/")
    bots = re.search(r'<section class="panel" id="bots">(.*?)</section>', index, re.S).group(1)
    text = " ".join(unescape(bots).split())
    for words in ("Sensible bots", "Random bots", "never your cards", "counts in no league", "Bots (not league"):
        assert words in text, words
    client = Client()
    client.force_login(UserFactory())
    for path in ("/", "/tables/"):
        assert '<a href="/rules/#bots">What the bots do</a>' in client.get(path).content.decode(), path
